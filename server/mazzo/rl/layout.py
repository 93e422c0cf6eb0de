"""A fixed-size observation as named blocks of numbers, so its layout can be documented.

Each game lists its blocks once (name, size, bounds, meaning); the encoders write by
block offset and docs/rl.md prints the same list, checked by a test, so the two
cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

Observation = NDArray[np.float32]


@dataclass(frozen=True)
class Block:
    """``size`` numbers from ``offset``, each within ``low``..``high``."""

    name: str
    size: int
    meaning: str
    low: float = 0.0
    high: float = 1.0
    offset: int = 0


class Layout:
    """The blocks of one game's observation, in order."""

    def __init__(self, *blocks: Block) -> None:
        placed: list[Block] = []
        offset = 0
        for block in blocks:
            placed.append(
                Block(block.name, block.size, block.meaning, block.low, block.high, offset)
            )
            offset += block.size
        self.blocks = tuple(placed)
        self.size = offset
        self._by_name = {b.name: b for b in placed}
        if len(self._by_name) != len(placed):
            raise ValueError("block names must be unique")

    def __getitem__(self, name: str) -> int:
        """The offset of block ``name``."""
        return self._by_name[name].offset

    def block(self, name: str) -> Block:
        return self._by_name[name]

    def bounds(self) -> tuple[Observation, Observation]:
        """Per number, its lowest and highest value (for a ``Box`` space)."""
        low = np.concatenate([np.full(b.size, b.low, np.float32) for b in self.blocks])
        high = np.concatenate([np.full(b.size, b.high, np.float32) for b in self.blocks])
        return low, high

    def zeros(self) -> Observation:
        return np.zeros(self.size, np.float32)

    def markdown(self) -> str:
        """The layout as the table docs/rl.md shows (a test holds the two together)."""
        rows = ["| Block | Offset | Size | Range | Meaning |", "|---|---|---|---|---|"]
        for b in self.blocks:
            rows.append(
                f"| `{b.name}` | {b.offset} | {b.size} | {b.low:g} .. {b.high:g} | {b.meaning} |"
            )
        return "\n".join(rows)


def clip(x: float, low: float = 0.0, high: float = 1.0) -> float:
    return low if x < low else high if x > high else x


class Encoding(Protocol):
    """One game and form, with its options: see docs/rl.md for each game's tables."""

    game: str
    #: The size of the action space: actions are ``0 .. actions - 1``.
    actions: int
    layout: Layout

    def action_of(self, move: Any) -> int:
        """The action of a move; ``ValueError`` for a move outside the action space."""
        ...

    def move_of(self, action: int) -> Any:
        """The move of an action; ``ValueError`` for an index that names none."""
        ...

    def observe(self, view: Any) -> Observation:
        """The numbers of a seat's view, laid out as ``layout``."""
        ...
