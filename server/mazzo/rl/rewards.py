"""Rewards, the same for PettingZoo and OpenSpiel: per match or per hand (the game's
``GameHooks.hand_change``), per side."""

from __future__ import annotations

from mazzo.core.rules import ScoreReport


def match_result(report: ScoreReport) -> list[float]:
    """Per side: +1 for a winner, -1 for the others; 0 for all in a draw (no winner, or
    every side among the winners)."""
    won = set(report.winners)
    if not won or len(won) == len(report.sides):
        return [0.0] * len(report.sides)
    return [1.0 if side.side in won else -1.0 for side in report.sides]
