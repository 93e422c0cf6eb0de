"""The search pool's work is bounded (docs/search.md, "Bounded work"): an over-budget
Simulate is refused before its samples are all drawn.

Found by a hostile user: a 1,024-sample Ramino Simulate was refused after 2.6 s.
"""

from __future__ import annotations

import time

import pytest

from mazzo.codec import CODECS
from mazzo.core.errors import InvalidArgument
from mazzo.games.registry import GAMES, rules_for
from mazzo.service.game_service import GameService
from mazzo.service.simulator import Simulator
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs

# --------------------------------------------------------------------------- budget


async def test_an_over_budget_simulate_is_refused_before_its_samples_are_drawn() -> None:
    """6-player Ramino, 1,024 samples of 10,000 playouts: refused on ``playouts`` from
    the first sample (drawing all 1,024 took over 2 s)."""
    simulator = Simulator(processes=1)
    service = GameService(simulator=simulator)
    try:
        deal = await service.Deal(gs.DealRequest(game="ramino", players=6, seed=3), None)  # type: ignore[arg-type]
        seen = await service.GetView(gs.GetViewRequest(state=deal.state, seat=deal.seat), None)  # type: ignore[arg-type]
        # The pool's process started: what is timed is the call's own work.
        await service.Determinize(gs.DeterminizeRequest(view=seen.view, count=1), None)  # type: ignore[arg-type]
        request = gs.SimulateRequest(view=seen.view, playouts=10_000, determinizations=1024, seed=1)
        start = time.perf_counter()
        with pytest.raises(InvalidArgument) as refused:
            await service.Simulate(request, None)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - start
        assert refused.value.field == "playouts"
        assert "x 1024 samples" in refused.value.reason
        assert elapsed < 0.5, f"refused after {elapsed:.2f} s"
    finally:
        simulator.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_first_sample_of_a_count_is_the_first_of_any(game: str) -> None:
    """What budgeting on the first sample rests on (``Rules.determinize``)."""
    rules = rules_for(game)
    for players in rules.player_counts:
        state, _ = rules.deal(CODECS[game].options(game_pb2.GameOptions()), players, 5)
        view = rules.view(state, rules.to_act(state))
        assert list(rules.determinize(view, 1, 9)) == list(rules.determinize(view, 4, 9))[:1]
