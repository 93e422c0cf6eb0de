"""Ramino moves: small immutable values with a text form (ramino.md §3, §8).

A move is one ``Move`` value whose ``kind`` says what it is, so equal moves compare
equal whether they came from ``legal_moves``, the wire or ``parse``. The moves a
listing repeats (every discard, every closing discard, each amount) are built once.

Text form, used in errors, logs, transcripts and tests: ``buio``, ``no-buio``,
``pass``, ``open 3``, ``accept``, ``raise 5``, ``stand``, ``draw``, ``take``,
``discard 9H``, ``close 8C`` (``close`` alone on nine-card tables), with optional
declared jokers: ``close 8C joker 2D=6S``.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import Final, NamedTuple

from mazzo.core.cards import card, code
from mazzo.games.ramino.cards import CODES, IN_PACK


class Kind(IntEnum):
    """Move kinds, numbered as the wire's ``RaminoMove`` fields."""

    BUIO = 1
    NO_BUIO = 2
    PASS = 3
    OPEN = 4
    ACCEPT = 5
    RAISE = 6
    STAND = 7
    DRAW = 8
    TAKE_DISCARD = 9
    DISCARD = 10
    CLOSE = 11


_WORDS: Final = {
    Kind.BUIO: "buio",
    Kind.NO_BUIO: "no-buio",
    Kind.PASS: "pass",
    Kind.OPEN: "open",
    Kind.ACCEPT: "accept",
    Kind.RAISE: "raise",
    Kind.STAND: "stand",
    Kind.DRAW: "draw",
    Kind.TAKE_DISCARD: "take",
    Kind.DISCARD: "discard",
    Kind.CLOSE: "close",
}
_KINDS: Final = {word: kind for kind, word in _WORDS.items()}


class Move(NamedTuple):
    """One move. ``amount``: OPEN, RAISE. ``card``: DISCARD; for CLOSE the discard
    (0: none, nine-card tables). ``jokers`` and ``groups`` of a CLOSE only document the
    player's arrangement (card, code it stands for; the combinations): the engine
    counts the jokers (at most ``imaginary_jokers``) and otherwise ignores them."""

    kind: Kind
    amount: int = 0
    card: int = 0
    jokers: tuple[tuple[int, int], ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()

    def __str__(self) -> str:
        words = [_WORDS[self.kind]]
        if self.kind in (Kind.OPEN, Kind.RAISE):
            words.append(str(self.amount))
        elif self.card:
            words.append(code(self.card))
        for joker, stands_for in self.jokers:
            words.append(f"joker {_code(joker)}={_code(stands_for)}")
        return " ".join(words)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def _code(c: int) -> str:
    return code(c) if c in IN_PACK else str(c)


BUIO: Final = Move(Kind.BUIO)
NO_BUIO: Final = Move(Kind.NO_BUIO)
PASS: Final = Move(Kind.PASS)
ACCEPT: Final = Move(Kind.ACCEPT)
STAND: Final = Move(Kind.STAND)
DRAW: Final = Move(Kind.DRAW)
TAKE_DISCARD: Final = Move(Kind.TAKE_DISCARD)
#: CLOSE without a discard (``hand_size`` 9).
CLOSE_HELD: Final = Move(Kind.CLOSE)
#: Indexed by card id.
DISCARDS: Final = (Move(Kind.DISCARD), *(Move(Kind.DISCARD, card=c) for c in CODES))
CLOSES: Final = (CLOSE_HELD, *(Move(Kind.CLOSE, card=c) for c in CODES))


@lru_cache(maxsize=4096)
def open_bid(amount: int) -> Move:
    return Move(Kind.OPEN, amount=amount)


@lru_cache(maxsize=4096)
def raise_bid(amount: int) -> Move:
    return Move(Kind.RAISE, amount=amount)


def parse(text: str) -> Move:
    """The move written as text: ``parse("raise 5")``, ``parse("close 8C joker 2D=6S")``."""
    words = text.split()
    if not words or words[0] not in _KINDS:
        raise ValueError(f"not a Ramino move: {text!r}")
    kind = _KINDS[words[0]]
    rest = words[1:]
    if kind in (Kind.OPEN, Kind.RAISE):
        if len(rest) != 1 or not rest[0].isdigit():
            raise ValueError(f"{words[0]} needs one amount: {text!r}")
        amount = int(rest[0])
        return open_bid(amount) if kind is Kind.OPEN else raise_bid(amount)
    if kind is Kind.DISCARD:
        if len(rest) != 1:
            raise ValueError(f"discard needs one card: {text!r}")
        return DISCARDS[card(rest[0])]
    if kind is Kind.CLOSE:
        discard = 0
        if rest and rest[0] != "joker":
            discard = card(rest.pop(0))
        jokers = []
        while rest:
            if len(rest) < 2 or rest[0] != "joker" or "=" not in rest[1]:
                raise ValueError(f"expected 'joker XX=YY' in {text!r}")
            held, stands_for = rest[1].split("=")
            jokers.append((card(held), card(stands_for)))
            rest = rest[2:]
        return Move(Kind.CLOSE, card=discard, jokers=tuple(jokers))
    if rest:
        raise ValueError(f"{words[0]} takes nothing more: {text!r}")
    return Move(kind)
