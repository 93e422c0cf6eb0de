"""The bots' side of ``make drops`` (scripts/drops.py), a process of its own: each bot
behind its own TCP proxy, which cuts its connections at the planned decisions.

Started by scripts/drops.py as ``drops_bots.py PLAN LOG``; it reads the plan (the
gateway's ports, the bots' names, tokens and drops), plays until its stdin closes (the
referee's run is over), and writes each bot's log. Only what a bot needs is imported
here (gRPC, httpx, the messages), not the referee: this process starts in a quarter of
the time, which the test suite's short run feels.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import ssl
import struct
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import grpc
import httpx
from google.protobuf import json_format

from mazzo.v1 import bot_pb2, tables_pb2, tables_pb2_grpc

#: The HTTP door's paths (``mazzo.gateway.http``, whose import brings the web server
#: along; scripts/drops.py checks that they are the same).
JOIN_PATH = "/v1/tables:join"
ANSWER_PATH = "/v1/tables:answer"

#: A bot's channel has its own subchannel: no other channel's failed connection puts
#: its dial in gRPC's reconnect backoff. (Not ``grpc.min_reconnect_backoff_ms``: it is
#: also the connection's deadline, and at 100 ms a loaded gateway's SETTINGS missed it.)
DIAL_OPTIONS = [("grpc.use_local_subchannel_pool", 1)]


class Lag:
    """How late this process's event loop runs a timer: the time a bot or the gateway
    would react late by, with all else on the machine."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.samples: list[float] = []

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            at = loop.time()
            await asyncio.sleep(0.05)
            late = loop.time() - at - 0.05
            self.samples.append(late)
            self.worst = max(self.worst, late)

    def figures(self) -> dict[str, float]:
        ordered = sorted(self.samples) or [0.0]
        return {
            "p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1000, 1),
            "max_ms": round(self.worst * 1000, 1),
        }


def source_address(i: int) -> str:
    """Bot ``i``'s own loopback address (Linux answers for all of 127.0.0.0/8)."""
    return f"127.77.{i // 250}.{i % 250 + 1}"


# The bots' side.


class Proxy:
    """A TCP proxy in front of the gateway for one bot; ``cut`` kills its connections
    and holds new ones until the drop is over (a dial that comes meanwhile is put
    through then: refusing it instead made the bots dial 10 times a second each, and
    hundreds at once starved the machine they and the gateway share)."""

    def __init__(self, upstream: int, source: str) -> None:
        self.upstream, self.source = upstream, source
        self.hold_until = 0.0
        self.links: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None
        #: Dials that came while the link was down and waited for it.
        self.held = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    def cut(self, hold: float) -> None:
        self.hold_until = asyncio.get_running_loop().time() + hold
        for writer in list(self.links):
            _reset(writer)
        self.links.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # The end of the run cancels the links still open: that is no error of theirs
        # (asyncio's server would print one for each).
        with contextlib.suppress(asyncio.CancelledError):
            await self._forward(reader, writer)

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held = self.hold_until - asyncio.get_running_loop().time()
        if held > 0:  # the network is down: the dial waits, as for a SYN retried
            self.held += 1
            self.links.add(writer)
            await asyncio.sleep(held)
            if writer.is_closing():  # the bot gave up, or was cut again
                self.links.discard(writer)
                return
            self.links.discard(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(
                "127.0.0.1", self.upstream, local_addr=(self.source, 0)
            )
        except OSError:
            _reset(writer)
            return
        self.links |= {writer, up_writer}
        await asyncio.gather(
            _pump(reader, up_writer), _pump(up_reader, writer), return_exceptions=True
        )
        self.links -= {writer, up_writer}
        for w in (writer, up_writer):
            w.close()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a reset, as a dead link or a killed process would: no FIN, no flush."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        if not writer.is_closing():
            with contextlib.suppress(OSError):
                writer.write_eof()


@dataclass
class Drop:
    ordinal: int
    hold: float
    #: "before": cut before the answer is written; "in_flight": just after it.
    kind: str
    past_grace: bool = False
    sequence: int = 0
    cut_at: float = 0.0
    away: float = 0.0
    resent: bool = False
    time_left_on_resend: float = -1.0
    #: Why the dials while away failed, and how often.
    dials: dict[str, int] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)


@dataclass
class DropBot:
    """A bot that answers every decision with its first legal move (Briscola: any card
    is legal), and is cut off at its planned decisions."""

    name: str
    token: str
    proxy: Proxy
    port: int
    plan: dict[int, Drop]
    #: sequence -> the move chosen (JSON), and how often it was received and answered.
    chosen: dict[int, Any] = field(default_factory=dict)
    received: Counter[int] = field(default_factory=Counter)
    answered: Counter[int] = field(default_factory=Counter)
    refusals: list[dict[str, Any]] = field(default_factory=list)
    connections: int = 0
    done: list[Drop] = field(default_factory=list)
    jitter: random.Random = field(default_factory=random.Random)

    async def run(self) -> None:
        """Dial in, and again 0.1 s after every drop, until the gateway ends the stream."""
        while True:
            out: asyncio.Queue[tables_pb2.BotMessage | None] = asyncio.Queue()
            try:
                if not await self._connection(out):
                    return  # the gateway ended the stream: the run is over
            finally:
                out.put_nowait(None)
            await asyncio.sleep(0.1)

    async def _connection(self, out: asyncio.Queue[tables_pb2.BotMessage | None]) -> bool:
        """One connection over gRPC; true when it was cut or refused (dial again)."""
        hello = tables_pb2.Hello(token=self.token, protocol_version=1)
        out.put_nowait(tables_pb2.BotMessage(hello=hello))

        async def outgoing() -> Any:
            while (message := await out.get()) is not None:
                yield message

        try:
            target = f"127.0.0.1:{self.port}"
            async with grpc.aio.insecure_channel(target, options=DIAL_OPTIONS) as channel:
                call = tables_pb2_grpc.TablesStub(channel).Join(outgoing())
                async for message in call:
                    if self._on(message, out):
                        await self._cut()
                        call.cancel()
                        return True
        except grpc.aio.AioRpcError as e:
            if e.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.INVALID_ARGUMENT):
                raise
            self._failed(f"{e.code().name}: {(e.details() or '')[:40]}", e.details() or "")
            return True
        return False

    def _on(
        self, message: tables_pb2.TableMessage, out: asyncio.Queue[tables_pb2.BotMessage | None]
    ) -> bool:
        """Handle one message from the gateway; true to cut the connection now."""
        kind = message.WhichOneof("kind")
        if kind == "welcome":
            self.connections += 1
            if self.done and not self.done[-1].away:
                last = self.done[-1]
                last.away = asyncio.get_running_loop().time() - last.cut_at
                if last.kind == "in_flight":  # at least once: send it again
                    out.put_nowait(self._answer(last.sequence))
        elif kind == "refusal":
            r = message.refusal
            self.refusals.append({"sequence": r.sequence, "fault": r.fault})
        elif kind == "decision":
            return self._decide(message.decision, out)
        return False

    def _decide(
        self, decision: tables_pb2.Decision, out: asyncio.Queue[tables_pb2.BotMessage | None]
    ) -> bool:
        """Answer ``decision`` (or not, when cut before); true to cut the connection."""
        sequence = decision.sequence
        self.received[sequence] += 1
        if self.received[sequence] > 1:  # sent again after a drop: same number
            for d in self.done:
                if d.sequence == sequence:
                    d.resent = True
                    d.time_left_on_resend = decision.request.time_left.ToTimedelta().total_seconds()
        else:
            self.chosen[sequence] = json_format.MessageToDict(decision.request.legal_moves[0])
        drop = self.plan.pop(len(self.chosen), None) if self.received[sequence] == 1 else None
        if drop is not None:
            drop.sequence = sequence
            self.done.append(drop)
            if drop.kind == "before":
                return True
        out.put_nowait(self._answer(sequence))
        return drop is not None

    def _answer(self, sequence: int) -> tables_pb2.BotMessage:
        self.answered[sequence] += 1
        answer = tables_pb2.Answer(sequence=sequence, response=bot_pb2.ActResponse(index=0))
        return tables_pb2.BotMessage(answer=answer)

    def _failed(self, why: str, detail: str = "") -> None:
        """A dial that did not get its seat back (the proxy refusing it, most often)."""
        if self.done and not self.done[-1].away:
            drop = self.done[-1]
            drop.dials[why] = drop.dials.get(why, 0) + 1
            after = asyncio.get_running_loop().time() - drop.cut_at - drop.hold
            if after > 0:
                drop.late.append(f"{after:.2f}s {detail[-150:]}")

    async def _cut(self) -> None:
        drop = self.done[-1]
        if drop.kind == "in_flight":  # the answer handed on: cut at once or 2 ms later
            await asyncio.sleep(self.jitter.choice((0, 0.002)))
        drop.cut_at = asyncio.get_running_loop().time()
        self.proxy.cut(drop.hold)

    def log(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "door": "http" if isinstance(self, HttpDropBot) else "grpc",
            "chosen": [self.chosen[s] for s in sorted(self.chosen)],
            "sequences": sorted(self.chosen),
            "received": sum(self.received.values()),
            "answered": sum(self.answered.values()),
            "answered_sequences": len(self.answered),
            "answer_counts": Counter(self.answered.values()),
            "received_again": sum(1 for n in self.received.values() if n > 1),
            "refusals": self.refusals,
            "connections": self.connections,
            "dials_held": self.proxy.held,
            "drops": [d.__dict__ for d in self.done],
            "undone": len(self.plan),
        }


class HttpDropBot(DropBot):
    """The same bot over the HTTP door: the join's NDJSON lines in, each answer POSTed
    (on connections of its own, through the same proxy, so a cut takes them too)."""

    tls: ClassVar[ssl.SSLContext | None] = None

    async def _connection(self, out: asyncio.Queue[tables_pb2.BotMessage | None]) -> bool:
        base = f"http://127.0.0.1:{self.port}"
        hello = {"hello": {"token": self.token, "protocolVersion": 1}}
        auth = {"authorization": f"Bearer {self.token}", "content-type": "application/json"}
        # One TLS context for every attempt: httpx makes one per client even for plain
        # HTTP, reading the system's roots (~0.1 s a time, which a dial loop feels).
        HttpDropBot.tls = HttpDropBot.tls or ssl.create_default_context()
        async with httpx.AsyncClient(base_url=base, timeout=30, verify=HttpDropBot.tls) as http:

            async def post(message: tables_pb2.BotMessage) -> None:
                with contextlib.suppress(httpx.HTTPError, RuntimeError):  # lost in a cut
                    body = json_format.MessageToJson(message, indent=None)
                    reply = await http.post(ANSWER_PATH, content=body, headers=auth)
                    if "refusal" in reply.json():
                        r = json_format.ParseDict(reply.json(), tables_pb2.TableMessage())
                        self.refusals.append(
                            {"sequence": r.refusal.sequence, "fault": r.refusal.fault}
                        )

            async def sender() -> None:
                posts: set[asyncio.Task[None]] = set()
                while (message := await out.get()) is not None:
                    if message.HasField("answer"):
                        task = asyncio.create_task(post(message))
                        posts.add(task)
                        task.add_done_callback(posts.discard)

            sending = asyncio.create_task(sender())
            try:
                async with http.stream("POST", JOIN_PATH, json=hello) as stream:
                    if stream.status_code == 401:
                        raise RuntimeError(f"{self.name}: the gateway refused its token")
                    if stream.status_code != 200:  # its old stream not yet seen gone: 409
                        self._failed(f"HTTP {stream.status_code}")
                        return True
                    async for line in stream.aiter_lines():
                        message = json_format.Parse(line, tables_pb2.TableMessage())
                        if message.WhichOneof("kind") and self._on(message, out):
                            await self._cut()
                            return True
            except httpx.HTTPError as e:
                self._failed(type(e).__name__)
                return True
            finally:
                sending.cancel()
        return False


async def bots_role(plan_path: Path, out_path: Path) -> None:
    plan = json.loads(plan_path.read_text())
    bots = []
    for i, b in enumerate(plan["bots"]):
        proxy = Proxy(plan["ports"][b["door"]], source_address(i))
        port = await proxy.start()
        drops = {d["ordinal"]: Drop(**d) for d in b["drops"]}
        kind = HttpDropBot if b["door"] == "http" else DropBot
        bots.append(kind(b["name"], b["token"], proxy, port, drops, jitter=random.Random(i)))
    tasks = [asyncio.create_task(b.run()) for b in bots]
    lag = Lag()
    watching = asyncio.create_task(lag.watch())
    # The referee closes our stdin when its run is over (its gateway stopped, so the
    # bots' streams ended); then stop any bot still away.
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    _, away = await asyncio.wait(tasks, timeout=0.5)
    for task in away:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    errors = [repr(t.exception()) for t in tasks if not t.cancelled() and t.exception()]
    watching.cancel()
    log = {"bots": [b.log() for b in bots], "errors": errors, "loop_lag": lag.figures()}
    out_path.write_text(json.dumps(log))


def main() -> int:
    asyncio.run(bots_role(Path(sys.argv[1]), Path(sys.argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
