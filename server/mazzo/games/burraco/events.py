"""What a move caused, as small records (the wire ``BurracoEvent``).

Every event is public: a draw does not name its card, a pozzetto taken does not show
its cards. The cards left in the hands are shown only when the hand ends
(``HandEnded``), as at the table for the count. A state keeps the events of its
hand (``State.log``), which is the public history of §7.6.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.games.burraco.melds import Kind
from mazzo.games.burraco.state import HandScore


class HandDealt(NamedTuple):
    hand_number: int
    dealer: int
    #: The card turned up to start the discard pile.
    up_card: int
    #: The sizes of the pozzetti, P1 first.
    pozzetti: tuple[int, ...]


class Drew(NamedTuple):
    seat: int


class PileTaken(NamedTuple):
    seat: int
    #: The whole discard pile, bottom first.
    cards: tuple[int, ...]


class MeldOpened(NamedTuple):
    seat: int
    meld_id: int
    cards: tuple[int, ...]
    kind: Kind


class LaidOff(NamedTuple):
    seat: int
    meld_id: int
    cards: tuple[int, ...]


class Discarded(NamedTuple):
    seat: int
    card: int


class PozzettoTaken(NamedTuple):
    seat: int
    #: 0 for P1, 1 for P2, 2 for P3.
    pozzetto: int
    size: int
    #: True: taken in diretta (seen at once); False: con lo scarto (unseen for now).
    in_diretta: bool


class PozzettoUnlocked(NamedTuple):
    """A pozzetto taken con lo scarto may now be seen by its owner (§3.4)."""

    seat: int


class PairFormed(NamedTuple):
    """3 players: the first to empty his hand plays alone, the others as a pair (§2.4.3)."""

    solo: int
    pair: tuple[int, ...]


class LastTurn(NamedTuple):
    """A draw left two cards in the stock: this turn is the hand's last (§3.6)."""

    seat: int


class Closed(NamedTuple):
    seat: int


class HandEnded(NamedTuple):
    #: The seat that closed, or -1 when the stock ran out.
    closer: int
    #: Every seat's cards left in hand, shown for the count.
    hands: tuple[tuple[int, ...], ...]


class HandScored(NamedTuple):
    #: One per side of the hand (§4.2).
    scores: tuple[HandScore, ...]
    #: What each match side was credited (3 players: half the pair's score, rounded up).
    credits: tuple[int, ...]
    #: Match totals after this hand, per match side.
    totals: tuple[int, ...]


class PhaseChanged(NamedTuple):
    """3 players: from the next hand on, three pozzetti of 11 and no pairs (§2.4.5)."""

    three_pozzetti: bool


class MatchEnded(NamedTuple):
    #: The winning match side, or none when the match is drawn (§4.3).
    winners: tuple[int, ...]
    totals: tuple[int, ...]


Event = (
    HandDealt
    | Drew
    | PileTaken
    | MeldOpened
    | LaidOff
    | Discarded
    | PozzettoTaken
    | PozzettoUnlocked
    | PairFormed
    | LastTurn
    | Closed
    | HandEnded
    | HandScored
    | PhaseChanged
    | MatchEnded
)
