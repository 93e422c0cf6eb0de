"""Briscola's options (briscola.md §5), resolved: every default filled in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mazzo.core.cards import card
from mazzo.core.rules import Reduced, reduce_frozen

PLAYER_COUNTS: Final = (2, 3, 4)
DEFAULT_PLAYERS: Final = 2
TWO_OF_CLUBS: Final = card("2C")
#: A match needs at most this many hands won by one side (a bound for the wire and
#: for ``moves_bound``; the documented matches are 1, 2 (best of three) and 3).
MAX_HANDS_TO_WIN: Final = 1000


@dataclass(frozen=True, slots=True)
class Options:
    """The rules in force for one match. ``first_dealer`` None means: by the seed."""

    #: The match ends when a side has won this many hands (§4.3).
    hands_to_win: int = 1
    #: Three players: the two taken out of the pack (a card id, §2.2).
    removed_two: int = TWO_OF_CLUBS
    #: Four players: once the stock is empty, partners see each other's hands (§2.3.3).
    partners_show_hands: bool = False
    first_dealer: int | None = None

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


def sides_of(players: int) -> int:
    """Two partnerships with four players; otherwise each player for himself."""
    return 2 if players == 4 else players


def side_of(seat: int, players: int) -> int:
    """Partners sit opposite: side ``seat mod 2`` with four players, else the seat."""
    return seat % 2 if players == 4 else seat


def side_seats(side: int, players: int) -> tuple[int, ...]:
    return (side, side + 2) if players == 4 else (side,)
