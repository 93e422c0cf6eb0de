"""A bot's rating over its games, as an inline SVG drawn on the server: the page needs
no script and no chart library, and the picture scales to a phone (``viewBox``).

Drawn: the rating the ladder ranks by (mu - 3 sigma, the solid line), the mean (mu,
dashed) and the interval mu +- 3 sigma as a band, game by game from the starting
rating (game 0). Only numbers are drawn; the one text that is not a number (the
chart's label) is escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import TypeVar

T = TypeVar("T")

#: At most this many points are drawn (every k-th game, and the last).
MAX_POINTS = 400
WIDTH, HEIGHT = 640, 260
#: The plot's margins inside the picture: left (the values), right, top, bottom.
LEFT, RIGHT, TOP, BOTTOM = 48, 14, 12, 36


def thin(values: Sequence[T], most: int = MAX_POINTS) -> list[T]:
    """At most ``most`` (2 or more) of ``values``, evenly spread, the first and last kept:
    a bot's games grow without end, what is drawn or sent of them does not."""
    if len(values) <= most:
        return list(values)
    step = math.ceil(len(values) / (most - 1))
    kept = list(values[::step])
    if (len(values) - 1) % step:
        kept.append(values[-1])
    return kept


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values between ``low`` and ``high`` (1, 2 or 5 times a power of ten apart)."""
    span = max(high - low, 1e-9)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def rating_chart(
    start: tuple[float, float], after: Sequence[tuple[float, float]], label: str
) -> str:
    """The SVG of a rating: ``start`` (mu, sigma) before the first game, then ``after``
    each game. ``label`` names the chart for screen readers (escaped here)."""
    values = thin([(k, mu, sigma) for k, (mu, sigma) in enumerate([start, *after])])
    games = max(values[-1][0], 1)
    low = min(mu - 3 * sigma for _k, mu, sigma in values)
    high = max(mu + 3 * sigma for _k, mu, sigma in values)
    pad = max((high - low) * 0.05, 0.5)
    low, high = low - pad, high + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(game: int) -> float:
        return LEFT + plot_w * game / games

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    def path(points: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)

    upper = [(x(k), y(mu + 3 * sigma)) for k, mu, sigma in values]
    lower = [(x(k), y(mu - 3 * sigma)) for k, mu, sigma in values]
    means = [(x(k), y(mu)) for k, mu, _sigma in values]
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" class="plot"/>',
    ]
    for tick in _ticks(low, high):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'class="grid"/><text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" class="axis" '
            f'text-anchor="end">{tick:g}</text>'
        )
    for game in sorted({0, games // 2, games}):
        parts.append(
            f'<text x="{x(game):.1f}" y="{HEIGHT - BOTTOM + 16}" class="axis" '
            f'text-anchor="middle">{game}</text>'
        )
    parts += [
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" class="axis" '
        'text-anchor="middle">games</text>',
        f'<polygon class="band" points="{path(upper + lower[::-1])}"/>',
        f'<polyline class="mean" points="{path(means)}"/>',
        f'<polyline class="rating" points="{path(lower)}"/>',
        "</svg>",
    ]
    return "".join(parts)
