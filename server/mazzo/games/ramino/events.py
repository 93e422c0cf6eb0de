"""What a move caused, as small records (the wire ``RaminoEvent``).

Events carry only what every seat may know: a card drawn from the stock is not named
(the state holds it), a card taken from the pile is.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.games.ramino.state import Bid, ClosureShown, HandResult, MatchEnd


class HandDealt(NamedTuple):
    hand_number: int
    dealer: int
    sitting_out: tuple[int, ...]


class TaxPaid(NamedTuple):
    seat: int
    amount: int


class BidMade(NamedTuple):
    """A bidding move, the chips it put in the pot, and the stake and pot after it."""

    bid: Bid
    paid: int
    stake: int
    pot: int


class PlayStarted(NamedTuple):
    """Bidding is over with two or more players left: they play for the posta."""

    participants: tuple[int, ...]
    posta: int
    pot: int


class CardDrawn(NamedTuple):
    seat: int
    stock_size: int


class DiscardTaken(NamedTuple):
    seat: int
    card: int


class CardDiscarded(NamedTuple):
    seat: int
    card: int


class StockReshuffled(NamedTuple):
    stock_size: int
    reshuffles: int


class HandClosed(NamedTuple):
    closure: ClosureShown


class HandEnded(NamedTuple):
    result: HandResult
    balances: tuple[int, ...]


class PotRefunded(NamedTuple):
    """The match ended with chips in the pot: each got back what he had put in (§4.3)."""

    refunds: tuple[int, ...]


class MatchEnded(NamedTuple):
    end: MatchEnd
    balances: tuple[int, ...]
    #: The seats with the highest balance (equal balances share the place).
    winners: tuple[int, ...]


Event = (
    HandDealt
    | TaxPaid
    | BidMade
    | PlayStarted
    | CardDrawn
    | DiscardTaken
    | CardDiscarded
    | StockReshuffled
    | HandClosed
    | HandEnded
    | PotRefunded
    | MatchEnded
)
