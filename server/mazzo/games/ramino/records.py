"""What the referee and the viewer read of Ramino's records: each hand's chips per
seat and where a hand is dealt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mazzo.games.declaration import GameHooks, Json


def _hand_points(events: Sequence[Json]) -> list[int] | None:
    """Each seat's chips won or lost over the hand (void hands included: the tax)."""
    for event in events:
        ended = event.get("ramino", {}).get("handEnded")
        if ended is not None:
            return [int(n) for n in ended.get("result", {}).get("net", [])]
    return None


def _hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("ramino", {}) for event in events)


HOOKS: Final = GameHooks(hand_points=_hand_points, hand_dealt=_hand_dealt)
