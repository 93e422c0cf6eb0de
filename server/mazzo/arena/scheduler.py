"""The scheduler: keeps each ladder's queue of matches topped up, a duplicate set at a
time, with the seating ``matchmaking`` chooses; and voids the matches whose worker died
(its process is gone, or its heartbeats went silent), so that none is dropped unsaid.

One round (``Scheduler.round``) is a few short transactions, run in a thread by the
arena's loop (``arena.run``) after every match that ends; its housekeeping (the voids
below, and reading the ladders and the connections) at most every ``housekeeping``
seconds. The queue is bounded per ladder (``queue``: matches
scheduled or in play), and a bot is seated in one set at a time (``Store.ladder_bots``'s
``busy``, checked again under a lock of the bots' rows as the set is stored:
``schedule_set``'s ``free_only``, so two processes' schedulers never seat one bot twice),
so a ladder never holds more sets than its bots can fill at once.

Which bots can play: ``builtin`` bots (in the arena's own process) and ``grpc://`` bots
(dialed by the worker; one that does not answer faults, as in the referee) always;
``dial-in`` bots only while they are connected to the arena's gateway (``connected``,
``arena.seats``): without a gateway (``mazzo arena run``) never. With several arena
processes on one database, a dial-in bot is seated only by the process whose gateway
holds it, as the database says (``here``, ``connections``): a table's dial-in bots are
all on that process, and only it claims their matches. Each round also voids the
scheduled matches whose dial-in bots are connected to no process for longer than the
``grace`` (``Store.void_away``: none waits for ever), and drops the connections of
processes of this host that are gone. The round says which bots wait in its
``waiting`` notes.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from mazzo.arena.liveness import gone, process_gone
from mazzo.arena.matchmaking import Candidate, seating
from mazzo.arena.models import BUILTIN, DIAL_IN, GRPC, utcnow
from mazzo.arena.store import Busy, LadderBot, LadderInfo, Store
from mazzo.referee.match import MatchSpec, options_json, table_of


class Unplayable(ValueError):
    """A ladder's form, or a match's bots, that this arena cannot play (says why)."""


#: The kinds of bot this arena plays (module docstring).
PLAYABLE_KINDS = (BUILTIN, GRPC, DIAL_IN)

#: Whether a dial-in bot is connected now, by name.
Connected = Callable[[str], bool]


def nobody(name: str) -> bool:
    """No dial-in bot is connected: an arena without a gateway."""
    return False


def game_options(ladder: LadderInfo) -> dict[str, object]:
    """A ladder's options (the game's own, ``{"target": 41}``) as the proto3 JSON of
    ``GameOptions``, checked by the rules: what a ``MatchSpec`` takes."""
    settings = [
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in ladder.options.items()
    ]
    return options_json(ladder.game, settings)


def ladder_sides(ladder: LadderInfo) -> list[list[int]]:
    """The sides of the ladder's table (their seats). ``Unplayable`` when the game,
    its form or options are unknown to the rules, or when a seat is decided by another
    seat's bot (Maraffa 3p's dummy): the arena seats one bot per seat, 0 to players - 1."""
    try:
        options = MatchSpec("", ladder.game, 0, ladder.players, game_options(ladder))
        sides, deciders = table_of(ladder.game, ladder.players, options.options_message())
    except (KeyError, ValueError) as e:  # RulesError is a ValueError
        raise Unplayable(f"{ladder.game} {ladder.players}p: {e}") from None
    if deciders != list(range(ladder.players)):
        raise Unplayable(
            f"{ladder.game} {ladder.players}p: its deciding seats are {deciders}; the arena "
            f"seats one bot on each of seats 0 to {ladder.players - 1} (not a dummy's form yet)"
        )
    return sides


def reachable(bot: LadderBot, connected: Connected = nobody) -> bool:
    """The bot can be seated now, busy or not: of a kind played here, and connected
    when it dials in."""
    return bot.kind in PLAYABLE_KINDS and (bot.kind != DIAL_IN or connected(bot.name))


def candidate(bot: LadderBot, connected: Connected = nobody) -> Candidate:
    """A ladder's bot as matchmaking weighs it: available when it can be seated now
    (``reachable``) and is not seated in a match already."""
    return Candidate(
        bot.name,
        bot.owner,
        bot.mu,
        bot.sigma,
        bot.games,
        available=reachable(bot, connected) and not bot.busy,
        paused=bot.paused_reason is not None,
    )


#: How far back ``keep_house`` looks for sets left unrated, before its last look.
SKEW = timedelta(seconds=60)


@dataclass
class Round:
    """What one round did: the sets scheduled (their matches' ids), the matches voided
    as stale (``dead``: those whose worker's process is gone; the others' heartbeats
    went silent), the matches queued over all ladders after it, and why a ladder got no
    new set when it has room (by ladder id)."""

    scheduled: list[list[str]] = field(default_factory=list)
    voided: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    #: Scheduled matches voided for a dial-in bot connected nowhere, with the reason.
    away: dict[str, str] = field(default_factory=dict)
    #: Sets over that no finish or void had rated (``Store.rate_closed_sets``).
    rated: list[str] = field(default_factory=list)
    queued: int = 0
    waiting: dict[int, str] = field(default_factory=dict)


@dataclass
class Scheduler:
    """Tops up every ladder's queue to ``queue`` matches (scheduled or in play; at
    least one set always fits) and voids claims silent for ``stale_after``."""

    store: Store
    rng: random.Random
    queue: int = 8
    stale_after: timedelta = timedelta(seconds=60)
    #: Which dial-in bots are connected (the arena's gateway's); without one, none.
    connected: Connected = nobody
    #: This process's name where its gateway's bots are connected (``connections``);
    #: None: no gateway.
    here: str | None = None
    #: How long a queued match waits for a dial-in bot connected nowhere.
    grace: timedelta = timedelta(seconds=10)
    #: Seconds between two rounds' housekeeping (``keep_house``): 0, every round.
    housekeeping: float = 0.0
    #: Sides per ladder id, or why the ladder cannot be played (a ladder never changes).
    _tables: dict[int, list[list[int]] | Unplayable] = field(default_factory=dict)
    #: What the last housekeeping read: the ladders, where each dial-in bot is
    #: connected, and when (``time.monotonic``; None: never).
    _ladders: list[LadderInfo] = field(default_factory=list)
    _where: dict[str, str] = field(default_factory=dict)
    _kept_at: float | None = None
    #: When the last housekeeping looked for sets over and not rated (None: never).
    _swept_at: datetime | None = None

    def round(self) -> Round:
        """Housekeeping when due, then each ladder topped up."""
        done = Round()
        now = time.monotonic()
        if self._kept_at is None or now - self._kept_at >= self.housekeeping:
            self.keep_house(done)
            self._kept_at = now
        where = self._where

        def here(name: str) -> bool:
            return self.here is not None and where.get(name) == self.here and self.connected(name)

        def there(name: str) -> bool:
            return where.get(name, self.here) != self.here

        for ladder in self._ladders:
            sides = self._sides(ladder)
            queued = self.store.queued(ladder.id)
            if isinstance(sides, Unplayable):
                done.waiting[ladder.id] = f"ladder {ladder.id}: {sides}"
            else:
                while queued == 0 or queued + ladder.players <= self.queue:
                    bots = self.store.ladder_bots(ladder.id)
                    candidates = [candidate(b, here) for b in bots]
                    seats = seating(sides, candidates, self.rng)
                    if seats is None:
                        if not queued:  # a ladder that waits for bots, not one at play
                            done.waiting[ladder.id] = _why_not(ladder, bots, here, there)
                        break
                    try:
                        ids = self.store.schedule_set(ladder.id, seats, free_only=True)
                    except Busy:  # another process seated one of them meanwhile
                        break
                    done.scheduled.append(ids)
                    queued += len(ids)
            done.queued += queued
        return done

    def keep_house(self, done: Round) -> None:
        """Void the matches of dead workers and silent claims, drop the connections of
        gone processes, void the queued matches of bots away past the grace (into
        ``done``), rate the sets left unrated, and read the ladders and where the
        dial-in bots are. A round's few transactions more: a busy arena (a round
        after every match) does it every ``housekeeping`` seconds; every limit it
        enforces is seconds long anyway."""
        done.dead = self.void_dead()
        done.voided = done.dead + self.store.void_stale(self.stale_after)
        for process in self.store.connection_processes():
            if process_gone(process) is not None:
                self.store.drop_process(process)
        done.away = self.store.void_away(self.grace)
        # A set whose last matches two processes ended at once (``rate_closed_sets``);
        # the minute back covers the clocks of other processes on the database.
        swept, self._swept_at = self._swept_at, utcnow()
        done.rated = self.store.rate_closed_sets(None if swept is None else swept - SKEW)
        self._where = self.store.connected_bots()
        self._ladders = self.store.ladders()

    def void_dead(self) -> list[str]:
        """Void at once the matches held by workers whose process is gone (a run
        killed outright: ``liveness``), saying so: their ids."""
        voided: list[str] = []
        for worker in self.store.claimants():
            why = gone(worker)
            if why is not None:
                reason = f"stale claim: {worker} crashed while playing it ({why})"
                voided += self.store.void_claims(worker, reason)
        return voided

    def _sides(self, ladder: LadderInfo) -> list[list[int]] | Unplayable:
        if ladder.id not in self._tables:
            try:
                self._tables[ladder.id] = ladder_sides(ladder)
            except Unplayable as e:
                self._tables[ladder.id] = e
        return self._tables[ladder.id]


def _why_not(
    ladder: LadderInfo,
    bots: list[LadderBot],
    connected: Connected = nobody,
    elsewhere: Connected = nobody,
) -> str:
    """Why no set could be seated: how many bots are free, paused, busy, away (dial-in
    bots not connected, or connected to another arena process: ``elsewhere``)."""
    paused = sum(b.paused_reason is not None for b in bots)
    away = [b for b in bots if not reachable(b, connected) and b.paused_reason is None]
    there = sum(b.kind == DIAL_IN and elsewhere(b.name) for b in away)
    busy = sum(b.busy and reachable(b, connected) and b.paused_reason is None for b in bots)
    free = len(bots) - paused - len(away) - busy
    parts = [f"{free} free"]
    parts += [f"{busy} in a match"] if busy else []
    parts += [f"{paused} paused"] if paused else []
    parts += [f"{len(away) - there} dial-in not connected"] if len(away) > there else []
    parts += [f"{there} dial-in at another arena process"] if there else []
    return (
        f"ladder {ladder.id} ({ladder.game} {ladder.players}p): no table of {ladder.players} "
        f"bots of different owners (opponents) from {len(bots)} bots: {', '.join(parts)}"
    )
