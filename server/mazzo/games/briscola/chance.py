"""Briscola's deals as chance events (``rl.chance_deals``): a hand's deal places the
hands, the trump card turned up and the stock above it, the whole pack at once.

The trump card is the card turned up (owner ``PILE``, as Ramino's first pile card):
it makes trumps and lies face up under the stock, so its place is the stock's last
and ``place`` puts it there. The draws during the hand are no chance events of their
own: the engine fixes the stock's order at the deal and draws from it in the same
``apply`` that completes a trick, so the stock is placed with the hands, as Maraffa's
2-player stock is. Nothing is lost by it: a view shows only the stock's size, so no
seat can tell one order of the unseen cards from another (a search resamples them
with ``Determinize``), and placing each card uniformly from those left gives every
order of the pack the same chance, as the engine's shuffle does. One run is 40
places a hand (39 with three players).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.games.briscola.cards import DECK
from mazzo.games.briscola.events import HandDealt
from mazzo.games.briscola.state import State
from mazzo.games.briscola.validate import validate
from mazzo.games.roles import PackDeals
from mazzo.rl.chance_deals import PILE, STOCK, Deal, split


class BriscolaDeals(PackDeals):
    """A deal: the hands, the trump card turned up, the stock above it (top first).
    Its outcomes are the deck's indexes (0..39, canonical order)."""

    def __init__(self) -> None:
        super().__init__("Briscola", DECK)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        if not any(type(e) is HandDealt for e in events):
            return None
        assert isinstance(state, State)
        owners: list[int] = []
        cards: list[int] = []
        for seat, hand in enumerate(state.hands):
            owners += [seat] * len(hand)
            cards += hand
        above = state.stock[:-1]  # the trump card is the stock's last
        owners += [PILE] + [STOCK] * len(above)
        cards += [state.trump_card, *above]
        return Deal(tuple(owners), tuple(sorted(cards)))

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        assert isinstance(state, State)
        placed = split(deal, cards)
        (trump_card,) = placed[PILE]
        new = state._replace(
            trump_card=trump_card,
            hands=tuple(tuple(sorted(placed.get(s, ()))) for s in range(state.players)),
            stock=(*placed.get(STOCK, ()), trump_card),
        )
        validate(new)
        return new
