"""Maraffa's 40-card pack: trick strength, point values, and hands as bit masks.

Cards are the shared card ids (core/cards.py). A hand is a 40-bit mask: bit
``10 * suit + i`` is the i-th card of that suit in canonical order (A 2 3 4 5 6
7 J Q K), so the cards of a suit are one 10-bit field and a hand's set bits, low
to high, are the hand in canonical order. Tables are indexed by card id or by a
suit's 10-bit field, so the engine's hot path is lookups (maraffa.md §1).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from mazzo.core.cards import RANKS, card, rank_of, suit_of

MARAFFA_RANKS: Final = "A234567JQK"
#: The 40 cards in canonical order: the unshuffled deck.
DECK: Final[tuple[int, ...]] = tuple(
    card(r + s) for s in "SHDC" for r in RANKS if r in MARAFFA_RANKS
)
IN_DECK: Final = frozenset(DECK)
SUIT_BITS: Final = 10
FULL_SUIT: Final = (1 << SUIT_BITS) - 1

_STRENGTH: Final = {"3": 10, "2": 9, "A": 8, "K": 7, "Q": 6, "J": 5, "7": 4, "6": 3, "5": 2, "4": 1}
_THIRDS: Final = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}

#: Per card id: strength within its suit (1..10), its value in thirds, its suit, its bit.
STRENGTH: Final[list[int]] = [0] * 54
THIRDS: Final[list[int]] = [0] * 54
SUIT: Final[list[int]] = [-1] * 54
BIT: Final[list[int]] = [0] * 54
for _i, _c in enumerate(DECK):
    STRENGTH[_c] = _STRENGTH[rank_of(_c)]
    THIRDS[_c] = _THIRDS[rank_of(_c)]
    SUIT[_c] = suit_of(_c)
    BIT[_c] = 1 << _i

SUIT_MASK: Final[tuple[int, ...]] = tuple(FULL_SUIT << (SUIT_BITS * s) for s in range(4))
ACES: Final = frozenset(c for c in DECK if rank_of(c) == "A")
FOUR_OF_COINS: Final = card("4D")
#: Per suit: the marafona, 3 + 2 + A of that suit, as a mask.
MARAFONA: Final[tuple[int, ...]] = tuple(sum(BIT[card(r + s)] for r in "32A") for s in "SHDC")
TRUMP_ACE: Final[tuple[int, ...]] = tuple(card("A" + s) for s in "SHDC")
#: Ranks a STRISCIO promises: K or lower.
LOW_FOR_STRISCIO: Final = frozenset(c for c in DECK if rank_of(c) in "KQJ7654")


@cache
def deck_of(seats: int, removed: int) -> tuple[int, ...]:
    """The unshuffled deck of a form: the 40 cards, but with three seats (39 cards,
    maraffa-forms.md B.1) without the removed Four."""
    return tuple(c for c in DECK if c != removed) if seats == 3 else DECK


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some cards of the Maraffa deck."""
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


#: _FIELD_CARDS[suit][field]: the cards of a suit's 10-bit field, in canonical order.
_FIELD_CARDS: Final = tuple(
    tuple(
        tuple(DECK[SUIT_BITS * suit + i] for i in range(SUIT_BITS) if field >> i & 1)
        for field in range(FULL_SUIT + 1)
    )
    for suit in range(4)
)


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, in canonical order."""
    f = _FIELD_CARDS
    return (
        f[0][mask & FULL_SUIT]
        + f[1][mask >> 10 & FULL_SUIT]
        + f[2][mask >> 20 & FULL_SUIT]
        + f[3][mask >> 30 & FULL_SUIT]
    )


def suit_field(mask: int, suit: int) -> int:
    """The 10-bit field of one suit."""
    return mask >> (SUIT_BITS * suit) & FULL_SUIT


def hand_thirds(mask: int) -> int:
    """A hand's value in thirds: 3 per ace, 1 per 3, 2, K, Q, J."""
    return sum(THIRDS[c] for c in cards_of(mask))
