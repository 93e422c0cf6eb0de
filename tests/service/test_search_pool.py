"""The search pool's work is bounded (docs/search.md, "Bounded work"): an over-budget
Simulate is refused before its samples are all drawn, and the pool's processes end
with the server, even a killed one.

Found by a hostile user: a 1,024-sample Ramino Simulate was refused after 2.6 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mazzo.codec import CODECS
from mazzo.core.errors import InvalidArgument
from mazzo.games.registry import GAMES, rules_for
from mazzo.service.game_service import GameService
from mazzo.service.simulator import Simulator
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs

ROOT = Path(__file__).resolve().parents[2]

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


# --------------------------------------------------------------------------- lifetime

CHILD = """
import sys, time
from mazzo.service.simulator import Simulator
simulator = Simulator(processes=1)
print(simulator._executor().submit(__import__("os").getpid).result(), flush=True)
time.sleep(60)
"""


def test_the_pools_processes_end_with_a_killed_server() -> None:
    """A server killed (SIGKILL: no exit handler runs) leaves no pool process behind,
    waiting forever for work on a pipe it holds open itself."""
    path = os.pathsep.join([str(ROOT / "server"), str(ROOT)])
    # The killed server's semaphores are left for its resource tracker, which says so.
    env = {**os.environ, "PYTHONPATH": path, "PYTHONWARNINGS": "ignore::UserWarning"}
    server = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, env=env)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(worker):
        time.sleep(0.05)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive, "the pool's process outlived the server"


def _alive(pid: int) -> bool:
    """Running (not ended, nor a zombie waiting to be reaped by its new parent)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
