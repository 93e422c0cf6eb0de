"""State invariants of ramino.md §8, each broken once: ``validate`` must refuse.

Every test starts from a state the rules produced, checks that it is valid, breaks one
field, and expects ``InvalidState`` naming that field by its wire path
(``state.ramino.hands[2].cards``) and saying why.
"""

from __future__ import annotations

import dataclasses

import pytest

from mazzo.core.cards import card
from mazzo.core.errors import InvalidState
from mazzo.games.ramino import rules
from mazzo.games.ramino.moves import parse
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.positions import position
from mazzo.games.ramino.state import (
    Bid,
    BidAction,
    MatchEnd,
    Phase,
    Source,
    State,
    Status,
    Turn,
)
from mazzo.games.ramino.validate import validate

P = "state.ramino."
T = P + "table."
B = P + "bets."


def refused(state: State, field: str, because: str) -> None:
    with pytest.raises(InvalidState) as caught:
        validate(state)
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value


def bets(state: State, **fields: object) -> State:
    return state._replace(bets=state.bets._replace(**fields))


def table(state: State, **fields: object) -> State:
    return state._replace(table=state.table._replace(**fields))


def bidding() -> State:
    """4 players, dealer 0: seat 1 opened 2, seat 2 accepted; seat 3 to speak."""
    return position(players=4, dealer=0, bids=["open 2", "accept"])


def playing(then: tuple[str, ...] = ()) -> State:
    """4 players: seat 1 opened 1, seats 2 accepted, 3 and 0 passed; seat 1 plays."""
    return position(
        players=4,
        dealer=0,
        bids=["open 1", "accept", "pass", "pass"],
        turns=["draw AS", "draw 2S"] if not then else [],
        hands={1: "AS AH 2H 3H 4H 5H 6H 7H 8H 9H", 2: "2S 2D 3D 4D 5D 6D 7D 8D 9D TD"},
        then=list(then),
    )


def test_the_base_states_are_valid() -> None:
    for state in (bidding(), playing(), playing(("draw",)), playing(("take",))):
        validate(state)


# --------------------------------------------------------------------------- cards


def test_a_code_three_times() -> None:
    """A third copy of a code in seat 3's hand (in place of one of his cards)."""
    state = playing()
    first_three = [c for h in state.hands[:3] for c in h]
    twice = next(c for c in first_three if first_three.count(c) == 2)
    hands = list(state.hands)
    hands[3] = tuple(sorted((*hands[3][1:], twice)))
    refused(state._replace(hands=tuple(hands)), P + "hands[3].cards", "more than twice")


def test_a_card_too_many() -> None:
    state = playing()
    extra = next(c for c in range(1, 53) if state.hands[1].count(c) == 0 and c not in state.pile)
    hands = list(state.hands)
    hands[1] = tuple(sorted((*hands[1], extra, extra)))
    refused(state._replace(hands=tuple(hands)), P + "hands[1].cards", "more than twice")


def test_a_card_missing() -> None:
    state = playing()
    refused(state._replace(stock=state.stock[1:]), P + "hands", "cards missing")


def test_a_foreign_card() -> None:
    state = playing()
    refused(state._replace(stock=(53, *state.stock[1:])), P + "stock", "not in the Ramino pack")


def test_a_hand_out_of_order() -> None:
    state = playing()
    hands = list(state.hands)
    hands[0] = tuple(reversed(hands[0]))
    refused(state._replace(hands=tuple(hands)), P + "hands[0].cards", "canonical order")


def test_hand_sizes() -> None:
    state = playing()
    hands = list(state.hands)
    moved = hands[0][-1]
    hands[0] = hands[0][:-1]
    hands[2] = tuple(sorted((*hands[2], moved)))
    refused(state._replace(hands=tuple(hands)), P + "hands[0].cards", "must hold 10 cards")


def test_a_hand_size_after_taking() -> None:
    state = playing(("draw",))
    assert len(state.hands[1]) == 11
    refused(state._replace(taken=Source.NONE, taken_card=0), P + "hands[1].cards", "10 cards")


# --------------------------------------------------------------------------- chips


def test_chips_are_conserved() -> None:
    state = bidding()
    balances = list(state.bets.balances)
    balances[0] += 1
    refused(bets(state, balances=tuple(balances)), "state.match_score", "add up to 400")


def test_the_pot_is_what_was_put_in() -> None:
    state = bidding()
    b = state.bets
    balances = (b.balances[0] - 1, *b.balances[1:])
    refused(bets(state, pot=b.pot + 1, balances=balances), B + "shares", "add up to the pot")
    shares = (b.shares[0] + 1, *b.shares[1:])
    balances = (b.balances[0] - 1, *b.balances[1:])
    refused(bets(state, pot=b.pot + 1, shares=shares, balances=balances), B + "pot", "carry_over")


def test_nobody_commits_more_than_the_stake() -> None:
    state = bidding()
    refused(bets(state, stake=1), B + "committed[1]", "more than the stake")


def test_the_stake_is_at_most_the_maximum() -> None:
    state = position(players=2, bids=["open 5"])
    # Raise the committed chips and stake together above max_stake.
    b = state.bets
    broken = bets(
        state,
        stake=6,
        committed=(0, 6),
        pot=6,
        shares=(0, 6),
        balances=(100, 94),
    )
    assert b.stake == 5
    refused(broken, B + "stake", "at most max_stake")


def test_the_tax_is_the_dealers() -> None:
    state = position(players=4, options=Options(dealer_tax=1, buio=False))
    b = state.bets  # the dealer, seat 0, paid 1; make it 2 everywhere
    broken = bets(
        state,
        tax=2,
        pot=b.pot + 1,
        shares=(b.shares[0] + 1, *b.shares[1:]),
        balances=(b.balances[0] - 1, *b.balances[1:]),
    )
    refused(broken, B + "tax", "0 or 1")


def test_no_debt_without_credit() -> None:
    options = Options(allow_credit=False)
    state = position(players=2, options=options)
    refused(bets(state, balances=(-1, 201)), "state.match_score", "in debt")


def test_sitting_out_follows_the_balances() -> None:
    options = Options(allow_credit=False, starting_chips=10)
    state = position(players=3, options=options, balances=(0, 15, 15))
    assert state.bets.statuses[0] is Status.SITTING_OUT
    statuses = (Status.ACTIVE, *state.bets.statuses[1:])
    refused(bets(state, statuses=statuses), B + "statuses", "balances at the hand's start")
    credit = position(players=3)
    statuses = (Status.SITTING_OUT, *credit.bets.statuses[1:])
    refused(bets(credit, statuses=statuses), B + "statuses", "credit")


# --------------------------------------------------------------------------- bidding


def test_the_stake_is_what_the_bids_give() -> None:
    state = bidding()
    b = state.bets
    broken = bets(
        state,
        stake=3,
        committed=(0, 3, 2, 0),
        pot=5,
        shares=(0, 3, 2, 0),
        balances=(100, 97, 98, 100),
    )
    assert b.stake == 2
    refused(broken, B + "stake", "not what the bids give")


def test_a_bid_out_of_turn() -> None:
    state = bidding()
    bids = (Bid(2, BidAction.OPEN, 2), *state.bets.bids[1:])
    refused(bets(state, bids=bids), B + "bids[0].seat", "seat 1 was to bid")


def test_an_illegal_bid_in_the_log() -> None:
    state = bidding()
    bids = (state.bets.bids[0], Bid(2, BidAction.RAISE, 9))
    refused(bets(state, bids=bids), B + "bids[1]", "up to 5")


def test_statuses_follow_the_bids() -> None:
    state = bidding()
    statuses = (Status.FOLDED, *state.bets.statuses[1:])
    refused(bets(state, statuses=statuses), B + "statuses", "not what the bids give")


def test_the_last_aggressor_follows_the_bids() -> None:
    refused(bets(bidding(), last_aggressor=2), B + "last_aggressor", "not what the bids give")


def test_the_buio_block_follows_the_bids() -> None:
    refused(bets(bidding(), buio_block=True), B + "buio_block", "not what the bids give")


def test_to_act_in_the_bidding() -> None:
    state = bidding()
    assert state.to_act == 3
    refused(state._replace(to_act=0), "state.to_act", "seat 3 is to act")


def test_a_bid_that_ended_the_hand() -> None:
    state = position(players=2, bids=["open 1"])
    bids = (*state.bets.bids, Bid(0, BidAction.PASS))
    statuses = (Status.FOLDED, Status.ACTIVE)
    refused(bets(state, bids=bids, statuses=statuses), B + "bids[1]", "ended the hand")


def test_the_phase_follows_the_bids() -> None:
    state = bidding()
    refused(state._replace(phase=Phase.PLAY), P + "phase", "the phase is BIDDING")


# --------------------------------------------------------------------------- play


def test_turns_follow_the_participants() -> None:
    state = playing()
    turns = (state.turns[0]._replace(seat=2), *state.turns[1:])
    refused(state._replace(turns=turns), P + "turns[0].seat", "seat 1's")


def test_to_act_in_play() -> None:
    state = playing()
    assert state.to_act == 1
    refused(state._replace(to_act=2), "state.to_act", "seat 1 is to act")
    refused(state._replace(to_act=3), "state.to_act", "seat 1 is to act")  # folded


def test_a_draw_from_the_stock_is_not_shown() -> None:
    state = playing()
    turns = (state.turns[0]._replace(taken=card("KC")), *state.turns[1:])
    refused(state._replace(turns=turns), P + "turns[0].taken", "not shown")


def test_a_take_from_the_pile_names_its_card() -> None:
    state = playing()
    turns = (Turn(1, Source.PILE, 0, state.turns[0].discard), *state.turns[1:])
    refused(state._replace(turns=turns), P + "turns[0].taken", "is named")


def test_a_taken_card_rediscarded_in_the_log() -> None:
    state = playing()
    c = state.turns[0].discard
    turns = (Turn(1, Source.PILE, c, c), *state.turns[1:])
    refused(state._replace(turns=turns), P + "turns[0].discard", "§3.4.5")


def test_too_many_turns_from_the_pile() -> None:
    state = playing()
    c, d = card("KH"), card("KS")
    turns = tuple(Turn(s, Source.PILE, c, d) for s in (1, 2, 1, 2, 1, 2, 1))
    refused(state._replace(turns=turns, to_act=2), P + "turns[6].source", "in a row")


def test_the_taken_card_is_in_hand() -> None:
    state = playing(("take",))
    other = next(c for c in range(1, 53) if c not in state.hands[1])
    refused(state._replace(taken_card=other), P + "taken_card", "in hand")


def test_a_stock_draw_names_no_card() -> None:
    state = playing(("draw",))
    refused(state._replace(taken_card=state.hands[1][0]), P + "taken_card", "not named")


def test_a_turn_never_starts_with_an_empty_stock() -> None:
    state = playing()
    moved = state._replace(stock=(), pile=(*state.stock, *state.pile))
    refused(moved, P + "stock", "empty stock")


def test_reshuffles_at_most_the_maximum() -> None:
    refused(playing()._replace(reshuffles=2), P + "reshuffles", "at most 1")


def test_no_turn_before_the_bidding_ends() -> None:
    state = bidding()
    refused(state._replace(reshuffles=1), P + "turns", "before the bidding ends")


# --------------------------------------------------------------------------- match


def test_options_in_range() -> None:
    state = bidding()
    options = state.table.options
    broken = table(state, options=dataclasses.replace(options, max_stake=0))
    refused(broken, T + "options.max_stake", "max_stake")


def test_seats_in_range() -> None:
    refused(table(bidding(), dealer=4), T + "dealer", "out of range")


def test_generator_counter() -> None:
    refused(table(bidding(), counter=0), P + "rng.counter", "counter")


def test_a_live_match_under_its_limits() -> None:
    state = bidding()
    refused(table(state, decided_hands=12, hand_number=13), T + "decided_hands", "would be over")
    refused(table(state, void_streak=12, hand_number=13), T + "void_streak", "would be over")
    refused(table(state, end=MatchEnd.DECIDED_HANDS), T + "end", "has not ended")


def test_a_finished_match() -> None:
    state, _ = rules.deal(Options(match_hands=1, first_dealer=0), 2, 5)
    state, _ = rules.apply(state, parse("open 1"))
    state, _ = rules.apply(state, parse("pass"))
    assert state.finished and state.table.end is MatchEnd.DECIDED_HANDS
    validate(state)
    refused(table(state, end=MatchEnd.VOID_HANDS), T + "end", "VOID_HANDS")
    b = state.bets
    broken = bets(state, pot=2, carry=2, shares=(0, 2), balances=(b.balances[0], b.balances[1] - 2))
    refused(broken, B + "pot", "paid or refunded")


def test_a_hand_number_the_wire_could_not_count_on() -> None:
    """Found by the fuzz test: a hand number near 2**32 would overflow the uint32 at the
    next hand. A match has about 10**8 hands at most, so 2**31 bounds it."""
    refused(table(bidding(), hand_number=2**32 - 1), T + "hand_number", "1..2147483648")
