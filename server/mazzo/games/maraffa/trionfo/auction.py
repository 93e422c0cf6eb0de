"""Trionfo's auction (maraffa-forms.md A.3): who speaks, who has won, when it is over.

The state stores only the speeches (levels, 0 for a pass); the seat of each speech
follows from the first speaker and the rules, so ``replay`` derives everything else
and refuses a history the rules could not have produced.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.options import TrionfoAuction
from mazzo.games.maraffa.trionfo.state import NO_SEAT, PASSED, SEATS

_EVERYONE: Final = (1 << SEATS) - 1
_TOP: Final = Contract.MASO_DEI_MASI


class Auction(NamedTuple):
    #: The seat of each speech, in order.
    speakers: tuple[int, ...]
    #: The highest contract bid so far (0: none yet).
    high: int
    #: Its bidder, the declarer once the auction is over (NO_SEAT: no bid yet).
    declarer: int
    over: bool
    #: The seat to speak next; NO_SEAT once the auction is over.
    to_speak: int

    @property
    def thrown_in(self) -> bool:
        """Everybody passed (*va a monte*, A.3.5)."""
        return self.over and self.high == 0


class AuctionError(ValueError):
    """A speech the rules do not allow; ``index`` is its place in the history."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


def _over(mode: TrionfoAuction, spoken: int, passed: int, high: int, declarer: int) -> bool:
    if high == _TOP:
        return True  # nothing outbids MASO_DEI_MASI: the others are not asked
    if mode is TrionfoAuction.SINGLE_ROUND:
        return spoken == SEATS
    if high == 0:
        return passed == _EVERYONE
    return passed | 1 << declarer == _EVERYONE


def _next(
    mode: TrionfoAuction, first: int, spoken: int, last: int, passed: int, high_seat: int
) -> int:
    """A.3.3: the next seat that has not passed and is not the highest bidder; in a
    single round, simply the next seat."""
    if mode is TrionfoAuction.SINGLE_ROUND:
        return (first + spoken) % SEATS
    s = (last + 1) % SEATS
    while passed >> s & 1 or s == high_seat:
        s = (s + 1) % SEATS
    return s


def replay(bids: tuple[int, ...], first: int, mode: TrionfoAuction) -> Auction:
    """The auction after ``bids``, spoken from ``first``; raises ``AuctionError``."""
    speakers: list[int] = []
    passed = 0
    high = 0
    declarer = NO_SEAT
    seat = first
    over = False
    for i, level in enumerate(bids):
        if over:
            raise AuctionError(i, "the auction is already over")
        speakers.append(seat)
        if level == PASSED:
            passed |= 1 << seat
        elif not 1 <= level <= _TOP:
            raise AuctionError(i, f"unknown bid {level}")
        elif level <= high:
            raise AuctionError(
                i, f"{Contract(level).name} is not above {Contract(high).name} (A.3.2)"
            )
        else:
            high, declarer = level, seat
        over = _over(mode, i + 1, passed, high, declarer)
        if not over:
            seat = _next(mode, first, i + 1, seat, passed, declarer)
    return Auction(tuple(speakers), high, declarer, over, NO_SEAT if over else seat)
