"""The state of a Trionfo match (Maraffa for five, maraffa-forms.md A), as immutable values.

As in the four-player engine (../state.py), ``TrionfoState`` holds what changes move by
move and ``TrionfoTable`` what changes at most once a deal; hands are 40-bit masks
(../cards.py) and the deal's tricks are the flat list of cards played. Whatever follows
from other fields is not stored, so that it cannot disagree with them: the seat of
each speech of the auction, the declarer and the contract follow from the speeches
(auction.py), and the partner (*amico*) is whoever holds or played the
called card.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from mazzo.games.maraffa.options import Options
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, HandScore

SEATS: Final = 5
TRICKS: Final = 8
CARDS_EACH: Final = 8
#: A speech of the auction is a contract level (moves.Contract), or this for a pass.
PASSED: Final = 0
#: No called card (contracts other than CHIAMO, and before the declaration).
NO_CARD: Final = 0

__all__ = [
    "CARDS_EACH",
    "NO_CARD",
    "NO_SEAT",
    "NO_SUIT",
    "PASSED",
    "SEATS",
    "TRICKS",
    "DealScore",
    "Role",
    "TPhase",
    "TrionfoState",
    "TrionfoTable",
]


class TPhase(IntEnum):
    """The phase of a deal. The numbers are the wire's ``MaraffaPhase`` values."""

    PLAY = 2
    #: The match is over (after its last deal).
    OVER = 3
    AUCTION = 4
    #: The declarer names trumps (and, under CHIAMO, the called card).
    DECLARE = 5


class Role(IntEnum):
    """A seat's part in the deal, as far as it is public (wire: ``MaraffaTrionfoRole``)."""

    #: No contract yet, a thrown-in deal, or (under CHIAMO) not public yet.
    UNKNOWN = 0
    DECLARER = 1
    AMICO = 2
    POPOLO = 3


class DealScore(NamedTuple):
    """One deal as Score reports it (A.6.4). For a finished deal every field is
    filled in; for the deal in progress, what is not yet public is left out: the
    amico and everything that depends on him (the sides' scores, the outcome)."""

    deal_number: int
    #: The contract (moves.Contract); 0 before the auction ends, or when thrown in.
    contract: int
    declarer: int
    trump: int
    called_card: int
    #: NO_SEAT when there is none (not CHIAMO) or it is not public yet; the
    #: declarer himself when he called his own card (*chiamata in mano*).
    amico: int
    #: The declarer's side (signori) and the others (popolo); None while not public.
    signori: HandScore | None
    popolo: HandScore | None
    #: None while undecided (or not public).
    won: bool | None
    #: The trick after which the outcome could no longer change; 0 while undecided.
    decided_at: int
    #: Game points per seat; empty while undecided. A thrown-in deal pays 0 each.
    payments: tuple[int, ...]


class TrionfoTable(NamedTuple):
    """What stays fixed within a deal."""

    options: Options
    seed: int
    #: The generator's next draw number (core/shuffle.py).
    counter: int
    dealer: int
    #: Speaks first and leads trick 1 (*primo*, A.2.2).
    first_speaker: int
    #: Every deal dealt in this match, thrown-in ones included, from 1.
    deal_number: int
    #: Deals finished that count toward ``match_deals`` (A.7.1).
    deals_counted: int
    #: Game points per seat; they always sum to 0 (A.7.2).
    totals: tuple[int, ...]
    last_deal: DealScore | None = None


class TrionfoState(NamedTuple):
    table: TrionfoTable
    phase: TPhase
    to_act: int
    #: One mask per seat (../cards.py).
    hands: tuple[int, ...]
    #: Every speech of the auction in order: a contract level, or PASSED.
    bids: tuple[int, ...] = ()
    trump: int = NO_SUIT
    called_card: int = NO_CARD
    #: Every card played this deal, in order: trick k is ``played[5k:5k+5]``, led by
    #: the winner of trick k-1 (trick 0 by the first speaker).
    played: tuple[int, ...] = ()
    #: Parallel to ``played``: the signal of each play, 0 for none.
    signals: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.phase is TPhase.OVER

    @property
    def completed(self) -> int:
        """Number of completed tricks in this deal."""
        return len(self.played) // SEATS
