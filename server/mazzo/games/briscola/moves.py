"""Briscola's one move: play a card (briscola.md §3.3). Interned: ``play(c)`` returns
the same object each time, so listing legal moves allocates nothing.

Text form, used in errors, logs and tests: ``play 7S``.
"""

from __future__ import annotations

from typing import Final

from mazzo.core.cards import card, code
from mazzo.games.briscola.cards import DECK, IN_DECK


class Move:
    """Base of the Briscola moves."""

    __slots__ = ()

    def __repr__(self) -> str:
        # A def, not ``__repr__ = __str__``: mypyc cannot compile that alias.
        return str(self)


class PlayCard(Move):
    __slots__ = ("card",)
    card: int

    def __init__(self, card: int) -> None:
        self.card = card

    def __str__(self) -> str:
        return "play " + code(self.card)


#: PLAYS[card]: every play move, built once (None: not a card of the pack).
PLAYS: Final[list[PlayCard | None]] = [None] * 54
for _c in DECK:
    PLAYS[_c] = PlayCard(_c)


def play(c: int) -> PlayCard:
    """The move that plays card ``c`` (a card id of the 40-card pack)."""
    move = PLAYS[c] if 0 <= c < len(PLAYS) else None
    if move is None:
        raise ValueError(f"card {c} is not in the Briscola pack")
    return move


def parse(text: str) -> Move:
    """The move written as text: ``parse("play 7S")``."""
    match text.split():
        case ["play", c]:
            cid = card(c)
            if cid not in IN_DECK:
                raise ValueError(f"{c} is not in the Briscola pack")
            return play(cid)
    raise ValueError(f"not a Briscola move: {text!r}")
