"""Ramino's 104 cards: two packs of the 52 shared card ids, no jokers (ramino.md §1).

Copies are never told apart (README §3), so a hand is a multiset: a sorted tuple of
card ids, duplicates allowed. For the closure search a multiset is also packed into
one int with two bits per card id (``count(c) = m >> 2c & 3``): adding or removing a
card is one addition, and the lowest card is the lowest set bit.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from typing import Final

from mazzo.core.cards import RANKS, SUITS

#: ALL_52_CODES of ramino.md §3.5, in canonical order.
CODES: Final[tuple[int, ...]] = tuple(range(1, 53))
IN_PACK: Final = frozenset(CODES)
#: The unshuffled deck: two 52-card packs, each in canonical order (README §3).
DECK: Final[tuple[int, ...]] = CODES + CODES
COPIES: Final = 2

#: Per card id: suit 0..3 (S H D C) and rank 0..12 (A 2 … T J Q K).
SUIT: Final[tuple[int, ...]] = (-1, *((c - 1) // 13 for c in CODES))
RANK: Final[tuple[int, ...]] = (-1, *((c - 1) % 13 for c in CODES))
JACK, KING = RANKS.index("J"), RANKS.index("K")
FIGURES: Final = frozenset(c for c in CODES if RANK[c] >= JACK)
#: Per card id: one copy in the packed form.
ONE: Final[tuple[int, ...]] = tuple(1 << (2 * c) for c in range(53))


def card_at(suit: int, rank: int) -> int:
    """The card id of a suit and a rank (0 = ace)."""
    return 1 + 13 * suit + rank


def suit_name(suit: int) -> str:
    return SUITS[suit]


def pack(cards: Iterable[int]) -> int:
    """The packed multiset of some cards (at most three copies of a code)."""
    return sum(ONE[c] for c in cards)


def unpack(m: int) -> tuple[int, ...]:
    """The cards of a packed multiset, in canonical order."""
    out: list[int] = []
    while m:
        c = ((m & -m).bit_length() - 1) >> 1
        n = m >> (2 * c) & 3
        out.extend((c,) * n)
        m -= n * ONE[c]
    return tuple(out)


def add(hand: tuple[int, ...], c: int) -> tuple[int, ...]:
    """A sorted hand with one more copy of ``c``."""
    cards = list(hand)
    insort(cards, c)
    return tuple(cards)


def remove(hand: tuple[int, ...], c: int) -> tuple[int, ...]:
    """A sorted hand with one copy of ``c`` less (``c`` must be in it)."""
    cards = list(hand)
    cards.remove(c)
    return tuple(cards)
