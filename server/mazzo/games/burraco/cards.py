"""Burraco's 108-card deck and its tables (burraco.md §1).

Cards are the shared ids of ``mazzo.core.cards``: ``1 + 13 * suit + rank`` with
ranks A 2 3 … K as 0 … 12, and 53 for the joker. The deck holds two copies of the
52 codes and four jokers; copies are never told apart, so hands, melds and piles
are multisets of ids (sorted tuples). Hands are also read as bit masks (bit ``c``
for card ``c``; within a suit, bit ``13 * suit + 1 + rank``), so a suit's ranks
are one 13-bit field. Tables are indexed by card id, so the hot path is lookups.
"""

from __future__ import annotations

from typing import Final

from mazzo.core.cards import JOKER

#: The unshuffled deck: two 52-card packs in canonical order, then four jokers (README §3).
DECK: Final[tuple[int, ...]] = (*range(1, 53), *range(1, 53), JOKER, JOKER, JOKER, JOKER)
IN_DECK: Final = frozenset(DECK)
#: How many copies of each code the deck holds.
COPIES: Final[tuple[int, ...]] = tuple(0 if c == 0 else 4 if c == JOKER else 2 for c in range(54))

ACE, TWO = 0, 1
RANK_BITS: Final = 13
FULL_RANKS: Final = (1 << RANK_BITS) - 1
#: The 2s (pinelle) of S, H, D, C.
TWOS: Final[tuple[int, ...]] = (2, 15, 28, 41)

#: Per card id: suit 0..3 (-1 for the joker), rank 0..12 (-1), bit, value, wildness.
SUIT: Final[list[int]] = [-1] * 54
RANK: Final[list[int]] = [-1] * 54
BIT: Final[list[int]] = [1 << c for c in range(54)]
#: §1.2 card values: JK 30, any 2 20, A 15, K Q J T 9 8 10, 7 6 5 4 3 5.
VALUE: Final[list[int]] = [0] * 54
#: A joker or any 2: wild wherever it is not a natural 2 in its own sequence (§1.4).
WILD: Final[list[bool]] = [False] * 54
for _c in range(1, 53):
    SUIT[_c], RANK[_c] = divmod(_c - 1, 13)
    _r = RANK[_c]
    VALUE[_c] = 15 if _r == ACE else 20 if _r == TWO else 5 if _r <= 6 else 10
    WILD[_c] = _r == TWO
VALUE[JOKER] = 30
WILD[JOKER] = True

WILD_MASK: Final = sum(BIT[c] for c in (*TWOS, JOKER))
#: Per rank: the bits of its four codes.
RANK_MASK: Final[tuple[int, ...]] = tuple(
    sum(BIT[1 + 13 * s + r] for s in range(4)) for r in range(13)
)
