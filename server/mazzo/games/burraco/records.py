"""What the referee and the viewer read of Burraco's records: each hand's points per
match side and where a hand is dealt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mazzo.games.declaration import GameHooks, Json


def _hand_points(events: Sequence[Json]) -> list[int] | None:
    """What each match side was credited for the hand (3 players: a pair member half
    the pair's score)."""
    for event in events:
        scored = event.get("burraco", {}).get("handScored")
        if scored is not None:
            return [int(c) for c in scored.get("credits", [])]
    return None


def _hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("burraco", {}) for event in events)


HOOKS: Final = GameHooks(hand_points=_hand_points, hand_dealt=_hand_dealt)
