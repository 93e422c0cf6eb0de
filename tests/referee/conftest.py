"""Helpers for the referee's tests: requests, test bots as commands, a gRPC bot server."""

from __future__ import annotations

import shlex
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import grpc
import pytest_asyncio

from mazzo.referee.engine import LocalEngine
from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_pb2

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
FAULT_BOT = HERE / "bots" / "fault_bot.py"
PY_EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
NODE_EXAMPLE = ROOT / "examples" / "bots" / "low_card_bot.js"


def fault_bot(mode: str, every: int) -> str:
    """The exec: spec of the misbehaving test bot."""
    return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(FAULT_BOT))} {mode} {every}"


def python_bot(path: Path, *args: str) -> str:
    return "exec:" + " ".join(shlex.quote(a) for a in (sys.executable, str(path), *args))


async def first_request(seed: int = 1, players: int = 4) -> bot_pb2.ActRequest:
    """The request of the first decision of a Maraffa deal."""
    engine = LocalEngine()
    position = await engine.deal("maraffa", game_pb2.GameOptions(), players, seed)
    return await engine.request(position, position.seat)


class ScriptedBot(bot_pb2_grpc.BotServicer):
    """A gRPC bot whose answer is a function of the request (may sleep or raise)."""

    def __init__(self, answer: Callable[[bot_pb2.ActRequest], object]) -> None:
        self.answer = answer
        self.calls = 0

    async def Act(
        self, request: bot_pb2.ActRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.ActResponse:
        self.calls += 1
        result = self.answer(request)
        if hasattr(result, "__await__"):
            result = await result  # type: ignore[misc]
        assert isinstance(result, bot_pb2.ActResponse)
        return result


ServeBot = Callable[[ScriptedBot], Awaitable[str]]


@pytest_asyncio.fixture
async def grpc_bot() -> AsyncIterator[ServeBot]:
    """Serve ScriptedBots on free ports of 127.0.0.1; ``await grpc_bot(bot)`` gives the spec."""
    servers: list[grpc.aio.Server] = []

    async def serve(bot: ScriptedBot) -> str:
        server = grpc.aio.server()
        bot_pb2_grpc.add_BotServicer_to_server(bot, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        servers.append(server)
        return f"grpc://127.0.0.1:{port}"

    yield serve
    for server in servers:
        await server.stop(0)
