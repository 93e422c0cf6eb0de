"""Ramino, declared once: 2 to 6 players betting chips, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.codec import codec_of
from mazzo.games.declaration import declared
from mazzo.games.ramino import bounds, heuristic, records, table, texts, wire
from mazzo.games.ramino.game import RULES

#: A saved policy's action count fits Ramino's options by its stakes (``encoding``).
RAMINO: Final = declared(
    RULES,
    codec_of("ramino", wire),
    bounds,
    records,
    heuristic,
    texts,
    table,
    learning=("action_count_refusal",),
)
