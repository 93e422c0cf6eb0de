"""Maraffa's deals as chance events (``rl.chance_deals``): every form, hands of
40-bit masks, the 2-player stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.games.maraffa.cards import BIT, DECK, FOUR_OF_COINS, cards_of
from mazzo.games.maraffa.events import HandDealt
from mazzo.games.maraffa.state import State
from mazzo.games.maraffa.trionfo.events import DealDealt
from mazzo.games.maraffa.trionfo.state import TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate as trionfo_validate
from mazzo.games.maraffa.validate import validate
from mazzo.games.roles import PackDeals
from mazzo.rl.chance_deals import STOCK, Deal, split


class MaraffaDeals(PackDeals):
    """Every Maraffa form: hands of 40-bit masks, the 2-player stock. Its outcomes are
    the deck's indexes, a card's bit in a mask."""

    def __init__(self) -> None:
        super().__init__("Maraffa", DECK)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        if not any(type(e) is HandDealt or type(e) is DealDealt for e in events):
            return None
        owners: list[int] = []
        cards: list[int] = []
        for seat, mask in enumerate(state.hands):
            owners += [seat] * mask.bit_count()
            cards += cards_of(mask)
        stock = state.stock if type(state) is State else ()
        owners += [STOCK] * len(stock)
        return Deal(tuple(owners), tuple(sorted((*cards, *stock))))

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        placed = split(deal, cards)
        hands = tuple(sum(BIT[c] for c in placed.get(s, ())) for s in range(len(state.hands)))
        if type(state) is TrionfoState:
            return _place_trionfo(state, hands)
        assert isinstance(state, State)
        table = state.table
        battezzante = table.battezzante
        if table.hand_number == 1:  # the holder of 4D (rules.py, _deal_hand)
            four = BIT[FOUR_OF_COINS]
            first = (table.dealer + 1) % table.seats
            battezzante = next((s for s, h in enumerate(hands) if h & four), first)
        new = state._replace(
            table=table._replace(battezzante=battezzante),
            to_act=battezzante,
            hands=hands,
            stock=tuple(placed.get(STOCK, ())),
        )
        validate(new)
        return new


def _place_trionfo(state: TrionfoState, hands: tuple[int, ...]) -> TrionfoState:
    """Deal 1's first speaker holds the option's card (trionfo/rules.py, _deal)."""
    table = state.table
    first = table.first_speaker
    if table.deal_number == 1:
        bit = BIT[table.options.trionfo_first_speaker_card]
        first = next(s for s, h in enumerate(hands) if h & bit)
    new = state._replace(table=table._replace(first_speaker=first), to_act=first, hands=hands)
    trionfo_validate(new)
    return new
