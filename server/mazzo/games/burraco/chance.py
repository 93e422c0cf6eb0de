"""Burraco's deals as chance events (``rl.chance_deals``): the hands, the card turned
up, the pozzetti and the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.games.burraco import events as burraco_events
from mazzo.games.burraco.validate import validate as burraco_validate
from mazzo.rl.chance_deals import PILE, POZZETTO, STOCK, CodeDeals, Deal, hands_pile_stock, split


class BurracoDeals(CodeDeals):
    """The hands, the card turned up, the pozzetti and the stock."""

    def __init__(self) -> None:
        super().__init__(53)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        if not any(type(e) is burraco_events.HandDealt for e in events):
            return None
        owners, cards = hands_pile_stock(state)
        for k, pozzetto in enumerate(state.pozzetti):
            owners += [POZZETTO - k] * len(pozzetto)
            cards += pozzetto
        return Deal(tuple(owners), tuple(sorted(cards)))

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        placed = split(deal, cards)
        (up,) = placed[PILE]
        dealt = state.log[0]._replace(up_card=up)
        new = state._replace(
            hands=tuple(tuple(sorted(placed.get(s, ()))) for s in range(len(state.hands))),
            stock=tuple(placed.get(STOCK, ())),
            pile=(up,),
            pozzetti=tuple(
                tuple(sorted(placed.get(POZZETTO - k, ()))) for k in range(len(state.pozzetti))
            ),
            log=(dealt, *state.log[1:]),
        )
        burraco_validate(new)
        return new
