"""Maraffa moves: small immutable values with a text form, interned.

Every possible move exists once (``play(c, s, m)`` returns the same object each
time), so listing legal moves allocates nothing and moves compare by identity.

Text form, used in errors, logs and tests: ``play 7S``, ``play KS striscio``,
``play AH marafona``, ``trump H``, ``redeal``, ``claim``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from mazzo.core.cards import SUITS, card, code
from mazzo.games.maraffa.cards import DECK


class Signal(IntEnum):
    """Signals in the stable listing order of maraffa.md §3.3 (NONE first)."""

    NONE = 0
    BUSSO = 1
    STRISCIO = 2
    VOLO = 3
    TAGLIO = 4
    FUORI_TUTTO = 5
    TAGLIA = 6
    RISTRISCIO = 7
    BUONA = 8


class Move:
    """Base of the four Maraffa moves."""

    __slots__ = ()


class PlayCard(Move):
    __slots__ = ("card", "marafona", "signal")
    card: int
    signal: Signal
    marafona: bool

    def __init__(self, card: int, signal: Signal, marafona: bool) -> None:
        self.card = card
        self.signal = signal
        self.marafona = marafona

    def __str__(self) -> str:
        text = "play " + code(self.card)
        if self.signal:
            text += " " + self.signal.name.lower()
        if self.marafona:
            text += " marafona"
        return text

    __repr__ = __str__


class DeclareTrump(Move):
    __slots__ = ("suit",)
    suit: int

    def __init__(self, suit: int) -> None:
        self.suit = suit

    def __str__(self) -> str:
        return "trump " + SUITS[self.suit]

    __repr__ = __str__


class RequestRedeal(Move):
    __slots__ = ()

    def __str__(self) -> str:
        return "redeal"

    __repr__ = __str__


class Claim(Move):
    __slots__ = ()

    def __str__(self) -> str:
        return "claim"

    __repr__ = __str__


#: PLAYS[card][signal][marafona]: every play move, built once.
PLAYS: Final[list[tuple[tuple[PlayCard, PlayCard], ...]]] = [()] * 54
for _c in DECK:
    PLAYS[_c] = tuple((PlayCard(_c, s, False), PlayCard(_c, s, True)) for s in Signal)
TRUMPS: Final = tuple(DeclareTrump(s) for s in range(4))
REDEAL: Final = RequestRedeal()
CLAIM: Final = Claim()


def play(c: int, signal: Signal = Signal.NONE, marafona: bool = False) -> PlayCard:
    """The move that plays card ``c`` (a card id of the Maraffa deck)."""
    return PLAYS[c][signal][marafona]


def parse(text: str) -> Move:
    """The move written as text: ``parse("play KS striscio")``, ``parse("trump H")``."""
    words = text.split()
    match words:
        case ["claim"]:
            return CLAIM
        case ["redeal"]:
            return REDEAL
        case ["trump", s] if s in SUITS:
            return TRUMPS[SUITS.index(s)]
        case ["play", c, *extra]:
            cid = card(c)
            if cid not in DECK:
                raise ValueError(f"{c} is not in the Maraffa pack")
            marafona = "marafona" in extra
            rest = [w for w in extra if w != "marafona"]
            if len(rest) > 1:
                raise ValueError(f"more than one signal in {text!r}")
            signal = Signal[rest[0].upper()] if rest else Signal.NONE
            return play(cid, signal, marafona)
    raise ValueError(f"not a Maraffa move: {text!r}")
