"""What the referee and the viewer read of Maraffa's records: each hand's points
(per side; in Trionfo per seat, the game points paid), where a hand is dealt, and a
state's cards in words for ``mazzo replay --hand``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mazzo.core.rules import AnyRules, ScoreReport
from mazzo.games.declaration import GameHooks, Json, cards_in_words, totals_change
from mazzo.games.maraffa.cards import cards_of
from mazzo.games.maraffa.game import MaraffaSideScore


def _hand_points(events: Sequence[Json]) -> list[int] | None:
    """Per side the points of the hand; in Trionfo per seat the game points paid."""
    for event in events:
        scored = event.get("maraffa", {}).get("handScored")
        if scored is not None:
            return [int(s.get("handScore", 0)) for s in scored.get("scores", [])]
        deal = event.get("maraffa", {}).get("dealScored")
        if deal is not None:
            return [int(p) for p in deal.get("score", {}).get("payments", [])]
    return None


def _hand_dealt(events: Sequence[Json]) -> bool:
    """A classic hand or a Trionfo deal."""
    return any(
        "handDealt" in (kinds := event.get("maraffa", {})) or "dealDealt" in kinds
        for event in events
    )


def _describe(state: Any, rules: AnyRules) -> str:
    t = state.table
    header = (
        f"game {t.game_number} hand {t.hand_number}: dealer {t.dealer}, "
        f"battezzante {t.battezzante}, totals {list(t.totals)}, target {t.effective_target}"
    )
    hands = [cards_of(h) for h in state.hands]
    return cards_in_words(header, hands, stock=state.stock)


def _hand_change(before: ScoreReport, after: ScoreReport) -> list[int]:
    """A series starts each game's totals from zero (the only way they fall), so across
    a new game the sides' last hand is read from the score instead."""
    change = totals_change(before, after)
    details = [side.detail for side in after.sides]
    if any(c < 0 for c in change) and all(type(d) is MaraffaSideScore for d in details):
        last = [d.last_hand for d in details]
        if all(h is not None for h in last):
            return [h.hand_score for h in last]
    return change


HOOKS: Final = GameHooks(
    hand_points=_hand_points,
    hand_dealt=_hand_dealt,
    describe=_describe,
    hand_change=_hand_change,
)
