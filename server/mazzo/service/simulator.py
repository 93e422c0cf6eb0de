"""``Simulate``'s playouts, off the event loop: a pool of processes sized to the cores.

A simulation is pure CPU work of up to a budgeted number of moves; run in the
server's own process it would stall every other call for as long. The work is cut
into units (one legal move of one sample, ``players.playout``) and spread over the
pool in a few chunks per process; the units draw from their own generators, so
the answer does not depend on how they were cut or which process ran them.

What crosses between the server and the pool is bytes: the chunks of units are
pickled in the worker that drew the samples, a Determinize answer is encoded
there, and the server passes both on unread. A thousand samples unpickled and
pickled again in the server would hold its event loop for tens of milliseconds
(pickle, one C call, keeps the GIL while it works). The pool also turns large
messages into JSON and back for the REST door (``json_of``, ``parsed``): the JSON
mapping is pure Python, a quarter of a second a megabyte.

Both pools are bounded, and neither queues behind the other. Searches (Determinize,
Simulate) are admitted ``SEARCHES_PER_PROCESS`` a process at once and refused past
that (``Busy``), rather than queued without end: 40 heavy Simulates once held every
call behind them for 95 s. The rules calls' JSON is converted in a process of its own
(``JSON_PROCESSES``), never behind a search, with a bound of its own. Every process
ends with the server, even a server that was killed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from google.protobuf import descriptor_pool, json_format
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from mazzo.core.rules import AnyRules
from mazzo.players.playout import (
    Horizon,
    MoveStats,
    PolicyKind,
    Unit,
    per_move,
    play_units,
    units_of,
)
from mazzo.service.lifetime import die_with

#: Chunks per process: enough to even out unequal units, few enough to keep the
#: cost of sending samples to the pool small.
CHUNKS_PER_PROCESS = 2


#: How much nicer than the server the pool's workers are: simulations are batch work,
#: and on a busy machine the rules RPCs on the event loop must keep their latency.
#: ``MAZZO_POOL_NICENESS`` sets another (the test suite uses 0: there the machine is
#: busy with the test runner itself, which would starve the pool).
WORKER_NICENESS = 10

#: The search calls: their work runs in the search pool, and they are admitted to it.
SEARCH_METHODS = ("Determinize", "Simulate")
#: Search calls admitted at once: 8 a process of the pool, 16 at least (about one
#: running on each process, the others waiting). Past that a call is refused at once
#: (``Busy``: RESOURCE_EXHAUSTED with a RetryInfo, HTTP 429 with Retry-After), not
#: queued: a queue without end let 40 heavy Simulates hold a rules call for 95 s, and
#: would hold every search behind them as long. At the budget's few core-seconds a
#: call, the last one admitted waits about 8 x that (2 cores: some 40 s).
SEARCHES_PER_PROCESS = 8
MIN_SEARCHES = 16
#: Processes converting the rules calls' JSON for the REST door (``json_of``,
#: ``parse``): one, at the server's priority, for those calls alone, so a rules call
#: never waits for a search. A conversion is milliseconds (a 4 MiB body: about 1 s).
JSON_PROCESSES = 1
#: Conversions that may wait for those processes; more are refused (``Busy``). A
#: rules call's JSON then waits behind 31 others at most: milliseconds each for real
#: requests, some 30 s behind a flood of 4 MiB bodies.
JSON_WAITING = 31
#: How long a refused client is asked to wait before it tries again.
RETRY_SECONDS = 1

#: The messages of the search calls: their JSON is converted in the search pool, as
#: part of the search (its admission covers it), not in the rules calls' process.
_SEARCH_MESSAGES = frozenset(
    f"mazzo.v1.{method}{kind}" for method in SEARCH_METHODS for kind in ("Request", "Response")
)

T = TypeVar("T")


def pool_niceness() -> int:
    text = os.environ.get("MAZZO_POOL_NICENESS", "")
    return int(text) if text.strip().lstrip("-").isdigit() else WORKER_NICENESS


class Busy(Exception):
    """A bounded pool is full: the call is refused at once, to be tried again in
    ``retry_seconds`` (RESOURCE_EXHAUSTED with a ``google.rpc.RetryInfo``, HTTP 429)."""

    def __init__(self, message: str, retry_seconds: int = RETRY_SECONDS) -> None:
        super().__init__(message)
        self.retry_seconds = retry_seconds


class Gate:
    """At most ``capacity`` holders at once, past which ``held`` raises ``Busy``. A task
    that holds the gate passes again freely: the REST door holds it for a search's
    whole request (its JSON is converted in the search pool), and the handler asks
    again."""

    def __init__(self, capacity: int, what: str) -> None:
        self.capacity = capacity
        self.what = what
        self.in_flight = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._holding: ContextVar[bool] = ContextVar(f"holding {what}", default=False)

    @contextmanager
    def held(self) -> Iterator[None]:
        if self._holding.get():
            yield
            return
        with self._lock:
            if self.in_flight >= self.capacity:
                self.refused += 1
                raise Busy(
                    f"the server has {self.capacity} {self.what} already; "
                    f"retry in {RETRY_SECONDS} s"
                )
            self.in_flight += 1
        token = self._holding.set(True)
        try:
            yield
        finally:
            self._holding.reset(token)
            with self._lock:
                self.in_flight -= 1


def ready(niceness: int, parent: int) -> None:
    """In each new process: ended with the server, and nicer than it if asked."""
    die_with(parent)
    if niceness > 0:
        os.nice(niceness)


@dataclass(frozen=True)
class Drawn:
    """A position's samples as the server needs them: the first (for the answer's
    seat, side and moves), how many there are, their legal moves' count, the rules'
    bound on a playout, and the units, already cut into pickled chunks."""

    first: Any
    samples: int
    moves: int
    limit: int
    chunks: list[bytes]


def packed(units: Sequence[Unit], pieces: int) -> list[bytes]:
    """``units`` cut into at most ``pieces`` runs, each pickled."""
    return [pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL) for chunk in _chunks(units, pieces)]


def drawn_from_state(rules: AnyRules, state: Any, to_match_end: bool, pieces: int) -> Drawn:
    """One full state as a position to play out (``Simulate`` given a state)."""
    from mazzo.service.sampling import simulation_plan

    moves, limit = simulation_plan(rules, [state], to_match_end)
    return Drawn(state, 1, moves, limit, packed(units_of([state], moves), pieces))


def _drawn(
    game: str,
    view: Any,
    count: int,
    seed: int,
    to_match_end: bool,
    pieces: int,
    playouts: int,
) -> Drawn:
    """``count`` samples of ``view``, checked, within ``Simulate``'s budget for
    ``playouts``. The budget is counted on the first sample before the others are
    drawn (a thousand Ramino samples take seconds), and again on them all: the rules'
    bound on a playout may differ from sample to sample."""
    from mazzo.games.registry import CODECS, rules_for
    from mazzo.service.sampling import check_budget, check_decides, determinized, simulation_plan

    rules, codec = rules_for(game), CODECS[game]
    first = determinized(rules, codec, view, 1, seed)[0]  # the first of any count's
    if rules.finished(first):
        return Drawn(first, count, 0, 0, [])
    check_decides(rules, view, first)
    moves, limit = simulation_plan(rules, [first], to_match_end)
    check_budget(moves, playouts, count, limit)
    samples = determinized(rules, codec, view, count, seed) if count > 1 else [first]
    moves, limit = simulation_plan(rules, samples, to_match_end)
    check_budget(moves, playouts, count, limit)
    return Drawn(first, count, moves, limit, packed(units_of(samples, moves), pieces))


def _play_packed(
    game: str,
    chunk: bytes,
    playouts: int,
    policy: PolicyKind,
    horizon: Horizon,
    seed: int,
    limit: int,
) -> tuple[list[MoveStats], int]:
    return play_units(game, pickle.loads(chunk), playouts, policy, horizon, seed, limit)


def _determinize_response(game: str, view: Any, count: int, seed: int) -> bytes:
    from mazzo.games.registry import CODECS, rules_for
    from mazzo.service.sampling import determinize_response

    return determinize_response(rules_for(game), CODECS[game], view, count, seed)


def _message_class(full_name: str) -> type[Message]:
    import mazzo.v1.game_service_pb2  # noqa: F401  (registers the API's messages)

    return GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(full_name))


def _to_json(full_name: str, data: bytes) -> str:
    message = _message_class(full_name).FromString(data)
    return json_format.MessageToJson(message, indent=None)


def _from_json(full_name: str, text: bytes) -> bytes:
    message = _message_class(full_name)()
    json_format.Parse(text, message)
    return message.SerializeToString()


class Processes:
    """A pool of spawned processes, started at its first use, ended with the server.
    A worker that died (killed, out of memory) breaks the whole pool: the call fails,
    and the next one gets a new pool rather than the same error forever."""

    def __init__(
        self,
        processes: int,
        niceness: Callable[[], int],
        initializer: Callable[[int, int], None] = ready,
    ) -> None:
        self.processes = processes
        self._niceness = niceness
        #: Run first in each new process, with the niceness and the server's pid; a
        #: module's function (spawned processes import it), ``ready`` or one that calls it.
        self._initializer = initializer
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Not fork: the server's gRPC threads must not be copied mid-flight.
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=self._initializer,
                initargs=(self._niceness(), os.getpid()),
            )
        return self._pool

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor(), function, *args)
        except BrokenProcessPool:
            self.close()
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Simulator:
    """The search pool and the rules calls' JSON process, each bounded (``Busy``)."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or os.cpu_count() or 1
        self.pieces = self.processes * CHUNKS_PER_PROCESS
        self._search = Processes(self.processes, pool_niceness)
        # At the server's priority: this is the rules calls' work, not batch work.
        self._json = Processes(JSON_PROCESSES, lambda: 0)
        #: Search calls in flight (``searching``).
        searches = max(MIN_SEARCHES, self.processes * SEARCHES_PER_PROCESS)
        self.searches = Gate(searches, "searches (Determinize, Simulate) running")
        #: JSON conversions of rules calls in flight.
        self.conversions = Gate(JSON_PROCESSES + JSON_WAITING, "JSON conversions running")

    def _executor(self) -> ProcessPoolExecutor:
        """The search pool's executor (started if need be)."""
        return self._search.executor()

    def searching(self) -> AbstractContextManager[None]:
        """Held for a whole search call (a context manager): ``Busy`` at once when
        ``searches.capacity`` calls are in flight already."""
        return self.searches.held()

    async def determinize(
        self,
        game: str,
        view: Any,
        count: int,
        seed: int,
        to_match_end: bool = False,
        playouts: int = 1,
    ) -> Drawn:
        """The game's samples of a view, checked, drawn in the pool (a thousand may take
        a while) and cut for ``run``; no chunks when the match is over. Refused
        (``InvalidArgument``) once the first sample shows that ``playouts`` of each
        would be over ``Simulate``'s budget, before the rest are drawn."""
        return await self._search.call(
            _drawn, game, view, count, seed, to_match_end, self.pieces, playouts
        )

    async def determinize_response(self, game: str, view: Any, count: int, seed: int) -> bytes:
        """``Determinize``'s answer, sampled, checked and encoded in the pool."""
        return await self._search.call(_determinize_response, game, view, count, seed)

    async def json_of(self, message: Message) -> str:
        """``message`` in the proto3 JSON mapping, written in a pool: a search's in the
        search pool, a rules call's in its own process."""
        name = message.DESCRIPTOR.full_name
        return await self._converted(_to_json, name, message.SerializeToString())

    async def parse(self, text: bytes, message: Message) -> None:
        """``text`` (JSON) parsed into ``message`` in a pool, as ``json_of``; a
        ``ParseError`` or a ``ValueError`` comes back as itself."""
        name = message.DESCRIPTOR.full_name
        message.ParseFromString(await self._converted(_from_json, name, text))

    async def _converted(self, function: Callable[[str, bytes], T], name: str, data: bytes) -> T:
        if name in _SEARCH_MESSAGES:
            with self.searches.held():
                return await self._search.call(function, name, data)
        with self.conversions.held():
            return await self._json.call(function, name, data)

    async def run(
        self,
        game: str,
        drawn: Drawn,
        playouts: int,
        policy: PolicyKind,
        horizon: Horizon,
        seed: int,
    ) -> tuple[list[MoveStats], int]:
        """Per legal move its statistics over every sample, and the moves simulated."""
        parts = await asyncio.gather(
            *(
                self._search.call(
                    _play_packed, game, chunk, playouts, policy, horizon, seed, drawn.limit
                )
                for chunk in drawn.chunks
            )
        )
        stats = [unit for part, _ in parts for unit in part]
        # per_move reads only the units' order: sample numbers stand in for samples.
        units = units_of(range(drawn.samples), drawn.moves)
        return per_move(units, stats, drawn.moves), sum(n for _, n in parts)

    def close(self) -> None:
        self._search.close()
        self._json.close()


def _chunks(units: Sequence[Unit], count: int) -> list[Sequence[Unit]]:
    """``units`` cut into at most ``count`` consecutive runs of nearly equal length."""
    count = max(1, min(count, len(units)))
    size, extra = divmod(len(units), count)
    out: list[Sequence[Unit]] = []
    start = 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        out.append(units[start:end])
        start = end
    return out
