"""The load processes of ``mazzo bench --only gateway`` (``bench.gateway``): bots of
both kinds, each answering with the first legal move that is not a claim.

A process holds the bots it is given by number: each one's ``mazzo.v1.Bot`` server
port (one server, a port per bot) and each one's ``Tables/Join`` stream, on a
connection of its own. It stamps every decision it receives and answers on
``time.monotonic()`` (``CLOCK_MONOTONIC``, the referee's clock too), by the digest of
the decision's view. Its commands come on stdin, one a line: the gateway's address,
then a mean think time in seconds (for the paced phases), then ``figures``.

It imports only gRPC and the protocol, not the referee: it starts in a second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import grpc

from mazzo.gateway.server import PROTOCOL_VERSION
from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_pb2, tables_pb2, tables_pb2_grpc

#: The two kinds of bot: dialing in to the gateway, and dialed by the referee.
KINDS = ("dial_in", "grpc")
#: How long the processes may take to start, connect and say so.
START_SECONDS = 120.0


def name_of(bot: int) -> str:
    return f"b{bot:04d}"


def safe_index(request: bot_pb2.ActRequest) -> int:
    """The first legal move that is not a Maraffa claim (a false claim ends a match)."""
    for i, move in enumerate(request.legal_moves):
        if not (move.HasField("maraffa") and move.maraffa.HasField("claim")):
            return i
    return 0


def digest(view: game_pb2.GameView) -> str:
    """What matches a decision across processes: its view is the seat's, the
    match's and the ply's alone."""
    data = view.SerializeToString(deterministic=True)
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def cpu_seconds() -> float:
    """CPU seconds of this process, every thread (gRPC's own included)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _Bots:
    """The bots of one load process: what they received, when, and how long they think."""

    def __init__(self, seed: int) -> None:
        #: (kind, digest) -> when the decision was received, and when answered.
        self.received: dict[tuple[str, str], float] = {}
        self.answered: dict[tuple[str, str], float] = {}
        self.answers = dict.fromkeys(KINDS, 0)
        self.think = 0.0
        self.rng = random.Random(seed)

    async def answer(self, kind: str, request: bot_pb2.ActRequest) -> tuple[int, tuple[str, str]]:
        """The move's index, once thought over, and the decision's key in the stamps."""
        key = kind, digest(request.view)
        self.received[key] = time.monotonic()
        index = safe_index(request)
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        self.answers[kind] += 1
        return index, key


class _BotServer(bot_pb2_grpc.BotServicer):
    def __init__(self, bots: _Bots) -> None:
        self.bots = bots

    async def Act(
        self, request: bot_pb2.ActRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.ActResponse:
        index, key = await self.bots.answer("grpc", request)
        self.bots.answered[key] = time.monotonic()
        return bot_pb2.ActResponse(index=index)


async def _dial_in(target: str, name: str, token: str, bots: _Bots, joined: asyncio.Event) -> None:
    """One bot on its own connection: a Hello, then an answer per decision. Decisions
    are answered in turn: a bot plays one table."""
    options = [("grpc.use_local_subchannel_pool", 1)]
    async with grpc.aio.insecure_channel(target, options=options) as channel:
        call = tables_pb2_grpc.TablesStub(channel).Join()
        plays = [tables_pb2.GameForm(game="maraffa", players=4)]
        hello = tables_pb2.Hello(
            token=token, name=name, plays=plays, protocol_version=PROTOCOL_VERSION
        )
        await call.write(tables_pb2.BotMessage(hello=hello))
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.CancelledError):
            while True:
                message = await call.read()
                if not isinstance(message, tables_pb2.TableMessage):
                    break
                kind = message.WhichOneof("kind")
                if kind == "decision":
                    decision = message.decision
                    index, key = await bots.answer("dial_in", decision.request)
                    answer = tables_pb2.Answer(
                        sequence=decision.sequence,
                        response=bot_pb2.ActResponse(index=index),
                        match_id=decision.match_id,
                    )
                    bots.answered[key] = time.monotonic()
                    await call.write(tables_pb2.BotMessage(answer=answer))
                elif kind == "welcome":
                    joined.set()


async def read_line(stream: IO[str]) -> str:
    return (await asyncio.to_thread(stream.readline)).strip()


async def _load(args: argparse.Namespace) -> None:
    tokens: dict[str, str] = json.loads(Path(args.tokens).read_text())
    mine = [name_of(i) for i in range(args.first, args.first + args.count)]
    bots = _Bots(args.first)
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(_BotServer(bots), server)
    ports = [server.add_insecure_port("127.0.0.1:0") for _ in mine]
    await server.start()
    print(json.dumps({"ports": ports}), flush=True)
    target = await read_line(sys.stdin)
    joined = {name: asyncio.Event() for name in mine}
    tasks = [
        asyncio.create_task(_dial_in(target, name, tokens[name], bots, joined[name]))
        for name in mine
    ]
    async with asyncio.timeout(START_SECONDS):
        for event in joined.values():
            await event.wait()
    print(json.dumps({"joined": len(mine)}), flush=True)
    while (line := await read_line(sys.stdin)) != "figures":
        bots.think = float(line)
        print(json.dumps({"think": bots.think}), flush=True)
    answered = bots.answered
    stamps = [
        [kind, key, got, answered[kind, key]]
        for (kind, key), got in bots.received.items()
        if (kind, key) in answered
    ]
    Path(args.out).write_text(json.dumps(stamps))
    print(json.dumps({"answers": bots.answers, "cpu": cpu_seconds()}), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await server.stop(0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mazzo.bench.gateway_bots")
    parser.add_argument("--tokens", required=True, help="JSON: bot name -> its token")
    parser.add_argument("--first", type=int, required=True, help="the first bot's number")
    parser.add_argument("--count", type=int, required=True, help="how many bots")
    parser.add_argument("--out", required=True, help="where the stamps go, at the end")
    asyncio.run(_load(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
