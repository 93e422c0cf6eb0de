"""The worked examples BU-1 … BU-11 of docs/rules/burraco.md §6, through the engine.

Each test builds the example's position (``examples.py``), makes the moves the
example makes and checks what the example says must happen. The same examples go
through the gRPC API in ``test_worked_examples_grpc.py``.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mazzo.core.cards import card, cards, code
from mazzo.core.errors import IllegalMove, InvalidState
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco.game import RULES
from mazzo.games.burraco.melds import (
    Burraco,
    Interp,
    Kind,
    burraco_kind,
    interpret,
    meld_error,
    signature,
)
from mazzo.games.burraco.moves import DRAW, PICK_UP, Move, parse
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.scoring import half_up, hand_scores
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import view
from tests.burraco import examples as ex

# --------------------------------------------------------------------------- helpers


def run(state: State, moves: Iterable[str]) -> tuple[State, list[ev.Event]]:
    """Apply moves written as text, one after the other; all the events they caused."""
    events: list[ev.Event] = []
    for text in moves:
        state, caused = rules.apply(state, parse(text))
        events.extend(caused)
    return state, events


def legal_texts(state: State) -> list[str]:
    return [str(m) for m in rules.legal_moves(state)]


def refused(state: State, move: str) -> IllegalMove:
    """The move is illegal: ``apply`` raises and ``legal_moves`` does not list it."""
    assert move not in legal_texts(state)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse(move))
    return caught.value


def accepted(state: State, move: str) -> tuple[State, list[ev.Event]]:
    return rules.apply(state, parse(move))


def of_type(events: Iterable[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def value(text: str) -> int:
    """§1.2 card values, written out again from the table of the spec."""
    table = {"JK": 30, "2": 20, "A": 15}
    total = 0
    for c in text.split():
        if c in table:
            total += table[c]
        elif c[0] in table:
            total += table[c[0]]
        else:
            total += 10 if c[0] in "KQJT98" else 5
    return total


# --------------------------------------------------------------------------- BU-1


@pytest.mark.parametrize(("row", "meld", "valid", "kind"), ex.BU1_ROWS)
def test_bu1_meld_validity(row: int, meld: str, valid: bool, kind: str | None) -> None:
    """BU-1: each row's cards are a valid meld of the stated kind, or refused with a reason;
    laid down from a hand, the engine accepts or refuses them alike."""
    why = meld_error(cards(meld))
    assert (why is None) == valid, (row, why)
    state = ex.meld_from_hand(meld)
    if valid:
        sig = signature(cards(meld))
        assert not isinstance(sig, str) and sig[0] is Kind[str(kind).upper()]
        after, events = accepted(state, f"meld {meld}")
        (opened,) = of_type(events, ev.MeldOpened)
        assert opened.kind is Kind[str(kind).upper()] and opened.meld_id == 0
        assert sorted(after.melds[0].cards) == sorted(cards(meld))
    else:
        assert why
        error = refused(state, f"meld {meld}")
        assert error.field == "move.burraco.meld.cards" and error.reason


def test_bu1_reasons_name_the_rule() -> None:
    """BU-1 reasons: two wilds, a set of wilds, a wrap, a repeated rank, too many cards."""
    assert "more than one wild" in str(meld_error(cards("7D JK 2C")))
    assert "wild cards only" in str(meld_error(cards("2S 2H 2D")))
    assert "wrap" in str(meld_error(cards("KH AH 2H 3H")))
    assert "two cards of rank 5" in str(meld_error(cards("5H 5H 6H")))
    assert "more than one wild" in str(meld_error(cards("7S 7S 7H 7H 7D 7D 7C 7C JK 2S")))


def test_bu1_5_natural_two_is_clean_and_7_is_ace_high_with_a_wild() -> None:
    """BU-1 #5: 2H natural (a clean meld); #6 ace high; #7 2H stands for QH; #9 JK = 2H;
    #1 2H stands for 7C."""

    def interp(text: str) -> Interp:
        sig = signature(cards(text))
        assert not isinstance(sig, str)
        result = interpret(sig)
        assert not isinstance(result, str)
        return result

    assert interp("AH 2H 3H").clean is Burraco.PULITO
    assert interp("QH KH AH").ace_high
    assert interp("KH AH 2H").wild_position == 12
    assert interp("AH 3H JK").wild_position == 2
    assert interp("4C 5C 6C 2H 8C").wild_position == 7


def test_bu1_15_second_combination_of_a_rank_is_refused() -> None:
    """BU-1 #15, art. 29: a side with a K combination lays off instead of opening another."""
    state = ex.meld_from_hand("KS KH KD", melds=[(2, "KC KC JK")])
    error = refused(state, "meld KS KH KD")
    assert "already has a combination" in error.reason
    assert "layoff 0 KS" in legal_texts(state)
    # The other side's K combination does not stop it.
    other = ex.meld_from_hand("KS KH KD", melds=[(1, "KC KC JK")])
    accepted(other, "meld KS KH KD")


# --------------------------------------------------------------------------- BU-2


@pytest.mark.parametrize(("meld", "kind", "bonus", "points"), ex.BU2_ROWS)
def test_bu2_burraco_kinds_and_card_values(meld: str, kind: str, bonus: int, points: int) -> None:
    """BU-2: each burraco's kind and bonus, and its cards' value, in side A's hand score."""
    assert value(meld) == points
    state = ex.with_meld(meld)
    side_a = hand_scores(state)[0]
    assert side_a.melded == points
    assert side_a.bonuses == bonus
    assert (side_a.pulito, side_a.semipulito, side_a.sporco) == (
        int(kind == "PULITO"),
        int(kind == "SEMIPULITO"),
        int(kind == "SPORCO"),
    )
    assert view(state, 1).melds[0].burraco is Burraco[kind]


@pytest.mark.parametrize(("meld", "kind", "bonus", "points"), ex.BU2_ROWS)
def test_bu2_without_semipulito_every_wild_burraco_is_sporco(
    meld: str, kind: str, bonus: int, points: int
) -> None:
    """BU-2, option semipulito = false: every "semipulito" row scores 100."""
    state = ex.with_meld(meld, Options(semipulito=False))
    expected = 200 if kind == "PULITO" else 100
    assert hand_scores(state)[0].bonuses == expected
    sig = signature(cards(meld))
    assert not isinstance(sig, str)
    interp = interpret(sig)
    assert not isinstance(interp, str) and burraco_kind(interp) is Burraco[kind]


# --------------------------------------------------------------------------- BU-3


def test_bu3_hand_closed_by_side_a() -> None:
    """BU-3: seat 0 closes by discarding 9D; side A scores 425, side B -90."""
    state = ex.bu3()
    assert "discard 9D" in legal_texts(state)
    after, events = accepted(state, "discard 9D")
    assert of_type(events, ev.Closed) == [ev.Closed(0)]
    (ended,) = of_type(events, ev.HandEnded)
    assert ended.closer == 0
    (scored,) = of_type(events, ev.HandScored)
    a, b = scored.scores
    assert a.seats == (0, 2) and b.seats == (1, 3)
    assert (a.melded, a.bonuses, a.closing, a.in_hand, a.no_pozzetto) == (
        50 + 30 + 60,
        200,
        100,
        15,
        0,
    )
    assert a.score == 425
    assert (b.melded, b.bonuses, b.closing, b.in_hand, b.no_pozzetto) == (40 + 45, 0, 0, 75, 100)
    assert b.score == -90
    assert scored.totals == (425, -90) == after.table.totals
    assert after.table.hand_number == 2 and after.stage is Stage.ACQUIRE
    assert RULES.score(after).sides[0].detail.last_hand == a


# --------------------------------------------------------------------------- BU-4


def test_bu4_end_of_the_stock_without_closing() -> None:
    """BU-4: seat 1 draws the third-last card; after its discard the hand ends: A 440, B -40."""
    state = ex.bu4()
    assert len(state.stock) == 3
    after_draw, events = accepted(state, "draw")
    assert len(after_draw.stock) == 2 and after_draw.last_turn
    assert of_type(events, ev.LastTurn) == [ev.LastTurn(1)]
    _after, events = run(after_draw, ex.BU4_TURN[1:])
    (ended,) = of_type(events, ev.HandEnded)
    assert ended.closer == -1 and not of_type(events, ev.Closed)
    (scored,) = of_type(events, ev.HandScored)
    a, b = scored.scores
    assert (a.melded, a.bonuses, a.in_hand, a.no_pozzetto, a.score) == (300, 200, 60, 0, 440)
    assert (b.melded, b.bonuses, b.in_hand, b.no_pozzetto, b.score) == (150, 0, 90, 100, -40)


def test_bu4_picking_up_instead_keeps_the_stock_and_play_goes_on() -> None:
    """BU-4: had seat 1 picked up the pile, the stock would stay at 3 and play continue."""
    state = ex.bu4()
    after, _ = accepted(state, "pickup")
    assert len(after.stock) == 3 and not after.last_turn
    after, events = accepted(after, "discard 6H")
    assert not of_type(events, ev.HandEnded) and after.to_act == 2


# --------------------------------------------------------------------------- BU-5


def test_bu5a_pozzetto_in_diretta_is_seen_at_once_and_the_turn_goes_on() -> None:
    """BU-5 (a): melding the last cards takes P1 into the hand at once, face up."""
    state = ex.bu5("5S 6S")
    p1 = state.pozzetti[0]
    after, events = run(state, ["draw", "meld 5S 6S 7S"])
    assert of_type(events, ev.PozzettoTaken) == [ev.PozzettoTaken(0, 0, 11, True)]
    assert after.hands[0] == p1 and after.takers[0] == 0
    assert after.stage is Stage.MELD and after.to_act == 0
    seen = view(after, 0)
    assert not seen.hand_hidden and seen.hand == p1
    moves = rules.legal_moves(after)
    assert moves and all(str(m).startswith(("meld", "layoff", "discard")) for m in moves)
    assert any(str(m).startswith("discard") for m in moves)


def test_bu5b_pozzetto_con_lo_scarto_stays_hidden_until_the_partner_discards() -> None:
    """BU-5 (b): emptying the hand by the discard takes P1 face down; seat 0 sees 11
    hidden cards until seat 2 (its partner) has discarded."""
    state = ex.bu5("5S 6S KD")
    p1 = state.pozzetti[0]
    after, events = run(state, ["draw", "meld 5S 6S 7S", "discard KD"])
    assert of_type(events, ev.PozzettoTaken) == [ev.PozzettoTaken(0, 0, 11, False)]
    assert after.hands[0] == p1 and after.to_act == 1
    hidden = view(after, 0)
    assert hidden.hand_hidden and hidden.hand == () and hidden.hand_sizes[0] == 11
    for seat in (1, 2):  # seat 1's turn, then seat 2's up to its discard
        assert after.to_act == seat and view(after, 0).hand_hidden
        after, _ = rules.apply(after, DRAW)
        keep = after.hands[seat][0]
        after, events = accepted(after, f"discard {code(keep)}")
    assert of_type(events, ev.PozzettoUnlocked) == [ev.PozzettoUnlocked(0)]
    seen = view(after, 0)
    assert not seen.hand_hidden and seen.hand == p1


def test_bu5b_without_a_partner_the_pozzetto_unlocks_at_the_next_turn() -> None:
    """§3.4, 2 players: a pozzetto taken con lo scarto is seen when its owner's turn comes."""
    state = ex.bu5("5S 6S KD", players=2)
    after, _ = run(state, ["draw", "meld 5S 6S 7S", "discard KD"])
    assert view(after, 0).hand_hidden
    after, _ = rules.apply(after, DRAW)
    keep = after.hands[1][0]
    after, events = accepted(after, f"discard {code(keep)}")
    assert after.to_act == 0
    assert of_type(events, ev.PozzettoUnlocked) == [ev.PozzettoUnlocked(0)]
    assert not view(after, 0).hand_hidden


# --------------------------------------------------------------------------- BU-6


def test_bu6_melding_every_card_after_the_pozzetto_is_refused() -> None:
    """BU-6 row 1: the hand would be empty with no discard left."""
    error = refused(ex.bu6("9D 9H 9S", burraco=False), "meld 9D 9H 9S")
    assert "a card must be kept" in error.reason


def test_bu6_discarding_with_two_cards_left_is_no_closing() -> None:
    """BU-6 row 2: DISCARD{9D} leaves two cards; the turn passes, nothing closes."""
    after, events = accepted(ex.bu6("9D 9H 9S", burraco=False), "discard 9D")
    assert not of_type(events, ev.Closed) and after.to_act == 1
    assert len(after.hands[0]) == 2


def test_bu6_dead_end_without_a_burraco() -> None:
    """BU-6 row 3: melding 4S 5S 6S would leave 7D, which could not close without a burraco."""
    error = refused(ex.bu6("4S 5S 6S 7D", burraco=False), "meld 4S 5S 6S")
    assert "dead end" in error.reason and "burraco" in error.reason


def test_bu6_closing_without_a_burraco_is_refused_and_the_state_is_invalid() -> None:
    """BU-6 row 4: DISCARD{7D} would close without a burraco; the state leaves seat 0 no
    legal move, so validation rejects it."""
    state = ex.bu6_unreachable()
    assert rules.legal_moves(state) == ()
    error = refused(state, "discard 7D")
    assert "burraco" in error.reason
    with pytest.raises(InvalidState) as caught:
        validate(state)
    assert caught.value.field == "state.burraco.hands[0].cards"


def test_bu6_dead_end_on_a_wild() -> None:
    """BU-6 row 5: melding 5H 6H 7H would leave only JK, and a closing discard may not be wild."""
    error = refused(ex.bu6("JK 5H 6H 7H", burraco=True), "meld 5H 6H 7H")
    assert "wild" in error.reason


def test_bu6_melding_the_whole_hand_is_refused() -> None:
    """BU-6 row 6: MELD{5H 6H 7H JK} leaves no card to discard."""
    refused(ex.bu6("JK 5H 6H 7H", burraco=True), "meld 5H 6H 7H JK")


def test_bu6_meld_with_the_wild_then_close() -> None:
    """BU-6 row 7: MELD{5H 6H JK}, then DISCARD{7H} closes (+100)."""
    state = ex.bu6("JK 5H 6H 7H", burraco=True)
    _after, events = run(state, ["meld 5H 6H JK", "discard 7H"])
    assert of_type(events, ev.Closed) == [ev.Closed(0)]
    (scored,) = of_type(events, ev.HandScored)
    assert scored.scores[0].closing == 100 and scored.scores[1].closing == 0


def test_bu6_a_wild_may_be_discarded_when_it_does_not_close() -> None:
    """BU-6 row 8: DISCARD{JK} with three cards left."""
    after, events = accepted(ex.bu6("JK 5H 6H 7H", burraco=True), "discard JK")
    assert not of_type(events, ev.Closed) and after.pile[-1] == card("JK")


def test_bu6_closing_with_the_last_card() -> None:
    """BU-6 row 9: DISCARD{4S} closes."""
    state = ex.bu6("4S", burraco=True)
    assert legal_texts(state) == ["discard 4S"]
    _, events = accepted(state, "discard 4S")
    assert of_type(events, ev.Closed) == [ev.Closed(0)]


def test_bu6_closing_needs_a_clean_burraco_with_the_option() -> None:
    """§3.5.2, closing_needs_clean: a dirty burraco does not let the side close, so melding
    down to one card is a dead end; a clean one does."""
    dirty = "AD 2S 3D 4D 5D 6D 7D"
    strict = Options(closing_needs_clean=True)

    def state(melds: list[str], options: Options) -> State:
        return position(
            hands=["4S 5S 6S 7C", None, None, None],
            melds=[(2, m) for m in melds],
            pile="KC",
            takers=[2],
            options=options,
        )

    error = refused(state([dirty], strict), "meld 4S 5S 6S")
    assert "clean" in error.reason
    for melds, options in (([dirty], Options()), ([dirty, "AH 2H 3H 4H 5H 6H 7H"], strict)):
        _, events = run(state(melds, options), ["meld 4S 5S 6S", "discard 7C"])
        assert of_type(events, ev.Closed) == [ev.Closed(0)]


# --------------------------------------------------------------------------- BU-7


def test_bu7_a_one_card_pile_may_not_be_discarded_the_same_turn() -> None:
    """BU-7: seat 1 picks up [9D] (holding another 9D); any DISCARD{9D} is refused, other
    codes are not."""
    state = ex.bu7("9D KS 4C 5H")
    after, events = accepted(state, "pickup")
    assert of_type(events, ev.PileTaken) == [ev.PileTaken(1, (card("9D"),))]
    assert after.forbidden == card("9D")
    error = refused(after, "discard 9D")
    assert error.field == "move.burraco.discard.card"
    assert "discard KS" in legal_texts(after)
    after, _ = accepted(after, "discard KS")
    assert after.forbidden == 0


def test_bu7_pick_up_that_would_leave_no_discard_is_refused() -> None:
    """BU-7: holding only 9D, PICK_UP of [9D] would leave no legal discard; DRAW is fine."""
    state = ex.bu7("9D")
    assert rules.legal_moves(state) == (DRAW,)
    error = refused(state, "pickup")
    assert error.field == "move.burraco.pick_up" and "dead end" in error.reason
    accepted(state, "draw")


def test_bu7_without_the_option_the_card_may_go_back() -> None:
    """§5 single_card_pile_rule = false: no forbidden discard, and the pick-up is legal."""
    options = Options(single_card_pile_rule=False)
    state = ex.bu7("9D", options)
    assert rules.legal_moves(state) == (DRAW, PICK_UP)
    after, _ = accepted(state, "pickup")
    assert after.forbidden == 0 and "discard 9D" in legal_texts(after)


# --------------------------------------------------------------------------- BU-8


def test_bu8_replacing_a_wild() -> None:
    """BU-8: 7C replaces the JK of 6C JK 8C (which then stands free); TC alone is refused;
    7C and TC together make 6C 7C 8C JK TC with JK = 9C."""
    state = ex.bu8()
    assert {"layoff 0 7C"} <= set(legal_texts(state))
    after, _ = accepted(state, "layoff 0 7C")
    meld = view(after, 1).melds[0]
    assert meld.cards == tuple(sorted(cards("6C 7C 8C JK")))
    assert meld.wild == card("JK") and meld.wild_position == 9  # free: the high end
    error = refused(state, "layoff 0 TC")
    assert error.field == "move.burraco.lay_off.cards"
    after, _ = accepted(state, "layoff 0 7C TC")
    meld = view(after, 1).melds[0]
    assert meld.cards == tuple(sorted(cards("6C 7C 8C JK TC")))
    assert meld.wild_position == 9 and (meld.low, meld.high) == (6, 10)


# --------------------------------------------------------------------------- BU-9


@pytest.mark.parametrize(
    ("players", "three_pozzetti", "counts"),
    [
        (4, False, (44, 22, 1, 41)),
        (2, False, (22, 22, 1, 63)),
        (3, False, (33, 29, 1, 45)),
        (3, True, (33, 33, 1, 41)),
    ],
)
def test_bu9_initial_counts(players: int, three_pozzetti: bool, counts: tuple[int, ...]) -> None:
    """BU-9: cards in hands, pozzetti, up-card and stock after the deal."""
    from mazzo.games.burraco.rules import deal_hand

    state, _ = rules.deal(Options(), players, 9)
    if three_pozzetti:
        state, _ = deal_hand(state.table._replace(three_pozzetti=True, hand_number=2))
    hands = sum(len(h) for h in state.hands)
    pozzetti = sum(len(p) for p in state.pozzetti)
    assert (hands, pozzetti, len(state.pile), len(state.stock)) == counts
    assert all(len(h) == 11 for h in state.hands)
    sizes = [len(p) for p in state.pozzetti]
    assert sizes == ([11, 11, 11] if three_pozzetti else [18, 11] if players == 3 else [11, 11])
    validate(state)


# --------------------------------------------------------------------------- BU-10


def test_bu10_three_player_split_rounds_up() -> None:
    """BU-10: each member of a pair is credited half the pair's score, rounded up."""
    assert half_up(245) == 123
    assert half_up(-45) == -22


def test_bu10_through_a_three_player_hand() -> None:
    """BU-10 in play: seat 0 took P1 (alone), seats 1 and 2 are a pair; the stock runs out
    on seat 1's turn and the pair's hand score is split in two, rounded up."""
    pair_melds = ["AS AD AC AH", "KS KD KC KH", "QS QD QC QH", "JS JD JC JH", "TS TD TC TH"]
    state = position(
        hands=["5C 6C", "4H 9S", "3D 8S"],
        melds=[(1, m) for m in pair_melds] + [(0, "7S 7D 7C")],
        stage=Stage.ACQUIRE,
        to_act=1,
        stock="6D 6H 6S",
        takers=[0],
    )
    assert state.solo == 0
    _after, events = run(state, ["draw", "discard 6D"])
    (scored,) = of_type(events, ev.HandScored)
    pair = next(s for s in scored.scores if s.seats == (1, 2))
    solo = next(s for s in scored.scores if s.seats == (0,))
    # 60 + 40 * 4 melded, 4H 9S 3D 8S = 30 in hand, no pozzetto for the pair.
    assert pair.score == 220 - 30 - 100 == 90
    assert solo.score == 15 - 10
    assert scored.credits == (solo.score, half_up(pair.score), half_up(pair.score)) == (5, 45, 45)


# --------------------------------------------------------------------------- BU-11


def test_bu11_no_endless_pick_ups() -> None:
    """BU-11: after 12 turns in a row began with PICK_UP, only DRAW is legal; after a DRAW
    the next player may pick up again."""
    state = ex.bu11(12)
    assert rules.legal_moves(state) == (DRAW,)
    error = refused(state, "pickup")
    assert "12" in error.reason
    after, _ = rules.apply(state, DRAW)
    assert after.pickups == 0
    after, _ = accepted(after, f"discard {code(after.hands[1][0])}")
    assert rules.legal_moves(after) == (DRAW, PICK_UP)
    assert rules.legal_moves(ex.bu11(11)) == (DRAW, PICK_UP)


def test_move_text_round_trips() -> None:
    for text in (
        "draw",
        "pickup",
        "meld 5S 6S 7S",
        "meld 5S 6S 7S sequence",
        "layoff 2 7C TC",
        "discard 9D",
    ):
        move: Move = parse(text)
        assert str(move) == text
