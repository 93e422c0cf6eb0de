"""What the referee and the viewer read of Briscola's records: each hand's card points
per side, where a hand is dealt, and a state's cards in words for ``mazzo replay
--hand``. A match's totals are hands won, so RL's per-hand reward is the default:
their change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mazzo.core.cards import code
from mazzo.core.rules import AnyRules
from mazzo.games.declaration import GameHooks, Json, cards_in_words


def _hand_points(events: Sequence[Json]) -> list[int] | None:
    """Per side, the card points of the hand just scored (they add up to 120)."""
    for event in events:
        scored = event.get("briscola", {}).get("handScored")
        if scored is not None:
            return [int(s.get("points", 0)) for s in scored.get("scores", [])]
    return None


def _hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("briscola", {}) for event in events)


def _describe(state: Any, rules: AnyRules) -> str:
    t = state.table
    header = (
        f"hand {t.hand_number}: dealer {t.dealer}, hands won {list(t.hands_won)}, "
        f"trump card {code(state.trump_card)}"
    )
    return cards_in_words(header, state.hands, stock=state.stock, played=state.played)


HOOKS: Final = GameHooks(hand_points=_hand_points, hand_dealt=_hand_dealt, describe=_describe)
