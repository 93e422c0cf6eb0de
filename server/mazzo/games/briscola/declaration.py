"""Briscola, declared once: 2, 3 and 4 players, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.codec import codec_of
from mazzo.games.briscola import bounds, heuristic, records, table, texts, wire
from mazzo.games.briscola.game import RULES
from mazzo.games.declaration import declared

BRISCOLA: Final = declared(
    RULES, codec_of("briscola", wire), bounds, records, heuristic, texts, table
)
