"""The frames endpoint's bounds (docs/viewer.md#bounds): long legal records are refused
early and clearly, frames are built in the viewer's own process (the server's memory
and its gRPC calls are untouched meanwhile), and a full queue is refused with 429."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import tracemalloc
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx
import pytest
import pytest_asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.core.errors import InvalidArgument
from mazzo.referee.match import MatchSpec, options_json, run_match
from mazzo.service.server import Running, start_server, stop_server
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from mazzo.viewer import frames as frames_module
from mazzo.viewer import pool
from mazzo.viewer.frames import MAX_VIEW_MOVES, check_bounds, frame_floor_bytes, frames_body
from mazzo.viewer.web import service_routes


def _burraco(hands: int) -> dict[str, Any]:
    """A legal Burraco match of four random bots, ``hands`` hands (some 190 moves each)."""
    spec = MatchSpec(f"long-{hands}", "burraco", 3, 4, options_json("burraco", [f"hands={hands}"]))
    return asyncio.run(run_match(spec, ["builtin:random"] * 4))


@pytest.fixture(scope="module")
def long_record() -> dict[str, Any]:
    """Over ``MAX_VIEW_MOVES`` moves (2,119)."""
    record = _burraco(12)
    assert len(record["moves"]) > MAX_VIEW_MOVES
    return record


@pytest.fixture(scope="module")
def thousand_moves() -> dict[str, Any]:
    """999 moves: some 7 MB of frames, a second or two to build."""
    return _burraco(6)


@pytest_asyncio.fixture
async def server() -> AsyncIterator[Running]:
    running, _ = await start_server("127.0.0.1", 0, http_port=0, http_routes=service_routes())
    yield running
    await stop_server(running, grace=0.5, quiet=0)


def _client(running: Running) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{running.http_port}", timeout=20)


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


class PeakRss:
    """This process's peak RSS growth while the block runs, sampled every 5 ms."""

    def __init__(self) -> None:
        self.start = rss_mib()
        self.peak = self.start
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.005):
            self.peak = max(self.peak, rss_mib())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    @property
    def growth(self) -> float:
        return self.peak - self.start


def test_every_game_has_a_floor_and_the_bounds_refuse_before_any_replay(
    records: list[Any],
) -> None:
    assert all(frame_floor_bytes(r["game"]) > 0 for r in records)
    record = next(r for r in records if r["id"] == "burraco-4")
    # moves that would diverge at once: the bounds refuse them first
    many = {**record, "moves": record["moves"][:1] * 14_000}
    with pytest.raises(InvalidArgument, match=r"make over \d+ bytes of frames") as raised:
        check_bounds(many, False)
    assert raised.value.field == "record.moves"
    with pytest.raises(InvalidArgument, match=f"records of {MAX_VIEW_MOVES} moves or fewer"):
        frames_body({**record, "moves": record["moves"][:1] * (MAX_VIEW_MOVES + 1)}, True)


def test_frames_past_the_bound_are_refused_as_they_are_written(
    records: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound is counted as frames are written: the refusal names the move where they
    passed it, and memory never held much more than the bound."""
    record = next(r for r in records if r["id"] == "burraco-4")
    whole = len(frames_body(record))
    bound = whole // 2  # over the floor of its moves: refused only while written
    monkeypatch.setattr(frames_module, "MAX_FRAMES_BYTES", bound)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidArgument, match=f"the frames pass {bound} bytes at move") as e:
            frames_body(record, gzipped=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    at = int(e.value.reason.split(" at move ")[1].split()[0])
    assert 0 < at < len(record["moves"]) and e.value.field == "record.moves"
    print(f"peak {peak} bytes while writing, bound {bound}")
    assert peak < 3 * bound, (peak, bound)


async def test_views_of_a_long_record_are_refused_at_once(
    server: Running, long_record: dict[str, Any]
) -> None:
    async with _client(server) as http:
        started = time.perf_counter()
        with PeakRss() as rss:
            reply = await http.post("/viewer/frames?views=1", json=long_record)
        seconds = time.perf_counter() - started
    assert reply.status_code == 400, reply.text[:300]
    status = reply.json()
    assert status["code"] == 3 and f"of {MAX_VIEW_MOVES} moves or fewer" in status["message"]
    assert status["details"][0]["fieldViolations"][0]["field"] == "record.moves"
    assert seconds < 5, seconds  # the pool's process starts, reads the body, refuses
    assert rss.growth < 32, rss.growth


@pytest.mark.slow
async def test_the_server_keeps_answering_while_frames_are_built(
    server: Running, thousand_moves: dict[str, Any]
) -> None:
    """A thousand Burraco moves of frames (7 MB of JSON) are built while gRPC LegalMoves
    and Health calls keep being answered (95 in 100 within 250 ms, none waiting half the
    build); the server's own memory hardly moves."""
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    stub, health = GameServiceStub(channel), health_pb2_grpc.HealthStub(channel)
    dealt = await stub.Deal(gs.DealRequest(game="burraco", players=4, seed=1))
    legal = gs.LegalMovesRequest(state=dealt.state)
    waits: list[float] = []
    body = json.dumps(thousand_moves).encode()
    async with _client(server) as http:

        async def frames() -> int:
            headers = {"content-type": "application/json", "accept-encoding": "gzip"}
            request = http.build_request("POST", "/viewer/frames", content=body, headers=headers)
            reply = await http.send(request, stream=True)
            size = sum([len(chunk) async for chunk in reply.aiter_raw()])  # left gzipped
            assert reply.status_code == 200 and size > 100_000, (reply.status_code, size)
            return size

        with PeakRss() as rss:
            began = time.perf_counter()
            building = asyncio.create_task(frames())
            while not building.done():
                started = time.perf_counter()
                await stub.LegalMoves(legal, timeout=10)
                await health.Check(health_pb2.HealthCheckRequest(), timeout=10)
                waits.append(time.perf_counter() - started)
                await asyncio.sleep(0.005)
            await building
            built = time.perf_counter() - began
    await channel.close()
    waits.sort()
    calls, worst, p95 = len(waits), waits[-1], waits[int(len(waits) * 0.95)]
    print(f"{calls} calls in {built:.1f} s, p95 {p95 * 1e3:.1f} ms, worst {worst * 1e3:.1f} ms")
    # Relative bounds, robust to a loaded machine's one-off stall: a loop blocked by
    # the build would answer a handful of calls, each waiting for most of the build.
    assert calls >= 10 and p95 < 0.25 and worst < built / 2, (calls, p95, worst, built)
    assert rss.growth < 32, rss.growth


async def test_a_full_pool_is_refused_with_429_and_retry_info(
    server: Running, records: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    busy = pool.FramesPool(processes=1, waiting=0)
    monkeypatch.setattr(pool, "FRAMES", busy)
    record = next(r for r in records if r["id"] == "burraco-4")
    try:
        async with _client(server) as http:
            first = asyncio.create_task(http.post("/viewer/frames", json=record))
            while busy.in_flight == 0:  # the first is in the pool (its process starting)
                await asyncio.sleep(0.001)
            refused = await http.post("/viewer/frames", json=record)
            assert (await first).status_code == 200
    finally:
        busy.close()
    wait = pool.RETRY_SECONDS
    assert refused.status_code == 429 and refused.headers["retry-after"] == str(wait)
    status = refused.json()
    assert status["code"] == 8 and f"retry in {wait} s" in status["message"]
    info = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{wait}s"}
    assert status["details"] == [info]


def test_mazzo_view_has_the_same_bounds(long_record: dict[str, Any]) -> None:
    from starlette.applications import Starlette

    from mazzo.viewer.web import records_routes

    app = Starlette(routes=records_routes(lambda: ("long", [long_record])))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://view") as client:
            return await client.get("/viewer/records/0?views=1")

    reply = asyncio.run(ask())
    assert reply.status_code == 400
    assert f"of {MAX_VIEW_MOVES} moves or fewer" in reply.json()["message"]


async def test_a_pool_whose_worker_died_is_replaced_for_the_next_request() -> None:
    """A worker killed between requests (out of memory, or ended with the thread that
    started it) costs no request: the next one gets a new pool."""
    import os
    import signal

    frames_pool = pool.FramesPool()
    spec = MatchSpec("short", "maraffa", 3, 4, options_json("maraffa", []))
    record = await run_match(spec, ["builtin:random"] * 4)
    try:
        assert json.loads(await frames_pool.build(record, False, False))["frames"]
        executor = frames_pool._executor()  # the one the first request ran on
        assert executor is not None
        for pid in list(executor._processes):
            os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # the executor sees its worker die
            if executor._broken:
                break
            await asyncio.sleep(0.05)
        assert executor._broken
        assert json.loads(await frames_pool.build(record, False, False))["frames"]
    finally:
        frames_pool.close()
