"""``mazzo.v1.Tables/Join``: bots dial in, the referee sends them decisions.

Each bot name (``connect:NAME``) is a ``Seat``: the referee asks it for decisions
(``Seat.decide``), whichever connection carries them. A connection is checked
before it holds a seat (the address's rate, a Hello within its deadline, the token,
the protocol version, the games it plays); a refused one ends with a status and never
reaches a table. A token has one live connection: a newer one replaces the older.
Every connection has a bounded queue of messages to send: a bot that stops reading
overflows its own queue and is disconnected, and no other table ever waits for it.

A dropped bot keeps its seat for ``Limits.grace``: its pending decisions are sent
again, with the same sequence numbers, when it comes back; its clock runs
meanwhile, but no decision is lost on time while it is away within the grace, and
one it comes back to has at least a move's allowance left. An answer is applied
once: a second answer to a decision is refused, not counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from mazzo.gateway.tokens import TokenBook
from mazzo.v1 import bot_pb2, tables_pb2, tables_pb2_grpc

log = logging.getLogger("mazzo.gateway")

#: The protocol version this gateway speaks (``Hello.protocol_version``).
PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class Limits:
    """What bounds a peer. Sizes are bytes; times, seconds."""

    #: A connection that sends no Hello within this is closed.
    hello_seconds: float = 5.0
    #: How long a dropped bot may take to come back before its decisions are lost.
    grace: float = 10.0
    #: Messages waiting to be sent on one connection; more and it is dropped.
    queue: int = 64
    #: The largest message a bot may send: a Hello or an answer is a few hundred bytes.
    max_receive: int = 64 * 1024
    #: The largest message sent: a decision carries a view and its legal moves.
    max_send: int = 4 * 1024 * 1024
    #: New connections per address in ``rate_window`` seconds; more are refused.
    rate: int = 30
    rate_window: float = 10.0


class Miss(StrEnum):
    """Why a decision has no answer to play."""

    #: No answer within the time left.
    TIMEOUT = "timeout"
    #: The bot was disconnected and did not come back within the grace.
    GONE = "gone"
    #: The answer was for another sequence, match or seat: refused.
    WRONG = "wrong"


@dataclass(frozen=True)
class Outcome:
    """A decision's answer, or why there is none; ``elapsed`` from the first send."""

    response: bot_pb2.ActResponse | None
    elapsed: float
    miss: Miss | None = None
    detail: str = ""


class Connection:
    """One bot's stream: what waits to be sent, and whether it is over (and why)."""

    def __init__(self, peer: str, size: int) -> None:
        self.peer = peer
        self.queue: asyncio.Queue[tables_pb2.TableMessage | None] = asyncio.Queue(size)
        self.done = asyncio.Event()
        #: Why the gateway ended it ('' for the bot's own end, or the gateway's stop),
        #: and the status that says it on a gRPC stream.
        self.why = ""
        self.code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def send(self, message: tables_pb2.TableMessage) -> None:
        """Queue ``message``; a full queue means the bot stopped reading: drop it."""
        if self.done.is_set():
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close(f"did not read its messages ({self.queue.maxsize} waiting)")

    def close(
        self, why: str = "", code: grpc.StatusCode = grpc.StatusCode.RESOURCE_EXHAUSTED
    ) -> None:
        if self.done.is_set():
            return
        self.why, self.code = why, code
        self.done.set()


@dataclass
class _Pending:
    """A decision sent and not yet answered."""

    sequence: int
    match_id: str
    request: bot_pb2.ActRequest
    #: The loop time by which it must be answered (later after a reconnect).
    deadline: float
    #: The move's own allowance (the rest of the time left is bank).
    move: float
    started: float
    news: asyncio.Event = field(default_factory=asyncio.Event)
    response: bot_pb2.ActResponse | None = None
    wrong: str = ""


@dataclass
class _Match:
    game: str
    players: int
    seats: set[int]


class Seat:
    """The seats of one bot name: its live connection, if any, and its decisions."""

    def __init__(self, name: str, limits: Limits) -> None:
        self.name = name
        self.limits = limits
        self.conn: Connection | None = None
        #: When its connection last dropped (loop time); None while connected or never.
        self.dropped_at: float | None = None
        self.ever_connected = asyncio.Event()
        self.pending: dict[int, _Pending] = {}
        self.matches: dict[str, _Match] = {}
        self.last_round_trip = 0.0
        self._next = 1
        #: Answers refused as faults, duplicates ignored: for tests and logs.
        self.refused = 0
        self.duplicates = 0
        #: Why its last connection attempt was refused, for the "did not come" error.
        self.last_refusal = ""

    # The referee's side.

    def started(self, match_id: str, game: str, players: int, seats: Iterable[int]) -> None:
        match = self.matches.setdefault(match_id, _Match(game, players, set()))
        match.seats.update(seats)
        if self.conn is not None:
            self.conn.send(self._started_message(match_id, match))

    def ended(
        self, match_id: str, winners: Iterable[int], forfeit: str = "", recorded: bool = True
    ) -> None:
        """Tell the bot its match ended; ``record_id`` only when it was ``recorded`` (a
        match abandoned unfinished has no record to name)."""
        if self.matches.pop(match_id, None) is None or self.conn is None:
            return
        message = tables_pb2.TableMessage()
        ended = message.match_ended
        ended.match_id = match_id
        ended.record_id = match_id if recorded else ""
        ended.winners.extend(winners)
        ended.forfeit = forfeit
        self.conn.send(message)

    async def decide(
        self, match_id: str, request: bot_pb2.ActRequest, timeout: float, move: float
    ) -> Outcome:
        """Send the decision to the bot and wait for its answer, at most ``timeout``
        (more while it is away within the grace, or back with less than ``move``)."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        now = loop.time()
        pending = _Pending(self._next, match_id, request, now + max(timeout, 0.0), move, now)
        self._next += 1
        self.pending[pending.sequence] = pending
        try:
            if self.conn is not None:
                self.conn.send(self._decision(pending))
            return await self._await(pending, start)
        finally:
            del self.pending[pending.sequence]

    async def _await(self, pending: _Pending, start: float) -> Outcome:
        loop = asyncio.get_running_loop()
        grace = self.limits.grace
        while pending.response is None and not pending.wrong:
            now = loop.time()
            if self.conn is not None:
                if now >= pending.deadline:
                    return Outcome(None, time.perf_counter() - start, Miss.TIMEOUT, "no answer")
                until = pending.deadline
            else:
                dropped = pending.started if self.dropped_at is None else self.dropped_at
                if dropped >= pending.deadline:  # its time was over before it dropped
                    return Outcome(None, time.perf_counter() - start, Miss.TIMEOUT, "no answer")
                until = max(dropped, pending.started) + grace
                if now >= until:
                    return Outcome(
                        None,
                        time.perf_counter() - start,
                        Miss.GONE,
                        f"disconnected, not back within the grace of {grace:g} s",
                    )
            pending.news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(until):
                    await pending.news.wait()
        elapsed = time.perf_counter() - start
        if pending.wrong:
            return Outcome(None, elapsed, Miss.WRONG, pending.wrong)
        self.last_round_trip = elapsed
        return Outcome(pending.response, elapsed)

    def _decision(self, pending: _Pending) -> tables_pb2.TableMessage:
        """The decision as it stands now: the time left counted from now."""
        now = asyncio.get_running_loop().time()
        left = max(pending.deadline - now, 0.0)
        move_left = min(max(pending.move - (now - pending.started), 0.0), left)
        message = tables_pb2.TableMessage()
        decision = message.decision
        decision.sequence = pending.sequence
        decision.match_id = pending.match_id
        decision.request.CopyFrom(pending.request)
        _duration(decision.request.time_left, left)
        _duration(decision.clock.bank_left, left - move_left)
        _duration(decision.clock.move_time_left, move_left)
        _duration(decision.clock.last_round_trip, self.last_round_trip)
        return message

    def _started_message(self, match_id: str, match: _Match) -> tables_pb2.TableMessage:
        message = tables_pb2.TableMessage()
        started = message.match_started
        started.match_id, started.game, started.players = match_id, match.game, match.players
        started.seats.extend(sorted(match.seats))
        return message

    # The connection's side.

    def attach(self, conn: Connection) -> None:
        """A connection takes the seat: it is told of its matches in play and sent its
        pending decisions again, each with at least a move's allowance left.

        The newest connection of a token wins: the older one is closed. A bot whose
        network changed (a laptop's Wi-Fi, a NAT that forgot it) dials again while
        its old connection still looks open, and keepalive would take seconds to
        notice; refusing it would let its clock run out. The older stream ends with
        FAILED_PRECONDITION, which the starters take as final, so two copies of one
        bot do not take the seat from each other in turn."""
        if self.conn is not None and self.conn is not conn:
            self.conn.close(
                f"{self.name} dialed in again: this older connection is replaced",
                grpc.StatusCode.FAILED_PRECONDITION,
            )
        self.conn, self.dropped_at = conn, None
        self.ever_connected.set()
        welcome = tables_pb2.TableMessage()
        welcome.welcome.name = self.name
        welcome.welcome.protocol_version = PROTOCOL_VERSION
        _duration(welcome.welcome.grace, self.limits.grace)
        conn.send(welcome)
        for match_id, match in self.matches.items():
            conn.send(self._started_message(match_id, match))
        now = asyncio.get_running_loop().time()
        for pending in sorted(self.pending.values(), key=lambda p: p.sequence):
            if pending.response is not None or pending.wrong:
                continue  # answered (on the old connection), not yet taken by the referee
            pending.deadline = max(pending.deadline, now + pending.move)
            conn.send(self._decision(pending))
            pending.news.set()

    def detach(self, conn: Connection) -> None:
        if self.conn is not conn:
            return
        self.conn = None
        self.dropped_at = asyncio.get_running_loop().time()
        for pending in self.pending.values():
            pending.news.set()

    def answer(self, answer: tables_pb2.Answer) -> tables_pb2.TableMessage | None:
        """Apply an answer to its decision; the refusal to send back, if any."""
        sequence = answer.sequence
        pending = self.pending.get(sequence)
        if pending is not None and (pending.response is not None or pending.wrong):
            # Decided, and the referee has not yet taken it: a second answer arriving in
            # that window must not replace the first (or, wrong, turn it into a fault).
            pending = None
        if pending is None and 0 < sequence < self._next:
            self.duplicates += 1
            return _refusal(sequence, f"decision {sequence} is no longer pending", fault=False)
        if pending is None:
            # Never asked: the fault is the oldest pending decision's, if any.
            victim = min(self.pending.values(), key=lambda p: p.sequence, default=None)
            asked = "none" if victim is None else str(victim.sequence)
            why = f"answer for decision {sequence}, which was never sent (pending: {asked})"
            return self._refuse(victim, sequence, why, "answer.sequence")
        if answer.match_id and answer.match_id != pending.match_id:
            why = (
                f"answer for match {answer.match_id!r}; "
                f"decision {sequence} is of {pending.match_id!r}"
            )
            return self._refuse(pending, sequence, why, "answer.match_id")
        if answer.HasField("seat") and answer.seat != pending.request.seat:
            why = (
                f"answer for seat {answer.seat}; "
                f"decision {sequence} is seat {pending.request.seat}'s"
            )
            return self._refuse(pending, sequence, why, "answer.seat")
        pending.response = answer.response
        pending.news.set()
        if answer.response.WhichOneof("choice") is None:
            # Taken as the decision's answer (the referee records it ``malformed``), and
            # said at once, so the bot learns it is broken from the answer, not the record.
            self.refused += 1
            why = f"answer for decision {sequence} has neither index nor move"
            return _refusal(sequence, why, fault=True, field_name="answer.response")
        return None

    def _refuse(
        self, pending: _Pending | None, sequence: int, why: str, where: str
    ) -> tables_pb2.TableMessage:
        self.refused += 1
        if pending is not None:
            pending.wrong = why
            pending.news.set()
        return _refusal(sequence, why, fault=pending is not None, field_name=where)


def _refusal(
    sequence: int, why: str, fault: bool, field_name: str = "answer.sequence"
) -> tables_pb2.TableMessage:
    message = tables_pb2.TableMessage()
    refusal = message.refusal
    refusal.sequence, refusal.reason, refusal.fault = sequence, why, fault
    violation = refusal.field_violations.add()
    violation.field, violation.description = field_name, why
    return message


def _duration(target: object, seconds: float) -> None:
    seconds = max(seconds, 0.0)
    whole = int(seconds)
    target.seconds = whole  # type: ignore[attr-defined]
    target.nanos = int((seconds - whole) * 1e9)  # type: ignore[attr-defined]


class RateLimit:
    """New connections per address in a sliding window."""

    def __init__(self, rate: int, window: float) -> None:
        self.rate, self.window = rate, window
        self._seen: dict[str, deque[float]] = {}

    def admit(self, host: str) -> float:
        """0 to admit a connection from ``host``; else the seconds until one would be."""
        now = time.monotonic()
        times = self._seen.setdefault(host, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.rate:
            return times[0] + self.window - now
        times.append(now)
        if len(self._seen) > 10_000:  # forget the quiet addresses
            self._seen = {h: t for h, t in self._seen.items() if t and t[-1] > now - self.window}
        return 0.0

    def waiting(self, host: str) -> float:
        """The seconds until ``admit`` would admit ``host`` (0: now), counting nothing:
        for a caller that refuses early, before work the refusal would waste."""
        times = self._seen.get(host)
        if not times:
            return 0.0
        now = time.monotonic()
        recent = [t for t in times if t > now - self.window]
        return recent[0] + self.window - now if len(recent) >= self.rate else 0.0


def retry_status(message: str, seconds: float) -> status_pb2.Status:
    """RESOURCE_EXHAUSTED with a ``google.rpc.RetryInfo`` saying when to try again."""
    info = error_details_pb2.RetryInfo()
    info.retry_delay.seconds = max(1, math.ceil(seconds))
    detail = any_pb2.Any()
    detail.Pack(info)
    return status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=message, details=[detail])


def peer_host(peer: str) -> str:
    """The caller's address without its port, what limits per address count:
    ``ipv4:1.2.3.4:5678`` / ``ipv6:[::1]:5678`` (gRPC), ``http:1.2.3.4`` (an HTTP door)."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0]
    return rest or peer


class Gateway(tables_pb2_grpc.TablesServicer):
    """The Tables service for one run: the seats the run has, checked hellos, limits."""

    def __init__(
        self,
        tokens: TokenBook,
        limits: Limits = Limits(),
        forms: Iterable[tuple[str, int]] = (),
    ) -> None:
        self.tokens = tokens
        self.limits = limits
        #: (game, players) the run's matches are: a bot that plays none of them is refused.
        self.forms = set(forms)
        self.seats: dict[str, Seat] = {}
        self.rate = RateLimit(limits.rate, limits.rate_window)
        self._server: grpc.aio.Server | None = None
        self._connections: set[Connection] = set()

    def seat(self, name: str) -> Seat:
        """The seat of ``name``, made on first use."""
        found = self.seats.get(name)
        if found is None:
            found = self.seats[name] = Seat(name, self.limits)
        return found

    async def start(
        self, host: str, port: int, credentials: grpc.ServerCredentials | None = None
    ) -> int:
        """Listen on ``host:port`` (0: a free port); the port bound."""
        options = [
            ("grpc.max_receive_message_length", self.limits.max_receive),
            ("grpc.max_send_message_length", self.limits.max_send),
            ("grpc.so_reuseport", 0),
            # A dead peer is noticed within seconds, so its seat is free to come back to.
            ("grpc.keepalive_time_ms", 5000),
            ("grpc.keepalive_timeout_ms", 5000),
            ("grpc.http2.min_ping_interval_without_data_ms", 5000),
            ("grpc.keepalive_permit_without_calls", 1),
        ]
        server = grpc.aio.server(options=options)
        tables_pb2_grpc.add_TablesServicer_to_server(self, server)
        address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        if credentials is None:
            bound = server.add_insecure_port(address)
        else:
            bound = server.add_secure_port(address, credentials)
        await server.start()
        self._server = server
        return int(bound)

    async def stop(self, grace: float = 1.0) -> None:
        """End every stream cleanly (the bots see their stream end), then the server;
        what is queued (the last matches' ends) is sent first, for at most ``grace``."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                while any(not c.queue.empty() for c in self._connections):
                    await asyncio.sleep(0.01)
        for conn in list(self._connections):
            conn.close()
        # Each stream ends with OK once its handler returns: a bot tells the run's end
        # from a drop (which it would dial again after) by that status.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                while self._connections:
                    await asyncio.sleep(0.01)
        if self._server is not None:
            await self._server.stop(grace)
            self._server = None

    async def wait_for(self, names: Iterable[str], seconds: float) -> None:
        """Until every named bot has connected, at most ``seconds``; ``ValueError``
        naming each that did not (and why its last attempt was refused)."""
        seats = [self.seat(name) for name in dict.fromkeys(names)]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                for seat in seats:
                    await seat.ever_connected.wait()
        absent = [s for s in seats if not s.ever_connected.is_set()]
        if absent:
            why = "; ".join(
                f"connect:{s.name}" + (f" (refused: {s.last_refusal})" if s.last_refusal else "")
                for s in absent
            )
            raise ValueError(f"no bot dialed in within {seconds:g} s for {why}")

    async def Join(  # type: ignore[override]  # read/write style: returns nothing
        self,
        request_iterator: AsyncIterator[tables_pb2.BotMessage],
        context: grpc.aio.ServicerContext,
    ) -> None:
        retry = self.rate.admit(peer_host(context.peer()))
        if retry:
            why = f"too many connections from this address; try again in {math.ceil(retry)} s"
            await context.abort_with_status(rpc_status.to_status(retry_status(why, retry)))
        seat = await self._hello(context)
        conn = Connection(context.peer(), self.limits.queue)
        self._connections.add(conn)
        seat.attach(conn)
        log.info("%s connected from %s", seat.name, conn.peer)
        reader = asyncio.create_task(self._read(context, seat, conn))
        writer = asyncio.create_task(self._write(context, conn))
        try:
            await conn.done.wait()
        finally:
            reader.cancel()
            writer.cancel()
            self._connections.discard(conn)
            seat.detach(conn)
            log.info("%s disconnected%s", seat.name, f": {conn.why}" if conn.why else "")
        if conn.why:
            await context.abort(conn.code, conn.why)

    async def _hello(self, context: grpc.aio.ServicerContext) -> Seat:
        """The seat a Hello takes, or the stream ends with the refusal's status."""
        try:
            async with asyncio.timeout(self.limits.hello_seconds):
                first = await context.read()
        except TimeoutError:
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no Hello within {self.limits.hello_seconds:g} s",
            )
        if not isinstance(first, tables_pb2.BotMessage) or not first.HasField("hello"):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message is a Hello")
        admitted = self.admit(first.hello)
        if not isinstance(admitted, Seat):
            await context.abort(*admitted)
        assert isinstance(admitted, Seat)
        return admitted

    def admit(self, hello: tables_pb2.Hello) -> Seat | tuple[grpc.StatusCode, str]:
        """The seat a Hello takes, or the status and reason it is refused with (kept as
        the seat's ``last_refusal``, which the referee names if the bot never comes):
        the same for a bot on the stream and one over HTTP."""
        name = self.tokens.who(hello.token, hello.name)
        if name is None:
            return grpc.StatusCode.UNAUTHENTICATED, "unknown token for this name"
        seat = self.seats.get(name)
        refusal = self._refusal(hello, name, seat)
        if refusal is not None:
            if seat is not None:
                seat.last_refusal = refusal[1]
            return refusal
        assert seat is not None
        return seat

    def _refusal(
        self, hello: tables_pb2.Hello, name: str, seat: Seat | None
    ) -> tuple[grpc.StatusCode, str] | None:
        if hello.protocol_version != PROTOCOL_VERSION:
            return grpc.StatusCode.FAILED_PRECONDITION, (
                f"protocol version {hello.protocol_version} is not spoken here; "
                f"this gateway speaks {PROTOCOL_VERSION}"
            )
        if seat is None:
            return grpc.StatusCode.FAILED_PRECONDITION, f"no seat for {name} at this gateway"
        plays = {(form.game, form.players) for form in hello.plays}
        unplayed = sorted(
            (game, players)
            for game, players in self.forms
            if plays and (game, players) not in plays and (game, 0) not in plays
        )
        if unplayed:
            wanted = ", ".join(f"{g} with {p} players" for g, p in unplayed)
            return grpc.StatusCode.FAILED_PRECONDITION, f"{name} does not play {wanted}"
        return None  # a connection the token has already is replaced (Seat.attach)

    async def _read(self, context: grpc.aio.ServicerContext, seat: Seat, conn: Connection) -> None:
        """Answers until the bot ends its stream; a second Hello is refused, not fatal."""
        try:
            while True:
                message = await context.read()
                if not isinstance(message, tables_pb2.BotMessage):
                    break  # the end of the bot's stream
                if message.HasField("answer"):
                    refusal = seat.answer(message.answer)
                else:
                    refusal = _refusal(0, "a Hello only opens a stream", False, "hello")
                if refusal is not None:
                    conn.send(refusal)
        except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError) as e:
            log.info("%s: reading stopped: %s", seat.name, e)
        finally:
            conn.close()

    async def _write(self, context: grpc.aio.ServicerContext, conn: Connection) -> None:
        try:
            while True:
                message = await conn.queue.get()
                if message is None:
                    break
                await context.write(message)
        except (grpc.RpcError, asyncio.InvalidStateError, ConnectionError):
            pass
        finally:
            conn.close()
