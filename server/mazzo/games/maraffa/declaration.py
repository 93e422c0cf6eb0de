"""Maraffa, declared once: every form (classic 4, 3 with the dummy, 2 with the stock,
Trionfo 5), as every layer sees it (``games.declaration``)."""

from __future__ import annotations

from typing import Any, Final

from mazzo.games.declaration import Game, Learning, Presentation, Strategy
from mazzo.games.maraffa import bounds, heuristic, records, table, texts
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.wire_forms import CODEC


def _encoding(options: Any) -> Any:
    from mazzo.games.maraffa.encoding import MARAFFA as ENCODING

    return ENCODING


def _chance_deals() -> Any:
    from mazzo.games.maraffa.chance import MaraffaDeals

    return MaraffaDeals()


def _agent_view(view: Any) -> Any:
    from mazzo.games.maraffa.encoding import agent_view

    return agent_view(view)


def _conformance() -> Any:
    from mazzo.games.maraffa.conformance import CONFORMANCE

    return CONFORMANCE


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
    learning=Learning(encoding=_encoding, chance_deals=_chance_deals, agent_view=_agent_view),
    conformance=_conformance,
)
