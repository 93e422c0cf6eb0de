"""The retry policy the clients share is one: the Python constant and the JSON file."""

from __future__ import annotations

import json
from pathlib import Path

from mazzo.service.retry import SERVICE_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def test_the_clients_file_is_the_referees_policy() -> None:
    shared = json.loads((ROOT / "clients" / "service-config.json").read_text())
    assert shared == SERVICE_CONFIG
    [method] = shared["methodConfig"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert [n["service"] for n in method["name"]] == ["mazzo.v1.GameService"]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_call_made_while_no_server_listens_succeeds_once_one_does_within_its_retries() -> None:
    """A worker killed under load can leave a channel whose reconnect failed: gRPC then
    waits its reconnect backoff (1 s by default) and fails every call meanwhile, so the
    retries (at most 0.75 s of backoff) ran out first and calls failed (seen once in
    27,000). CHANNEL_OPTIONS shortens that first backoff: a server that starts 0.3 s
    after the call was made still answers it."""
    import asyncio
    import threading
    import time

    import grpc

    from mazzo.service.retry import CHANNEL_OPTIONS
    from mazzo.service.server import start_server, stop_server
    from mazzo.v1 import game_service_pb2 as gs
    from mazzo.v1 import game_service_pb2_grpc

    port = _free_port()
    started = threading.Event()

    async def call() -> str:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as ch:
            stub = game_service_pb2_grpc.GameServiceStub(ch)
            started.set()
            try:
                await stub.Deal(gs.DealRequest(game="maraffa", seed=1), timeout=10)
                return "OK"
            except grpc.aio.AioRpcError as e:
                return e.code().name

    async def main() -> str:
        task = asyncio.create_task(call())
        while not started.is_set():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        running, _ = await start_server("127.0.0.1", port)
        try:
            return await task
        finally:
            await stop_server(running, grace=0)

    t0 = time.monotonic()
    assert asyncio.run(main()) == "OK"
    assert time.monotonic() - t0 < 5
