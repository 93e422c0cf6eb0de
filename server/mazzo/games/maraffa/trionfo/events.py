"""What a Trionfo move caused, as small records (wire: branches of ``MaraffaEvent``).

Card plays and tricks use the four-player records (``events.CardPlayed``,
``events.TrickWon``). No event names the partner before the called card is played:
``PartnerRevealed`` is the first to do so.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.games.maraffa.events import CardPlayed, TrickWon
from mazzo.games.maraffa.trionfo.state import DealScore


class DealDealt(NamedTuple):
    deal_number: int
    dealer: int
    first_speaker: int


class BidMade(NamedTuple):
    seat: int
    contract: int


class BidPassed(NamedTuple):
    seat: int


class AuctionWon(NamedTuple):
    """The auction is over: ``seat`` is the declarer of ``contract``."""

    seat: int
    contract: int


class ThrownIn(NamedTuple):
    """All five passed: the deal is abandoned, nobody pays (A.3.5)."""

    deal_number: int


class ContractDeclared(NamedTuple):
    """Trumps, and under CHIAMO the called card: both public (A.4.2)."""

    seat: int
    contract: int
    suit: int
    #: 0 when no card is called.
    called_card: int


class PartnerRevealed(NamedTuple):
    """The called card was played by ``seat``: the amico (the declarer himself when he
    called his own card) is public from now on (A.5.3)."""

    seat: int


class DealScored(NamedTuple):
    score: DealScore
    #: Game points per seat after this deal.
    totals: tuple[int, ...]


class TrionfoMatchOver(NamedTuple):
    """The last deal is over (A.7): the seats with the highest total win."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


TrionfoEvent = (
    DealDealt
    | BidMade
    | BidPassed
    | AuctionWon
    | ThrownIn
    | ContractDeclared
    | CardPlayed
    | PartnerRevealed
    | TrickWon
    | DealScored
    | TrionfoMatchOver
)
