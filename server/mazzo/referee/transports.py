"""How the referee reaches a bot: gRPC, a child process speaking JSON lines, or in-process.

Every transport answers ``act(request, timeout)`` with a ``Reply`` and never raises
for a bot's misbehaviour: a timeout, a malformed answer or a crash comes back as a
``Fault`` with its class, and the time is measured here, by the referee, from the
moment the request is sent until the answer is read. Whether the answer is a legal
move is the match's business (it knows the legal moves).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import shlex
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import IO, Protocol

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError

from mazzo.players.builtins import Policy
from mazzo.referee import processes
from mazzo.v1 import bot_pb2, game_pb2

ACT_METHOD = "/mazzo.v1.Bot/Act"
#: A JSON line longer than this is a malformed answer (and the bot is stopped): an
#: answer is one move, at most a few hundred bytes.
LINE_LIMIT = 1 << 20
#: Lines a bot may have written ahead of the requests that owe them; more is a flood.
MAX_PENDING_LINES = 64
#: How long a closing child may take to exit after its stdin closes.
CLOSE_GRACE_SECONDS = 1.0
#: After a bot's process has exited, how long its last lines may take to be read.
EXIT_GRACE_SECONDS = 0.2


class Fault(StrEnum):
    """The classes a bot's misbehaviour is adjudicated and recorded by."""

    TIMEOUT = "timeout"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    CRASH = "crash"


@dataclass(frozen=True)
class Reply:
    """A bot's answer, or the fault in its place; ``elapsed`` is the referee's clock."""

    response: bot_pb2.ActResponse | None
    elapsed: float
    fault: Fault | None = None
    detail: str = ""


class Transport(Protocol):
    """One running bot. ``alive`` turns false after a crash: the pool starts a new one."""

    @property
    def alive(self) -> bool: ...

    async def start(self) -> None: ...

    def new_match(self, seed: int) -> None: ...

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply: ...

    async def close(self) -> None: ...


class InProcessBot:
    """A bot that is a Python function: timed like any other, but it cannot be cut off,
    so an answer that comes too late is discarded as a timeout."""

    def __init__(self, make_policy: Callable[[int], Policy]) -> None:
        self._make_policy = make_policy
        self._policy = make_policy(0)

    @property
    def alive(self) -> bool:
        return True

    async def start(self) -> None:
        return None

    def new_match(self, seed: int) -> None:
        """Builtin bots draw from a generator seeded per match, so runs repeat exactly."""
        self._policy = self._make_policy(seed)

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        start = time.perf_counter()
        try:
            response = self._policy(request)
        except Exception as e:
            return Reply(None, time.perf_counter() - start, Fault.CRASH, repr(e))
        elapsed = time.perf_counter() - start
        if elapsed > timeout:
            return Reply(None, elapsed, Fault.TIMEOUT, f"answered after {elapsed:.3f}s")
        return Reply(response, elapsed)

    async def close(self) -> None:
        return None


def channel_credentials(ca: Path | None = None) -> grpc.ChannelCredentials:
    """TLS for a channel to a bot or a service: the server is checked against ``ca`` (a
    PEM file), or the system's roots without one."""
    return grpc.ssl_channel_credentials(root_certificates=None if ca is None else ca.read_bytes())


class GrpcBot:
    """A bot that serves ``mazzo.v1.Bot`` at ``host:port``; the deadline is the call's.
    With ``tls`` (``grpcs://``) the channel is TLS, checked against ``ca`` or the
    system's roots.

    The answer is taken as bytes and parsed here, so one that is not an
    ``ActResponse`` is a malformed answer with the parser's reason, not a log line.
    """

    def __init__(self, target: str, tls: bool = False, ca: Path | None = None) -> None:
        self.target = target
        self.tls = tls
        self.ca = ca
        self._channel: grpc.aio.Channel | None = None
        self._act: grpc.aio.UnaryUnaryMultiCallable | None = None
        self._alive = False

    @property
    def alive(self) -> bool:
        return self._alive

    async def start(self) -> None:
        if self.tls:
            credentials = channel_credentials(self.ca)
            self._channel = grpc.aio.secure_channel(self.target, credentials)
        else:
            self._channel = grpc.aio.insecure_channel(self.target)
        self._act = self._channel.unary_unary(
            ACT_METHOD,
            request_serializer=bot_pb2.ActRequest.SerializeToString,
            response_deserializer=None,
        )
        self._alive = True

    def new_match(self, seed: int) -> None:
        return None

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        assert self._act is not None, "start() the bot first"
        start = time.perf_counter()
        try:
            raw = await self._act(request, timeout=max(timeout, 0.0))
        except grpc.aio.AioRpcError as e:
            elapsed = time.perf_counter() - start
            if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                return Reply(None, elapsed, Fault.TIMEOUT, "deadline exceeded")
            # The bot is unreachable or failed: a new channel is made for the next match.
            self._alive = False
            return Reply(None, elapsed, Fault.CRASH, _shorten(f"{e.code().name}: {e.details()}"))
        elapsed = time.perf_counter() - start
        if elapsed > timeout:
            return Reply(None, elapsed, Fault.TIMEOUT, f"answered after {elapsed:.3f}s")
        try:
            response = bot_pb2.ActResponse.FromString(raw)
        except DecodeError as e:
            return Reply(None, elapsed, Fault.MALFORMED, f"not an ActResponse: {e}")
        if response.WhichOneof("choice") is None:
            return Reply(None, elapsed, Fault.MALFORMED, "neither index nor move")
        return Reply(response, elapsed)

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
        self._channel = self._act = None
        self._alive = False


class _BotPipes(asyncio.SubprocessProtocol):
    """A child's stdout cut into lines as it arrives, its exit, and whether its stdin
    takes more. Reading is never paused, so nothing the child writes can block it or
    us, and its end of output and its exit are seen at once, separately."""

    def __init__(self) -> None:
        self._transport: asyncio.BaseTransport | None = None
        self.lines: deque[bytes] = deque()
        self._partial = bytearray()
        #: Why the output can no longer be read in step with the requests, once so.
        self.unreadable = ""
        self.stdout_closed = False
        self.exited = False
        #: Set whenever any of the above changes.
        self.news = asyncio.Event()
        #: Clear while our buffer of unread requests is over its high-water mark.
        self.writable = asyncio.Event()
        self.writable.set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd != 1 or self.unreadable:
            return
        *complete, rest = data.split(b"\n")
        if complete:
            complete[0] = bytes(self._partial) + complete[0]
            self._partial = bytearray(rest)
        else:
            self._partial += rest
        if len(self._partial) > LINE_LIMIT or any(len(x) > LINE_LIMIT for x in complete):
            self._stop_reading(f"answer longer than {LINE_LIMIT} bytes")
        elif len(self.lines) + len(complete) > MAX_PENDING_LINES:
            self._stop_reading(f"more than {MAX_PENDING_LINES} lines nobody asked for")
        elif complete:
            self.lines.extend(line + b"\n" for line in complete)
            self.news.set()

    def _stop_reading(self, why: str) -> None:
        self.unreadable = why
        self.lines.clear()
        self._partial = bytearray()
        self.news.set()
        # Nothing more is read: a bot flooding its output blocks on its own write
        # instead of spending the referee's time, until it is killed.
        if isinstance(self._transport, asyncio.SubprocessTransport):
            stdout = self._transport.get_pipe_transport(1)
            if isinstance(stdout, asyncio.ReadTransport):
                stdout.pause_reading()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.stdout_closed = True
            self.news.set()

    def process_exited(self) -> None:
        self.exited = True
        self.news.set()

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()


class _Gone(Exception):
    """The bot can answer no more: it exited, closed its output or broke the protocol."""

    def __init__(self, fault: Fault, detail: str) -> None:
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


class ExecBot:
    """A child process: one proto3-JSON ``ActRequest`` per line on its stdin, one
    ``ActResponse`` per line on its stdout (docs/referee.md).

    Every step of a move, writing the request as well as reading the answer, runs
    inside the move's deadline, and every wait at close is bounded: no bot can hold
    the referee longer than its time. Requests carry no id, so after a timeout the
    late answer is still owed: that many lines are skipped before the next answer is
    read, which keeps requests and answers in step. A bot that cannot be kept in
    step (an answer over ``LINE_LIMIT``, a flood of lines, a request it did not read
    within the whole move's time) is stopped: its process group and every process it
    started are killed, and its later moves are the referee's.
    """

    def __init__(self, command: str, cwd: Path | None = None, stderr: Path | None = None) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("exec: needs a command")
        self.cwd = cwd
        self.stderr = stderr
        self._transport: asyncio.SubprocessTransport | None = None
        self._pipes: _BotPipes | None = None
        self._stale = 0
        self._start_error = ""
        self._stopped = ""
        self._err: IO[bytes] | None = None

    @property
    def alive(self) -> bool:
        pipes = self._pipes
        return (
            pipes is not None
            and not self._stopped
            and not pipes.exited
            and not pipes.stdout_closed
            and not pipes.unreadable
        )

    @property
    def pid(self) -> int | None:
        return None if self._transport is None else self._transport.get_pid()

    async def start(self) -> None:
        if self.stderr is not None:
            self.stderr.parent.mkdir(parents=True, exist_ok=True)
            self._err = self.stderr.open("ab")
        self._stale = 0
        self._start_error = self._stopped = ""
        loop = asyncio.get_running_loop()
        try:
            self._transport, self._pipes = await loop.subprocess_exec(
                _BotPipes,
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=self._err if self._err is not None else asyncio.subprocess.DEVNULL,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as e:
            # A program that cannot be started crashes at its first move, like one
            # that exits at once: the match goes on by the fault policy.
            self._start_error = f"cannot start {self.argv[0]!r}: {e.strerror or e}"
            return
        stdin = self._transport.get_pipe_transport(0)
        if isinstance(stdin, asyncio.WriteTransport):
            # A request counts as delivered once the pipe holds it all: a bot that
            # leaves it there past the move's time has stopped reading.
            stdin.set_write_buffer_limits(high=0)

    def new_match(self, seed: int) -> None:
        return None

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        transport, pipes = self._transport, self._pipes
        if transport is None or pipes is None or not self.alive:
            return Reply(None, 0.0, Fault.CRASH, self._exit_text())
        stdin = transport.get_pipe_transport(0)
        assert isinstance(stdin, asyncio.WriteTransport)
        line = request_line(request)
        start = time.perf_counter()
        written = False
        try:
            async with asyncio.timeout(max(timeout, 0.0)):
                stdin.write(line)
                await pipes.writable.wait()
                written = True
                raw = await self._next_answer(pipes)
        except TimeoutError:
            elapsed = time.perf_counter() - start
            if not written:
                self._stop("stopped reading its requests")
                return Reply(
                    None, elapsed, Fault.TIMEOUT, f"did not read its request in {timeout:.3f}s"
                )
            self._stale += 1
            return Reply(None, elapsed, Fault.TIMEOUT, f"no answer in {timeout:.3f}s")
        except _Gone as gone:
            self._stop(gone.detail)
            return Reply(None, time.perf_counter() - start, gone.fault, gone.detail)
        return _parse_answer(raw, time.perf_counter() - start)

    async def _next_answer(self, pipes: _BotPipes) -> bytes:
        """The answer to the latest request, after the late answers still owed."""
        grace_end: float | None = None
        while True:
            while pipes.lines:
                raw = pipes.lines.popleft()
                if not self._stale:
                    return raw
                self._stale -= 1
            if pipes.unreadable:
                raise _Gone(Fault.MALFORMED, pipes.unreadable)
            pipes.news.clear()
            if pipes.exited or pipes.stdout_closed:
                # The bot is ending. Wait a moment for the other half of the news: its
                # last lines may still be in the pipe, and its exit status says why.
                # A child of its holding the pipe open must not make a dead bot look
                # merely slow, nor a bot that closed its output look alive.
                if pipes.exited and pipes.stdout_closed:
                    raise _Gone(Fault.CRASH, self._exit_text())
                if grace_end is None:
                    grace_end = time.perf_counter() + EXIT_GRACE_SECONDS
                left = grace_end - time.perf_counter()
                if left <= 0:
                    raise _Gone(Fault.CRASH, self._exit_text())
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(left):
                        await pipes.news.wait()
            else:
                await pipes.news.wait()

    def _exit_text(self) -> str:
        if self._start_error:
            return self._start_error
        code = None if self._transport is None else self._transport.get_returncode()
        if code is not None and code < 0:
            return f"process killed by signal {-code}"
        if code is not None:
            return f"process exited with status {code}"
        if self._stopped:
            return f"stopped by the referee: {self._stopped}"
        return "process closed its output"

    def _stop(self, why: str) -> None:
        """Kill the bot and everything it started, now; never waits."""
        if self._stopped:
            return
        self._stopped = why
        transport = self._transport
        if transport is None:
            return
        pid = transport.get_pid()
        if transport.get_returncode() is None:
            processes.kill_all(processes.descendants(pid))
        # The group the bot leads (its session): children left behind go too.
        processes.kill_group(pid)
        transport.close()

    async def close(self) -> None:
        """Close stdin (a well-behaved bot exits at end of input), then kill whatever is
        left; every wait is bounded."""
        transport, pipes = self._transport, self._pipes
        if transport is not None and pipes is not None:
            # Found while the bot lives: children in sessions of their own.
            started = [] if pipes.exited else processes.descendants(transport.get_pid())
            stdin = transport.get_pipe_transport(0)
            if stdin is not None:
                stdin.close()
            await _wait_for(pipes, CLOSE_GRACE_SECONDS)
            processes.kill_all(started)
            self._stop("closed")
            await _wait_for(pipes, CLOSE_GRACE_SECONDS)
        if self._err is not None:
            self._err.close()
            self._err = None


async def _wait_for(pipes: _BotPipes, seconds: float) -> None:
    """Until the child has exited, for at most ``seconds``."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while not pipes.exited:
                pipes.news.clear()
                await pipes.news.wait()


@lru_cache(maxsize=1 << 14)
def _move_text(data: bytes) -> str:
    return json_format.MessageToJson(game_pb2.Move.FromString(data), indent=None)


def request_line(request: bot_pb2.ActRequest) -> bytes:
    """The proto3 JSON of a request, on one line. The same as ``MessageToJson`` gives,
    built faster: a position has up to forty legal moves, each of which recurs all
    match long, so their JSON is memoised."""
    parts = ['{"view":', json_format.MessageToJson(request.view, indent=None)]
    if request.legal_moves:
        moves = [_move_text(m.SerializeToString()) for m in request.legal_moves]
        parts += [',"legalMoves":[', ",".join(moves), "]"]
    if request.seat:
        parts.append(f',"seat":{request.seat}')
    if request.HasField("time_left"):
        parts += [',"timeLeft":', json_format.MessageToJson(request.time_left)]
    if request.sealed_state:
        parts.append(f',"sealedState":"{base64.b64encode(request.sealed_state).decode()}"')
    parts.append("}\n")
    return "".join(parts).encode()


def _parse_answer(raw: bytes, elapsed: float) -> Reply:
    try:
        response = json_format.Parse(raw, bot_pb2.ActResponse())
    except (json_format.ParseError, UnicodeDecodeError) as e:
        return Reply(None, elapsed, Fault.MALFORMED, f"not an ActResponse: {_clip(raw)} ({e})")
    if response.WhichOneof("choice") is None:
        return Reply(None, elapsed, Fault.MALFORMED, f"neither index nor move: {_clip(raw)}")
    return Reply(response, elapsed)


def _shorten(text: str, limit: int = 200) -> str:
    """A bot's own words in a record, cut to a length a record can hold."""
    return text if len(text) <= limit else text[:limit] + "…"


def _clip(raw: bytes, limit: int = 80) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")
