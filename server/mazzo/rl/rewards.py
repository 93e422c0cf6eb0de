"""Rewards, the same for PettingZoo and OpenSpiel: per match or per hand, per side."""

from __future__ import annotations

from mazzo.core.rules import ScoreReport
from mazzo.games.maraffa.game import MaraffaSideScore


def match_result(report: ScoreReport) -> list[float]:
    """Per side: +1 for a winner, -1 for the others; 0 for all in a draw (no winner, or
    every side among the winners)."""
    won = set(report.winners)
    if not won or len(won) == len(report.sides):
        return [0.0] * len(report.sides)
    return [1.0 if side.side in won else -1.0 for side in report.sides]


def hand_change(before: ScoreReport, after: ScoreReport) -> list[int]:
    """Per side, what the hand just scored added to its match total. A Maraffa series
    starts each game's totals from zero (the only way they fall), so across a new
    game the sides' last hand is read from the score instead."""
    change = [a.match_total - b.match_total for a, b in zip(after.sides, before.sides, strict=True)]
    details = [side.detail for side in after.sides]
    if any(c < 0 for c in change) and all(type(d) is MaraffaSideScore for d in details):
        last = [d.last_hand for d in details]
        if all(h is not None for h in last):
            return [h.hand_score for h in last]
    return change
