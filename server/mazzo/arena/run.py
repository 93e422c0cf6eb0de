"""``mazzo arena run``: the scheduler and ``workers`` workers on one event loop, until
``matches`` matches are finished, the run is stopped (Ctrl-C), or nothing is left to
play.

Everything is bounded: each ladder's queue (``Settings.queue`` matches scheduled or in
play), the matches claimed at once (one per worker, and never more than the
``matches`` still to finish), every wait (``idle``: a worker with nothing to claim
waits at most that long, or until the scheduler queues a set).

Stopping: with ``matches``, the workers claim no more than that many, so the run ends
with none in play. Stopped otherwise (Ctrl-C), the matches in play are voided, with
the reason, and the matches scheduled stay queued for the next run; a run killed
outright (``kill -9``) leaves its matches in play: the next run voids them as it starts
when it runs on the same host (their worker's process is gone: ``liveness``), and any
scheduler voids them once their heartbeats are ``stale_after`` old. "Nothing left to
play" is a round that finds no match queued on any ladder and no table it could seat
(a paused bot does not come back on its own; a run that waits for dial-in bots to
connect, as ``mazzo arena serve``'s does, sets ``until_idle`` False); the reasons per
ladder are reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.exc import SQLAlchemyError

from mazzo.arena.connections import BEAT
from mazzo.arena.live import LiveTables
from mazzo.arena.liveness import Instance, this_process
from mazzo.arena.scheduler import Scheduler, nobody
from mazzo.arena.seats import LIMITS, ArenaGateway
from mazzo.arena.store import Claim, Refused, Store
from mazzo.arena.worker import FINISHED, VOIDED, Played, Worker
from mazzo.referee.match import TimeControl
from mazzo.referee.watch import Watcher

log = logging.getLogger(__name__)

#: A person's clock: five minutes a move (time to think, or to be called away), half
#: an hour's bank for the match; ``mazzo arena serve --person-move-time --person-bank``.
PERSON_CLOCK = TimeControl(300.0, 1800.0)


@dataclass(frozen=True)
class Settings:
    workers: int = 1
    #: Stop once this many matches are finished (None: until stopped or idle).
    matches: int | None = None
    #: Matches scheduled or in play per ladder; None: twice the workers, at least 4.
    queue: int | None = None
    #: Seconds between a match's heartbeats, and of silence before a claim is voided.
    heartbeat: float = 5.0
    stale_after: float = 60.0
    #: The longest wait of a worker with nothing to claim, and between two rounds.
    idle: float = 0.5
    #: Seconds between two scheduler rounds' housekeeping (``Scheduler.keep_house``).
    housekeeping: float = 1.0
    #: Stop when nothing is queued and no table can be seated.
    until_idle: bool = True
    #: Seeds matchmaking's draws (None: the system's randomness).
    seed: int | None = None
    clock: TimeControl = field(default_factory=TimeControl)
    #: The clock of the seats of a bot played by a person (``Worker.person_clock``).
    person_clock: TimeControl = field(default_factory=lambda: PERSON_CLOCK)
    pause_limit: int = 3
    pause_window: int = 5

    def __post_init__(self) -> None:
        if self.workers < 1 or (self.matches is not None and self.matches < 1):
            raise ValueError("an arena run needs 1 or more workers, and 1 or more matches")
        if not 1 <= self.pause_limit <= self.pause_window:
            # Said now: every finish would refuse it, and the run replay its matches.
            raise ValueError(
                f"a bot is paused after 1 to {self.pause_window} faulty matches of its last "
                f"{self.pause_window}, not {self.pause_limit}"
            )


@dataclass
class Summary:
    finished: int = 0
    voided: int = 0
    lost: int = 0
    #: Matches voided because their worker died (an earlier run's, usually): its
    #: process is gone, or its heartbeats went silent.
    stale: int = 0
    #: Bots paused in this run, with the reason.
    paused: dict[str, str] = field(default_factory=dict)
    why: str = ""


@dataclass
class _Run:
    """What the loops share: the summary so far, the matches in play or being claimed,
    the events that stop the run and wake the workers and the scheduler."""

    settings: Settings
    report: Callable[[str], None]
    #: This process's live tables: a table is closed when its match ends, however.
    live: LiveTables | None = None
    #: Where this process's gateway holds its dial-in bots (None: no gateway).
    process: str | None = None
    #: That gateway: a claim seats only the bots it holds as the claim is made.
    gateway: ArenaGateway | None = None
    summary: Summary = field(default_factory=Summary)
    in_play: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    #: ``scheduled`` wakes idle workers: sets were scheduled, or a match ended (its
    #: bots are free again for a match of theirs that waited); ``ended``, the scheduler.
    scheduled: asyncio.Event = field(default_factory=asyncio.Event)
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    def room(self) -> bool:
        """Another match may be claimed: ``matches`` is not reached by those finished
        and in play."""
        wanted = self.settings.matches
        return wanted is None or self.summary.finished + self.in_play < wanted

    def done(self, played: Played) -> None:
        s = self.summary
        if played.outcome == FINISHED:
            s.finished += 1
        elif played.outcome == VOIDED:
            s.voided += 1
        else:
            s.lost += 1
        of = f"/{self.settings.matches}" if self.settings.matches else ""
        self.report(f"[{s.finished}{of}] {played.outcome}: {played.line}")
        for bot, reason in played.paused.items():
            s.paused[bot] = reason
            self.report(f"paused {bot}: {reason}")
        if self.settings.matches is not None and s.finished >= self.settings.matches:
            self.finish(f"{s.finished} matches finished")
        self.ended.set()
        self.scheduled.set()

    def finish(self, why: str) -> None:
        if not self.stop.is_set():
            self.summary.why = why
            self.stop.set()


async def _wait(run: _Run, event: asyncio.Event, seconds: float) -> None:
    """Until ``event`` is set, the run stops, or ``seconds`` pass; then ``event`` is
    cleared."""
    waits = [asyncio.create_task(e.wait()) for e in (event, run.stop)]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waits:
            task.cancel()
    event.clear()


async def _work(run: _Run, worker: Worker) -> None:
    """Claim and play until the run stops; a match in play when it stops is voided
    (``Worker.play``), one being finished is finished first."""
    store = worker.store
    while not run.stop.is_set():
        if not run.room():
            await _wait(run, run.ended, run.settings.idle)
            continue
        run.in_play += 1  # reserved before the claim: two workers never overshoot
        claim = None
        try:
            held = None if run.gateway is None else frozenset(run.gateway.held())
            claim = await _claim(store, worker.name, run.process, held)
            played = None if claim is None else await worker.play(claim, run.stop)
        finally:
            run.in_play -= 1
            if claim is not None and run.live is not None:  # voided too: no longer live
                run.live.close(claim.match_id)
        if played is None:
            await _wait(run, run.scheduled, run.settings.idle)
        else:
            run.done(played)


async def _claim(
    store: Store, worker: str, process: str | None = None, held: frozenset[str] | None = None
) -> Claim | None:
    """The next claim (dial-in seats only of bots connected to ``process``, and of
    ``held``, those its gateway holds now); cancelled meanwhile, the claim's
    transaction still ends, and a match it took is voided, saying so, before the
    cancellation goes on."""
    job = asyncio.ensure_future(asyncio.to_thread(store.claim, worker, None, process, held))
    try:
        return await asyncio.shield(job)
    except asyncio.CancelledError:
        claim = await job
        if claim is not None:
            with contextlib.suppress(Refused):
                store.void(claim.match_id, f"the arena stopped as {worker} claimed it")
        raise


async def _schedule(run: _Run, scheduler: Scheduler) -> None:
    waiting: dict[int, str] = {}
    while not run.stop.is_set():
        done = await asyncio.to_thread(scheduler.round)
        run.summary.stale += len(done.voided)
        for match_id in done.voided:
            why = "'s process is gone" if match_id in done.dead else " went silent"
            run.report(f"voided {match_id}: its worker{why}")
        run.summary.voided += len(done.away)
        for match_id, reason in done.away.items():
            run.report(f"voided {match_id}: {reason}")
        if done.scheduled:
            run.scheduled.set()
        if done.waiting != waiting:
            for note in done.waiting.values():
                run.report(f"waiting: {note}")
            waiting = done.waiting
        if run.settings.until_idle and not done.queued and run.in_play == 0:
            run.finish("nothing left to play")
            return
        await _wait(run, run.ended, run.settings.idle)


def worker_names(count: int, me: Instance | None = None) -> list[str]:
    """Names unique among processes and runs, that name this process's instance (host,
    pid, start time, a random tag: ``liveness``; ``me``, or a new one), so that the next
    run can tell that this one is gone; and a number."""
    me = me or this_process()
    return [me.worker(i) for i in range(count)]


async def run_arena(
    store: Store,
    settings: Settings,
    report: Callable[[str], None] = lambda line: None,
    stop: asyncio.Event | None = None,
    gateway: ArenaGateway | None = None,
    live: LiveTables | None = None,
    watcher: Watcher | None = None,
    web_url: str | None = None,
) -> Summary:
    """Play until ``settings.matches`` are finished, ``stop`` is set, or nothing is
    left to play (module docstring); ``report`` is told of every match's end, every
    bot paused, every ladder that waits for bots. Returns what the run did. With a
    ``gateway`` (``mazzo arena serve``'s), its connected dial-in bots are seated too.
    With ``live``, the matches in play are its live tables (``arena.live``), watched
    through ``watcher`` (by default ``live.watcher()``; ``mazzo arena serve`` wraps it
    for the people at the tables, ``arena.person``); with ``web_url`` too, the run says
    in the database that its pages are there while it plays (``web_addresses``), so
    that the other processes' pages relay its live tables."""
    if watcher is None and live is not None:
        watcher = live.watcher()
    me = gateway.instance if gateway is not None else this_process()
    run = _Run(settings, report, live, None if gateway is None else gateway.process, gateway)
    queue = settings.queue if settings.queue is not None else max(4, 2 * settings.workers)
    scheduler = Scheduler(
        store,
        random.Random(settings.seed),
        queue=queue,
        stale_after=timedelta(seconds=settings.stale_after),
        connected=nobody if gateway is None else gateway.connected,
        here=run.process,
        grace=timedelta(seconds=(gateway.limits if gateway else LIMITS).grace),
        housekeeping=settings.housekeeping,
    )
    workers = [
        Worker(
            store,
            name,
            clock=settings.clock,
            person_clock=settings.person_clock,
            heartbeat=settings.heartbeat,
            pause_limit=settings.pause_limit,
            pause_window=settings.pause_window,
            gateway=gateway,
            watcher=watcher,
        )
        for name in worker_names(settings.workers, me)
    ]
    # A run killed outright left its matches in play: void them now, not a heartbeat
    # silence later, so their bots play again at once (crash safety, docs/arena.md).
    dead = await asyncio.to_thread(scheduler.void_dead)
    run.summary.stale += len(dead)
    for match_id in dead:
        run.report(f"voided {match_id}: its worker's process is gone")
    tasks = [asyncio.create_task(_schedule(run, scheduler))]
    if gateway is not None:  # where its dial-in bots are: before the first claim needs it
        tasks.append(asyncio.create_task(gateway.keep_connections(run.stop)))
    if web_url is not None and live is not None:
        tasks.append(asyncio.create_task(_advertise(run, store, me.name, web_url)))
    tasks += [asyncio.create_task(_work(run, worker)) for worker in workers]
    watch = asyncio.create_task(_stop_on(stop, run)) if stop is not None else None
    try:
        # The loops end once the run stops (a worker first ends the match it plays);
        # a loop that fails stops the others.
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        run.finish("failed")
    finally:
        for task in tasks:  # cancelled from outside: each loop voids what it plays
            task.cancel()
        if watch is not None:
            watch.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, Exception)]
    if failed:
        raise failed[0]
    return run.summary


async def _advertise(run: _Run, store: Store, process: str, url: str) -> None:
    """Say where this process's pages are until the run stops (a beat every
    ``connections.BEAT``); then that they are gone. A database away for a beat is
    tried again at the next: the pages are a view, never a reason to stop playing."""
    beat = asyncio.Event()  # never set: each wait is a beat, or the run's stop
    try:
        while not run.stop.is_set():
            try:
                await asyncio.to_thread(store.advertise, process, url)
            except SQLAlchemyError as e:
                log.warning("cannot say where the pages are: %s", e)
            await _wait(run, beat, BEAT)
    finally:
        with contextlib.suppress(SQLAlchemyError):
            await asyncio.to_thread(store.withdraw, process)


async def _stop_on(stop: asyncio.Event, run: _Run) -> None:
    await stop.wait()
    run.finish("stopped")
