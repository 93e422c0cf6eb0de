"""Standings from match records: win rates, points per hand, Elo and OpenSkill.

Everything is computed from the records alone, in schedule order, so a resumed run
and an uninterrupted one give the same table. Intervals are 95%: Wilson's for win
rates, the normal one for means, and Elo's from the score's interval mapped
through the logistic curve (as cutechess and fastchess report it). OpenSkill's
Plackett-Luce model rates teams and matches of any number of sides.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

Json = dict[str, Any]
Z95 = 1.959963984540054
#: The Elo shown for a perfect (or nil) score, which has no finite value.
ELO_CAP = 999.0


def wilson(successes: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the 95% normal interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def elo(score: float) -> float:
    if score <= 0:
        return -ELO_CAP
    if score >= 1:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400 * math.log10(1 / score - 1)))


def elo_ci(scores: Sequence[float]) -> tuple[float, float, float]:
    """Elo of a score fraction with its 95% interval."""
    mean, low, high = mean_ci(scores)
    return elo(mean), elo(low), elo(high)


def match_scores(record: Json) -> list[float]:
    """Per side: 1 for a sole winner, shares of 1 for joint winners, 0 for the rest;
    a match nobody won is a draw."""
    sides = len(record["sides"])
    winners = record["result"]["winners"]
    if not winners:
        return [1 / sides] * sides
    return [1 / len(winners) if s in winners else 0.0 for s in range(sides)]


def side_ranks(scores: Sequence[float]) -> list[float]:
    """OpenSkill's ranks for one match (lower is better): the sides with the best score
    share first place, every other side shares second. The arena rates its matches the
    same way (arena/store.py)."""
    return [0.0 if score == max(scores) else 1.0 for score in scores]


def rating_model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its default mu and sigma: teams of any size,
    any number of sides."""
    return PlackettLuce()


def side_points(record: Json) -> list[float]:
    """Per side: the points scored over the match's hands, or its match total."""
    hands = record.get("hands") or []
    sides = len(record["sides"])
    if hands:
        return [float(sum(h[s] for h in hands)) for s in range(sides)]
    return [float(t) for t in record["result"]["match_totals"]]


@dataclass
class EntrantStats:
    name: str
    matches: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    hand_points: list[float] = field(default_factory=list)
    faults: int = 0
    forfeits: int = 0

    def json(self) -> Json:
        low, high = wilson(self.wins, self.matches)
        ppm, ppm_low, ppm_high = mean_ci(self.hand_points)
        return {
            "name": self.name,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.wins / self.matches if self.matches else 0.0,
            "win_rate_ci": [low, high],
            "points_per_hand": ppm,
            "points_per_hand_ci": [ppm_low, ppm_high],
            "hands": len(self.hand_points),
            "faults": self.faults,
            "forfeits": self.forfeits,
        }


def standings(records: Iterable[Json], entrants: Sequence[str]) -> Json:
    """The summary of a run: per entrant, per pairing, and ratings."""
    stats = {name: EntrantStats(name) for name in entrants}
    model = rating_model()
    skill = {name: model.rating(name=name) for name in entrants}
    pairs: dict[tuple[str, ...], list[Json]] = defaultdict(list)
    two_sided = True
    for record in records:
        names = [s["entrant"] for s in record["sides"]]
        two_sided &= len(names) == 2
        scores = match_scores(record)
        for side, name in enumerate(names):
            st = stats.setdefault(name, EntrantStats(name))
            st.matches += 1
            st.wins += scores[side]
            st.scores.append(scores[side])
            st.hand_points += [float(h[side]) for h in record.get("hands") or []]
        for fault in record["faults"]:
            stats[fault["entrant"]].faults += 1
        if record["result"]["forfeit"]:
            stats[record["result"]["forfeit"]["entrant"]].forfeits += 1
        teams = [[skill.setdefault(n, model.rating(name=n))] for n in names]
        for new in model.rate(teams, ranks=side_ranks(scores)):
            skill[new[0].name or ""] = new[0]
        pairs[tuple(sorted(names))].append(record)
    table = []
    for st in stats.values():
        row = st.json()
        rating = skill[st.name]
        row["openskill"] = {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
        if two_sided:
            value, low, high = elo_ci(st.scores)
            row["elo"] = {"elo": value, "ci": [low, high]}
        table.append(row)
    table.sort(key=lambda r: (-r["openskill"]["ordinal"], r["name"]))
    return {
        "standings": table,
        "pairings": [pairing(names, recs) for names, recs in sorted(pairs.items())],
    }


def pairing(names: Sequence[str], records: Sequence[Json]) -> Json:
    """Head to head; with duplicate deals also the paired differences per deal."""
    first = names[0]
    scores = []
    for record in records:
        side = [s["entrant"] for s in record["sides"]].index(first)
        scores.append(match_scores(record)[side])
    out: Json = {"entrants": list(names), "matches": len(records)}
    if len(names) == 2:
        value, low, high = elo_ci(scores)
        out["elo_difference"] = {"of": first, "elo": value, "ci": [low, high]}
    duplicates = paired_differences(first, records)
    if duplicates:
        out["duplicate"] = duplicates
    return out


def deal_groups(records: Iterable[Json]) -> dict[tuple[int, int], list[Json]]:
    """Records of a duplicate run grouped by (pairing, deal)."""
    groups: dict[tuple[int, int], list[Json]] = defaultdict(list)
    for record in records:
        tag = record.get("tournament") or {}
        if tag.get("duplicate"):
            groups[tag["pairing"], tag["deal"]].append(record)
    return groups


def paired_differences(first: str, records: Sequence[Json]) -> Json | None:
    """For each deal played in every rotation: ``first``'s points minus the mean of the
    others', summed over the rotations, and the same for match scores. Same cards,
    seats swapped: what remains is skill."""
    points: list[float] = []
    results: list[float] = []
    both = split = neither = 0
    for group in deal_groups(records).values():
        sides = len(group[0]["sides"])
        if len(group) < sides:
            continue  # not every rotation recorded yet
        p_diff = s_diff = 0.0
        wins = 0
        for record in group:
            side = [s["entrant"] for s in record["sides"]].index(first)
            pts, sc = side_points(record), match_scores(record)
            p_diff += pts[side] - (sum(pts) - pts[side]) / (sides - 1)
            s_diff += sc[side] - (sum(sc) - sc[side]) / (sides - 1)
            wins += sc[side] == max(sc) and sc[side] > 0
        points.append(p_diff)
        results.append(s_diff)
        if wins == len(group):
            both += 1
        elif wins == 0:
            neither += 1
        else:
            split += 1
    if not points:
        return None
    pm, pl, ph = mean_ci(points)
    rm, rl, rh = mean_ci(results)
    return {
        "of": first,
        "deals": len(points),
        "points_difference": pm,
        "points_difference_ci": [pl, ph],
        "result_difference": rm,
        "result_difference_ci": [rl, rh],
        "won_every_rotation": both,
        "split": split,
        "lost_every_rotation": neither,
    }
