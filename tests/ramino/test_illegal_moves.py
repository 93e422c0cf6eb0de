"""Moves an engine must reject — ramino.md §8 "inputs to reject", one test per row.

Every rejection is checked three ways: ``rules.apply`` raises ``IllegalMove`` (or
``NotAllowedNow``) naming the move field at fault and saying why, the move is not
offered by ``rules.legal_moves``, and the state is left as it was (states are
immutable values, so "unchanged" means the same value is still valid and playable).

Rows that need a seat other than ``to_act`` ("any move by a seat other than to_act",
"a play move by a folded player or a non-participant") cannot be written in-process,
where the engine plays for ``to_act``; they are states whose ``to_act`` is wrong,
refused by validation (test_invalid_states.py) and through gRPC
(test_worked_examples_grpc.py).
"""

from __future__ import annotations

import pytest

from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow, RulesError
from mazzo.games.ramino import rules
from mazzo.games.ramino.moves import Move, parse
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.positions import position
from mazzo.games.ramino.state import Phase, State
from mazzo.games.ramino.validate import validate

M = "move.ramino."
TAX = Options(dealer_tax=1, max_stake=6)


def refused(
    state: State, move: str | Move, field: str, because: str, error: type[RulesError] = IllegalMove
) -> None:
    move = parse(move) if isinstance(move, str) else move
    assert move not in rules.legal_moves(state)
    with pytest.raises(error) as caught:
        rules.apply(state, move)
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value
    validate(state)  # untouched and still valid
    assert rules.legal_moves(state) or state.finished


def bidding(options: Options | None = None, bids: tuple[str, ...] = ()) -> State:
    """4 players, dealer 0: seat 1 speaks first."""
    return position(players=4, dealer=0, options=options, bids=list(bids))


def in_play(then: tuple[str, ...] = (), **kw: object) -> State:
    """2 players, dealer 0: seat 1 opens 1, seat 0 accepts; seat 1 plays first."""
    return position(players=2, bids=["open 1", "accept"], then=list(then), **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- buio


def test_buio_without_a_dealer_tax() -> None:
    refused(bidding(), "buio", M + "buio", "no buio in this match")


def test_buio_when_the_option_is_off() -> None:
    refused(bidding(Options(dealer_tax=1, buio=False)), "buio", M + "buio", "no buio")


def test_buio_after_the_bidding_started() -> None:
    state = bidding(TAX, ("no-buio",))
    assert state.phase is Phase.BIDDING
    refused(state, "buio", M + "buio", "only before the bidding")
    refused(state, "no-buio", M + "no_buio", "only before the bidding")
    # Later in the bidding, by another seat, it is refused the same way.
    later = bidding(TAX, ("no-buio", "open 1"))
    assert later.to_act == 2
    refused(later, "buio", M + "buio", "only before the bidding")


def test_only_buio_or_no_buio_before_the_bidding() -> None:
    state = bidding(TAX)
    assert state.phase is Phase.BUIO_DECISION
    refused(state, "open 1", M + "open_bid.amount", "must first choose")
    refused(state, "pass", M + "pass_bid", "must first choose")
    refused(state, "draw", M + "draw", "still in its bidding")


def test_deal_refuses_a_buio_above_the_maximum() -> None:
    """§3.2: options with buio on and 2 x dealer_tax > max_stake are refused by Deal."""
    with pytest.raises(InvalidArgument) as caught:
        rules.deal(Options(dealer_tax=3, max_stake=5), 4, 1)
    assert caught.value.field == "options.ramino.buio"
    # With buio off the same tax is fine.
    rules.deal(Options(dealer_tax=3, max_stake=5, buio=False), 4, 1)


# --------------------------------------------------------------------------- bidding moves


def test_open_when_already_open() -> None:
    refused(bidding(bids=("open 1",)), "open 2", M + "open_bid.amount", "already open")


@pytest.mark.parametrize("amount", [0, 6, 99])
def test_open_out_of_range(amount: int) -> None:
    refused(bidding(), f"open {amount}", M + "open_bid.amount", "an opening is 1..5")


def test_open_below_min_open() -> None:
    state = bidding(Options(min_open=2))
    refused(state, "open 1", M + "open_bid.amount", "an opening is 2..5")


def test_accept_with_nothing_to_accept() -> None:
    refused(bidding(), "accept", M + "accept_bid", "nothing to accept")


@pytest.mark.parametrize(("amount", "why"), [(2, "above 2"), (1, "above 2"), (6, "up to 5")])
def test_raise_out_of_range(amount: int, why: str) -> None:
    refused(bidding(bids=("open 2",)), f"raise {amount}", M + "raise_bid.amount", why)


def test_raise_before_an_opening() -> None:
    refused(bidding(), "raise 2", M + "raise_bid.amount", "nobody has opened")


def test_raise_while_the_buio_blocks_it() -> None:
    state = bidding(TAX, ("buio",))
    assert state.to_act == 2 and state.bets.buio_block
    refused(state, "raise 3", M + "raise_bid.amount", "blocked by the buio")


def test_stand_by_anyone_but_the_blocked_buio_player() -> None:
    refused(bidding(bids=("open 1",)), "stand", M + "stand_bid", "only the buio player")
    refused(bidding(TAX, ("buio",)), "stand", M + "stand_bid", "only the buio player")


def test_the_blocked_buio_player_may_only_stand_or_raise() -> None:
    state = bidding(TAX, ("buio", "accept", "accept", "accept"))
    assert state.to_act == 1 and state.bets.buio_block
    refused(state, "pass", M + "pass_bid", "must stand or raise")
    refused(state, "accept", M + "accept_bid", "must stand or raise")


def test_no_credit_limits_what_a_player_may_put_in() -> None:
    """§4.3 allow_credit = false: no opening, acceptance or raise beyond the balance."""
    options = Options(allow_credit=False, max_stake=10, starting_chips=20)
    state = position(players=2, options=options, balances=(32, 8))
    assert state.to_act == 1  # with 8 chips
    refused(state, "open 9", M + "open_bid.amount", "more than the balance")
    assert str(rules.legal_moves(state)[-1]) == "open 8"
    opened = position(players=2, options=options, balances=(8, 32), bids=["open 10"])
    refused(opened, "accept", M + "accept_bid", "more than the balance")
    assert [str(m) for m in rules.legal_moves(opened)] == ["pass"]


# --------------------------------------------------------------------------- phase


def test_a_bidding_move_after_the_bidding() -> None:
    state = in_play()
    for move, field in (
        ("pass", "pass_bid"),
        ("open 1", "open_bid.amount"),
        ("accept", "accept_bid"),
    ):
        refused(state, move, M + field, "bidding is over")


def test_a_play_move_during_the_bidding() -> None:
    state = bidding(bids=("open 1",))
    refused(state, "draw", M + "draw", "still in its bidding")
    refused(state, "take", M + "take_discard", "still in its bidding")
    refused(state, f"discard {'AS'}", M + "discard.card", "still in its bidding")


# --------------------------------------------------------------------------- turns


def test_discard_or_close_before_taking() -> None:
    state = in_play()
    card = state.hands[1][0]
    refused(state, Move(parse("discard AS").kind, card=card), M + "discard.card", "take a card")
    refused(state, Move(parse("close").kind, card=card), M + "close.discard", "take a card")


def test_a_second_draw_or_take() -> None:
    state = in_play(then=("draw",))
    refused(state, "draw", M + "draw", "already taken")
    refused(state, "take", M + "take_discard", "already taken")


def test_take_from_an_empty_pile() -> None:
    """A turn never starts with an empty pile (validation refuses it); the engine also
    refuses the move itself."""
    state = in_play()._replace(pile=())
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse("take"))
    assert caught.value.field == M + "take_discard" and "empty" in caught.value.reason


def test_take_after_three_turns_a_player_from_the_pile() -> None:
    state = position(
        players=2,
        bids=["open 1", "accept"],
        hands={1: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"},
        pile="KD",
        turns=[
            f"take {a} discard {b}"
            for a, b in zip(
                ["KD", "AS", "AH", "2S", "2H", "3S"],
                ["AS", "AH", "2S", "2H", "3S", "3H"],
                strict=True,
            )
        ],
    )
    refused(state, "take", M + "take_discard", "three turns in a row")


def test_discard_a_card_not_in_hand() -> None:
    state = in_play(then=("draw",))
    missing = next(c for c in range(1, 53) if c not in state.hands[1])
    refused(state, Move(parse("discard AS").kind, card=missing), M + "discard.card", "not in hand")


def test_re_discard_the_card_taken() -> None:
    state = in_play(pile="9H", then=("take",))
    refused(state, "discard 9H", M + "discard.card", "just taken from the pile")
    refused(state, "close 9H", M + "close.discard", "just taken from the pile")


# --------------------------------------------------------------------------- closing


SIMPLE = "4S 5S 6S 7S 9H 9D 9C QS QH QC"


def test_close_leaving_no_closure() -> None:
    state = in_play(hands={1: "AS 3H 5D 7C 9S JH KD 2C 4S 6H"}, stock="QC", then=("draw",))
    refused(state, "close QC", M + "close.discard", "not a closure")


def test_close_without_a_discard_on_a_ten_card_table() -> None:
    state = in_play(hands={1: SIMPLE}, stock="2D", then=("draw",))
    refused(state, "close", M + "close.discard", "name the discard")


def test_close_with_a_discard_on_a_nine_card_table() -> None:
    state = in_play(
        options=Options(hand_size=9),
        hands={1: "4S 5S 6S 9H 9D 9C QS QH QC"},
        stock="7S",
        then=("draw",),
    )
    refused(state, "close 7S", M + "close.discard", "without a discard")


def test_close_with_more_than_one_joker() -> None:
    state = in_play(hands={1: SIMPLE}, stock="2D", then=("draw",))
    two = parse("close 2D joker 4S=4S joker 5S=5S")
    refused(state, two, M + "close.jokers", "at most 1")
    one = parse("close 2D joker 4S=4S")  # documented only: not checked, accepted
    rules.apply(state, one)
    none_allowed = in_play(
        options=Options(imaginary_jokers=0), hands={1: SIMPLE}, stock="2D", then=("draw",)
    )
    refused(none_allowed, one, M + "close.jokers", "at most 0")


# --------------------------------------------------------------------------- over


@pytest.mark.parametrize("move", ["pass", "open 1", "draw", "discard AS", "close 2D", "buio"])
def test_moves_after_the_match_has_ended(move: str) -> None:
    state, _ = rules.deal(Options(match_hands=1, first_dealer=0), 2, 5)
    state, _ = rules.apply(state, parse("open 1"))
    state, _ = rules.apply(state, parse("pass"))  # uncontested: the one decided hand
    assert state.finished
    assert rules.legal_moves(state) == ()
    refused(state, move, "move", "the match is over", NotAllowedNow)
