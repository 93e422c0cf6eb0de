"""A bound on the length of one repeated field, and the rule it comes from.

Every repeated field a client can send has one (``bounds.py`` checks them, and the
games' tables, ``<game>_bounds.py``, give them). A bound is a true upper bound of
the rules: no state, view or move that the rules can make is longer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Bound:
    """At most ``most`` entries (``unit``: what an entry is); ``why``: from which rule.

    A few lists grow with a counter kept beside them (the turns of a Ramino hand with
    its reshuffles, its bids with the stake): ``scaled`` gives their bound from the
    message that holds the field, read before anything is decoded, so clamped to the
    counter's own range; ``formula`` says how, for the docs. ``most`` is then the
    largest bound ``scaled`` can give.
    """

    most: int
    unit: str
    why: str
    scaled: Callable[[Any], int] | None = None
    formula: str = ""

    def limit(self, holder: Any) -> int:
        """The bound in ``holder``, the message that holds the field."""
        if self.scaled is None:
            return self.most
        return min(self.most, self.scaled(holder))


def clamp(value: int, top: int) -> int:
    """A counter read from a message nobody checked yet, kept within its range."""
    return value if 0 <= value <= top else top
