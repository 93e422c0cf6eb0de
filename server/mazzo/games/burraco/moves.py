"""Burraco moves (burraco.md §3): small immutable values with a text form.

``draw``, ``pickup``, ``meld 5S 6S 7S`` (optionally ``… sequence`` or
``… combination``), ``layoff 2 7C TC`` (meld id, then cards) and ``discard 9D``.
Cards of a meld or lay-off are kept sorted (a meld is a multiset), so equal moves
compare equal. The moves that ``legal_moves`` lists are interned: listing them
allocates nothing after the first time, and the codec memoises their encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mazzo.core.cards import card, codes
from mazzo.core.rules import Reduced, reduce_frozen
from mazzo.games.burraco.melds import Kind, key_cards


class Move:
    """Base of the five Burraco moves."""

    __slots__ = ()

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


@dataclass(frozen=True, slots=True)
class Draw(Move):
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class PickUp(Move):
    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class OpenMeld(Move):
    #: Sorted. ``kind`` None: inferred from the cards (§3.2).
    cards: tuple[int, ...]
    kind: Kind | None = None

    def __str__(self) -> str:
        text = "meld " + codes(self.cards)
        return text if self.kind is None else f"{text} {self.kind.name.lower()}"


@dataclass(frozen=True, slots=True)
class LayOff(Move):
    meld_id: int
    #: Sorted.
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"layoff {self.meld_id} {codes(self.cards)}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    card: int

    def __str__(self) -> str:
        return "discard " + codes((self.card,))


DRAW: Final = Draw()
PICK_UP: Final = PickUp()
#: DISCARDS[c]: the discard of card id c (index 0 is a placeholder: no card has id 0).
DISCARDS: Final = tuple(Discard(c) for c in range(54))
#: The 3-card melds listed so far, by their sorted-triple key (melds.triples).
MELDS_BY_KEY: Final[dict[int, OpenMeld]] = {}


def discard(c: int) -> Discard:
    return DISCARDS[c] if 1 <= c <= 53 else Discard(c)


def meld_of_key(key: int) -> OpenMeld:
    """The interned 3-card meld of a sorted-triple key (melds.triples)."""
    move = MELDS_BY_KEY.get(key)
    if move is None:
        move = MELDS_BY_KEY[key] = OpenMeld(key_cards(key))
    return move


class _LayOffRow(dict[int, LayOff]):
    """The one-card lay-offs on one meld, built on first use."""

    def __init__(self, meld_id: int) -> None:
        super().__init__()
        self.meld_id = meld_id

    def __missing__(self, c: int) -> LayOff:
        move = self[c] = LayOff(self.meld_id, (c,))
        return move


_LAY_OFF_ROWS: Final[list[_LayOffRow]] = []


def lay_off_row(meld_id: int) -> _LayOffRow:
    """``lay_off_row(i)[c]``: the interned lay-off of card ``c`` on meld ``i``."""
    while len(_LAY_OFF_ROWS) <= meld_id:
        _LAY_OFF_ROWS.append(_LayOffRow(len(_LAY_OFF_ROWS)))
    return _LAY_OFF_ROWS[meld_id]


def meld(cards: tuple[int, ...] | list[int], kind: Kind | None = None) -> OpenMeld:
    return OpenMeld(tuple(sorted(cards)), kind)


def lay_off(meld_id: int, cards: tuple[int, ...] | list[int]) -> LayOff:
    return LayOff(meld_id, tuple(sorted(cards)))


def parse(text: str) -> Move:
    """The move written as text: ``parse("meld 5S 6S 7S")``, ``parse("layoff 0 7C")``."""
    words = text.split()
    match words:
        case ["draw"]:
            return DRAW
        case ["pickup"]:
            return PICK_UP
        case ["discard", c]:
            return discard(card(c))
        case ["meld", *rest] if rest:
            kind = None
            if rest[-1] in ("sequence", "combination"):
                kind = Kind[rest.pop().upper()]
            return meld([card(c) for c in rest], kind)
        case ["layoff", meld_id, *rest] if meld_id.isdigit() and rest:
            return lay_off(int(meld_id), [card(c) for c in rest])
    raise ValueError(f"not a Burraco move: {text!r}")
