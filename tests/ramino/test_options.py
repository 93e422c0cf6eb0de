"""The options of ramino.md §5, each with the effect the spec gives it.

(``hand_size`` 9 and ``rediscard_taken_card`` are RA-15 and RA-14 in
test_worked_examples.py; ``imaginary_jokers`` 0 is in test_closures.py.)
"""

from __future__ import annotations

import pytest

from mazzo.core.cards import cards
from mazzo.games.ramino import events as ev
from mazzo.games.ramino import rules
from mazzo.games.ramino.closures import best_closure
from mazzo.games.ramino.moves import parse
from mazzo.games.ramino.options import BuioSeat, Options
from mazzo.games.ramino.positions import position
from mazzo.games.ramino.state import MatchEnd, Outcome, Phase, Status


@pytest.mark.parametrize(("players", "stock"), [(2, 83), (3, 73), (4, 63), (5, 53), (6, 43)])
def test_the_deal(players: int, stock: int) -> None:
    """§2.4, §2.5: ten cards each, one up-card, the rest the stock (83, 73, 63 for
    2, 3, 4 players; 5 and 6 players as the variant of §2.1)."""
    state, events = rules.deal(Options(), players, seed=players)
    assert [len(h) for h in state.hands] == [10] * players
    assert len(state.pile) == 1 and len(state.stock) == stock
    assert isinstance(events[0], ev.HandDealt)
    assert state.to_act == (state.table.dealer + 1) % players  # di mano speaks first


def test_first_dealer() -> None:
    for dealer in range(4):
        state, _ = rules.deal(Options(first_dealer=dealer), 4, seed=1)
        assert state.table.dealer == dealer
    with pytest.raises(ValueError):
        rules.deal(Options(first_dealer=4), 4, seed=1)


def test_buio_seat_dealer_left() -> None:
    """§3.2: with buio_seat = dealer_left the blind opener is prev(dealer), and the
    bidding after his BUIO starts at next(him) = the dealer; after NO_BUIO, at di mano."""
    options = Options(dealer_tax=1, buio_seat=BuioSeat.DEALER_LEFT)
    state = position(players=4, dealer=0, options=options)
    assert state.phase is Phase.BUIO_DECISION and state.to_act == 3
    blind, _ = rules.apply(state, parse("buio"))
    assert blind.to_act == 0 and blind.bets.buio_player == 3
    plain, _ = rules.apply(state, parse("no-buio"))
    assert plain.phase is Phase.BIDDING and plain.to_act == 1


def test_no_buio_without_a_tax() -> None:
    state = position(players=4, options=Options(buio=True))
    assert state.phase is Phase.BIDDING  # buio is ignored when dealer_tax = 0


@pytest.mark.parametrize("reshuffles", [0, 1, 2])
def test_max_reshuffles(reshuffles: int) -> None:
    """§3.4.6: the stock is rebuilt from the pile up to max_reshuffles times; the next
    time it runs out, the hand is void and its pot carries over."""
    state = position(
        players=2, options=Options(max_reshuffles=reshuffles), bids=["open 1", "accept"]
    )
    seen = 0
    while True:
        if state.taken.name == "NONE":
            state, events = rules.apply(state, parse("draw"))
        else:
            state, events = rules.apply(state, rules.legal_moves(state)[0])  # a discard
        seen += sum(isinstance(e, ev.StockReshuffled) for e in events)
        ended = [e for e in events if isinstance(e, ev.HandEnded)]
        if ended:
            break
    assert seen == reshuffles
    assert ended[0].result.outcome is Outcome.EXHAUSTED
    assert state.bets.carry == 2  # both stakes carried over


def test_without_credit_a_short_stack_sits_out_and_pays_what_he_has() -> None:
    """§4.3 allow_credit = false: a balance below min_open sits out (dealt, folded,
    skipped); a loser pays at most his balance."""
    options = Options(allow_credit=False, starting_chips=10, max_stake=5)
    state = position(players=3, dealer=0, options=options, balances=(0, 15, 15))
    assert state.bets.statuses == (Status.SITTING_OUT, Status.ACTIVE, Status.ACTIVE)
    assert len(state.hands[0]) == 10
    # Seat 1 opens 5 with 15 chips; seat 2 accepts with 15; seat 2 closes a royal:
    # seat 1 owes 4 x 5 = 20 more but has 10 left, so he pays 10.
    closing = position(
        players=3,
        dealer=0,
        options=options,
        balances=(0, 15, 15),
        bids=["open 5", "accept"],
        hands={2: "3C 4C 5C 6C 7C 8C 9C TC JC QC"},
        stock="2D 3D",
        then=["draw", "discard 2D", "draw"],
    )
    _, events = rules.apply(closing, parse("close 3D"))
    (ended,) = [e for e in events if isinstance(e, ev.HandEnded)]
    assert ended.result.extra_paid == (0, 10, 0)
    assert ended.balances == (0, 0, 30)


def test_without_credit_the_match_ends_when_two_cannot_play() -> None:
    """§4.3: if fewer than two players can take part at the start of a hand, the match
    ends; chips left in the pot go back to who put them in (docs/ramino.md)."""
    options = Options(allow_credit=False, starting_chips=10, dealer_tax=1, buio=False)
    state = position(players=2, dealer=0, options=options, balances=(1, 19))
    # Dealer 0 paid his tax (balance 0); everyone passes: void, pot 1 carries over.
    # Next hand: seat 0 has 0 < min_open 1 and sits out: only one player left.
    state, events = rules.apply(state, parse("pass"))
    state, events = rules.apply(state, parse("pass"))
    assert state.finished and state.table.end is MatchEnd.NO_PLAYERS
    (refund,) = [e for e in events if isinstance(e, ev.PotRefunded)]
    assert refund.refunds == (1, 0)
    assert state.bets.balances == (1, 19) and state.bets.pot == 0


def test_match_hands_default_and_the_end() -> None:
    """§4.3: the match ends after match_hands decided hands (default 3 x players)."""
    state, _ = rules.deal(Options(), 2, seed=3)
    assert state.table.options.match_hands == 6
    decided = 0
    while not state.finished:
        state, events = rules.apply(
            state,
            parse("open 1")
            if state.bets.stake == 0 and state.phase is Phase.BIDDING
            else parse("pass"),
        )
        decided += sum(isinstance(e, ev.HandEnded) for e in events)
    assert decided == 6 and state.table.decided_hands == 6
    assert state.table.end is MatchEnd.DECIDED_HANDS


def test_set_duplicate_suits() -> None:
    """§3.5.3: with the option a set may repeat a suit (sizes unchanged)."""
    ten = cards("7S 7S 7H 9D 9D 9C KC KC KH KS")
    assert best_closure(ten, 0, False).multiplier == 0
    assert best_closure(ten, 0, True).multiplier == 1


def test_starting_chips_and_balances() -> None:
    state, _ = rules.deal(Options(starting_chips=250), 3, seed=1)
    assert state.bets.balances == (250, 250, 250)
    with pytest.raises(ValueError):
        rules.deal(Options(allow_credit=False, starting_chips=1, min_open=2, max_stake=2), 3, 1)
