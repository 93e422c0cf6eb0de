"""Briscola, declared once: 2, 3 and 4 players, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.codec import codec_of
from mazzo.games.briscola import bounds, heuristic, records, table, texts, wire
from mazzo.games.briscola.game import RULES
from mazzo.games.declaration import (
    Game,
    Learning,
    Presentation,
    Strategy,
    called_when_used,
    value_when_used,
)

PACKAGE: Final = "mazzo.games.briscola"
ENCODING: Final = f"{PACKAGE}.encoding"


BRISCOLA: Final = Game(
    rules=RULES,
    codec=codec_of("briscola", wire),
    bounds=bounds.BOUNDS,
    match_sides=bounds.MATCH_SIDES,
    hooks=records.HOOKS,
    strategy=Strategy(heuristic=heuristic.act),
    presentation=Presentation(
        deck="italian",
        event_texts=texts.EVENTS,
        move_texts=texts.MOVES,
        draw_table=table.draw,
        frame_floor_bytes=400,
    ),
    learning=Learning(
        encoding=called_when_used(ENCODING, "encoding"),
        chance_deals=called_when_used(f"{PACKAGE}.chance", "BriscolaDeals"),
    ),
    conformance=value_when_used(f"{PACKAGE}.conformance", "CONFORMANCE"),
)
