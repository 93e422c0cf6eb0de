"""The search pool is bounded and the rules calls do not wait for it (docs/search.md,
"Bounded work"): a full pool refuses a search at once (RESOURCE_EXHAUSTED with a
RetryInfo; HTTP 429 with Retry-After), a rules call's JSON is converted in a process
of its own, an over-budget Simulate is refused before its samples are all drawn, and
the pool's processes end with the server, even a killed one.

Each was found by a hostile user: behind 40 heavy Simulates an HTTP LegalMoves with a
40 KB body waited 95 s, and a 1,024-sample Ramino Simulate was refused after 2.6 s.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx
import pytest
import pytest_asyncio
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from mazzo.core.errors import InvalidArgument
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.service import simulator as simulator_module
from mazzo.service.game_service import GameService
from mazzo.service.server import Running, start_server, stop_server
from mazzo.service.simulator import Simulator
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub

ROOT = Path(__file__).resolve().parents[2]
RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"


@dataclass
class Doors:
    running: Running
    http: httpx.AsyncClient
    stub: GameServiceStub


@pytest_asyncio.fixture
async def doors() -> AsyncIterator[Doors]:
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=15) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield Doors(running, http, GameServiceStub(channel))
    await stop_server(running, grace=0.5, quiet=0)


async def dealt(stub: GameServiceStub, game: str = "maraffa", players: int = 4) -> gs.DealResponse:
    reply: gs.DealResponse = await stub.Deal(gs.DealRequest(game=game, players=players, seed=3))
    return reply


# --------------------------------------------------------------------------- admission


async def test_a_gate_admits_its_capacity_and_refuses_past_it_at_once() -> None:
    gate = simulator_module.Gate(2, "searches")
    leave = asyncio.Event()

    async def holder() -> None:
        with gate.held(), gate.held():  # the same task passes again, uncounted
            await leave.wait()

    holders = [asyncio.create_task(holder()) for _ in range(2)]
    while gate.in_flight < 2:
        await asyncio.sleep(0)
    with pytest.raises(simulator_module.Busy) as refused, gate.held():
        pass
    retry = simulator_module.RETRY_SECONDS
    assert (gate.in_flight, gate.refused, refused.value.retry_seconds) == (2, 1, retry)
    leave.set()
    await asyncio.gather(*holders)
    with gate.held():
        assert gate.in_flight == 1
    assert gate.in_flight == 0


async def test_a_full_search_pool_refuses_a_search_at_once_over_both_doors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No search is admitted (a bound of 0): Simulate and Determinize are
    RESOURCE_EXHAUSTED with a RetryInfo over gRPC and 429 with Retry-After over HTTP;
    the rules calls are answered as ever."""
    monkeypatch.setattr(simulator_module, "SEARCHES_PER_PROCESS", 0, raising=False)
    monkeypatch.setattr(simulator_module, "MIN_SEARCHES", 0, raising=False)
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        async with (
            httpx.AsyncClient(base_url=base, timeout=15) as http,
            grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
        ):
            stub = GameServiceStub(channel)
            deal = await dealt(stub)
            view = (await stub.GetView(gs.GetViewRequest(state=deal.state, seat=deal.seat))).view
            simulate = gs.SimulateRequest(state=deal.state, playouts=1)
            determinize = gs.DeterminizeRequest(view=view, count=1)
            for call, request in ((stub.Simulate, simulate), (stub.Determinize, determinize)):
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call(request)
                assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                status = rpc_status.from_call(caught.value)
                assert status is not None and len(status.details) == 1
                info = error_details_pb2.RetryInfo()
                assert status.details[0].Unpack(info)
                assert info.retry_delay.seconds == simulator_module.RETRY_SECONDS
            for path, request in (
                ("/v1/state:simulate", simulate),
                ("/v1/view:determinize", determinize),
            ):
                reply = await http.post(path, content=json_format.MessageToJson(request))
                assert reply.status_code == 429, reply.text
                assert reply.headers["retry-after"] == str(simulator_module.RETRY_SECONDS)
                body = reply.json()
                assert body["code"] == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
                assert [d["@type"] for d in body["details"]] == [RETRY_INFO]
                assert body["message"] == caught.value.details()
            rules_call = json_format.MessageToJson(gs.LegalMovesRequest(state=deal.state))
            reply = await http.post("/v1/state:legalMoves", content=rules_call)
            assert reply.status_code == 200, reply.text
            assert running.service.simulator.searches.refused == 4
    finally:
        await stop_server(running, grace=0.5, quiet=0)


# --------------------------------------------------------------------------- JSON


async def test_a_rules_calls_json_is_not_queued_behind_searches(doors: Doors) -> None:
    """Every process of the search pool busy (a long sleep each), an HTTP LegalMoves
    whose 40 KB body is parsed in a pool is answered while they still sleep."""
    deal = await dealt(doors.stub)
    text = json_format.MessageToJson(gs.LegalMovesRequest(state=deal.state), indent=None)
    body = text + " " * (40 * 1024 - len(text))
    simulator = doors.running.service.simulator
    executor = simulator._executor()
    sleeping = [executor.submit(time.sleep, 20) for _ in range(simulator.processes)]
    try:
        reply = await doors.http.post(
            "/v1/state:legalMoves", content=body, headers={"content-type": "application/json"}
        )
        assert reply.status_code == 200, reply.text
        assert not any(f.done() for f in sleeping), "answered only once the searches ended"
    finally:
        for pid in list(executor._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)


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
