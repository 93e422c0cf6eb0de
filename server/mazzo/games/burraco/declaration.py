"""Burraco, declared once: 2, 3 and 4 players, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.codec import codec_of
from mazzo.games.burraco import bounds, heuristic, records, table, texts, wire
from mazzo.games.burraco.game import RULES
from mazzo.games.declaration import declared

BURRACO: Final = declared(
    RULES, codec_of("burraco", wire), bounds, records, heuristic, texts, table
)
