"""How the referee reaches a bot: gRPC, a child process speaking JSON lines, or in-process.

Every transport answers ``act(request, timeout)`` with a ``Reply`` and never raises
for a bot's misbehaviour: a timeout, a malformed answer or a crash comes back as a
``Fault`` with its class, and the time is measured here, by the referee, from the
moment the request is sent until the answer is read. Whether the answer is a legal
move is the match's business (it knows the legal moves).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import IO, Protocol

import grpc
from google.protobuf import json_format

from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_pb2

#: A JSON line longer than this is a malformed answer (and the stream is dropped).
LINE_LIMIT = 1 << 22
#: How long a closing child may take to exit after its stdin closes.
CLOSE_GRACE_SECONDS = 1.0


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


Policy = Callable[[bot_pb2.ActRequest], bot_pb2.ActResponse]


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


class GrpcBot:
    """A bot that serves ``mazzo.v1.Bot`` at ``host:port``; the deadline is the call's."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._channel: grpc.aio.Channel | None = None
        self._stub: bot_pb2_grpc.BotStub | None = None
        self._alive = False

    @property
    def alive(self) -> bool:
        return self._alive

    async def start(self) -> None:
        self._channel = grpc.aio.insecure_channel(self.target)
        self._stub = bot_pb2_grpc.BotStub(self._channel)
        self._alive = True

    def new_match(self, seed: int) -> None:
        return None

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        assert self._stub is not None, "start() the bot first"
        start = time.perf_counter()
        try:
            response = await self._stub.Act(request, timeout=max(timeout, 0.0))
        except grpc.aio.AioRpcError as e:
            elapsed = time.perf_counter() - start
            if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                return Reply(None, elapsed, Fault.TIMEOUT, "deadline exceeded")
            # The bot is unreachable or failed: a new channel is made for the next match.
            self._alive = False
            return Reply(None, elapsed, Fault.CRASH, f"{e.code().name}: {e.details()}")
        elapsed = time.perf_counter() - start
        if elapsed > timeout:
            return Reply(None, elapsed, Fault.TIMEOUT, f"answered after {elapsed:.3f}s")
        return Reply(response, elapsed)

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
        self._channel = self._stub = None
        self._alive = False


class ExecBot:
    """A child process: one proto3-JSON ``ActRequest`` per line on its stdin, one
    ``ActResponse`` per line on its stdout (docs/referee.md).

    Requests carry no id, so after a timeout the late answer is still owed: the
    number of such answers is counted and that many lines are skipped before the
    next answer is read, which keeps requests and answers in step.
    """

    def __init__(self, command: str, cwd: Path | None = None, stderr: Path | None = None) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("exec: needs a command")
        self.cwd = cwd
        self.stderr = stderr
        self._proc: asyncio.subprocess.Process | None = None
        self._stale = 0
        self._start_error = ""
        self._err: IO[bytes] | None = None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    async def start(self) -> None:
        if self.stderr is not None:
            self._err = self.stderr.open("ab")
        self._stale = 0
        self._start_error = ""
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=self._err if self._err is not None else asyncio.subprocess.DEVNULL,
                cwd=self.cwd,
                limit=LINE_LIMIT,
                start_new_session=True,
            )
        except OSError as e:
            # A program that cannot be started crashes at its first move, like one
            # that exits at once: the match goes on by the fault policy.
            self._start_error = f"cannot start {self.argv[0]!r}: {e.strerror or e}"

    def new_match(self, seed: int) -> None:
        return None

    async def act(self, request: bot_pb2.ActRequest, timeout: float) -> Reply:
        proc = self._proc
        if proc is None or proc.returncode is not None or proc.stdin is None or proc.stdout is None:
            return Reply(None, 0.0, Fault.CRASH, self._exit_text())
        line = request_line(request)
        start = time.perf_counter()
        try:
            proc.stdin.write(line)
            await proc.stdin.drain()
            async with asyncio.timeout(max(timeout, 0.0)):
                while self._stale:
                    await proc.stdout.readline()
                    self._stale -= 1
                raw = await proc.stdout.readline()
        except TimeoutError:
            self._stale += 1
            elapsed = time.perf_counter() - start
            return Reply(None, elapsed, Fault.TIMEOUT, f"no answer in {timeout:.3f}s")
        except (BrokenPipeError, ConnectionResetError):
            await self._reap()
            return Reply(None, time.perf_counter() - start, Fault.CRASH, self._exit_text())
        except ValueError:
            # A line over LINE_LIMIT: the stream cannot be resynchronised.
            await self.close()
            elapsed = time.perf_counter() - start
            return Reply(None, elapsed, Fault.MALFORMED, f"answer longer than {LINE_LIMIT} bytes")
        elapsed = time.perf_counter() - start
        if not raw.endswith(b"\n"):
            # End of output: the process has exited (or closed stdout, as good as exiting).
            await self._reap()
            return Reply(None, elapsed, Fault.CRASH, self._exit_text())
        return _parse_answer(raw, elapsed)

    async def _reap(self) -> None:
        """Collect a dead child's exit status; kill one that merely closed its stdout."""
        proc = self._proc
        if proc is None:
            return
        try:
            await asyncio.wait_for(proc.wait(), CLOSE_GRACE_SECONDS)
        except TimeoutError:
            self._kill()
            await proc.wait()

    def _exit_text(self) -> str:
        if self._start_error:
            return self._start_error
        code = None if self._proc is None else self._proc.returncode
        return "process not running" if code is None else f"process exited with status {code}"

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

    async def close(self) -> None:
        """Close stdin (a well-behaved bot exits at end of input), then kill its group."""
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None and not proc.stdin.is_closing():
                proc.stdin.close()
            if proc.returncode is None:
                try:
                    await asyncio.wait_for(proc.wait(), CLOSE_GRACE_SECONDS)
                except TimeoutError:
                    self._kill()
                    await proc.wait()
            # Children the bot left behind in its session go too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        if self._err is not None:
            self._err.close()
            self._err = None


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


def _clip(raw: bytes, limit: int = 80) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")
