"""The worked examples RA-1 .. RA-17 of docs/rules/ramino.md §6, through the engine.

Closures are checked twice: ``best_closure`` of the ten cards, and a real CLOSE in a
hand in play (seat 1 opens 1, seat 0 accepts; seat 1 holds the ten, draws a card and
closes discarding it), where the payout must be k times the stake (§4.1). The bidding
examples play every move through ``rules.apply`` and check the stake and pot after each.
The same examples go through the gRPC API in ``test_worked_examples_grpc.py``.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mazzo.core.cards import card, cards, code
from mazzo.core.errors import IllegalMove
from mazzo.games.ramino import events as ev
from mazzo.games.ramino import rules
from mazzo.games.ramino.closures import ClosureType, best_closure
from mazzo.games.ramino.moves import CLOSES, DISCARDS, DRAW, Kind, Move, parse
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.positions import position
from mazzo.games.ramino.state import Outcome, Phase, State
from mazzo.games.ramino.view import view

# (name, the ten cards kept, multiplier, joker reported, the code it stands for)
CLOSURES = [
    ("RA-1 simple", "4S 5S 6S 7S 9H 9D 9C QS QH QC", ClosureType.SIMPLE, None, None),
    ("RA-2 two combinations", "3H 4H 5H 6H 7H 8H 9H KS KH KD", ClosureType.DOUBLE, None, None),
    ("RA-3 figures", "JS JH JD QS QH QC KS KH KD KC", ClosureType.DOUBLE, None, None),
    ("RA-4 colour", "2S 4S 5S 7S 8S 9S JS QS KS AS", ClosureType.DOUBLE, None, None),
    ("RA-5 five pairs", "7H 7H 7S 7S JD JD 3C 3C AS AS", ClosureType.TRIPLE, None, None),
    ("RA-6 royal with joker", "3C 4C 5C 6C 7C 8C 9C TC JC KD", ClosureType.ROYAL, "KD", "2C"),
    ("RA-7 sextuple", "2H 2H 5H 5H 8H 8H TH TH KH KH", ClosureType.SEXTUPLE, None, None),
    ("RA-8 joker 2D", "4S 5S 7S 9H 9D 9C QS QH QC 2D", ClosureType.SIMPLE, "2D", "6S"),
    ("RA-8 joker 8C", "4S 5S 7S 9H 9D 9C QS QH QC 8C", ClosureType.SIMPLE, "8C", "6S"),
]
RA9 = "AS 3H 5D 7C 9S JH KD 2C 4S 6H"


def run(state: State, moves: Iterable[str]) -> tuple[State, list[ev.Event]]:
    """Apply moves written as text; the state after them and every event on the way."""
    caused: list[ev.Event] = []
    for text in moves:
        state, events = rules.apply(state, parse(text))
        caused.extend(events)
    return state, caused


def of(events: Iterable[ev.Event], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]


def texts(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


def closing_hand(ten: str, drawn: str) -> State:
    """Two players, dealer 0: seat 1 opens 1, seat 0 accepts (posta 1, pot 2); seat 1
    holds ``ten`` and has just drawn ``drawn``."""
    return position(
        players=2, bids=["open 1", "accept"], hands={1: ten}, stock=drawn, then=["draw"]
    )


def drawn_card(ten: str) -> str:
    """A card to draw that is not one of the ten (any copy would do; this keeps the
    hand readable)."""
    return next(c for c in ("2H", "3D", "JC", "6H") if c not in ten.split())


# --------------------------------------------------------------------------- RA-1 .. RA-8


@pytest.mark.parametrize(
    ("ten", "kind", "joker", "stands_for"),
    [pytest.param(*c[1:], id=c[0]) for c in CLOSURES],
)
def test_the_closure_of_ten_cards(
    ten: str, kind: ClosureType, joker: str | None, stands_for: str | None
) -> None:
    """§3.5.4, §3.5.5: the best type, and the joker reported (none when not needed)."""
    closure = best_closure(cards(ten))
    assert closure.kind is kind
    assert closure.multiplier == {1: 1, 2: 2, 3: 3, 5: 5, 6: 6}[kind.value]
    assert (code(closure.joker) if closure.joker else None) == joker
    assert (code(closure.stands_for) if closure.stands_for else None) == stands_for


@pytest.mark.parametrize(
    ("ten", "kind", "joker", "stands_for"),
    [pytest.param(*c[1:], id=c[0]) for c in CLOSURES],
)
def test_closing_pays_k_times_the_stake(
    ten: str, kind: ClosureType, joker: str | None, stands_for: str | None
) -> None:
    """§3.5, §4.1: CLOSE is listed, reveals the ten cards, the discard, the joker and the
    type, and the loser pays k x S in all (his stake, then (k - 1) x S more)."""
    extra = drawn_card(ten)
    state = closing_hand(ten, extra)
    close = CLOSES[card(extra)]
    assert close in rules.legal_moves(state)
    before = state.bets.balances
    after, events = rules.apply(state, close)
    (closed,) = of(events, ev.HandClosed)
    shown = closed.closure
    assert (shown.seat, code(shown.discard), shown.kind) == (1, extra, kind)
    assert shown.cards == tuple(sorted(cards(ten)))  # canonical order
    assert (code(shown.joker) if shown.joker else None) == joker
    assert (code(shown.stands_for) if shown.stands_for else None) == stands_for
    (ended,) = of(events, ev.HandEnded)
    k = kind.value
    result = ended.result
    assert result.outcome is Outcome.CLOSED and result.winner == 1 and result.posta == 1
    assert result.extra_paid == ((k - 1) * 1, 0)
    assert result.net == (-k, k)
    assert ended.balances == (before[0] - (k - 1), before[1] + 2 + (k - 1))
    assert sum(after.bets.balances) + after.bets.pot == 200


def test_ra8_both_discards_close_with_a_joker() -> None:
    """RA-8: after drawing, CLOSE{8C} (joker 2D = 6S) and CLOSE{2D} (joker 8C = 6S) are
    both listed and both pay a simple closure."""
    state = position(
        players=2,
        bids=["open 1", "accept"],
        hands={1: "4S 5S 7S 9H 9D 9C QS QH QC 2D"},
        stock="8C",
        then=["draw"],
    )
    assert state.hands[1] == tuple(sorted(cards("4S 5S 7S 9H 9D 9C QS QH QC 2D 8C")))
    closes = [m for m in rules.legal_moves(state) if m.kind is Kind.CLOSE]
    assert texts(closes) == ["close 2D", "close 8C"]  # canonical order: D before C
    for discard, joker in (("8C", "2D"), ("2D", "8C")):
        _, events = rules.apply(state, parse(f"close {discard}"))
        (closed,) = of(events, ev.HandClosed)
        assert closed.closure.kind is ClosureType.SIMPLE
        assert (code(closed.closure.joker), code(closed.closure.stands_for)) == (joker, "6S")


# --------------------------------------------------------------------------- RA-9


def test_ra9_not_a_closure() -> None:
    """RA-9: best_closure = 0; after drawing QC every one of the 11 discards leaves a
    non-closure, so only DISCARD moves are listed and every CLOSE is refused."""
    assert best_closure(cards(RA9)).multiplier == 0
    state = closing_hand(RA9, "QC")
    moves = rules.legal_moves(state)
    held = sorted(set(state.hands[1]))
    assert list(moves) == [DISCARDS[c] for c in held]
    assert len(moves) == 11
    for c in held:
        with pytest.raises(IllegalMove) as caught:
            rules.apply(state, CLOSES[c])
        assert caught.value.field == "move.ramino.close.discard"
        assert "not a closure" in caught.value.reason


# --------------------------------------------------------------------------- RA-10


RA10 = [
    # (seat, move, S, pot)
    (1, "open 1", 1, 1),
    (2, "raise 3", 3, 4),
    (3, "pass", 3, 4),
    (0, "accept", 3, 7),
    (1, "raise 5", 5, 11),
    (2, "accept", 5, 13),
    (0, "pass", 5, 13),
]
DOUBLE_TEN = "3H 4H 5H 6H 7H 8H 9H KS KH KD"
ROYAL_TEN = "3C 4C 5C 6C 7C 8C 9C TC JC QC"


def test_ra10_bidding() -> None:
    """RA-10: the stake and the pot after every move; bidding ends when the turn comes
    back to the last aggressor; participants {1, 2}, posta 5."""
    state = position(players=4, dealer=0)
    assert state.phase is Phase.BIDDING and state.to_act == 1
    for seat, move, stake, pot in RA10:
        assert state.to_act == seat
        state, events = rules.apply(state, parse(move))
        assert (state.bets.stake, state.bets.pot) == (stake, pot), move
    (started,) = of(events, ev.PlayStarted)
    assert started.participants == (1, 2) and started.posta == 5 and started.pot == 13
    assert state.phase is Phase.PLAY and state.to_act == 1  # seat 1 plays first
    assert state.bets.committed == (3, 5, 5, 0)
    assert state.bets.balances == (97, 95, 95, 100)


@pytest.mark.parametrize(
    ("ten", "nets"),
    [
        pytest.param(DOUBLE_TEN, (-3, -10, 13, 0), id="double"),
        pytest.param(ROYAL_TEN, (-3, -25, 28, 0), id="royal"),
    ],
)
def test_ra10_payout(ten: str, nets: tuple[int, ...]) -> None:
    """RA-10: seat 2 closes; seat 1 pays (k - 1) x 5 more; seat 0 loses his 3, seat 3
    nothing. Seat 1 plays first: he draws and discards, then seat 2 draws and closes."""
    state = position(
        players=4,
        dealer=0,
        bids=[m for _, m, _, _ in RA10],
        hands={2: ten},
        stock="2D 3D",
        then=["draw", "discard 2D", "draw", "close 3D"],
    )
    assert state.table.last_hand is not None
    assert state.table.last_hand.net == nets
    assert state.bets.balances == tuple(100 + n for n in nets)
    assert sum(nets) == 0


# --------------------------------------------------------------------------- RA-11


RA11_OPTIONS = Options(dealer_tax=1, max_stake=6)
RA11 = [
    (1, "buio", 2, 3),
    (2, "accept", 2, 5),
    (3, "pass", 2, 5),
    (0, "accept", 2, 7),
    (1, "raise 4", 4, 9),
    (2, "raise 6", 6, 13),
    (0, "pass", 6, 13),
    (1, "accept", 6, 15),
]


def test_ra11_buio() -> None:
    """RA-11: the dealer's tax, the blind opening with its block, the buio player's
    raise lifting it, then ordinary bidding to the end; the buio seat decides without
    seeing his cards, and sees them once he has chosen."""
    state = position(players=4, dealer=0, options=RA11_OPTIONS)
    assert state.phase is Phase.BUIO_DECISION and state.to_act == 1
    assert (state.bets.tax, state.bets.pot) == (1, 1)
    assert rules.legal_moves(state) == (parse("buio"), parse("no-buio"))
    blind = view(state, 1)
    assert blind.hand_hidden and blind.hand == ()
    assert view(state, 2).hand == state.hands[2]
    for seat, move, stake, pot in RA11:
        assert state.to_act == seat
        if seat == 2 and move == "accept" and state.bets.stake == 2:
            # Step 2: RAISE by seat 2 is invalid, the buio blocks it.
            assert texts(rules.legal_moves(state)) == ["pass", "accept"]
            with pytest.raises(IllegalMove) as caught:
                rules.apply(state, parse("raise 3"))
            assert "blocked by the buio" in caught.value.reason
        if seat == 1 and move == "raise 4":
            assert texts(rules.legal_moves(state))[:2] == ["stand", "raise 3"]
        state, _ = rules.apply(state, parse(move))
        assert (state.bets.stake, state.bets.pot) == (stake, pot), move
    assert not view(state, 1).hand_hidden
    assert state.phase is Phase.PLAY and state.to_act == 1
    assert state.bets.committed == (2, 6, 6, 0) and state.bets.pot == 15


def test_ra11_payout() -> None:
    """RA-11: seat 1 closes simple: +9 (15 - 6), seat 2 -6, seat 0 -3 (tax + 2), seat 3 0."""
    state = position(
        players=4,
        dealer=0,
        options=RA11_OPTIONS,
        bids=[m for _, m, _, _ in RA11],
        hands={1: "4S 5S 6S 7S 9H 9D 9C QS QH QC"},
        stock="2D",
        then=["draw", "close 2D"],
    )
    last = state.table.last_hand
    assert last is not None and last.closure is not None
    assert last.closure.kind is ClosureType.SIMPLE
    assert last.net == (-3, 9, -6, 0)


# --------------------------------------------------------------------------- RA-12, RA-13


def test_ra12_uncontested() -> None:
    """RA-12: seat 1 opens 2, everyone else passes: he takes the pot (2), net 0, no
    play; the deal passes to seat 1."""
    state = position(players=4, dealer=0)
    state, events = run(state, ["open 2", "pass", "pass", "pass"])
    (ended,) = of(events, ev.HandEnded)
    assert ended.result.outcome is Outcome.UNCONTESTED and ended.result.winner == 1
    assert ended.result.pot == 2 and ended.result.net == (0, 0, 0, 0)
    assert state.table.dealer == 1 and state.bets.pot == 0
    assert state.bets.balances == (100, 100, 100, 100)


def test_ra12_void() -> None:
    """RA-12: all four pass: VOID, the pot unchanged, the deal passes to seat 1."""
    state = position(players=4, dealer=0, options=Options(dealer_tax=1, buio=False))
    assert state.bets.pot == 1
    state, events = run(state, ["pass"] * 4)
    (ended,) = of(events, ev.HandEnded)
    assert ended.result.outcome is Outcome.VOID and ended.result.winner == -1
    assert state.table.dealer == 1
    assert state.bets.carry == 1 and state.bets.pot == 2  # the carried 1, the new tax 1


def test_ra13_royal_with_three_participants() -> None:
    """RA-13: posta 2, participants {0, 1, 2}, pot 6; seat 0 closes royal: he receives
    6 + 2 x (4 x 2) = 22, net +20; seats 1 and 2 pay 5 x 2 = 10 each."""
    state = position(
        players=4,
        dealer=3,
        bids=["open 2", "accept", "accept", "pass"],
        hands={0: ROYAL_TEN},
        stock="2D",
    )
    assert state.phase is Phase.PLAY and state.to_act == 0 and state.bets.pot == 6
    state, events = run(state, ["draw", "close 2D"])
    (ended,) = of(events, ev.HandEnded)
    assert ended.result.net == (20, -10, -10, 0)
    assert ended.result.extra_paid == (0, 8, 8, 0)


# --------------------------------------------------------------------------- RA-14, RA-15


def ra14(options: Options | None = None, **kw: object) -> State:
    """4 players, dealer 1: seat 2 opens, seat 3 accepts, seats 0, 1 pass; seat 2 plays."""
    return position(
        players=4, dealer=1, options=options, bids=["open 1", "accept", "pass", "pass"], **kw
    )  # type: ignore[arg-type]


def test_ra14_re_discarding() -> None:
    """RA-14: TAKE_DISCARD of 9H then DISCARD{9H} is refused (not listed either); DRAW
    of 9H then DISCARD{9H} is fine; so is the re-discard with rediscard_taken_card."""
    taken = ra14(pile="9H", then=["take"])
    assert taken.to_act == 2 and taken.taken_card == card("9H")
    assert DISCARDS[card("9H")] not in rules.legal_moves(taken)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(taken, parse("discard 9H"))
    assert caught.value.field == "move.ramino.discard.card"
    drawn = ra14(stock="9H", then=["draw"])
    assert DISCARDS[card("9H")] in rules.legal_moves(drawn)
    after, _ = rules.apply(drawn, parse("discard 9H"))
    assert after.pile[-1] == card("9H")
    free = ra14(Options(rediscard_taken_card=True), pile="9H", then=["take"])
    after, _ = rules.apply(free, parse("discard 9H"))
    assert after.pile[-1] == card("9H")


def test_ra15_nine_card_tables() -> None:
    """RA-15: hand_size 9: seat 1 holds 4S 5S 6S 9H 9D 9C QS QH QC, draws 7S and
    closes with the ten cards, no discard: k = 1."""
    state = position(
        players=2,
        options=Options(hand_size=9),
        bids=["open 1", "accept"],
        hands={1: "4S 5S 6S 9H 9D 9C QS QH QC"},
        stock="7S",
        then=["draw"],
    )
    moves = rules.legal_moves(state)
    assert moves[-1] == parse("close") and all(m.kind is Kind.DISCARD for m in moves[:-1])
    _, events = rules.apply(state, parse("close"))
    (closed,) = of(events, ev.HandClosed)
    assert closed.closure.kind is ClosureType.SIMPLE and closed.closure.discard == 0
    assert len(closed.closure.cards) == 10
    with pytest.raises(IllegalMove):
        rules.apply(state, parse("close 7S"))  # with a discard on a nine-card table


# --------------------------------------------------------------------------- RA-16, RA-17


def test_ra16_endless_voids_cut_off() -> None:
    """RA-16: tax 1, buio off, match_hands 12, everyone always passes: after the 12th
    void hand in a row the match ends and each gets his 3 chips back."""
    options = Options(dealer_tax=1, buio=False, match_hands=12, first_dealer=0)
    state, _ = rules.deal(options, 4, seed=16)
    events: list[ev.Event] = []
    hands = 0
    while not state.finished:
        assert rules.legal_moves(state)[0] == parse("pass")
        state, caused = rules.apply(state, parse("pass"))
        events.extend(caused)
        hands += len(of(caused, ev.HandEnded))
    assert hands == 12
    assert all(e.result.outcome is Outcome.VOID for e in of(events, ev.HandEnded))
    (refund,) = of(events, ev.PotRefunded)
    assert refund.refunds == (3, 3, 3, 3)
    (end,) = of(events, ev.MatchEnded)
    assert end.balances == (100, 100, 100, 100) and end.winners == (0, 1, 2, 3)
    assert state.bets.pot == 0


def test_ra17_no_endless_taking() -> None:
    """RA-17: participants {1, 2}: the last 6 turns all began with TAKE_DISCARD, so the
    next player's only move before taking is DRAW."""
    state = position(
        players=2,
        bids=["open 1", "accept"],
        hands={1: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"},
        pile="KD",
        turns=[
            "take KD discard AS",
            "take AS discard AH",
            "take AH discard 2S",
            "take 2S discard 2H",
            "take 2H discard 3S",
            "take 3S discard 3H",
        ],
    )
    assert rules.legal_moves(state) == (DRAW,)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse("take"))
    assert "three turns in a row" in caught.value.reason
    # Five turns from the pile after a draw: the sixth may still take.
    shorter = position(
        players=2,
        bids=["open 1", "accept"],
        hands={1: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"},
        pile="KD",
        turns=[
            "draw TS",
            "take TS discard AH",
            "take AH discard 2S",
            "take 2S discard 2H",
            "take 2H discard 3S",
            "take 3S discard 3H",
        ],
    )
    assert rules.legal_moves(shorter) == (DRAW, parse("take"))
