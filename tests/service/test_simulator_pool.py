"""The simulator's process pool: what a worker raises comes back as itself, and a
worker that dies costs one call, not the pool.

Both were seen in a fuzz: a view the sampler refused in a worker came back as a pool
"terminated abruptly" (a ``RulesError`` did not survive pickling), and from then on
every ``Simulate`` and ``Determinize`` failed with INTERNAL.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from mazzo.core.errors import IllegalMove, InvalidArgument, InvalidState, NotAllowedNow
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.simulator import WORKER_NICENESS, Simulator
from mazzo.v1 import game_pb2


@pytest.mark.parametrize("kind", [InvalidArgument, InvalidState, IllegalMove, NotAllowedNow])
def test_a_rules_error_survives_pickling(kind: type[InvalidArgument]) -> None:
    error = kind("view.ramino.turns[3].seat", "out of turn")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is kind
    assert (back.field, back.reason, str(back)) == (error.field, error.reason, str(error))


def a_view() -> object:
    rules = rules_for("maraffa")
    state, _ = rules.deal(CODECS["maraffa"].options(game_pb2.GameOptions()), 4, 1)
    return rules.view(state, rules.to_act(state))


async def test_a_refusal_in_a_worker_comes_back_with_its_field() -> None:
    simulator = Simulator(processes=1)
    try:
        view = a_view()
        bad = view._replace(seat=(view.seat + 1) % 4)  # type: ignore[attr-defined]
        with pytest.raises(InvalidArgument) as caught:
            await simulator.determinize("maraffa", bad, 2, 1)
        assert caught.value.field.startswith("view")
        assert (await simulator.determinize("maraffa", view, 2, 1)).samples == 2
    finally:
        simulator.close()


async def test_a_dead_worker_costs_one_call_and_the_next_gets_a_new_pool() -> None:
    simulator = Simulator(processes=1)
    try:
        view = a_view()
        assert (await simulator.determinize("maraffa", view, 1, 1)).samples == 1
        pool = simulator._executor()
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await simulator.determinize("maraffa", view, 1, 1)
        assert (await simulator.determinize("maraffa", view, 1, 1)).samples == 1
        assert simulator._executor() is not pool
    finally:
        simulator.close()


def _niceness() -> int:
    return os.nice(0)


async def test_the_workers_run_nicer_than_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulations are batch work: on a busy machine the event loop, serving the rules
    RPCs, keeps the CPU first (the suite itself sets MAZZO_POOL_NICENESS=0)."""
    monkeypatch.delenv("MAZZO_POOL_NICENESS")
    simulator = Simulator(processes=1)
    try:
        worker = await asyncio.get_running_loop().run_in_executor(simulator._executor(), _niceness)
        assert worker == min(os.nice(0) + WORKER_NICENESS, 19)
    finally:
        simulator.close()
