"""A scripted dial-in bot for the gateway's tests: every message by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest_asyncio

from mazzo.gateway.server import Gateway, Limits
from mazzo.gateway.tokens import TokenBook
from mazzo.v1 import bot_pb2, tables_pb2, tables_pb2_grpc


class Client:
    """One stream to a gateway, written and read one message at a time."""

    def __init__(self, target: str) -> None:
        self.channel = grpc.aio.insecure_channel(target)
        self.call = tables_pb2_grpc.TablesStub(self.channel).Join()

    async def hello(self, token: str, name: str = "", version: int = 1) -> None:
        hello = tables_pb2.Hello(token=token, name=name, protocol_version=version)
        await self.call.write(tables_pb2.BotMessage(hello=hello))

    async def join(self, token: str, name: str = "") -> tables_pb2.Welcome:
        await self.hello(token, name)
        first = await self.read()
        assert first.WhichOneof("kind") == "welcome", first
        return first.welcome

    async def read(self) -> tables_pb2.TableMessage:
        message = await self.call.read()
        assert isinstance(message, tables_pb2.TableMessage), "the stream ended"
        return message

    async def next_decision(self) -> tables_pb2.Decision | None:
        """The next decision, None once the stream ends; other messages are skipped."""
        while True:
            message = await self.call.read()
            if not isinstance(message, tables_pb2.TableMessage):
                return None
            if message.WhichOneof("kind") == "decision":
                return message.decision

    async def answer(self, sequence: int, index: int, match_id: str = "") -> None:
        answer = tables_pb2.Answer(
            sequence=sequence, response=bot_pb2.ActResponse(index=index), match_id=match_id
        )
        await self.call.write(tables_pb2.BotMessage(answer=answer))

    async def close(self) -> None:
        self.call.cancel()
        await self.channel.close()


def safe_index(request: bot_pb2.ActRequest) -> int:
    """The first legal move that is not a Maraffa claim (a false one ends the match)."""
    for i, move in enumerate(request.legal_moves):
        if not (move.HasField("maraffa") and move.maraffa.HasField("claim")):
            return i
    return 0


class Rig:
    """A gateway on a free port, with the tokens of ``alice`` and ``bob``."""

    def __init__(self, limits: Limits) -> None:
        self.book = TokenBook()
        self.tokens = {name: self.book.new(name) for name in ("alice", "bob")}
        self.gateway = Gateway(self.book, limits)
        for name in self.tokens:
            self.gateway.seat(name)
        self.target = ""
        self.clients: list[Client] = []

    async def start(self) -> None:
        port = await self.gateway.start("127.0.0.1", 0)
        self.target = f"127.0.0.1:{port}"

    def client(self) -> Client:
        client = Client(self.target)
        self.clients.append(client)
        return client


@pytest_asyncio.fixture
async def rig() -> AsyncIterator[type[Rig]]:
    """``await rig_of(limits)``-style: make rigs, all stopped at the end."""
    made: list[Rig] = []

    class Made(Rig):
        def __init__(self, limits: Limits | None = None) -> None:
            super().__init__(limits or Limits())
            made.append(self)

    yield Made
    for r in made:
        for c in r.clients:
            await c.close()
        await r.gateway.stop(0)
