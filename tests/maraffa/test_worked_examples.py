"""The worked examples MF-1 .. MF-12 of docs/rules/maraffa.md §6, through the engine.

Each test builds the example's position with ``position(...)`` (or deals it), makes
the moves the example makes, and checks what the example says must happen. The
same examples go through the gRPC API in ``test_worked_examples_grpc.py``.

Seat names for the seed-002 examples: Anna = 0, Ben = 1, Carla = 2, Dan = 3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from mazzo.core.cards import card, code
from mazzo.core.errors import IllegalMove
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import CLAIM, Move, PlayCard, parse
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    SignalSet,
)
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.scoring import hand_scores
from mazzo.games.maraffa.state import ClaimResult, HandScore, Phase, State
from mazzo.games.maraffa.view import view

ANNA, BEN, CARLA, DAN = 0, 1, 2, 3
TRUMP_MOVES = [parse(f"trump {s}") for s in "SHDC"]


# --------------------------------------------------------------------------- helpers


def run(state: State, moves: Iterable[str]) -> tuple[State, list[ev.Event]]:
    """Apply moves written as text, one after the other; all the events they caused."""
    events: list[ev.Event] = []
    for text in moves:
        state, caused = rules.apply(state, parse(text))
        events.extend(caused)
    return state, events


def plays(tricks: Sequence[str]) -> list[str]:
    """The moves that play these tricks (each a string of cards in play order)."""
    return [f"play {c}" for trick in tricks for c in trick.split()]


def legal_cards(state: State) -> set[str]:
    """The cards among the legal moves, whatever signal or declaration goes with them."""
    return {code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard)}


def legal_texts(state: State) -> set[str]:
    return {str(m) for m in rules.legal_moves(state)}


def hand(state: State, seat: int) -> set[str]:
    return {code(c) for c in cards_of(state.hands[seat])}


def of_type(events: Iterable[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def refused(state: State, move: str) -> IllegalMove:
    """The move is illegal: ``apply`` raises and ``legal_moves`` does not list it."""
    assert parse(move) not in rules.legal_moves(state)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse(move))
    return caught.value


# --------------------------------------------------------------------------- MF-1, MF-4, MF-5


def test_mf1_seed_trick_the_only_trump_wins() -> None:
    """MF-1: trump H, Anna leads KS, Ben (no spade) cuts with 4H, Carla must follow
    with 3S, Dan follows with 7S. "Winner seat 1 (4H, the only trump); trick thirds
    = 2 to team {1, 3}; seat 1 leads next." """
    ben = "4H 5H 6H AD 2D 3D 4D AC 2C 3C"  # no spade
    state = position(hands=["KS", ben, "3S", "7S"], trump="H", battezzante=ANNA)
    assert state.to_act == ANNA

    state, _ = run(state, ["play KS"])
    # Ben holds no spade, so any card; he may announce the cut.
    assert legal_cards(state) == set(ben.split())
    assert "play 4H taglio" in legal_texts(state)
    state, _ = run(state, ["play 4H"])
    # Carla holds spades: she must follow.
    assert legal_cards(state) == {"3S"}
    assert refused(state, "play 3H").field == "move.maraffa.play_card.card"
    state, _ = run(state, ["play 3S"])
    state, events = run(state, ["play 7S"])

    assert of_type(events, ev.TrickWon) == [ev.TrickWon(trick=1, seat=BEN, thirds=2)]
    assert state.to_act == BEN
    running = hand_scores(state)
    assert (running[0].thirds, running[1].thirds) == (0, 2)


def test_mf4_no_trump_in_the_trick_highest_of_led_suit_wins() -> None:
    """MF-4: trump D; 2S, AS, 3S, then KC from the void seat 1. "Winner seat 0 (3S is
    the strongest spade; KC is neither trump nor led suit). Thirds 6 to team {0,2}." """
    seat1 = "AH 2H 3H 4H 5H 6H 7H JH QH KC"  # no spade
    state = position(hands=["3S", seat1, "2S", "AS"], trump="D", battezzante=CARLA)
    assert state.to_act == CARLA

    state, _ = run(state, ["play 2S", "play AS", "play 3S"])
    assert legal_cards(state) == set(seat1.split())
    state, events = run(state, ["play KC"])

    assert of_type(events, ev.TrickWon) == [ev.TrickWon(trick=1, seat=ANNA, thirds=6)]
    assert state.to_act == ANNA
    assert hand_scores(state)[0].thirds == 6


def test_mf5_over_trumping_the_higher_trump_wins() -> None:
    """MF-5: trump C; seat 1 leads AS, seat 2 (void) 4C, seat 3 (void) 2C, seat 0 5S.
    "Winner seat 3 (2C beats 4C). Thirds 4 to team {1,3}." """
    seat2 = "4C AH 2H 3H 4H 5H 6H 7H JH QH"  # no spade
    seat3 = "2C KH AD 2D 3D 4D 5D 6D 7D JD"  # no spade
    state = position(hands=["5S", "AS", seat2, seat3], trump="C", battezzante=BEN)

    state, _ = run(state, ["play AS"])
    assert legal_cards(state) == set(seat2.split())
    state, _ = run(state, ["play 4C"])
    assert legal_cards(state) == set(seat3.split())
    state, _ = run(state, ["play 2C"])
    assert legal_cards(state) == {c for c in hand(state, ANNA) if c.endswith("S")}
    state, events = run(state, ["play 5S"])

    assert of_type(events, ev.TrickWon) == [ev.TrickWon(trick=1, seat=DAN, thirds=4)]
    assert state.to_act == DAN
    assert hand_scores(state)[1].thirds == 4


# --------------------------------------------------------------------------- MF-2, MF-3

# Trump H, Anna is battezzante. Anna and Carla take 3 aces, 13 third-cards and the
# last trick; Ben and Dan take 1 ace and 7 third-cards (MF-2).
MF2_HANDS = [
    "3H 2H AH 4H 7S 6S 3D 7D AC 6C",
    "KH QH 3S AS 4S 5S AD 6D 3C 5C",
    "JH 6H KS JS JD 2D 5D 4D 7C KC",
    "7H 5H 2S QS KD QD 2C QC JC 4C",
]
MF2_TRICKS = [
    "3H KH JH 7H",  # led by 0, won by 0 (Anna declares the marafona on 3H)
    "2H QH 6H 5H",  # 0 -> 0
    "3D AD JD KD",  # 0 -> 0
    "7D 6D 2D QD",  # 0 -> 2
    "KC QC AC 5C",  # 2 -> 0
    "6C 3C 7C 2C",  # 0 -> 1
    "3S KS 2S 7S",  # 1 -> 1
    "AS JS QS 6S",  # 1 -> 1
    "4S 5D JC 4H",  # 1 -> 0 (the only trump)
    "AH 5S 4D 4C",  # 0 -> 0, the last trick
]
# The same deal with 2D and 6D swapped between Ben and Carla: Ben wins trick 4, so
# the team of Anna takes 3 aces, 11 third-cards and the last trick (MF-3).
MF3_HANDS = [
    MF2_HANDS[0],
    "KH QH 3S AS 4S 5S AD 2D 3C 5C",
    "JH 6H KS JS JD 6D 5D 4D 7C KC",
    MF2_HANDS[3],
]
MF3_TRICKS = [*MF2_TRICKS[:3], "7D 2D 6D QD", "5C KC QC AC", *MF2_TRICKS[5:]]


def test_mf2_seed_hand_score_drops_the_third_and_adds_the_marafona() -> None:
    """MF-2: {0,2} take 25 thirds (8 1/3 -> 8) and Anna's marafona (+3): 11;
    {1,3} take 10 thirds (3 1/3 -> 3): 3."""
    state = position(hands=MF2_HANDS, trump="H", battezzante=ANNA)
    moves = plays(MF2_TRICKS)
    moves[0] = "play 3H marafona"
    state, events = run(state, moves)

    expected = (
        HandScore(
            aces=3,
            third_cards=13,
            last_trick=1,
            thirds=25,
            card_points=8,
            marafona_bonus=3,
            hand_score=11,
        ),
        HandScore(
            aces=1,
            third_cards=7,
            last_trick=0,
            thirds=10,
            card_points=3,
            marafona_bonus=0,
            hand_score=3,
        ),
    )
    assert of_type(events, ev.HandScored) == [ev.HandScored(expected, (11, 3))]
    assert expected[0].card_points + expected[1].card_points == 11
    report = RULES.score(state)
    assert [s.detail.last_hand for s in report.sides] == list(expected)
    assert [s.match_total for s in report.sides] == [11, 3]
    assert not report.finished


def test_mf3_rounding_drops_two_thirds() -> None:
    """MF-3: team A takes 3 aces, 11 third-cards and the last trick: 23 thirds -> 7
    (7 2/3 rounded down); team B 1 ace and 9 third-cards: 12 thirds -> 4. Sum 11."""
    state = position(hands=MF3_HANDS, trump="H", battezzante=ANNA)
    state, events = run(state, plays(MF3_TRICKS))

    [scored] = of_type(events, ev.HandScored)
    a, b = scored.scores
    assert (a.aces, a.third_cards, a.last_trick, a.thirds, a.card_points) == (3, 11, 1, 23, 7)
    assert (b.aces, b.third_cards, b.last_trick, b.thirds, b.card_points) == (1, 9, 0, 12, 4)
    assert (a.hand_score, b.hand_score) == (7, 4)
    assert scored.totals == (7, 4)
    report = RULES.score(state)
    assert [s.match_total for s in report.sides] == [7, 4]
    assert report.sides[0].detail.last_hand == a


# --------------------------------------------------------------------------- MF-6: following suit

# Five tricks are done, each of one suit, so the hand [7S KS AH 3D 4C] is left to
# Anna (trump S). In LED_HISTORY Dan wins trick 5 and leads trick 6; in
# LEAD_HISTORY Anna wins it and leads.
LED_HISTORY = "3H 4H 5H 6H  7H JH QH KH  AD 2D 4D 5D  6D 7D QD KD  3C 2C AC 6C"
LEAD_HISTORY = "3H 4H 5H 6H  7H JH QH KH  AD 2D 4D 5D  6D 7D QD KD  AC 3C 2C 6C"
MF6_HAND = "7S KS AH 3D 4C"
MF6_LEADS = "QS 2H JD 5C"


def test_mf6_the_leader_may_play_any_card() -> None:
    """MF-6, leading: all five cards are legal, in canonical order; CLAIM is last."""
    state = position(
        hands=[MF6_HAND, "", "", MF6_LEADS], played=LEAD_HISTORY, trump="S", battezzante=ANNA
    )
    assert state.to_act == ANNA
    assert legal_cards(state) == set(MF6_HAND.split())
    # Listed card by card in canonical order (§3.3), CLAIM last.
    listed = [code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard)]
    assert list(dict.fromkeys(listed)) == MF6_HAND.split()
    assert rules.legal_moves(state)[-1] is CLAIM


@pytest.mark.parametrize(
    ("led", "legal"),
    [("QS", {"7S", "KS"}), ("2H", {"AH"}), ("JD", {"3D"}), ("5C", {"4C"})],
)
def test_mf6_a_follower_must_follow_the_led_suit(led: str, legal: set[str]) -> None:
    """MF-6: with [7S, KS, AH, 3D, 4C], led QS -> 7S, KS; led 2H -> AH; led JD -> 3D;
    led 5C -> 4C."""
    dan = " ".join(c for c in MF6_LEADS.split() if c != led)
    state = position(
        hands=[MF6_HAND, "", "", dan],
        played=f"{LED_HISTORY} {led}",
        trump="S",
        battezzante=ANNA,
    )
    assert state.to_act == ANNA
    assert legal_cards(state) == legal
    assert rules.legal_moves(state)[-1] is CLAIM
    off_suit = next(c for c in MF6_HAND.split() if c not in legal)
    assert refused(state, f"play {off_suit}").field == "move.maraffa.play_card.card"


# --------------------------------------------------------------------------- MF-7: redeal


def test_mf7_a_hand_under_four_thirds_may_ask_a_redeal() -> None:
    """MF-7: [AS 4D 5D 6C 7C 4H 5H 6S 7S 5C] is worth 3 thirds (< 4): REQUEST_REDEAL
    is legal, listed after the four trumps and before CLAIM; the same dealer deals
    again with the next shuffle and the battezzante is found again (the 4D rule)."""
    weak = "AS 4D 5D 6C 7C 4H 5H 6S 7S 5C"
    state = position(
        hands=[weak, "", "", ""],
        battezzante=ANNA,
        hand_number=1,
        dealer=DAN,
        options=Options(redeal_weak_hand=True),
    )
    assert state.phase is Phase.TRUMP
    assert rules.legal_moves(state) == (*TRUMP_MOVES, parse("redeal"), CLAIM)

    counter = state.table.counter
    new, events = rules.apply(state, parse("redeal"))
    assert events[0] == ev.RedealRequested(ANNA)
    [dealt] = of_type(events, ev.HandDealt)
    assert (dealt.hand_number, dealt.dealer) == (1, DAN)
    assert new.table.dealer == DAN
    assert new.table.redeal_requests == (ANNA,)
    assert new.table.counter == counter + 1
    assert [set(cards_of(h)) for h in new.hands] == dealt_hands(new.table.seed, counter, DAN)
    holder = next(s for s in range(4) if card("4D") in cards_of(new.hands[s]))
    assert dealt.battezzante == new.table.battezzante == new.to_act == holder


def test_mf7_a_hand_worth_four_thirds_may_not_ask_a_redeal() -> None:
    """MF-7: [JS QS KD 2H 4D 5D 6C 7C 4H 5H] is worth 4 thirds: no redeal."""
    state = position(
        hands=["JS QS KD 2H 4D 5D 6C 7C 4H 5H", "", "", ""],
        battezzante=ANNA,
        hand_number=1,
        dealer=DAN,
        options=Options(redeal_weak_hand=True),
    )
    assert rules.legal_moves(state) == (*TRUMP_MOVES, CLAIM)
    assert refused(state, "redeal").field == "move.maraffa.request_redeal"


# --------------------------------------------------------------------------- MF-8: claims

# Trump C; Anna led and won three tricks, so team {0,2} has captured:
TWO_ACES_TEN = "AS KS QS JS  AH KH QH JH  3D 2D KD QD"  # 2 aces + 10 third-cards = 16
TWO_ACES_EIGHT = "AS KS QS JS  AH KH QH JH  3D 2D 7D 6D"  # 2 aces + 8 = 14
ONE_ACE_TEN = "AS KS QS JS  3H 2H KH QH  3D 2D KD 7D"  # 1 ace + 10 = 13
MARAFONA_C = "3C 2C AC"


#: MF-8, the rows of the table: thirds taken, marafona, options, total, then the claim.
MF8_PARAMS = (
    ("played", "marafona", "options", "total", "value", "needed", "valid", "winner"),
    [
        pytest.param(TWO_ACES_TEN, False, Options(), 36, 41, 41, True, 0, id="16-thirds"),
        pytest.param(TWO_ACES_EIGHT, False, Options(), 36, 40, 41, False, 1, id="14-thirds"),
        pytest.param(ONE_ACE_TEN, True, Options(), 36, 43, 41, True, 0, id="13-thirds+marafona"),
        pytest.param(
            ONE_ACE_TEN,
            True,
            Options(claim_rule=ClaimRule.STRICT_ONE_THIRD),
            36,
            121,
            124,
            False,
            1,
            id="strict-one-third",
        ),
        pytest.param(
            ONE_ACE_TEN,
            True,
            Options(fractions=Fractions.KEEP_THIRDS),
            108,
            130,
            123,
            True,
            0,
            id="keep-thirds",
        ),
    ],
)


@pytest.mark.parametrize(*MF8_PARAMS)
def test_mf8_a_claim_wins_if_true_and_loses_if_false(
    played: str,
    marafona: bool,
    options: Options,
    total: int,
    value: int,
    needed: int,
    valid: bool,
    winner: int,
) -> None:
    """MF-8 (target 41, {0,2} had 36 = 108 thirds): 16 thirds -> 41, valid; 14 -> 40,
    invalid; 13 + marafona -> 43, valid; strict_one_third: 121 < 124, invalid;
    keep_thirds: 108 + 13 + 9 = 130 >= 123, valid. The game ends at once."""
    state = position(
        hands=[MARAFONA_C, "", "", ""],
        played=played,
        trump="C",
        battezzante=ANNA,
        options=options,
        totals=(total, 20),
        marafona_seat=ANNA if marafona else None,
    )
    assert state.to_act == ANNA
    assert rules.legal_moves(state)[-1] is CLAIM

    state, events = rules.apply(state, CLAIM)

    result = ClaimResult(seat=ANNA, team=0, value=value, needed=needed, valid=valid)
    assert events == [
        ev.Claimed(result),
        ev.GameWon(game_number=1, team=winner, totals=(total, 20)),
        ev.MatchWon(team=winner, games_won=(1, 0) if winner == 0 else (0, 1)),
    ]
    assert state.finished
    assert state.table.last_claim == result
    assert RULES.score(state).winners == (winner,)
    assert rules.legal_moves(state) == ()


# --------------------------------------------------------------------------- MF-9: end of game


#: The MF-3 hand without its last card (Dan's 4C when Anna is battezzante).
MF3_BUT_LAST = " ".join(MF3_TRICKS).removesuffix(" 4C")


def test_mf9_a_team_over_the_target_alone_wins() -> None:
    """MF-9: A 34 + 7 = 41, B 36 + 4 = 40 -> A wins."""
    state = position(
        hands=["", "", "", ""],
        played=MF3_BUT_LAST,
        trump="H",
        battezzante=ANNA,
        totals=(34, 36),
    )
    assert state.to_act == DAN and legal_cards(state) == {"4C"}

    state, events = rules.apply(state, parse("play 4C"))

    [scored] = of_type(events, ev.HandScored)
    assert tuple(s.hand_score for s in scored.scores) == (7, 4)
    assert scored.totals == (41, 40)
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, 0, (41, 40))]
    assert of_type(events, ev.MatchWon) == [ev.MatchWon(0, (1, 0))]
    assert not of_type(events, ev.TargetRaised)
    assert state.finished
    report = RULES.score(state)
    assert report.winners == (0,)
    assert [s.match_total for s in report.sides] == [41, 40]


def test_mf9_a_tie_over_the_target_raises_it() -> None:
    """MF-9: A 38 + 4 = 42, B 35 + 7 = 42 -> tie at/over 41: no winner;
    effective_target = 43; next hand."""
    state = position(
        hands=["", "", "", ""],
        played=MF3_BUT_LAST,
        trump="H",
        battezzante=BEN,  # the MF-3 deal turned one seat on: team {1,3} takes 7
        totals=(38, 35),
    )
    assert state.to_act == ANNA and legal_cards(state) == {"4C"}

    state, events = rules.apply(state, parse("play 4C"))

    [scored] = of_type(events, ev.HandScored)
    assert tuple(s.hand_score for s in scored.scores) == (4, 7)
    assert scored.totals == (42, 42)
    assert of_type(events, ev.TargetRaised) == [ev.TargetRaised(43)]
    assert not of_type(events, ev.GameWon)
    assert of_type(events, ev.HandDealt) == [
        ev.HandDealt(game_number=1, hand_number=3, dealer=BEN, battezzante=CARLA)
    ]
    assert not state.finished
    assert state.phase is Phase.TRUMP
    assert state.table.totals == (42, 42)
    assert state.table.effective_target == 43
    assert RULES.score(state).winners == ()


# --------------------------------------------------------------------------- MF-10: marafona

# Ben is battezzante and holds 3H 2H AH; Carla holds hearts, Dan none.
BEN_MARAFONA = "AH 2H 3H 4S 5S 6S 7D JD QC KC"


def ben_to_lead(options: Options | None = None) -> State:
    """Trump H declared by Ben, who now leads trick 1."""
    state = position(hands=["", BEN_MARAFONA, "", ""], battezzante=BEN, options=options)
    assert state.phase is Phase.TRUMP and state.to_act == BEN
    state, _ = run(state, ["trump H"])
    assert state.to_act == BEN
    return state


def test_mf10_the_holder_declares_with_his_trick_1_play() -> None:
    """MF-10: Ben plays PLAY_CARD{AH, declare_marafona=true} to trick 1 -> valid,
    +3 for team {1,3}."""
    state = ben_to_lead()
    assert "play AH marafona" in legal_texts(state)

    state, events = run(state, ["play AH marafona"])

    assert events == [ev.CardPlayed(BEN, card("AH"), 0, True)]
    assert state.marafona_seat == BEN
    running = hand_scores(state)
    assert (running[0].marafona_bonus, running[1].marafona_bonus) == (0, 3)
    assert RULES.score(state).sides[1].detail.current_hand.hand_score == 3


def test_mf10_a_seat_without_the_three_cards_may_not_declare() -> None:
    """MF-10: Carla setting the flag on her trick-1 play -> invalid (she does not hold
    3H 2H AH)."""
    state, _ = run(ben_to_lead(), ["play AH marafona"])
    assert state.to_act == CARLA
    assert not any(m.marafona for m in rules.legal_moves(state) if isinstance(m, PlayCard))
    assert "7H" in hand(state, CARLA)
    error = refused(state, "play 7H marafona")
    assert error.field == "move.maraffa.play_card.declare_marafona"


def test_mf10_a_declaration_in_trick_2_is_too_late() -> None:
    """MF-10: Ben setting the flag on a trick-2 play -> invalid (too late)."""
    state, _ = run(ben_to_lead(), ["play AH"])
    # Carla follows in hearts, Dan has none, Anna follows: AH wins, Ben leads again.
    state, events = run(state, ["play 7H", "play QD", "play 4H"])
    assert of_type(events, ev.TrickWon)[0].seat == BEN
    assert state.to_act == BEN and {"2H", "3H"} <= hand(state, BEN)

    assert not any(m.marafona for m in rules.legal_moves(state) if isinstance(m, PlayCard))
    error = refused(state, "play 3H marafona")
    assert error.field == "move.maraffa.play_card.declare_marafona"


def test_mf10_battezzante_ace_lead_needs_the_ace_led() -> None:
    """MF-10: under battezzante_ace_lead, PLAY_CARD{AH, declare_marafona=true} as the
    first lead is valid, but PLAY_CARD{3H, declare_marafona=true} is invalid."""
    state = ben_to_lead(Options(marafona_rule=MarafonaRule.BATTEZZANTE_ACE_LEAD))
    declaring = {
        code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard) and m.marafona
    }
    assert declaring == {"AH"}

    error = refused(state, "play 3H marafona")
    assert error.field == "move.maraffa.play_card.declare_marafona"
    after, events = run(state, ["play AH marafona"])
    assert events == [ev.CardPlayed(BEN, card("AH"), 0, True)]
    assert after.marafona_seat == BEN


# --------------------------------------------------------------------------- MF-11: rotation

MF11_SEED = 5  # a seed whose first deal gives 4D to seat 2, as in the example
#: Batch b of five cards goes to p_k = next^k(dealer), k = DEAL_ORDER[b] (§3.1).
DEAL_ORDER = (1, 2, 3, 0, 1, 2, 3, 0)


def dealt_hands(seed: int, counter: int, dealer: int) -> list[set[int]]:
    """The four hands dealt by ``dealer`` from draw ``counter`` of ``seed`` (§3.1)."""
    d = shuffled(DECK, seed, counter)
    hands: list[set[int]] = [set(), set(), set(), set()]
    for b, k in enumerate(DEAL_ORDER):
        hands[(dealer + k) % 4].update(d[5 * b : 5 * b + 5])
    return hands


def finish_hand(state: State) -> tuple[State, list[ev.Event]]:
    """Play the hand out with the first legal move each time (never CLAIM)."""
    hand_number = state.table.hand_number
    events: list[ev.Event] = []
    while state.table.hand_number == hand_number:
        move: Move = rules.legal_moves(state)[0]
        assert move is not CLAIM
        state, caused = rules.apply(state, move)
        events.extend(caused)
    return state, events


def test_mf11_dealer_and_battezzante_rotate() -> None:
    """MF-11: hand 1 dealer 0, d[0..4]->1, d[5..9]->2, ... d[35..39]->0; 4D in seat 2's
    hand, so seat 2 declares trump and leads. Hand 2: dealer 2, battezzante 3, and
    seat 1 sees no cards until trump is declared. Hand 3: dealer 3, battezzante 0."""
    state, events = rules.deal(Options(first_dealer=0), 4, MF11_SEED)
    assert events == [ev.HandDealt(1, 1, dealer=0, battezzante=CARLA)]
    expected = dealt_hands(MF11_SEED, 1, dealer=0)
    assert card("4D") in expected[CARLA]
    assert [set(cards_of(h)) for h in state.hands] == expected
    assert state.to_act == CARLA
    assert rules.legal_moves(state) == (*TRUMP_MOVES, CLAIM)
    # Hand 1: nobody's cards are hidden.
    assert not any(view(state, s).hand_hidden for s in range(4))
    state, _ = run(state, ["trump S"])
    assert state.to_act == CARLA
    assert all(isinstance(m, PlayCard) for m in rules.legal_moves(state)[:-1])

    state, events = finish_hand(state)
    assert of_type(events, ev.HandDealt) == [ev.HandDealt(1, 2, dealer=CARLA, battezzante=DAN)]
    assert [set(cards_of(h)) for h in state.hands] == dealt_hands(MF11_SEED, 2, dealer=CARLA)
    assert state.phase is Phase.TRUMP and state.to_act == DAN
    # Ben, the battezzante's partner, sees only his card count.
    ben = view(state, BEN)
    assert ben.hand_hidden and ben.hand == ()
    assert ben.hand_sizes[BEN] == 10
    assert [view(state, s).hand_hidden for s in (ANNA, CARLA, DAN)] == [False] * 3
    state, _ = run(state, ["trump D"])
    ben = view(state, BEN)
    assert not ben.hand_hidden and ben.hand == cards_of(state.hands[BEN])

    state, events = finish_hand(state)
    assert of_type(events, ev.HandDealt) == [ev.HandDealt(1, 3, dealer=DAN, battezzante=ANNA)]
    assert [set(cards_of(h)) for h in state.hands] == dealt_hands(MF11_SEED, 3, dealer=DAN)
    assert state.to_act == ANNA
    assert view(state, CARLA).hand_hidden


# --------------------------------------------------------------------------- MF-12: signals

# Trump D, signals checked (extended set). Anna has led and won seven tricks of one
# suit each and is left with [5S KS 2C].
MF12_TRICKS = [
    *("3H 4H 5H 6H", "2H 7H JH QH"),
    *("3D 4D 5D 6D", "2D 7D JD QD"),
    "3S 4S 6S 7S",
    *("3C 4C 5C 6C", "AC 7C JC QC"),
]
MF12_HISTORY = " ".join(MF12_TRICKS)
CHECKED = Options(signals_checked=True, signals=SignalSet.EXTENDED)


def mf12_leader() -> State:
    state = position(
        hands=["5S KS 2C", "", "", ""],
        played=MF12_HISTORY,
        trump="D",
        battezzante=ANNA,
        options=CHECKED,
    )
    assert state.to_act == ANNA and hand(state, ANNA) == {"5S", "KS", "2C"}
    return state


@pytest.mark.parametrize(
    ("move", "valid"),
    [
        ("play KS volo", False),  # still holds 5S
        ("play KS striscio", True),  # 5S is K or lower
        ("play KS ristriscio", False),  # only one spade left
        ("play KS busso", True),  # a request: never false
        ("play 2C volo", True),  # the last club
    ],
)
def test_mf12_checked_signals_must_be_true(move: str, valid: bool) -> None:
    """MF-12: leader [5S, KS, 2C], trump D, leads KS: VOLO invalid, STRISCIO valid,
    RISTRISCIO invalid, BUSSO valid; leading 2C with VOLO is valid."""
    state = mf12_leader()
    if valid:
        assert parse(move) in rules.legal_moves(state)
        _, events = rules.apply(state, parse(move))
        played = parse(move)
        assert isinstance(played, PlayCard)
        assert events == [ev.CardPlayed(ANNA, played.card, played.signal, False)]
    else:
        assert refused(state, move).field == "move.maraffa.play_card.signal"


def test_mf12_only_true_signals_are_listed() -> None:
    """MF-12: the listing offers KS only with the signals that are true of it (NONE,
    BUSSO, STRISCIO, and TAGLIA, a request on a non-trump lead; BUONA is false since
    2S and AS are out), and 2C with VOLO (and BUONA: 3C has fallen)."""
    signals: dict[str, list[str]] = {}
    for m in rules.legal_moves(mf12_leader()):
        if isinstance(m, PlayCard):
            signals.setdefault(code(m.card), []).append(m.signal.name)
    assert signals["KS"] == ["NONE", "BUSSO", "STRISCIO", "TAGLIA"]
    assert signals["2C"] == ["NONE", "BUSSO", "VOLO", "TAGLIA", "BUONA"]


def test_mf12_unchecked_signals_are_free() -> None:
    """The contrast for MF-12: with signals_checked = false (default) a false VOLO on
    KS is just poor play, not an illegal move."""
    state = position(
        hands=["5S KS 2C", "", "", ""],
        played=MF12_HISTORY,
        trump="D",
        battezzante=ANNA,
        options=Options(signals=SignalSet.EXTENDED),
    )
    assert parse("play KS volo") in rules.legal_moves(state)
    rules.apply(state, parse("play KS volo"))
