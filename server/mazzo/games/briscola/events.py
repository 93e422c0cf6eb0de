"""What a move caused, as small records (briscola.md §3, §4).

Every event is public: a draw does not name its card, except the face-up trump card,
which everyone has seen (``TrumpCardTaken``).
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.games.briscola.state import HandScore


class HandDealt(NamedTuple):
    hand_number: int
    dealer: int
    leader: int
    #: The card turned face up under the stock.
    trump_card: int


class CardPlayed(NamedTuple):
    seat: int
    card: int


class TrickWon(NamedTuple):
    #: 1-based number of the trick in the hand.
    trick: int
    seat: int
    points: int


class Drew(NamedTuple):
    """``seat`` took the top card of the stock (unseen by the others)."""

    seat: int


class TrumpCardTaken(NamedTuple):
    """``seat`` took the last card of the stock: the face-up trump card."""

    seat: int
    card: int


class HandScored(NamedTuple):
    scores: tuple[HandScore, ...]
    #: The side that won the hand, or -1 for a draw.
    winner: int
    hands_won: tuple[int, ...]


class MatchWon(NamedTuple):
    side: int
    hands_won: tuple[int, ...]


Event = HandDealt | CardPlayed | TrickWon | Drew | TrumpCardTaken | HandScored | MatchWon
