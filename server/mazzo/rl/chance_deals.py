"""Deals and reshuffles as runs of chance events, card by card (OpenSpiel's chance nodes).

The engines deal from the seed their state carries. Game-theory code wants each deal
as chance outcomes with their probabilities instead, so here each hidden place a deal
fills (a card of a hand, the card turned up, a place in a pozzetto or in the stock,
in ``Deal.owners`` order) is given a card drawn uniformly from the cards not placed
yet, and the engine's own deal is then replaced by those cards (``place``), with what
the rules derive from a deal (the first battezzante, the first speaker) worked out
again. Every deal of the cards to the places is equally likely, as with the engine's
shuffle. A Ramino reshuffle of the pile into the stock is such a run too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

#: Owners of the places that are not a seat's hand (a seat's hand: the seat).
STOCK = -1
PILE = -2
#: Burraco's pozzetto k is owner ``POZZETTO - k``.
POZZETTO = -3


class Deal(NamedTuple):
    """The places a run of chance fills, in order, and the cards it places."""

    #: Per place: a seat (its hand), STOCK (stock order, top first), PILE or a pozzetto.
    owners: tuple[int, ...]
    #: The cards placed, sorted (a multiset where the pack has copies).
    cards: tuple[int, ...]
    #: A new hand (a deal), not a reshuffle within one.
    new_hand: bool = True


class ChanceDeals(Protocol):
    """A game's deals as chance events. Outcomes are ``0 .. outcomes - 1``."""

    outcomes: int

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        """What chance is to place after a move with these events, or None."""
        ...

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        """``state`` with ``cards[i]`` in place ``deal.owners[i]``, checked."""
        ...

    def outcome_of(self, card: int) -> int: ...

    def card_of(self, outcome: int) -> int: ...


def split(deal: Deal, cards: Sequence[int]) -> dict[int, list[int]]:
    """The cards of each owner, in place order."""
    out: dict[int, list[int]] = {}
    for owner, c in zip(deal.owners, cards, strict=True):
        out.setdefault(owner, []).append(c)
    return out


class CodeDeals:
    """Packs of card codes 1..``outcomes`` with copies; hands are sorted tuples."""

    def __init__(self, outcomes: int) -> None:
        self.outcomes = outcomes

    def outcome_of(self, card: int) -> int:
        return card - 1

    def card_of(self, outcome: int) -> int:
        return outcome + 1


def hands_pile_stock(state: Any) -> tuple[list[int], list[int]]:
    """The places and cards of the hands, the card turned up and the stock."""
    owners: list[int] = []
    cards: list[int] = []
    for seat, hand in enumerate(state.hands):
        owners += [seat] * len(hand)
        cards += hand
    owners += [PILE] * len(state.pile) + [STOCK] * len(state.stock)
    cards += [*state.pile, *state.stock]
    return owners, cards
