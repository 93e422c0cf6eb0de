"""Burraco, declared once: 2, 3 and 4 players, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Any, Final

from mazzo.codec import codec_of
from mazzo.games.burraco import bounds, heuristic, records, table, texts, wire
from mazzo.games.burraco.game import RULES
from mazzo.games.declaration import Game, Learning, Presentation, Strategy


def _encoding(options: Any) -> Any:
    from mazzo.games.burraco.encoding import BURRACO as ENCODING

    return ENCODING


def _chance_deals() -> Any:
    from mazzo.games.burraco.chance import BurracoDeals

    return BurracoDeals()


def _conformance() -> Any:
    from mazzo.games.burraco.conformance import CONFORMANCE

    return CONFORMANCE


BURRACO: Final = Game(
    rules=RULES,
    codec=codec_of("burraco", wire),
    bounds=bounds.BOUNDS,
    match_sides=bounds.MATCH_SIDES,
    hooks=records.HOOKS,
    strategy=Strategy(heuristic=heuristic.act),
    presentation=Presentation(
        deck="french",
        event_texts=texts.EVENTS,
        move_texts=texts.MOVES,
        draw_table=table.draw,
        frame_floor_bytes=640,
    ),
    learning=Learning(encoding=_encoding, chance_deals=_chance_deals),
    conformance=_conformance,
)
