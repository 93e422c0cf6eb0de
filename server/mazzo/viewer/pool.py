"""The viewer's frames, built in a process of their own, with a bounded queue.

Building frames is seconds of pure Python for a long record, and writing them out
(``json.dumps``, gzip) holds the GIL as long: in a thread of the server every gRPC and
REST call would wait for it. So frames are built in a small pool of spawned processes
of their own (not the simulator's: a viewer's request must not delay a search, nor a
search the viewer), and what crosses is bytes: the body as it was posted (parsed in
the pool too) and the finished JSON, already gzipped for a client that takes it.

The pool takes ``PROCESSES + WAITING`` requests at once; past that a request is
refused at once (``Busy``: HTTP 429, docs/viewer.md) rather than queued without end.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mazzo.core.errors import InvalidArgument
from mazzo.service.simulator import Processes, pool_niceness, ready
from mazzo.viewer.frames import frames_body

#: Processes building frames: one. Frames are the viewer's convenience; the cores are
#: for the rules calls.
PROCESSES = 1
#: Requests that may wait for a process, past those being built; more are refused.
WAITING = 3
#: How long a refused client is asked to wait before it tries again.
RETRY_SECONDS = 5


class Busy(Exception):
    """Every process is building and ``WAITING`` requests already wait."""


def _ready(niceness: int, parent: int) -> None:
    """In each new process: ended with the server, nicer than it (the rules calls come
    first), and the games loaded now rather than during the first request."""
    from mazzo.games.registry import CODECS, rules_for

    ready(niceness, parent)
    for game in CODECS:
        rules_for(game)


def _build(record: bytes | Any, with_views: bool, gzipped: bool) -> bytes:
    """In the pool: the frames of ``record`` (a posted body, or a record already read)."""
    if isinstance(record, bytes):
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as e:  # ValueError: bad JSON or not UTF-8
            raise InvalidArgument("body", f"not a match record in JSON: {e}"[:300]) from None
    return frames_body(record, with_views, gzipped)


class FramesPool:
    """The processes, started at the first request; a worker that dies (killed, out of
    memory) fails its request, and the next request gets a new pool."""

    def __init__(self, processes: int = PROCESSES, waiting: int = WAITING) -> None:
        self.processes = processes
        self.capacity = processes + waiting
        self.in_flight = 0
        self._lock = threading.Lock()  # ``mazzo tournament --ui`` serves on its own thread
        self._pool: Processes | None = None

    def _executor(self) -> ProcessPoolExecutor:
        """The simulator's kind of pool (spawned, ended with the server), started at the
        first request."""
        if self._pool is None:
            self._pool = Processes(self.processes, pool_niceness, _ready)
        return self._pool.executor()

    def _enter(self) -> None:
        with self._lock:
            if self.in_flight >= self.capacity:
                raise Busy
            self.in_flight += 1

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    async def build(self, record: bytes | Any, with_views: bool, gzipped: bool) -> bytes:
        """The frames' JSON (gzipped when asked), built in the pool; ``Busy`` at once when
        it is full, ``RulesError`` for a record that is not one or past the bounds."""
        self._enter()
        try:
            loop = asyncio.get_running_loop()
            work = functools.partial(_build, record, with_views, gzipped)
            try:
                built = loop.run_in_executor(self._executor(), work)
            except BrokenProcessPool:
                # Its worker died since the last request (killed, or ended with the thread
                # that started it: ``--ui`` serves on its own): this request gets a new one.
                self.close()
                built = loop.run_in_executor(self._executor(), work)
            return await built
        except BrokenProcessPool:
            self.close()
            raise
        finally:
            self._leave()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


#: The pool every viewer route of this process uses.
FRAMES = FramesPool()
