"""Ramino's deals as chance events (``rl.chance_deals``): a deal places the hands,
the card turned up and the stock; a reshuffle of the pile places the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.games.ramino import events as ramino_events
from mazzo.games.ramino.validate import validate as ramino_validate
from mazzo.rl.chance_deals import PILE, STOCK, CodeDeals, Deal, hands_pile_stock, split


class RaminoDeals(CodeDeals):
    """A deal: the hands, the card turned up and the stock; a reshuffle: the stock."""

    def __init__(self) -> None:
        super().__init__(52)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        kinds = {type(e) for e in events}
        if ramino_events.HandDealt in kinds:
            owners, cards = hands_pile_stock(state)
            return Deal(tuple(owners), tuple(sorted(cards)))
        if ramino_events.StockReshuffled in kinds:
            stock = state.stock
            return Deal((STOCK,) * len(stock), tuple(sorted(stock)), new_hand=False)
        return None

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        placed = split(deal, cards)
        new = state._replace(stock=tuple(placed.get(STOCK, ())))
        if deal.new_hand:
            new = new._replace(
                hands=tuple(tuple(sorted(placed.get(s, ()))) for s in range(len(state.hands))),
                pile=tuple(placed[PILE]),
            )
        ramino_validate(new)
        return new
