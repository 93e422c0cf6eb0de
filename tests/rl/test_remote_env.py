"""``MazzoEnv(server=...)``: over gRPC to a running server, a seeded run gives the same
agents, observations, masks and rewards, step for step, as on the in-process engines.
2-player Maraffa in make test; the other forms' first steps in make test-long."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from mazzo.rl import MazzoEnv
from mazzo.service.server import start_server, stop_server
from tests.rl.forms import FORMS, Form, random_chooser

#: Steps compared per form beyond 2-player Maraffa (whose whole match is compared).
PREFIX = 120


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server on a free port, its event loop in a thread of its own (the environment's
    calls block)."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(loop)
        box["server"], box["port"] = loop.run_until_complete(start_server("127.0.0.1", 0))
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(30), "the server did not start"
    yield f"127.0.0.1:{box['port']}"
    stopped = stop_server(box["server"], grace=0.5, quiet=0)
    asyncio.run_coroutine_threadsafe(stopped, loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def run_both(local: MazzoEnv, remote: MazzoEnv, seed: int, limit: int | None) -> int:
    """Steps both environments with the same actions, comparing what every agent sees."""
    local.reset(seed=seed)
    remote.reset(seed=seed)
    choose = random_chooser(local.game, np.random.default_rng(seed))
    steps = 0
    for agent in local.agent_iter():
        assert remote.agent_selection == agent
        for a in local.possible_agents:
            mine, theirs = local.observe(a), remote.observe(a)
            np.testing.assert_array_equal(mine["observation"], theirs["observation"])
            np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
        assert local.rewards == remote.rewards
        assert local.terminations == remote.terminations
        obs, _, terminated, truncated, _ = local.last()
        if terminated or truncated:
            local.step(None)
            remote.step(None)
            continue
        action = choose(obs["action_mask"])
        local.step(action)
        remote.step(action)
        steps += 1
        if limit is not None and steps == limit:
            break
    assert local.match_state == remote.match_state
    return steps


def test_a_seeded_match_over_grpc_is_the_in_process_one(server: str) -> None:
    form = next(f for f in FORMS if f.id == "maraffa2")
    local, remote = form.env(reward="match"), form.env(server=server, reward="match")
    try:
        steps = run_both(local, remote, seed=21, limit=None)
    finally:
        remote.close()
    assert steps > 20
    assert remote.rules.finished(remote.match_state) and all(remote.terminations.values())


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize("form_id", ["maraffa3-dummy", "trionfo5", "burraco2", "ramino4"])
def test_other_forms_over_grpc_step_as_in_process(server: str, form_id: str) -> None:
    form: Form = next(f for f in FORMS if f.id == form_id)
    local, remote = form.env(reward="hand"), form.env(server=server, reward="hand")
    try:
        assert run_both(local, remote, seed=5, limit=PREFIX) > 0
    finally:
        remote.close()


def test_set_state_over_grpc_goes_on_from_the_state(server: str) -> None:
    form = next(f for f in FORMS if f.id == "maraffa4")
    local, remote = form.env(), form.env(server=server)
    try:
        local.reset(seed=3)
        remote.reset(seed=4)  # another deal: set_state replaces it
        remote.set_state(local.match_state)
        assert remote.agent_selection == local.agent_selection
        for a in local.possible_agents:
            np.testing.assert_array_equal(
                local.observe(a)["observation"], remote.observe(a)["observation"]
            )
            np.testing.assert_array_equal(
                local.observe(a)["action_mask"], remote.observe(a)["action_mask"]
            )
    finally:
        remote.close()
