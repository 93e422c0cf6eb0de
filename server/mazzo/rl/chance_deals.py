"""A deal as a run of chance events, card by card (for OpenSpiel's chance nodes).

The engines deal from the seed their state carries. Game-theory code wants the deal
as chance outcomes with their probabilities instead, so here each hidden place a
deal fills (a card of a hand, a place in the 2-player stock, in ``slots`` order) is
given a card drawn uniformly from the cards not placed yet, and the engine's own deal
is then replaced by those cards (``place``), with what the rules derive from a deal
(the first battezzante, the first speaker) worked out again. Every deal of the cards
to the places is equally likely, as with the engine's shuffle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from mazzo.games.maraffa.cards import BIT, DECK, FOUR_OF_COINS, cards_of
from mazzo.games.maraffa.events import HandDealt
from mazzo.games.maraffa.state import State
from mazzo.games.maraffa.trionfo_events import DealDealt
from mazzo.games.maraffa.trionfo_state import TrionfoState
from mazzo.games.maraffa.trionfo_validate import validate as trionfo_validate
from mazzo.games.maraffa.validate import validate

#: The owner of a place in the 2-player stock (a seat otherwise).
STOCK = -1


class Deal(NamedTuple):
    """The places a deal fills, in the order chance fills them, and its cards."""

    #: Per place: the seat whose hand it is in, or STOCK (stock order: top first).
    owners: tuple[int, ...]
    #: The cards dealt, sorted.
    cards: tuple[int, ...]


class ChanceDeals(Protocol):
    """A game's deals as chance events. Outcomes are ``0 .. outcomes - 1``."""

    outcomes: int

    def dealt(self, events: Sequence[Any]) -> bool:
        """Whether these events (of one move) dealt a new hand."""
        ...

    def slots(self, state: Any) -> Deal:
        """The places of the hand just dealt in ``state`` and the cards they hold."""
        ...

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        """``state`` with its deal replaced: ``cards[i]`` in place ``deal.owners[i]``."""
        ...

    def outcome_of(self, card: int) -> int: ...

    def card_of(self, outcome: int) -> int: ...


class MaraffaDeals:
    """Every Maraffa form: hands of 40-bit masks, the 2-player stock."""

    outcomes = len(DECK)

    def dealt(self, events: Sequence[Any]) -> bool:
        return any(type(e) is HandDealt or type(e) is DealDealt for e in events)

    def slots(self, state: Any) -> Deal:
        owners: list[int] = []
        cards: list[int] = []
        for seat, mask in enumerate(state.hands):
            owners += [seat] * mask.bit_count()
            cards += cards_of(mask)
        stock = state.stock if type(state) is State else ()
        owners += [STOCK] * len(stock)
        return Deal(tuple(owners), tuple(sorted((*cards, *stock))))

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        hands = [0] * len(state.hands)
        stock = []
        for owner, c in zip(deal.owners, cards, strict=True):
            if owner == STOCK:
                stock.append(c)
            else:
                hands[owner] |= BIT[c]
        if type(state) is TrionfoState:
            return _place_trionfo(state, tuple(hands))
        assert isinstance(state, State)
        table = state.table
        battezzante = table.battezzante
        if table.hand_number == 1:  # the holder of 4D (rules.py, _deal_hand)
            four = BIT[FOUR_OF_COINS]
            first = (table.dealer + 1) % table.seats
            battezzante = next((s for s, h in enumerate(hands) if h & four), first)
        placed = state._replace(
            table=table._replace(battezzante=battezzante),
            to_act=battezzante,
            hands=tuple(hands),
            stock=tuple(stock),
        )
        validate(placed)
        return placed

    def outcome_of(self, card: int) -> int:
        return BIT[card].bit_length() - 1

    def card_of(self, outcome: int) -> int:
        return DECK[outcome]


def _place_trionfo(state: TrionfoState, hands: tuple[int, ...]) -> TrionfoState:
    """Deal 1's first speaker holds the option's card (trionfo.py, _deal)."""
    table = state.table
    first = table.first_speaker
    if table.deal_number == 1:
        bit = BIT[table.options.trionfo_first_speaker_card]
        first = next(s for s, h in enumerate(hands) if h & bit)
    placed = state._replace(table=table._replace(first_speaker=first), to_act=first, hands=hands)
    trionfo_validate(placed)
    return placed


def deals_for(game: str) -> ChanceDeals:
    if game == "maraffa":
        return MaraffaDeals()
    raise ValueError(f"{game}: its deals are not chance events yet (docs/rl.md)")
