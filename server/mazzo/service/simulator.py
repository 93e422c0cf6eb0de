"""``Simulate``'s playouts, off the event loop: a pool of processes sized to the cores.

A simulation is pure CPU work of up to a budgeted number of moves; run in the
server's own process it would stall every other call for as long. The work is cut
into units (one legal move of one sample, ``players.playout``) and spread over the
pool in a few chunks per process; the units draw from their own generators, so
the answer does not depend on how they were cut or which process ran them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from mazzo.players.playout import (
    Horizon,
    MoveStats,
    PolicyKind,
    Unit,
    per_move,
    play_units,
    units_of,
)

#: Chunks per process: enough to even out unequal units, few enough to keep the
#: cost of sending samples to the pool small.
CHUNKS_PER_PROCESS = 2


#: How much nicer than the server the pool's workers are: simulations are batch work,
#: and on a busy machine the rules RPCs on the event loop must keep their latency.
#: ``MAZZO_POOL_NICENESS`` sets another (the test suite uses 0: there the machine is
#: busy with the test runner itself, which would starve the pool).
WORKER_NICENESS = 10


def pool_niceness() -> int:
    text = os.environ.get("MAZZO_POOL_NICENESS", "")
    return int(text) if text.strip().lstrip("-").isdigit() else WORKER_NICENESS


def _lower_priority(niceness: int) -> None:
    if niceness > 0:
        os.nice(niceness)


def _determinize(
    game: str, view: Any, count: int, seed: int, to_match_end: bool
) -> tuple[list[Any], int, int]:
    from mazzo.codec import CODECS
    from mazzo.games.registry import rules_for
    from mazzo.service.sampling import check_decides, determinized, simulation_plan

    rules = rules_for(game)
    samples = determinized(rules, CODECS[game], view, count, seed)
    if rules.finished(samples[0]):
        return samples, 0, 0
    check_decides(rules, view, samples[0])
    return (samples, *simulation_plan(rules, samples, to_match_end))


def _determinize_response(game: str, view: Any, count: int, seed: int) -> bytes:
    from mazzo.codec import CODECS
    from mazzo.games.registry import rules_for
    from mazzo.service.sampling import determinize_response

    return determinize_response(rules_for(game), CODECS[game], view, count, seed)


class Simulator:
    """The pool, started at the first simulation and stopped with the server."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Not fork: the server's gRPC threads must not be copied mid-flight.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_lower_priority,
                initargs=(pool_niceness(),),
            )
        return self._pool

    async def determinize(
        self, game: str, view: Any, count: int, seed: int, to_match_end: bool = False
    ) -> tuple[list[Any], int, int]:
        """The game's samples of a view, checked, drawn in the pool (a thousand may take
        a while), with their legal moves' count and the rules' bound on a playout (to
        the hand's end, or the match's); 0 and 0 when the match is over."""
        loop = asyncio.get_running_loop()
        with self._renewed_if_broken():
            return await loop.run_in_executor(
                self._executor(), _determinize, game, view, count, seed, to_match_end
            )

    async def determinize_response(self, game: str, view: Any, count: int, seed: int) -> bytes:
        """``Determinize``'s answer, sampled, checked and encoded in the pool."""
        loop = asyncio.get_running_loop()
        with self._renewed_if_broken():
            return await loop.run_in_executor(
                self._executor(), _determinize_response, game, view, count, seed
            )

    @contextmanager
    def _renewed_if_broken(self) -> Iterator[None]:
        """A worker that died (killed, out of memory) breaks the whole pool: the call
        fails, and the next one gets a new pool rather than the same error forever."""
        try:
            yield
        except BrokenProcessPool:
            self.close()
            raise

    async def run(
        self,
        game: str,
        samples: Sequence[Any],
        moves: int,
        playouts: int,
        policy: PolicyKind,
        horizon: Horizon,
        seed: int,
        limit: int,
    ) -> tuple[list[MoveStats], int]:
        """Per legal move its statistics over every sample, and the moves simulated."""
        units = units_of(samples, moves)
        chunks = _chunks(units, self.processes * CHUNKS_PER_PROCESS)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        with self._renewed_if_broken():
            parts = await asyncio.gather(
                *(
                    loop.run_in_executor(
                        pool, play_units, game, chunk, playouts, policy, horizon, seed, limit
                    )
                    for chunk in chunks
                )
            )
        stats = [unit for part, _ in parts for unit in part]
        return per_move(units, stats, moves), sum(n for _, n in parts)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


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
