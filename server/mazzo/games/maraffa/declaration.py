"""Maraffa, declared once: every form (classic 4, 3 with the dummy, 2 with the stock,
Trionfo 5), as every layer sees it (``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import (
    Game,
    Learning,
    Presentation,
    Strategy,
    called_when_used,
    value_when_used,
)
from mazzo.games.maraffa import bounds, heuristic, records, table, texts
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.wire_forms import CODEC

PACKAGE: Final = "mazzo.games.maraffa"
ENCODING: Final = f"{PACKAGE}.encoding"


MARAFFA: Final = Game(
    rules=RULES,
    codec=CODEC,
    bounds=bounds.BOUNDS,
    match_sides=bounds.MATCH_SIDES,
    hooks=records.HOOKS,
    strategy=Strategy(
        heuristic=heuristic.act,
        avoid_at_random=heuristic.avoid_at_random,
        avoid_at_random_on_wire=heuristic.avoid_at_random_on_wire,
        search_candidates=heuristic.search_candidates,
    ),
    presentation=Presentation(
        deck="italian",
        event_texts=texts.EVENTS,
        move_texts=texts.MOVES,
        draw_table=table.draw,
        frame_floor_bytes=384,
    ),
    learning=Learning(
        encoding=called_when_used(ENCODING, "encoding"),
        chance_deals=called_when_used(f"{PACKAGE}.chance", "MaraffaDeals"),
        agent_view=called_when_used(ENCODING, "agent_view"),
    ),
    conformance=value_when_used(f"{PACKAGE}.conformance", "CONFORMANCE"),
)
