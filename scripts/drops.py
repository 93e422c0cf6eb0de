"""``make drops``: dial-in bots whose connections are cut in the middle of decisions.

Issue 33's measure: "1,000 induced drops of 0.5 to 8 s in the middle of decisions: 0
moves lost, 0 applied twice, 0 forfeits of a bot with time left; drops past the grace
adjudicated and recorded."

Two processes, as in a real run. This one is the referee: a gateway on a free port
(grace ``--grace``, 10 s by default) and a two-player Briscola match (one hand) for
each pair of bots, all at once, with ``--on-fault forfeit`` so that any fault at all
would end a match and show. The other (``--role bots``, started from here) holds the
bots, each dialing in through its own TCP proxy, which is the chaos: when a bot's
planned decision arrives, the proxy kills its connection (both directions, with a
reset) and holds the bot's new connections until the drop's length is over. Half the
cuts come before the answer is written, half just after it (the answer then may or may
not have reached the gateway, and the bot sends it again once back, as a client that
delivers at least once would). A bot dials again every 0.1 s, so it is back soon after
its drop ends; each proxy reaches the gateway from its own loopback address, so the
gateway's per-address limit sees one bot per address, as it would on the internet.
Every ``--http-every``-th bot dials in over the HTTP door instead (its stream and its
answers' POSTs all through its proxy, so a cut takes them all).

A few more pairs each have one bot that stays away past the grace (``--past-grace``,
``--past-grace-seconds``): its match must end with its forfeit and a ``crash`` in the
record. Every other bot has the clock ``--move-time`` plus ``--bank``, enough that only
a lost decision could fault it.

The check, from the records and the bots' own logs: each bot's moves in its record are
exactly the moves it chose for the sequences it was sent, in order (none lost, none
twice, none another decision's), no fault and no forfeit in any match without a
past-grace drop, and one ``crash`` recorded for each drop past the grace. The grace
is the gateway's: from its noticing the drop to the bot's next Hello. On a busy machine
a bot may take longer than that to get back in from a drop shorter than it (the dial
goes through two loaded event loops and the proxy); such a "late return" must be a
recorded ``crash`` too, and is counted apart (``late_returns``). Prints a JSON summary
(``--out`` writes it too); exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import ssl
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import grpc
import httpx
from google.protobuf import json_format

from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH, HttpDoor
from mazzo.gateway.server import Connection, Gateway, Limits, Seat
from mazzo.gateway.tokens import TokenBook
from mazzo.referee.match import (
    FaultRules,
    MatchSpec,
    OnFault,
    TimeControl,
    options_json,
    run_match,
)
from mazzo.referee.verify import verify
from mazzo.v1 import bot_pb2, tables_pb2, tables_pb2_grpc

GAME, PLAYERS = "briscola", 2
#: One hand: 20 decisions a bot.
OPTIONS = options_json(GAME, ["hands_to_win=1"])
#: A bot's decisions that may be cut: not the first (it has just dialed in), and early
#: enough that the drops of both bots of a match fit in its 20.
CUTTABLE = range(2, 19)


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


class WatchedSeat(Seat):
    """A seat that notes when its bot was away, as the gateway saw it: from the moment
    it noticed the drop to the new connection's Hello, which is what the grace is
    counted against (a bot dialing through a busy machine may take longer to come back
    than its drop lasted)."""

    def __init__(self, name: str, limits: Limits) -> None:
        super().__init__(name, limits)
        #: [gone, back] in loop time; back is -1 while away.
        self.absences: list[list[float]] = []

    def attach(self, conn: Connection) -> None:
        if self.absences and self.absences[-1][1] < 0:
            self.absences[-1][1] = asyncio.get_running_loop().time()
        super().attach(conn)

    def detach(self, conn: Connection) -> None:
        was = self.conn is conn
        super().detach(conn)
        if was:
            self.absences.append([asyncio.get_running_loop().time(), -1.0])

    def longest_absence(self, now: float) -> float:
        """The longest time away, until ``now`` for an absence still running."""
        return max(((now if b < 0 else b) - a for a, b in self.absences), default=0.0)


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


# The referee's side.


def make_plan(args: argparse.Namespace, rng: random.Random) -> list[dict[str, Any]]:
    """Each main bot: ``--drops-per-bot`` cuts at distinct decisions, lengths uniform
    in [min, max]; each past-grace pair: its first bot cut once for the long drop."""
    bots = []
    for i in range(args.bots):
        ordinals = rng.sample(CUTTABLE, args.drops_per_bot)
        drops = [
            {
                "ordinal": o,
                "hold": rng.uniform(args.min, args.max),
                "kind": "before" if (i + k) % 2 == 0 else "in_flight",
            }
            for k, o in enumerate(sorted(ordinals))
        ]
        door = "http" if args.http_every and i % args.http_every == 1 else "grpc"
        bots.append({"name": f"b{i:04d}", "door": door, "drops": drops})
    for j in range(args.past_grace):
        drop = {
            "ordinal": rng.choice(CUTTABLE),
            "hold": args.past_grace_seconds,
            "kind": "before",
            "past_grace": True,
        }
        door = "http" if args.http_every and j % 2 else "grpc"
        bots.append({"name": f"g{j:04d}", "door": door, "drops": [drop]})
        bots.append({"name": f"h{j:04d}", "door": "grpc", "drops": []})
    return bots


async def referee(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Play the matches, the bots' process beside; the summary (``work``: its files)."""
    rng = random.Random(args.seed)
    bots = make_plan(args, rng)
    book = TokenBook()
    for b in bots:
        b["token"] = book.new(b["name"])
    gateway = Gateway(book, Limits(grace=args.grace))
    watched = {b["name"]: WatchedSeat(b["name"], gateway.limits) for b in bots}
    gateway.seats.update(watched)
    ports = {"grpc": await gateway.start("127.0.0.1", 0)}
    door = HttpDoor(gateway)
    ports["http"] = await door.start("127.0.0.1", 0)
    plan_path, log_path = work / "plan.json", work / "bots.json"
    plan_path.write_text(json.dumps({"ports": ports, "bots": bots}))
    role = [sys.executable, __file__, "--role", "bots", "--plan", str(plan_path)]
    child = subprocess.Popen([*role, "--bots-log", str(log_path)], stdin=subprocess.PIPE, text=True)
    clock = TimeControl(move=args.move_time, bank=args.bank)
    rules = FaultRules(on_fault=OnFault(args.on_fault))
    started = time.perf_counter()
    lag = Lag()
    watching = asyncio.create_task(lag.watch())
    try:
        pairs = [(bots[k]["name"], bots[k + 1]["name"]) for k in range(0, len(bots), 2)]
        records = await asyncio.gather(
            *(
                run_match(
                    MatchSpec(
                        id=f"drops-{a}-{b}", game=GAME, seed=k, players=PLAYERS, options=OPTIONS
                    ),
                    [f"connect:{a}", f"connect:{b}"],
                    clock=clock,
                    rules=rules,
                    gateway=gateway,
                    dial_in_wait=60,
                )
                for k, (a, b) in enumerate(pairs)
            )
        )
        played = time.perf_counter() - started
        # before the run's end takes every bot away
        now = asyncio.get_running_loop().time()
        away = {name: seat.longest_absence(now) for name, seat in watched.items()}
        watching.cancel()
        await gateway.stop(1.0)
        await door.stop()
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
    if args.records:
        with open(args.records, "w") as f:
            for record in records:
                f.write(json.dumps(record) + "\n")
    logs = json.loads(log_path.read_text())
    seats = {name: seat for name, seat in gateway.seats.items()}
    logs["referee_loop_lag"] = lag.figures()
    return judge(args, list(records), logs, seats, away, played)


def judge(
    args: argparse.Namespace,
    records: list[dict[str, Any]],
    logs: dict[str, Any],
    seats: dict[str, Any],
    away: dict[str, float],
    played: float,
) -> dict[str, Any]:
    """The figures, from the records against what the bots chose and were sent."""
    by_name = {b["name"]: b for b in logs["bots"]}
    lost = twice = applied = faults_in_grace = forfeits_in_grace = 0
    decisions = answers = late_crashes = 0
    crashes_recorded = past_forfeits = 0
    undone = 0
    for record in records:
        names = [bot.removeprefix("connect:") for bot in record["seat_bots"]]
        faults = record["faults"]
        if any(d["past_grace"] for n in names for d in by_name[n]["drops"]):
            crashes = [f for f in faults if f["class"] == "crash" and "grace" in f["detail"]]
            crashes_recorded += len(crashes) == 1 and len(faults) == 1
            forfeit = record["result"]["forfeit"]
            past_forfeits += forfeit is not None and forfeit["reason"].startswith("crash")
            continue
        # A crash is the gateway's due when the bot was away longer than the grace as
        # the gateway saw it (a planned drop, with the bot slow to get back in).
        late = {
            f["seat"]
            for f in faults
            if f["class"] == "crash"
            and "grace" in f["detail"]
            and away[names[f["seat"]]] > args.grace
        }
        late_crashes += len(late)
        faults_in_grace += sum(1 for f in faults if f["seat"] not in late)
        forfeit = record["result"]["forfeit"]
        forfeits_in_grace += forfeit is not None and forfeit["seat"] not in late
        for seat, name in enumerate(names):
            log = by_name[name]
            if late:  # the match ended at the late return: later drops never came
                undone += log["undone"]
            made = [
                m["move"]
                for m in record["moves"]
                if m["seat"] == seat and "fault" not in m and not m.get("auto")
            ]
            # the decision the bot was away from when adjudicated: chosen, not made
            chosen = log["chosen"][: len(log["chosen"]) - (seat in late)]
            applied += len(made)
            decisions += len(chosen)
            answers += log["answered"]
            same = sum(1 for a, b in zip(made, chosen, strict=False) if a == b)
            # a chosen move that is not the record's at its place: lost; a move the
            # record has beyond the decisions the bot was sent: applied twice
            lost += len(chosen) - same
            twice += max(0, len(made) - len(chosen))
    drops = [d for b in logs["bots"] for d in b["drops"]]
    within = [d for d in drops if not d["past_grace"]]
    past = [d for d in drops if d["past_grace"]]
    holds = [d["hold"] for d in within]
    resent = [d for d in within if d["resent"]]
    wanted_drops = args.bots * args.drops_per_bot
    summary = {
        "bots": len(logs["bots"]),
        "matches": len(records),
        "grace_s": args.grace,
        "clock": {"move_s": args.move_time, "bank_s": args.bank, "on_fault": args.on_fault},
        "drops": len(within),
        "drops_planned": wanted_drops,
        # planned drops of matches that a late return (below) had ended
        "drops_not_reached": undone,
        "drop_s": {
            "min": round(min(holds, default=0), 3),
            "mean": round(statistics.fmean(holds), 3) if holds else 0,
            "max": round(max(holds, default=0), 3),
        },
        "drop_kinds": dict(Counter(d["kind"] for d in within)),
        "drops_by_door": dict(
            Counter(b["door"] for b in logs["bots"] for d in b["drops"] if not d["past_grace"])
        ),
        "away_s_max": round(max((d["away"] for d in within), default=0), 3),
        # the drops back more than 1 s after their end, and why their dials failed
        "slow_returns": [
            {
                "door": door,
                "hold": round(d["hold"], 2),
                "away": round(d["away"], 2),
                **d["dials"],
                "late": d["late"],
            }
            for b in logs["bots"]
            for door in [b["door"]]
            for d in b["drops"]
            if not d["past_grace"] and d["away"] > d["hold"] + 1
        ][:20],
        "resent_with_same_sequence": len(resent),
        # cut before its answer: the decision must come again, with its number
        "unanswered_resent": f"{sum(d['kind'] == 'before' for d in resent)}"
        f" of {sum(d['kind'] == 'before' for d in within)}",
        "answered_before_the_cut": len(within) - len(resent),
        "min_time_left_on_resend_s": round(
            min((d["time_left_on_resend"] for d in resent), default=0), 3
        ),
        "decisions": decisions,
        "answers_sent": answers,
        # how many decisions were answered once, twice, three times
        "answers_per_decision": dict(
            sum((Counter(b["answer_counts"]) for b in logs["bots"]), Counter())
        ),
        "decisions_received_again": sum(b["received_again"] for b in logs["bots"]),
        "moves_applied": applied,
        "moves_lost": lost,
        "applied_twice": twice,
        "duplicates_refused": sum(s.duplicates for s in seats.values()),
        "answers_refused_as_faults": sum(s.refused for s in seats.values()),
        "faults_within_grace": faults_in_grace,
        "forfeits_with_time_left": forfeits_in_grace,
        # drops within the grace from which the bot took longer than the grace to be
        # back in (a loaded machine), each adjudicated a crash: the grace's due
        "late_returns": {
            "seats": sum(1 for n, s in away.items() if n.startswith("b") and s > args.grace),
            "crash_recorded": late_crashes,
        },
        "past_grace": {
            "drops": len(past),
            "hold_s": args.past_grace_seconds,
            "crash_recorded": crashes_recorded,
            "forfeited": past_forfeits,
        },
        # `mazzo verify`: fair deals, and every move legal and by the seat to act
        "records_verified": verify(records).code == 0,
        "loop_lag": {"referee": logs["referee_loop_lag"], "bots": logs["loop_lag"]},
        "bot_errors": logs["errors"],
        "play_s": round(played, 1),
    }
    summary["ok"] = (
        len(within) + undone == wanted_drops
        # (a bot back a hair past the grace while the gateway's loop ran late is let in)
        and summary["late_returns"]["seats"] >= late_crashes
        # cut before its answer, the decision comes again (unless the bot came too late)
        and sum(not d["resent"] for d in within if d["kind"] == "before") <= late_crashes
        and lost == 0
        and twice == 0
        and applied == decisions
        and faults_in_grace == 0
        and forfeits_in_grace == 0
        and summary["answers_refused_as_faults"] == 0
        and (not resent or summary["min_time_left_on_resend_s"] >= args.move_time)
        and crashes_recorded == len(past) == args.past_grace
        and summary["records_verified"]
        and not logs["errors"]
    )
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=200, help="bots that drop (even)")
    parser.add_argument("--drops-per-bot", type=int, default=5)
    parser.add_argument("--min", type=float, default=0.5, help="shortest drop, s")
    parser.add_argument("--max", type=float, default=8.0, help="longest drop, s")
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("--past-grace", type=int, default=10, help="drops past the grace")
    parser.add_argument("--past-grace-seconds", type=float, default=12.0)
    parser.add_argument("--move-time", type=float, default=2.0)
    parser.add_argument("--bank", type=float, default=30.0)
    parser.add_argument(
        "--http-every", type=int, default=4, help="every K-th bot dials in over HTTP (0: none)"
    )
    parser.add_argument("--on-fault", choices=["forfeit", "random"], default="forfeit")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--records", help="write the matches' records here")
    parser.add_argument("--out", help="write the JSON summary here too")
    parser.add_argument("--role", choices=["referee", "bots"], default="referee")
    parser.add_argument("--plan", help=argparse.SUPPRESS)
    parser.add_argument("--bots-log", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "bots":
        asyncio.run(bots_role(Path(args.plan), Path(args.bots_log)))
        return 0
    if args.bots % 2:
        parser.error("--bots: an even number (they play in pairs)")
    if args.drops_per_bot > len(CUTTABLE):
        parser.error(f"--drops-per-bot: at most {len(CUTTABLE)}")
    with tempfile.TemporaryDirectory(prefix="mazzo-drops-") as work:
        summary = asyncio.run(referee(args, Path(work)))
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
