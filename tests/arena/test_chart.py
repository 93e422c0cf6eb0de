"""A bot's rating chart: one point per game from the starting rating, at most
``MAX_POINTS`` drawn however many games, the first and last kept; the label escaped."""

from __future__ import annotations

import re

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


def test_the_label_is_escaped() -> None:
    svg = rating_chart((25.0, 8.0), [], '<script>alert("x")</script>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert len(points(svg, "rating")) == 1
