"""Card codes shared by every game (docs/rules/README.md §3).

A card is a small int in the canonical order: ``1 + 13 * suit + rank`` with suits
S, H, D, C and ranks A, 2 … 9, T, J, Q, K; the joker is 53. The numbering is the
wire enum's, so the codec passes cards through untouched, and sorting ints sorts
hands canonically.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
JOKER: Final = 53
CODE_RE: Final = re.compile(r"^(?:[A2-9TJQK][SHDC]|JK)$")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


def card(code: str) -> int:
    """The card with this code: ``card("7H") == 20``."""
    if not CODE_RE.match(code):
        raise ValueError(f"not a card code: {code!r}")
    if code == "JK":
        return JOKER
    return 1 + 13 * SUITS.index(code[1]) + RANKS.index(code[0])


def code(c: int) -> str:
    """The two-character code of a card: ``code(20) == "7H"``."""
    if c == JOKER:
        return "JK"
    if not 1 <= c <= 52:
        raise ValueError(f"not a card: {c}")
    return RANKS[(c - 1) % 13] + SUITS[(c - 1) // 13]


def suit_of(c: int) -> int:
    """Suit index 0..3 (S, H, D, C) of a non-joker card."""
    return (c - 1) // 13


def rank_of(c: int) -> str:
    """Rank character of a non-joker card."""
    return RANKS[(c - 1) % 13]


def cards(codes: str) -> tuple[int, ...]:
    """Cards from space-separated codes, in the given order: ``cards("7H AS")``."""
    return tuple(card(x) for x in codes.split())


def codes(cs: Iterable[int]) -> str:
    """Space-separated codes, the inverse of :func:`cards`."""
    return " ".join(code(c) for c in cs)
