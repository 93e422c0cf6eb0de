"""The state of a Burraco match, as immutable values.

``State`` holds what changes move by move; ``Table`` what changes at most once a
hand. Hands, the stock, the discard pile, the pozzetti and each meld's cards are
tuples of card ids: sorted where the order means nothing (hands, melds, pozzetti),
in order where it does (the stock, top first; the discard pile, bottom first).

Sides change within a 3-player hand (§2.4), so a meld records the seat that opened
it and a side is worked out from the seats (``side_mask``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final, NamedTuple

from mazzo.games.burraco.melds import Interp, Kind, Sig, accepts, interpret
from mazzo.games.burraco.options import Options


class Stage(IntEnum):
    """Where the player to act is in his turn (§3), or OVER once the match ends."""

    ACQUIRE = 1
    MELD = 2
    OVER = 3


NO_SEAT: Final = -1
NO_CARD: Final = 0
_COMBINATION: Final = Kind.COMBINATION
#: A NamedTuple built from a tuple, without its Python ``__new__`` (rules._new).
_new: Final = tuple.__new__


class Meld(NamedTuple):
    """A meld on the table. Its id is its index in ``State.melds`` (§3.2)."""

    seat: int
    #: Sorted: a meld is a multiset; its interpretation is derived (``interp``).
    cards: tuple[int, ...]
    sig: Sig
    #: Cards that may be laid off on it alone (melds.accepts).
    accept: int
    #: A combination: the bit of its rank (the side may open no other, §3.2 rule 4); else 0.
    rank_bit: int

    @property
    def kind(self) -> Kind:
        return self.sig[0]

    @property
    def interp(self) -> Interp:
        result = interpret(self.sig)
        assert not isinstance(result, str), "a meld on the table is valid"
        return result


def new_meld(seat: int, cards: tuple[int, ...], sig: Sig) -> Meld:
    """A meld of a valid signature (the caller checked it)."""
    rank_bit = 1 << sig[1] if sig[0] is _COMBINATION else 0
    return _new(Meld, (seat, cards, sig, accepts(sig), rank_bit))


class HandScore(NamedTuple):
    """One side's score for one hand, every component (§4.2)."""

    seats: tuple[int, ...]
    melded: int
    bonuses: int
    closing: int
    in_hand: int
    no_pozzetto: int
    score: int
    pulito: int
    semipulito: int
    sporco: int


class Table(NamedTuple):
    """What stays fixed within a hand."""

    options: Options
    #: ``Deal.players``: 2, 3 or 4 (one seat each).
    players: int
    seed: int
    #: The generator's next draw number (core/shuffle.py).
    counter: int
    dealer: int
    hand_number: int
    #: Match totals: one per side (4 and 2 players), one per player (3 players).
    totals: tuple[int, ...]
    #: The last completed hand: each hand side's score, and what each match side was credited.
    last_hand: tuple[HandScore, ...] = ()
    last_credits: tuple[int, ...] = ()
    #: 3 players: the later phase of §2.4.5 (three pozzetti of 11, no pairs).
    three_pozzetti: bool = False

    @property
    def seats(self) -> int:
        return self.players


class State(NamedTuple):
    table: Table
    stage: Stage
    to_act: int
    #: One sorted tuple per seat.
    hands: tuple[tuple[int, ...], ...]
    #: Top first. Never fewer than 2 cards (§3.6).
    stock: tuple[int, ...]
    #: The discard pile, bottom first: its top card is ``pile[-1]``.
    pile: tuple[int, ...]
    melds: tuple[Meld, ...]
    #: The contents of each pozzetto (sorted), P1 first; empty once taken.
    pozzetti: tuple[tuple[int, ...], ...]
    #: Per pozzetto: the seat that took it, or NO_SEAT.
    takers: tuple[int, ...]
    #: Bit mask of the seats holding a pozzetto taken con lo scarto, still unseen (§3.4).
    locked: int = 0
    #: The code the player may not discard this turn (§3.1), or NO_CARD.
    forbidden: int = NO_CARD
    #: A DRAW left 2 cards in the stock: this turn is the hand's last (§3.6).
    last_turn: bool = False
    #: Consecutive turns that began with PICK_UP, this one included (§3.1).
    pickups: int = 0
    #: 3 players, 18 + 11 phase: the seat that took P1 and plays alone, or NO_SEAT.
    solo: int = NO_SEAT
    #: The public events of this hand so far, from its HandDealt (§7.6).
    log: tuple[Any, ...] = ()

    @property
    def finished(self) -> bool:
        return self.stage is Stage.OVER


def side_mask(state: State, seat: int) -> int:
    """Bit mask of the seats on ``seat``'s side in this hand (§2.1, §2.4.3)."""
    seats = state.table.players
    if seats == 4:
        return 0b0101 << (seat & 1)
    if seats == 2 or state.solo < 0 or state.solo == seat:
        return 1 << seat
    return 0b111 & ~(1 << state.solo)


def hand_sides(state: State) -> tuple[tuple[int, ...], ...]:
    """The sides of this hand, each a tuple of seats, ordered by their first seat."""
    seats = state.table.players
    if seats == 4:
        return ((0, 2), (1, 3))
    if seats == 2 or state.solo < 0:
        return tuple((s,) for s in range(seats))
    pair = tuple(s for s in range(3) if s != state.solo)
    return tuple(sorted(((state.solo,), pair)))


def match_sides(table: Table) -> tuple[tuple[int, ...], ...]:
    """The sides of the match totals: pairs with 4 players, each player otherwise."""
    if table.players == 4:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(table.players))


def taken_mask(state: State) -> int:
    """Bit mask of the seats that took a pozzetto this hand."""
    mask = 0
    for t in state.takers:
        if t >= 0:
            mask |= 1 << t
    return mask


def partner_of(state: State, seat: int) -> int:
    """The seat's partner in this hand, or NO_SEAT when he plays alone."""
    mask = side_mask(state, seat) & ~(1 << seat)
    return mask.bit_length() - 1 if mask else NO_SEAT
