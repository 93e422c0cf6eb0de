"""Ramino, declared once: 2 to 6 players betting chips, as every layer sees it
(``games.declaration``)."""

from __future__ import annotations

from typing import Any, Final

from mazzo.codec import codec_of
from mazzo.games.declaration import Game, Learning, Presentation, Strategy
from mazzo.games.ramino import bounds, heuristic, records, table, texts, wire
from mazzo.games.ramino.game import RULES


def _encoding(options: Any) -> Any:
    from mazzo.games.ramino.encoding import ramino_encoding

    return ramino_encoding(options.max_stake)


def _chance_deals() -> Any:
    from mazzo.games.ramino.chance import RaminoDeals

    return RaminoDeals()


def _action_count_refusal(game: str, actions: int, default: int) -> str | None:
    from mazzo.games.ramino.encoding import action_count_refusal

    return action_count_refusal(game, actions, default)


def _conformance() -> Any:
    from mazzo.games.ramino.conformance import CONFORMANCE

    return CONFORMANCE


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
        encoding=_encoding,
        chance_deals=_chance_deals,
        action_count_refusal=_action_count_refusal,
    ),
    conformance=_conformance,
)
