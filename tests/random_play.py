"""Positions from seeded random play, for tests that sample states of every form."""

from __future__ import annotations

import random
from typing import Any


def random_play_positions(
    rules: Any, state: Any, rng: random.Random, steps: int, every: int, offset: int = 0
) -> list[Any]:
    """The states met at moves ``offset``, ``offset + every``, ... of at most ``steps``
    random moves from ``state`` (until the match ends). A claim is played only when
    nothing else is legal: a random Maraffa claim would end the match at once."""
    found = []
    for step in range(steps):
        if rules.finished(state):
            break
        if step % every == offset:
            found.append(state)
        legal = rules.legal_moves(state)
        safe = [m for m in legal if type(m).__name__ != "Claim"] or legal
        state, _ = rules.apply(state, rng.choice(safe))
    return found
