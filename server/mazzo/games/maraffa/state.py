"""The state of a Maraffa match, as immutable values.

``State`` holds what changes move by move; ``Table`` what changes at most once a
hand. Splitting them keeps a card play cheap: it builds one small tuple and
shares the table. Cards are card ids; hands are masks (see cards.py); the hand's
tricks are the flat list of cards played (see tricks.py for leaders and winners).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from mazzo.games.maraffa.options import Options


class Phase(IntEnum):
    TRUMP = 1
    PLAY = 2
    OVER = 3


NO_SEAT: Final = -1
NO_SUIT: Final = -1


class Trick(NamedTuple):
    """One trick: the i-th card was played by ``(leader + i) % seats``."""

    leader: int
    cards: tuple[int, ...] = ()
    signals: tuple[int, ...] = ()
    winner: int = NO_SEAT


class HandScore(NamedTuple):
    """One side's score for one hand, every component (maraffa.md §4.1)."""

    aces: int
    third_cards: int
    last_trick: int
    thirds: int
    card_points: int
    marafona_bonus: int
    #: In match units: whole points, or thirds with ``keep_thirds``.
    hand_score: int


class ClaimResult(NamedTuple):
    seat: int
    team: int
    value: int
    needed: int
    valid: bool


class Table(NamedTuple):
    """What stays fixed within a hand."""

    options: Options
    #: ``Deal.players``: 2, 3 (four seats, one a dummy; or three with 39 cards) or 4.
    players: int
    seats: int
    seed: int
    #: The generator's next draw number (core/shuffle.py).
    counter: int
    dealer: int
    battezzante: int
    hand_number: int
    game_number: int
    games_won: tuple[int, ...]
    #: Match totals of this game per side, in match units.
    totals: tuple[int, ...]
    #: In match units (points, or thirds with ``keep_thirds``).
    effective_target: int
    redeal_requests: tuple[int, ...] = ()
    last_hand: tuple[HandScore, ...] = ()
    last_claim: ClaimResult | None = None


class State(NamedTuple):
    table: Table
    phase: Phase
    to_act: int
    trump: int
    #: One mask per seat (cards.py).
    hands: tuple[int, ...]
    #: Every card played this hand, in order: trick k is ``played[k*seats:(k+1)*seats]``,
    #: led by the winner of trick k-1 (trick 0 by the battezzante). Leaders and
    #: winners follow from the cards, so they are not stored (tricks.py).
    played: tuple[int, ...] = ()
    #: Parallel to ``played``: the signal of each play, 0 for none.
    signals: tuple[int, ...] = ()
    #: 2 players: the stock (top first) and every card drawn this hand, in order.
    stock: tuple[int, ...] = ()
    drawn: tuple[int, ...] = ()
    marafona_seat: int = NO_SEAT
    #: Per side, what its tricks of this hand hold, as ``aces * 256 + third-cards``,
    #: plus ``1 << 16`` for the side that won the last trick.
    #: It follows from ``played`` (``scoring.tally``); ``apply`` keeps it up to date
    #: so that scoring a hand does not replay its tricks. ``()``: not yet counted.
    won: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def completed(self) -> int:
        """Number of completed tricks in this hand."""
        return len(self.played) // self.table.seats

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards of the trick being played."""
        return self.played[self.completed * self.table.seats :]


def team_of(seat: int) -> int:
    """Side of a seat: partners sit opposite (s mod 2); with two seats, each alone."""
    return seat % 2


def side_of(seat: int, seats: int) -> int:
    """Side of a seat at a table of ``seats``: with three seats (39 cards), each alone."""
    return seat if seats == 3 else seat % 2


def sides_of(seats: int) -> int:
    """Number of sides: two teams (or two players), or three players each alone."""
    return 3 if seats == 3 else 2
