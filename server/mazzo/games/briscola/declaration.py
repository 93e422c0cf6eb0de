"""Briscola, declared once: 2, 3 and 4 players, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Any, Final

from mazzo.codec import codec_of
from mazzo.games.briscola import bounds, heuristic, records, table, texts, wire
from mazzo.games.briscola.game import RULES
from mazzo.games.declaration import Game, Learning, Presentation, Strategy


def _encoding(options: Any) -> Any:
    from mazzo.games.briscola.encoding import BRISCOLA as ENCODING

    return ENCODING


def _chance_deals() -> Any:
    from mazzo.games.briscola.chance import BriscolaDeals

    return BriscolaDeals()


def _conformance() -> Any:
    from mazzo.games.briscola.conformance import CONFORMANCE

    return CONFORMANCE


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
    learning=Learning(encoding=_encoding, chance_deals=_chance_deals),
    conformance=_conformance,
)
