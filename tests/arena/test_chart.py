"""A bot's rating chart: one point per game from the starting rating, at most
``MAX_POINTS`` drawn however many games, the first and last kept; the label escaped."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from mazzo.arena.chart import MAX_POINTS, rating_chart, thin


def points(svg: str, kind: str) -> list[tuple[float, float]]:
    found = re.search(rf'class="{kind}" points="([^"]+)"', svg)
    assert found is not None, kind
    return [(float(x), float(y)) for x, y in (p.split(",") for p in found.group(1).split())]


def test_the_chart_has_a_point_per_game_and_the_rating_below_the_mean() -> None:
    svg = rating_chart((25.0, 25 / 3), [(27.0, 7.5), (26.0, 7.0), (29.0, 6.0)], "ada-1")
    rating, mean = points(svg, "rating"), points(svg, "mean")
    assert len(rating) == len(mean) == 4
    assert [x for x, _ in rating] == sorted(x for x, _ in rating)  # games left to right
    assert all(r[1] > m[1] for r, m in zip(rating, mean, strict=True))  # lower: larger y
    assert rating[-1][1] < rating[0][1]  # mu - 3 sigma rose from 0 to 11


def test_a_long_history_is_thinned_keeping_its_ends() -> None:
    values = [(k, 25.0 + k / 100, 8.0 - k / 1000) for k in range(5000)]
    kept = thin(values)
    assert len(kept) <= MAX_POINTS and kept[0] == values[0] and kept[-1] == values[-1]
    svg = rating_chart((25.0, 8.0), [(mu, sigma) for _k, mu, sigma in values], "long")
    assert len(points(svg, "rating")) <= MAX_POINTS


@pytest.mark.parametrize("count", [2, 3, 999, 1000, 1001, 1998, 1999, 2000, 5001])
@pytest.mark.parametrize("most", [2, 3, 400, 1000])
def test_thinning_keeps_at_most_so_many_evenly_spread_with_both_ends(count: int, most: int) -> None:
    values = list(range(count))
    kept = thin(values, most)
    assert len(kept) <= most and kept[0] == 0 and kept[-1] == count - 1
    assert kept == sorted(set(kept))  # in order, none twice
    gaps = [b - a for a, b in pairwise(kept)]
    assert len(set(gaps[:-1])) <= 1 and gaps[-1] <= gaps[0]  # one step; the last no longer
    if count <= most:
        assert kept == values


def test_the_label_is_escaped() -> None:
    svg = rating_chart((25.0, 8.0), [], '<script>alert("x")</script>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert len(points(svg, "rating")) == 1
