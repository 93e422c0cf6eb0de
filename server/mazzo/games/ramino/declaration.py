"""Ramino, declared once: 2 to 6 players betting chips, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.codec import codec_of
from mazzo.games.declaration import (
    Game,
    Learning,
    Presentation,
    Strategy,
    called_when_used,
    value_when_used,
)
from mazzo.games.ramino import bounds, heuristic, records, table, texts, wire
from mazzo.games.ramino.game import RULES

PACKAGE: Final = "mazzo.games.ramino"
ENCODING: Final = f"{PACKAGE}.encoding"


RAMINO: Final = Game(
    rules=RULES,
    codec=codec_of("ramino", wire),
    bounds=bounds.BOUNDS,
    match_sides=bounds.MATCH_SIDES,
    hooks=records.HOOKS,
    strategy=Strategy(heuristic=heuristic.act),
    presentation=Presentation(
        deck="french",
        event_texts=texts.EVENTS,
        move_texts=texts.MOVES,
        draw_table=table.draw,
        frame_floor_bytes=480,
    ),
    learning=Learning(
        encoding=called_when_used(ENCODING, "encoding"),
        chance_deals=called_when_used(f"{PACKAGE}.chance", "RaminoDeals"),
        action_count_refusal=called_when_used(ENCODING, "action_count_refusal"),
    ),
    conformance=value_when_used(f"{PACKAGE}.conformance", "CONFORMANCE"),
)
