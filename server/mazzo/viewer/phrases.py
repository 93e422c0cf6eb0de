"""The pieces of the viewer's sentences, shared by every game's texts (each game's
``texts`` module): cards by name in Italian or French, lists, seats, enum values.
Made from the protobuf messages' fields and the card codes alone, no rule of any game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mazzo.v1 import cards_pb2
from mazzo.viewer.words import enum

_ITALIAN_SUITS = {"S": "spade", "H": "coppe", "D": "denari", "C": "bastoni"}
_ITALIAN_RANKS = {"A": "asso", "J": "fante", "Q": "cavallo", "K": "re"}
FRENCH_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_FRENCH_RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_SHORT_RANKS = {"T": "10"}
PLURAL_RANKS = {"A": "aces", "T": "10s", "J": "jacks", "Q": "queens", "K": "kings"}


def code(card: int) -> str:
    """``CARD_3D``'s number -> ``3D``."""
    return str(cards_pb2.Card.Name(cards_pb2.Card.ValueType(card))).removeprefix("CARD_")


def italian(card: int) -> str:
    """``the 3 of denari``, ``the fante of coppe``."""
    c = code(card)
    return f"the {_ITALIAN_RANKS.get(c[0], c[0])} of {_ITALIAN_SUITS.get(c[1], c[1])}"


def french(card: int) -> str:
    """``the queen of hearts``, ``the 10 of spades``, ``the joker``."""
    c = code(card)
    if c == "JK":
        return "the joker"
    return f"the {_FRENCH_RANKS.get(c[0], c[0])} of {FRENCH_SUITS.get(c[1], c[1])}"


def french_group(cards: Sequence[int]) -> str:
    """Cards of one suit as ``4-5-6 of hearts`` (in the order given), of one rank as
    ``three kings (spades, hearts, clubs)``, anything else one by one."""
    codes = [code(c) for c in cards]
    if not codes:
        return "no card"
    if len(codes) == 1:
        return french(cards[0])
    if "JK" not in codes and len({c[1] for c in codes}) == 1:
        ranks = "-".join(_SHORT_RANKS.get(c[0], c[0]) for c in codes)
        return f"{ranks} of {FRENCH_SUITS[codes[0][1]]}"
    if "JK" not in codes and len({c[0] for c in codes}) == 1:
        rank = codes[0][0]
        many = PLURAL_RANKS.get(rank, rank + "s")
        suits = ", ".join(FRENCH_SUITS[c[1]] for c in codes)
        return f"{count_word(len(codes))} {many} ({suits})"
    return and_list(french(c).removeprefix("the ") for c in cards)


COUNTS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")


def count_word(n: int) -> str:
    return COUNTS[n - 2] if 2 <= n <= 9 else str(n)


def and_list(items: Iterable[str]) -> str:
    """``a, b and c``."""
    parts = list(items)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def seats(numbers: Iterable[int]) -> str:
    """``seat 1``, ``seats 0 and 2``."""
    listed = [str(n) for n in numbers]
    if not listed:
        return "nobody"
    return ("seat " if len(listed) == 1 else "seats ") + and_list(listed)


def named(wrapper: Any, value: int) -> str:
    """An enum value in words: ``MARAFFA_SIGNAL_STRISCIO`` -> ``striscio``."""
    return enum(wrapper.Name(value))


def dashes(values: Iterable[int]) -> str:
    """``41 - 30``; with a negative number ``1, 2, -1``."""
    listed = [int(v) for v in values]
    return (", " if any(v < 0 for v in listed) else " - ").join(str(v) for v in listed)
