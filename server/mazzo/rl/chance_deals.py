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

from mazzo.games.burraco import events as burraco_events
from mazzo.games.burraco.validate import validate as burraco_validate
from mazzo.games.maraffa.cards import BIT, DECK, FOUR_OF_COINS, cards_of
from mazzo.games.maraffa.events import HandDealt
from mazzo.games.maraffa.state import State
from mazzo.games.maraffa.trionfo.events import DealDealt
from mazzo.games.maraffa.trionfo.state import TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate as trionfo_validate
from mazzo.games.maraffa.validate import validate
from mazzo.games.ramino import events as ramino_events
from mazzo.games.ramino.validate import validate as ramino_validate

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


def _split(deal: Deal, cards: Sequence[int]) -> dict[int, list[int]]:
    """The cards of each owner, in place order."""
    out: dict[int, list[int]] = {}
    for owner, c in zip(deal.owners, cards, strict=True):
        out.setdefault(owner, []).append(c)
    return out


class MaraffaDeals:
    """Every Maraffa form: hands of 40-bit masks, the 2-player stock."""

    outcomes = len(DECK)

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
        placed = _split(deal, cards)
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

    def outcome_of(self, card: int) -> int:
        return BIT[card].bit_length() - 1

    def card_of(self, outcome: int) -> int:
        return DECK[outcome]


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


class _CodeDeals:
    """Packs of card codes 1..``outcomes`` with copies; hands are sorted tuples."""

    def __init__(self, outcomes: int) -> None:
        self.outcomes = outcomes

    def outcome_of(self, card: int) -> int:
        return card - 1

    def card_of(self, outcome: int) -> int:
        return outcome + 1


def _hands_pile_stock(state: Any) -> tuple[list[int], list[int]]:
    """The places and cards of the hands, the card turned up and the stock."""
    owners: list[int] = []
    cards: list[int] = []
    for seat, hand in enumerate(state.hands):
        owners += [seat] * len(hand)
        cards += hand
    owners += [PILE] * len(state.pile) + [STOCK] * len(state.stock)
    cards += [*state.pile, *state.stock]
    return owners, cards


class BurracoDeals(_CodeDeals):
    """The hands, the card turned up, the pozzetti and the stock."""

    def __init__(self) -> None:
        super().__init__(53)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        if not any(type(e) is burraco_events.HandDealt for e in events):
            return None
        owners, cards = _hands_pile_stock(state)
        for k, pozzetto in enumerate(state.pozzetti):
            owners += [POZZETTO - k] * len(pozzetto)
            cards += pozzetto
        return Deal(tuple(owners), tuple(sorted(cards)))

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        placed = _split(deal, cards)
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


class RaminoDeals(_CodeDeals):
    """A deal: the hands, the card turned up and the stock; a reshuffle: the stock."""

    def __init__(self) -> None:
        super().__init__(52)

    def deal_of(self, state: Any, events: Sequence[Any]) -> Deal | None:
        kinds = {type(e) for e in events}
        if ramino_events.HandDealt in kinds:
            owners, cards = _hands_pile_stock(state)
            return Deal(tuple(owners), tuple(sorted(cards)))
        if ramino_events.StockReshuffled in kinds:
            stock = state.stock
            return Deal((STOCK,) * len(stock), tuple(sorted(stock)), new_hand=False)
        return None

    def place(self, state: Any, deal: Deal, cards: Sequence[int]) -> Any:
        placed = _split(deal, cards)
        new = state._replace(stock=tuple(placed.get(STOCK, ())))
        if deal.new_hand:
            new = new._replace(
                hands=tuple(tuple(sorted(placed.get(s, ()))) for s in range(len(state.hands))),
                pile=tuple(placed[PILE]),
            )
        ramino_validate(new)
        return new


def deals_for(game: str) -> ChanceDeals:
    if game == "maraffa":
        return MaraffaDeals()
    if game == "burraco":
        return BurracoDeals()
    if game == "ramino":
        return RaminoDeals()
    raise ValueError(f"no chance deals for game {game!r}")
