"""Three players with 39 cards (maraffa-forms.md B): the worked examples TT-1 .. TT-6 of
B.5 and the inputs B.6 rejects, through the engine. The same examples go through the
gRPC API in ``test_deck39_grpc.py``; random play is in ``test_forms_properties.py``.

Every hand below is built trick by trick: three cards of one suit, the strongest taken
by the seat named as the trick's winner (``same_suit_tricks``), so that what each seat
captures is exactly what the example says; the last trick is the three Fours left over.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mazzo.core.cards import card, code
from mazzo.core.errors import IllegalMove, InvalidArgument, InvalidState
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, THIRDS, cards_of, deck_of, mask_of
from mazzo.games.maraffa.moves import CLAIM, PlayCard, Signal, parse
from mazzo.games.maraffa.options import Options, Series, SignalSet, ThreePlayerForm
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.scoring import hand_scores
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import view
from tests.maraffa.forms_helpers import codes_of, same_suit_tricks

DECK39 = Options(three_player_form=ThreePlayerForm.DECK39)
HAND_THIRDS = 35


def deck39(**changes: object) -> Options:
    return Options(three_player_form=ThreePlayerForm.DECK39, **changes)  # type: ignore[arg-type]


def run(state: State, moves: Iterable[str]) -> tuple[State, list[ev.Event]]:
    events: list[ev.Event] = []
    for text in moves:
        state, caused = rules.apply(state, parse(text))
        events.extend(caused)
    return state, events


def of_type(events: Iterable[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def hand_of(state: State, seat: int) -> set[str]:
    return codes_of(cards_of(state.hands[seat]))


# ------------------------------------------------------------------------------ hands to order

#: (cards, winner) per trick, trump S, seat 0 leads trick 1. Top = 3-2-A (an ace and two
#: thirds: 5 thirds), court = K-Q-J (3 thirds), low = 7-6-5 (nothing); the last trick
#: is the three Fours left, led and won by seat 0 (3 thirds for the last trick).
TOP = {s: f"3{s} 2{s} A{s}" for s in "SHDC"}
COURT = {s: f"K{s} Q{s} J{s}" for s in "SHDC"}
LOW = {s: f"7{s} 6{s} 5{s}" for s in "SHDC"}
LAST = ("4H 4D 4C", 0)


def tt4_tricks() -> list[tuple[str, int]]:
    """TT-4: seat 0 takes two tops, a court and the last trick (2 aces + 7 thirds-cards
    + last = 16 thirds); seat 1 a top and two courts (1 ace + 8 = 11); seat 2 a top and
    a court (1 ace + 5 = 8). Trick 12 goes to seat 0, who leads the last one."""
    return [
        (TOP["S"], 0),
        (TOP["H"], 0),
        (TOP["D"], 1),
        (TOP["C"], 2),
        (COURT["S"], 0),
        (COURT["H"], 1),
        (COURT["D"], 1),
        (COURT["C"], 2),
        (LOW["S"], 2),
        (LOW["H"], 1),
        (LOW["D"], 0),
        (LOW["C"], 0),
        LAST,
    ]


def tt5_tricks(first: str, second: str, third: str) -> list[tuple[str, int]]:
    """Tops, courts and the last trick dealt out per seat: each argument lists, for
    seats 0, 1, 2, how many tops (t) and courts (c) it takes, e.g. "ttc"."""
    wins = {0: first, 1: second, 2: third}
    tops = [s for s in "SHDC"]
    courts = [s for s in "SHDC"]
    tricks: list[tuple[str, int]] = []
    for seat, kinds in wins.items():
        for kind in kinds:
            if kind == "t":
                tricks.append((TOP[tops.pop(0)], seat))
            else:
                tricks.append((COURT[courts.pop(0)], seat))
    assert not tops and not courts
    tricks += [(LOW[s], 0) for s in "SHDC"]
    return [*tricks, LAST]


def before_last_play(
    tricks: list[tuple[str, int]], options: Options = DECK39, **kw: object
) -> State:
    """The position before the last card of the hand: every trick but the last card
    played, in the trick order given, from seat 0 (battezzante, trump S)."""
    orders = same_suit_tricks(tricks, first_leader=0, seats=3)
    played = " ".join(orders).split()
    return position(
        hands=["", "", played[-1]],
        played=" ".join(played[:-1]),
        trump="S",
        battezzante=0,
        players=3,
        options=options,
        **kw,  # type: ignore[arg-type]
    )


def last_play(state: State) -> tuple[State, list[ev.Event]]:
    (move,) = [m for m in rules.legal_moves(state) if m is not CLAIM]
    return rules.apply(state, move)


# ----------------------------------------------------------------------------------- TT-1


@pytest.mark.parametrize("four", ["4S", "4H", "4C"])
def test_tt1_the_deck_has_39_cards_without_the_removed_four(four: str) -> None:
    """TT-1: "removed_four = 4S: 39 codes, no 4S; card thirds 32, +3 last trick = 35"
    (B.1); 4H and 4C may be removed instead."""
    state, _ = rules.deal(deck39(removed_four=card(four)), 3, seed=1)
    dealt = [c for h in state.hands for c in cards_of(h)]
    assert len(dealt) == len(set(dealt)) == 39
    assert set(dealt) == set(DECK) - {card(four)}
    assert [len(cards_of(h)) for h in state.hands] == [13, 13, 13]
    assert sum(THIRDS[c] for c in dealt) == 32
    assert sum(THIRDS[c] for c in dealt) + 3 == HAND_THIRDS
    assert state.table.seats == 3 and not state.stock


@pytest.mark.parametrize(
    ("four", "because"),
    [("4D", "4D cannot be removed"), ("5S", "4S, 4H or 4C"), ("AS", "4S, 4H or 4C")],
)
def test_tt1_removing_4d_or_a_card_that_is_not_a_four_is_rejected(four: str, because: str) -> None:
    """TT-1: "removed_four = 4D -> option rejected" (B.1.1: 4D picks the first battezzante)."""
    with pytest.raises(InvalidArgument) as caught:
        rules.deal(deck39(removed_four=card(four)), 3, seed=1)
    assert caught.value.field == "options.maraffa.removed_four"
    assert because in caught.value.reason


# ----------------------------------------------------------------------------------- TT-2


def seed_with_4d_at(index: int) -> int:
    """A seed whose first deal puts 4D at ``d[index]`` of the 39-card deck."""
    deck = deck_of(3, card("4S"))
    return next(s for s in range(10_000) if shuffled(deck, s, 1)[index] == card("4D"))


def test_tt2_deal_one_card_at_a_time_from_the_dealers_right() -> None:
    """TT-2 / B.2.1: dealer 0; ``d[i] -> next^(i mod 3 + 1)(dealer)``: seat 1 gets
    d[0], d[3], ..., seat 2 d[1], d[4], ..., seat 0 d[2], d[5], ...; 13 each."""
    seed = 17
    state, events = rules.deal(deck39(first_dealer=0), 3, seed)
    d = shuffled(deck_of(3, card("4S")), seed, 1)
    assert set(cards_of(state.hands[1])) == set(d[0::3])
    assert set(cards_of(state.hands[2])) == set(d[1::3])
    assert set(cards_of(state.hands[0])) == set(d[2::3])
    assert of_type(events, ev.HandDealt)[0].dealer == 0


def test_tt2_the_holder_of_4d_is_battezzante_then_the_role_rotates() -> None:
    """TT-2: "If 4D is d[7] it goes to seat 2 (7 mod 3 = 1 -> next^2(0) = 2): seat 2 is
    battezzante and leads. Deal 2: dealer 2, battezzante 0. Deal 3: dealer 0,
    battezzante 1." (B.2.2)"""
    seed = seed_with_4d_at(7)
    state, events = rules.deal(deck39(first_dealer=0, target=41), 3, seed)
    assert "4D" in hand_of(state, 2)
    assert of_type(events, ev.HandDealt) == [ev.HandDealt(1, 1, 0, 2)]
    assert state.phase is Phase.TRUMP and state.to_act == 2
    state, _ = run(state, ["trump H"])
    assert state.to_act == 2, "the battezzante leads trick 1"
    dealt: list[ev.HandDealt] = []
    while len(dealt) < 2:
        moves = [m for m in rules.legal_moves(state) if m is not CLAIM]
        state, events = rules.apply(state, moves[0])
        dealt += of_type(events, ev.HandDealt)
    assert [(d.hand_number, d.dealer, d.battezzante) for d in dealt] == [(2, 2, 0), (3, 0, 1)]


# ----------------------------------------------------------------------------------- TT-3


def test_tt3_a_three_card_trick_the_only_trump_wins() -> None:
    """TT-3: trump S; seat 1 leads 2C; seat 2 (no clubs) plays 5S; seat 0 plays 3C.
    "Winner seat 2 (5S, the only trump); 2 thirds to seat 2." """
    seat2 = "5S AH 2H 3H 4H 5H 6H 7H JH QH KH AD 2D"  # no club
    state = position(hands=["3C", "2C", seat2], trump="S", battezzante=1, players=3, options=DECK39)
    assert state.to_act == 1
    state, _ = run(state, ["play 2C"])
    assert {code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard)} == set(
        seat2.split()
    )
    state, _ = run(state, ["play 5S"])
    clubs = {c for c in hand_of(state, 0) if c.endswith("C")}
    assert {code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard)} == clubs
    state, events = run(state, ["play 3C"])
    assert of_type(events, ev.TrickWon) == [ev.TrickWon(trick=1, seat=2, thirds=2)]
    assert state.to_act == 2
    assert [s.thirds for s in hand_scores(state)] == [0, 0, 2]


# ----------------------------------------------------------------------------------- TT-4


def test_tt4_hand_scores_per_player() -> None:
    """TT-4: "Seat 0: 2 aces + 7 thirds-cards + last trick = 16 thirds -> 5; seat 1:
    1 ace + 8 = 11 -> 3; seat 2: 1 ace + 5 = 8 -> 2. Checks: aces 4, thirds-cards 20,
    thirds 35, points 10." (B.3.1)"""
    state = before_last_play(tt4_tricks())
    _, events = last_play(state)
    (scored,) = of_type(events, ev.HandScored)
    got = [(s.aces, s.third_cards, s.last_trick, s.thirds, s.card_points) for s in scored.scores]
    assert got == [(2, 7, 1, 16, 5), (1, 8, 0, 11, 3), (1, 5, 0, 8, 2)]
    assert sum(s.aces for s in scored.scores) == 4
    assert sum(s.third_cards for s in scored.scores) == 20
    assert sum(s.thirds for s in scored.scores) == HAND_THIRDS
    assert sum(s.card_points for s in scored.scores) == 10
    assert scored.totals == (5, 3, 2)


def test_tt4_another_hand_12_12_11_thirds_scores_4_4_3() -> None:
    """TT-4: "Another hand 12 / 12 / 11 thirds -> 4 / 4 / 3 = 11" (the three remainders
    sum to 5, so the floors lose only 2 thirds... of 35: 11 points)."""
    tricks = [
        (TOP["S"], 1),  # 5 to seat 1
        (TOP["H"], 2),  # 5 to seat 2
        (TOP["D"], 1),  # 5 to seat 1
        (COURT["S"], 0),  # 3 to seat 0
        (COURT["H"], 0),  # 3 to seat 0
        (COURT["D"], 0),  # 3 to seat 0
        ("3C KC 7C", 1),  # 2 to seat 1
        ("AC QC JC", 2),  # 5 to seat 2
        ("2C 6C 5C", 2),  # 1 to seat 2
        (LOW["S"], 1),
        (LOW["H"], 2),
        (LOW["D"], 0),
        LAST,  # 3 for the last trick to seat 0
    ]
    _, events = last_play(before_last_play(tricks))
    (scored,) = of_type(events, ev.HandScored)
    assert [s.thirds for s in scored.scores] == [12, 12, 11]
    assert [s.card_points for s in scored.scores] == [4, 4, 3]
    assert sum(s.card_points for s in scored.scores) == 11


# ----------------------------------------------------------------------------------- TT-5


def test_tt5_the_highest_total_over_the_target_wins() -> None:
    """TT-5: target 41; before the hand 36 / 40 / 38; hand 5 / 3 / 3 -> 41 / 43 / 41 ->
    "seat 1 wins (highest)" (B.3.3)."""
    # 5 / 3 / 3: seat 0 two tops, a court and the last (16), seat 1 three courts (9),
    # seat 2 two tops (10).
    state = before_last_play(tt5_tricks("ttc", "ccc", "tt"), totals=(36, 40, 38))
    _, events = last_play(state)
    (scored,) = of_type(events, ev.HandScored)
    assert [s.hand_score for s in scored.scores] == [5, 3, 3]
    assert scored.totals == (41, 43, 41)
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, 1, (41, 43, 41))]
    assert of_type(events, ev.MatchWon) == [ev.MatchWon(1, (0, 1, 0))]


def test_tt5_a_tie_at_the_top_raises_the_target() -> None:
    """TT-5: "38 + 4, 37 + 5, 30 + 2 -> 42 / 42 / 32 -> tie at the top -> no winner,
    effective_target = 43" (B.3.3)."""
    # 4 / 5 / 2: seat 0 two tops and the last trick (13), seat 1 two tops and two
    # courts (16), seat 2 two courts (6).
    state = before_last_play(tt5_tricks("tt", "ttcc", "cc"), totals=(38, 37, 30))
    _, events = last_play(state)
    (scored,) = of_type(events, ev.HandScored)
    assert [s.hand_score for s in scored.scores] == [4, 5, 2]
    assert scored.totals == (42, 42, 32)
    assert of_type(events, ev.GameWon) == []
    assert of_type(events, ev.TargetRaised) == [ev.TargetRaised(43)]
    assert len(of_type(events, ev.HandDealt)) == 1, "play goes on with a new hand"


# ----------------------------------------------------------------------------------- TT-6


def test_tt6_the_removed_four_cannot_be_played() -> None:
    """TT-6: "PLAY_CARD{4S} -> not held (not in the deck)"."""
    state, _ = rules.deal(DECK39, 3, seed=2)
    state, _ = run(state, ["trump H"])
    assert parse("play 4S") not in rules.legal_moves(state)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse("play 4S"))
    assert caught.value.field == "move.maraffa.play_card.card"
    assert "not in hand" in caught.value.reason


def test_tt6_a_state_holding_the_removed_four_or_40_cards_is_invalid() -> None:
    """TT-6: "a hand-built state containing 4S, or 40 cards -> invalid state" (B.6)."""
    state, _ = rules.deal(DECK39, 3, seed=2)
    hands = [list(cards_of(h)) for h in state.hands]
    swapped = [list(h) for h in hands]
    swapped[0][0] = card("4S")  # 4S instead of one of seat 0's cards
    with pytest.raises(InvalidState) as caught:
        validate(state._replace(hands=tuple(mask_of(h) for h in swapped)))
    assert caught.value.field == "state.maraffa.hands[0].cards"
    assert "4S" in caught.value.reason
    forty = [list(h) for h in hands]
    forty[1].append(card("4S"))  # the 40th card
    with pytest.raises(InvalidState) as caught:
        validate(state._replace(hands=tuple(mask_of(h) for h in forty)))
    assert caught.value.field == "state.maraffa.hands[1].cards"


def test_tt6_declaring_trump_out_of_turn_in_deal_1_is_invalid() -> None:
    """TT-6: "DECLARE_TRUMP by seat 1 when 4D is in seat 2 in deal 1 -> wrong seat".
    A move carries no seat: seat 1 declaring is a state whose ``to_act`` is seat 1,
    refused before any move is looked at."""
    seed = seed_with_4d_at(7)
    state, _ = rules.deal(deck39(first_dealer=0), 3, seed)
    assert state.table.battezzante == 2
    with pytest.raises(InvalidState) as caught:
        validate(state._replace(to_act=1))
    assert caught.value.field == "state.to_act"
    with pytest.raises(InvalidState) as caught:
        validate(state._replace(table=state.table._replace(battezzante=1), to_act=1))
    assert caught.value.field == "state.maraffa.table.battezzante"
    assert "4D" in caught.value.reason


# ------------------------------------------------------------------------- B.6 option rejects


@pytest.mark.parametrize(
    ("players", "options", "field", "because"),
    [
        pytest.param(4, DECK39, "three_player_form", "for 3 players", id="deck39-with-4"),
        pytest.param(2, DECK39, "three_player_form", "for 3 players", id="deck39-with-2"),
        pytest.param(3, deck39(dummy_seat=1), "dummy_seat", "no dummy", id="dummy-seat"),
        pytest.param(3, deck39(signals=SignalSet.EXTENDED), "signals", "none or core", id="ext"),
        pytest.param(
            3, Options(removed_four=card("4H")), "removed_four", "deck39", id="four-with-dummy"
        ),
        pytest.param(4, Options(removed_four=card("4C")), "removed_four", "deck39", id="four-4p"),
        pytest.param(3, deck39(first_dealer=3), "first_dealer", "0..2", id="dealer-3"),
    ],
)
def test_b6_options_that_do_not_fit_the_39_card_form_are_rejected(
    players: int, options: Options, field: str, because: str
) -> None:
    """B.6: removed_four not 4S/4H/4C; deck39 with players != 3; dummy_seat with deck39
    (and: a removed Four only with deck39; signals none or core only, B.4)."""
    with pytest.raises(InvalidArgument) as caught:
        rules.deal(options, players, seed=1)
    assert caught.value.field == f"options.maraffa.{field}"
    assert because in caught.value.reason


def test_b4_signals_default_to_none_and_core_has_no_busso() -> None:
    """B.2.4 / B.4: with 39 cards signals are none by default (only plain plays are
    listed); with ``signals = core`` a leader may signal STRISCIO or VOLO but never
    BUSSO, and a player who cuts may signal TAGLIO."""
    assert DECK39.signals is SignalSet.NONE
    assert Options().signals is SignalSet.CORE, "the other forms keep core"

    def signals_listed(state: State) -> set[Signal]:
        return {m.signal for m in rules.legal_moves(state) if isinstance(m, PlayCard)}

    plain = position(hands=["KS", "", ""], trump="D", players=3, options=DECK39)
    assert signals_listed(plain) == {Signal.NONE}
    core_options = deck39(signals=SignalSet.CORE)
    core = position(hands=["KS", "", ""], trump="D", players=3, options=core_options)
    assert signals_listed(core) == {Signal.NONE, Signal.STRISCIO, Signal.VOLO}
    with pytest.raises(IllegalMove) as caught:
        rules.apply(core, parse("play KS busso"))
    assert caught.value.field == "move.maraffa.play_card.signal"
    # Seat 1 has no spade and holds diamonds (trumps): it may announce its cut.
    void = "AD 2D 3D 4D 5D AH 2H 3H 4H 5H 6H 7H JH"
    cut = position(hands=["", void, ""], played="KS", trump="D", players=3, options=core_options)
    assert signals_listed(cut) == {Signal.NONE, Signal.TAGLIO}


def test_b2_a_false_claim_gives_the_game_to_the_best_placed_opponent() -> None:
    """B.2.3 ("CLAIM for the claimant alone") with the engine's choice for who wins a
    game lost by a false claim (docs/maraffa.md): the opponent whose own claim would be
    worth more. Seat 0 claims with 10 + nothing; seat 2 has 30, seat 1 has 20."""
    state = position(
        hands=["", "", ""], trump="H", battezzante=0, players=3, options=DECK39, totals=(10, 20, 30)
    )
    _, events = rules.apply(state, CLAIM)
    (claimed,) = of_type(events, ev.Claimed)
    assert not claimed.result.valid and claimed.result.team == 0
    assert of_type(events, ev.GameWon)[0].team == 2
    # The same claim with seats 1 and 2 level: the first after the claimant (seat 1).
    level = position(
        hands=["", "", ""], trump="H", battezzante=0, players=3, options=DECK39, totals=(10, 30, 30)
    )
    _, events = rules.apply(level, CLAIM)
    assert of_type(events, ev.GameWon)[0].team == 1


def test_b6_views_show_own_hand_and_the_removed_card_never_the_others() -> None:
    """B.6: a view holds the viewer's hand, card counts and the public table (the
    removed card is an option, hence public), never the other two hands."""
    state, _ = rules.deal(DECK39, 3, seed=4)
    for seat in range(3):
        v = view(state, seat)
        assert set(v.hand) == set(cards_of(state.hands[seat]))
        assert v.hand_sizes == (13, 13, 13)
        assert v.dummy_seat is None and v.dummy_hand == ()
        assert v.table.options.removed_four == card("4S")
        assert v.table.seed == 0


def test_a_series_of_three_players_tied_one_game_each_plays_a_fourth() -> None:
    """series = best_of_three with three players (docs/maraffa.md): a match ends when a
    player has won two games, so after 1-1-1 a fourth game is dealt, at bella_target."""
    options = deck39(series=Series.BEST_OF_THREE, target=11, bella_target=31)
    state = before_last_play(tt4_tricks(), options=options, totals=(0, 0, 30), effective_target=31)
    table = state.table._replace(game_number=3, games_won=(1, 1, 0))
    state = state._replace(table=table)
    validate(state)
    after, events = last_play(state)
    assert of_type(events, ev.GameWon) == [ev.GameWon(3, 2, (5, 3, 32))]
    assert not of_type(events, ev.MatchWon)
    assert of_type(events, ev.HandDealt)[0].game_number == 4
    assert after.table.games_won == (1, 1, 1) and after.table.effective_target == 31
    assert not after.finished
