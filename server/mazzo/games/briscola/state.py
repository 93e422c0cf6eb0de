"""The state of a Briscola match, as immutable values (briscola.md §8).

``State`` holds what changes move by move; ``Table`` what changes at most once a
hand. Cards are card ids. The hand's tricks are the flat list of cards played:
trick k is ``played[k*n:(k+1)*n]``, led by the winner of trick k-1 (trick 0 by
``next(dealer)``), so leaders and winners follow from the cards (tricks.py).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from mazzo.games.briscola.options import Options

NO_SEAT: Final = -1
NO_SIDE: Final = -1


class Phase(IntEnum):
    PLAY = 1
    OVER = 2


class HandScore(NamedTuple):
    """One side's result in one hand (§4.1)."""

    #: Card points in the side's tricks (the sides' points add up to 120).
    points: int
    tricks: int
    #: 1 if the side won the hand, 0 if it lost, or the hand was drawn.
    won: int


class Table(NamedTuple):
    """What stays fixed within a hand."""

    options: Options
    #: ``Deal.players``: 2, 3 or 4; as many seats.
    players: int
    seed: int
    #: The generator's next draw number (core/shuffle.py).
    counter: int
    dealer: int
    #: Hands dealt in this match, this one included (a drawn hand counts).
    hand_number: int
    #: Hands won per side (§4.3).
    hands_won: tuple[int, ...]
    #: The last finished hand's result per side; ``()`` before the first one ends.
    last_hand: tuple[HandScore, ...] = ()


class Trick(NamedTuple):
    """One trick: the i-th card was played by ``(leader + i) % players``."""

    leader: int
    cards: tuple[int, ...] = ()
    winner: int = NO_SEAT


class State(NamedTuple):
    table: Table
    phase: Phase
    to_act: int
    #: The card turned face up under the stock: its suit is trumps (§3.1).
    trump_card: int
    #: One tuple per seat, in canonical card order.
    hands: tuple[tuple[int, ...], ...]
    #: The stock, top first; while it is not empty its last card is ``trump_card``.
    stock: tuple[int, ...]
    #: Every card played this hand, in order.
    played: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return self.table.players
