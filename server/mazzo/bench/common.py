"""What the benchmarks share: their report type, clocks, a ``mazzo serve`` of their own
and call counters. Public names: each benchmark module imports them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mazzo.games.maraffa import rules as maraffa
from mazzo.games.maraffa.options import Options
from mazzo.games.registry import CODECS, rules_for
from mazzo.v1 import game_pb2

Report = dict[str, Any]


class Stopwatch:
    """Wall and CPU time since it was made: CPU time is the steadier figure on a
    shared machine."""

    def __init__(self, seconds: float) -> None:
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.deadline = self.start + seconds

    def running(self) -> bool:
        return time.perf_counter() < self.deadline

    def rates(self, unit: str, count: int, moves: int) -> Report:
        """``count`` units (hands, deals) and ``moves`` per wall and per CPU second."""
        elapsed = time.perf_counter() - self.start
        cpu = time.process_time() - self.cpu_start
        return {
            unit: count,
            "moves": moves,
            "seconds": round(elapsed, 3),
            f"{unit}_per_second": round(count / elapsed),
            f"{unit}_per_cpu_second": round(count / cpu),
            "us_per_move": round(elapsed / max(moves, 1) * 1e6, 3),
            "cpu_us_per_move": round(cpu / max(moves, 1) * 1e6, 3),
        }


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Microseconds per call of ``fn``, over about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            fn()
        n += 100
    return (time.perf_counter() - start) / n * 1e6


def cpu_with_children() -> float:
    """User + system CPU seconds of this process and its reaped children."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def sample_state(players: int = 4, plays: int = 14, seed: int = 3) -> tuple[Any, Any]:
    """A mid-hand state (trump declared, some tricks played) and a legal move in it."""
    rnd = random.Random(seed)
    state, _ = maraffa.deal(Options(), players, seed)
    for _ in range(plays + 1):
        legal = maraffa.legal_moves(state)
        state, _ = maraffa.apply(state, legal[rnd.randrange(len(legal) - 1)])
    return state, maraffa.legal_moves(state)[0]


@contextlib.contextmanager
def server_process(extra: Sequence[str] = ()) -> Iterator[tuple[int, int]]:
    """``mazzo serve`` (with ``extra`` options) in its own process on a free port;
    yields its port and pid."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--no-http", *extra]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "serving gRPC on" not in line:
            raise RuntimeError(f"server did not start: {line!r}")
        yield int(line.rsplit(":", 1)[1]), proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def process_cpu(pid: int) -> float | None:
    """CPU seconds a process has used (Linux ``/proc``), None where unknown."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Calls:
    """Calls completed and server CPU spent by one kind of call, over several rounds."""

    def __init__(self, server_pid: int) -> None:
        self.pid = server_pid
        self.calls = 0
        self.seconds = 0.0
        self.server_cpu: float | None = 0.0

    async def measure(self, call: Callable[[], Any], seconds: float, in_flight: int) -> None:
        cpu = process_cpu(self.pid)
        start = time.perf_counter()
        self.calls += await count_calls(call, seconds, in_flight)
        self.seconds += time.perf_counter() - start
        after = process_cpu(self.pid)
        if cpu is None or after is None or self.server_cpu is None:
            self.server_cpu = None
        else:
            self.server_cpu += after - cpu

    def report(self, name: str) -> Report:
        out: Report = {f"{name}_per_second": round(self.calls / self.seconds)}
        if self.server_cpu is not None:
            out[f"{name}_server_cpu_us"] = round(self.server_cpu / self.calls * 1e6, 1)
        return out


async def count_calls(call: Callable[[], Any], seconds: float, in_flight: int) -> int:
    """Calls completed in about ``seconds`` with ``in_flight`` calls outstanding."""
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await call()
            done += 1

    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return done


async def call_rate(call: Callable[[], Any], seconds: float, in_flight: int) -> float:
    """Completed calls per second with ``in_flight`` calls outstanding at all times."""
    start = time.perf_counter()
    done = await count_calls(call, seconds, in_flight)
    return done / (time.perf_counter() - start)


def position_after(game: str, players: int, plays: int, seed: int, options: Any = None) -> Any:
    """A state ``plays`` random moves into a match (never a Maraffa claim)."""
    rules, codec = rules_for(game), CODECS[game]
    state, _ = rules.deal(options or codec.options(game_pb2.GameOptions()), players, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        legal = rules.legal_moves(state)
        safe = [m for m in legal if type(m).__name__ != "Claim"] or legal
        state, _ = rules.apply(state, rng.choice(safe))
    return state
