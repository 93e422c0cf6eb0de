"""Maraffa, declared once: every form (classic 4, 3 with the dummy, 2 with the stock,
Trionfo 5), as every layer sees it (``games.declaration``)."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Strategy, acting, declared
from mazzo.games.maraffa import bounds, heuristic, records, table, texts
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.wire_forms import CODEC

#: Random play and search leave out a claim, which ends the game at once; the dummy's
#: view is its controller's (``encoding.agent_view``).
MARAFFA: Final = declared(
    RULES,
    CODEC,
    bounds,
    records,
    heuristic,
    texts,
    table,
    strategy=Strategy(
        heuristic=acting(heuristic.choose),
        avoid_at_random=heuristic.avoid_at_random,
        avoid_at_random_on_wire=heuristic.avoid_at_random_on_wire,
        search_candidates=heuristic.search_candidates,
    ),
    learning=("agent_view",),
)
