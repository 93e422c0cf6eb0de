"""A gRPC bot is waited for before the first deal (a bot started just before the
referee is still binding its port), and one that never listens stops the run before
its first deal with the reason, instead of a match of random moves and a crash."""

from __future__ import annotations

import asyncio
import socket

import grpc
import pytest

from mazzo.referee import bots
from mazzo.referee.match import MatchSpec, run_match
from mazzo.v1 import bot_pb2, bot_pb2_grpc
from tests.referee.conftest import ScriptedBot


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_bot_that_starts_listening_late_plays_its_match() -> None:
    port = free_port()
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(
        ScriptedBot(lambda r: bot_pb2.ActResponse(index=0)), server
    )

    async def start_late() -> None:
        await asyncio.sleep(1.0)
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()

    late = asyncio.create_task(start_late())
    try:
        spec = MatchSpec("late", "maraffa", 3, 2, {"maraffa": {"target": 11}})
        record = await run_match(spec, [f"grpc://127.0.0.1:{port}", "builtin:random"])
        assert record["faults"] == []
    finally:
        await late
        await server.stop(0)


async def test_a_bot_that_never_listens_stops_the_run_before_the_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bots, "READY_SECONDS", 0.5)
    spec = MatchSpec("dead", "maraffa", 3, 2, {"maraffa": {"target": 11}})
    target = f"grpc://127.0.0.1:{free_port()}"
    with pytest.raises(ValueError, match=r"nothing accepted a connection .* start the bot first"):
        await run_match(spec, [target, "builtin:random"])
