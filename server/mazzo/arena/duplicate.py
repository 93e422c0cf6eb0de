"""A duplicate set's result: its matches rated as one result, as duplicate bridge
scores a board against the other tables that played it.

A set deals one seed to the same bots with the seats rotated, so every team holds
every side's cards in turn. Rated match by match, a deal's luck still moves the
ratings twice, one way and back, and OpenSkill's updates do not cancel (sigma shrinks
between them, ``tau`` is added to each): luck cancels only when the set's matches are
compared with each other. So the arena rates a set once, when its last match ends:
each team's score is its summed match scores over the set's finished matches
(``match_scores``: 1 for a win, shares for a shared win), and the teams are ranked by
it; a team that won as many of the deals as the other drew the set. The cards' points
do not break a tie: their sense differs per game (penalties in Ramino).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

B = TypeVar("B", bound=Hashable)


class NotOneSet(ValueError):
    """The matches do not seat the same teams: they are not one duplicate set."""


def set_ranks(
    teams: Sequence[Sequence[Sequence[B]]], scores: Sequence[Sequence[float]]
) -> tuple[list[list[B]], list[float]]:
    """``teams[m][side]``: the bots of each side of match ``m`` (partners together);
    ``scores[m][side]``: that side's match score. Returns the set's teams (as its first
    match lists its sides) and OpenSkill's ranks for them (lower is better: a team's
    rank is how many teams scored more over the set; equal totals share a rank)."""
    if not teams or len(teams) != len(scores):
        raise NotOneSet("a set needs one list of sides and one of scores per match")
    order = [list(team) for team in teams[0]]
    key = [frozenset(team) for team in order]
    if len(set(key)) != len(key):
        raise NotOneSet("two sides of the first match hold the same bots")
    total = dict.fromkeys(key, 0.0)
    for sides, points in zip(teams, scores, strict=True):
        if len(sides) != len(points) or {frozenset(t) for t in sides} != set(key):
            raise NotOneSet("the set's matches do not seat the same teams")
        for team, score in zip(sides, points, strict=True):
            total[frozenset(team)] += score
    final = {team: round(value, 9) for team, value in total.items()}  # 1/3 + 2/3 == 1
    return order, [float(sum(final[o] > final[k] for o in key)) for k in key]
