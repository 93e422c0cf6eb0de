"""Helpers shared by the tests of maraffa-forms.md (Trionfo for five, 39 cards for three)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mazzo.core.cards import card, code
from mazzo.games.maraffa.cards import STRENGTH
from mazzo.games.registry import CODECS
from mazzo.v1 import game_pb2


def same_suit_tricks(tricks: Sequence[tuple[str, int]], first_leader: int, seats: int) -> list[str]:
    """Play orders for tricks given as (cards, winner): the winner plays the strongest
    card, the other seats the others in the order written, each trick led by the
    previous winner (the first by ``first_leader``). A trick whose cards are of one
    suit is legal for everybody; a trick whose first card is another suit's than the
    rest is legal once the others are void in the led suit (the caller's business).

    >>> same_suit_tricks([("3S 2S AS", 1)], 0, 3)
    ['2S 3S AS']
    """
    orders = []
    leader = first_leader
    for cards_text, winner in tricks:
        cards = cards_text.split()
        led_suit = cards[0][1]
        strongest = max((c for c in cards if c[1] == led_suit), key=lambda c: STRENGTH[card(c)])
        others = [c for c in cards if c != strongest]
        order = []
        for i in range(seats):
            seat = (leader + i) % seats
            order.append(strongest if seat == winner else others.pop(0))
        orders.append(" ".join(order))
        leader = winner
    return orders


def codes_of(cards: Iterable[int]) -> set[str]:
    return {code(c) for c in cards}


def wire(state: Any) -> game_pb2.GameState:
    """The wire form of a state of any Maraffa form, as a client would send it."""
    msg = game_pb2.GameState()
    CODECS["maraffa"].state_to_wire(state, 0 if state.finished else state.to_act, msg)
    return msg
