"""Statistics of the standings, on hand-made results."""

from __future__ import annotations

from typing import Any

import pytest

from mazzo.referee.ratings import elo, elo_ci, mean_ci, standings, wilson


def record(rid: str, names: list[str], winners: list[int], hands: list[list[int]]) -> Any:
    return {
        "id": rid,
        "sides": [{"entrant": n} for n in names],
        "result": {"winners": winners, "forfeit": None, "match_totals": [0] * len(names)},
        "hands": hands,
        "faults": [],
    }


def test_intervals_and_elo() -> None:
    low, high = wilson(60, 100)
    assert 0.50 < low < 0.6 < high < 0.70
    assert wilson(0, 0) == (0.0, 1.0)
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and lo < 2.5 < hi and hi - 2.5 == pytest.approx(2.5 - lo)
    assert elo(0.5) == 0 and elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(1.0) == 999 and elo(0.0) == -999
    value, lo, hi = elo_ci([1.0, 0.0, 1.0, 0.5] * 25)
    assert lo < value < hi and value == pytest.approx(elo(0.625))


def test_standings_of_two_sides_have_elo_and_points_per_hand() -> None:
    records = [
        record(f"m{i}", ["a", "b"] if i % 2 else ["b", "a"], [0 if i % 2 else 1], [[7, 4], [6, 5]])
        for i in range(10)
    ]
    # a is side 1 when i is even, and side 1 wins then; a is side 0 when odd, side 0 wins.
    table = {row["name"]: row for row in standings(records, ["a", "b"])["standings"]}
    assert table["a"]["wins"] == 10 and table["b"]["wins"] == 0
    assert table["a"]["points_per_hand"] == pytest.approx(5.5)
    assert table["a"]["elo"]["elo"] == 999
    assert table["a"]["openskill"]["ordinal"] > table["b"]["openskill"]["ordinal"]


def test_openskill_rates_more_than_two_sides_without_elo() -> None:
    records = [record(f"m{i}", ["a", "b", "c"], [0], []) for i in range(6)]
    summary = standings(records, ["a", "b", "c"])
    names = [row["name"] for row in summary["standings"]]
    assert names[0] == "a"
    assert all("elo" not in row for row in summary["standings"])
    assert summary["pairings"][0]["entrants"] == ["a", "b", "c"]
