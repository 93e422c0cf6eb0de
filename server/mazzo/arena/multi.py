"""Several arena processes on one database (issue 34, item 5): run them, and check
from what they stored and printed that they shared the work without stepping on each
other.

What makes it safe is ``Store.claim`` (the match row ``FOR UPDATE SKIP LOCKED``, its
bots' rows too, and no match whose bot sits at another table); this module shows it:

- ``run_processes`` starts ``mazzo arena run`` ``processes`` times at once on one
  database, each to finish ``matches`` matches, and waits for them;
- ``audit`` checks that every match was played exactly once (the database's finished
  matches are exactly those the processes printed, each printed by one process, by
  the one whose worker the database names, none lost or voided), that no bot sat at
  two tables at the same moment (each bot's matches, from their stored claim and end
  times, one after another) and that the schedulers never seated a bot in two sets
  at once (``Store.schedule_set``'s ``free_only``);
- ``rate`` is the matches finished per second between the first claim and the last
  finish, what ``scripts/arena_scale.py`` compares for one process and for two.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from sqlalchemy import select
from sqlalchemy.orm import Session

from mazzo.arena.crash import FINISHED_LINE, LadderForm, command
from mazzo.arena.models import FINISHED, SCHEDULED, Bot, Match, MatchSeat, utcnow
from mazzo.arena.store import Refused, Store

#: A run's lines for what it did not finish.
_NOT_FINISHED = re.compile(r"^(?:\[\d+(?:/\d+)?\] (?:voided|lost): |voided )")
#: The reason of a match voided as its process stopped (``worker.Worker.play``).
_STOPPED = ": the arena stopped while "


@dataclass(frozen=True)
class Ran:
    """One process's end: its pid, exit code and what it printed."""

    pid: int
    code: int
    out: str
    err: str

    def finished(self) -> list[str]:
        """The matches it printed as finished, by id."""
        return [str(match_id) for match_id in FINISHED_LINE.findall(self.out)]


def enter_house(store: Store, form: LadderForm, bots: int, bot: str = "builtin:random") -> int:
    """The ladder of ``form`` with ``bots`` builtin bots (``bot``: random by default),
    each its own owner's (so any two may meet): its id."""
    game, players, options = form
    ladder = store.add_ladder(game, players, options)
    for k in range(bots):
        try:
            store.add_owner(f"owner{k}")
            store.add_bot(f"owner{k}", f"bot{k}", ladder, "builtin", bot)
        except Refused:
            pass  # entered by an earlier run on this database
    return ladder


def run_processes(
    url: str,
    processes: int,
    matches: int,
    workers: int,
    env: dict[str, str],
    seed: int = 5,
    queue: int | None = None,
    timeout: float = 600.0,
) -> list[Ran]:
    """``processes`` runs of ``mazzo arena run`` at once on ``url``, each until it has
    finished ``matches`` matches with ``workers`` workers (and ``queue``, the matches
    queued per ladder, when given); their ends, in start order."""
    more = ["--queue", str(queue)] if queue is not None else []
    started = [
        subprocess.Popen(
            command(url, seed + k, matches, workers) + more,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(processes)
    ]
    deadline = time.monotonic() + timeout
    ran = []
    for process in started:
        try:
            out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            for other in started:
                other.kill()
            raise
        ran.append(Ran(process.pid, process.returncode, out, err))
    return ran


def audit(store: Store, ran: Sequence[Ran], stopped: bool = False) -> list[str]:
    """What went wrong (module docstring); empty when nothing did. ``stopped``: the
    processes were stopped (SIGTERM) while they played, and the matches they voided
    saying so are no problem."""
    problems = [f"process {r.pid} exited {r.code}: {r.err[-500:]}" for r in ran if r.code != 0]
    problems += [
        f"process {r.pid}: {line}"
        for r in ran
        for line in _lines(r.out, _NOT_FINISHED)
        if not (stopped and _STOPPED in line)
    ]
    printed = Counter(match_id for r in ran for match_id in r.finished())
    problems += [f"{m} printed finished {n} times" for m, n in printed.items() if n > 1]
    with Session(store.engine) as s:
        done = dict(
            s.execute(select(Match.id, Match.claimed_by).where(Match.status == FINISHED)).all()
        )
    if set(done) != set(printed):
        problems.append(
            f"finished in the database and not printed: {sorted(set(done) - set(printed))}; "
            f"printed and not finished: {sorted(set(printed) - set(done))}"
        )
    for r in ran:
        for match_id in r.finished():
            worker = done.get(match_id) or ""
            if f"/{r.pid}/" not in worker:
                problems.append(f"{match_id}, printed by {r.pid}, was finished by {worker!r}")
    return problems + overlaps(store) + set_overlaps(store)


def overlaps(store: Store) -> list[str]:
    """Each time a bot sat at two tables at once, from the matches' stored claim and
    end times (a match still in play ends now)."""
    now = utcnow()
    seated: dict[str, list[tuple[datetime, datetime, str]]] = defaultdict(list)
    with Session(store.engine) as s:
        rows = s.execute(
            select(Bot.name, Match.id, Match.claimed_at, Match.finished_at)
            .join(MatchSeat, MatchSeat.bot_id == Bot.id)
            .join(Match, Match.id == MatchSeat.match_id)
            .where(Match.status != SCHEDULED)
        ).all()
    for bot, match_id, claimed_at, finished_at in rows:
        if claimed_at is not None:
            seated[bot].append((claimed_at, finished_at or now, match_id))
    return [
        f"{bot} sat at {first} and {second} at once" for bot, first, second in _overlapping(seated)
    ]


def set_overlaps(store: Store) -> list[str]:
    """Each time a bot was seated in two duplicate sets at once (one scheduled before
    the other's last match ended): two processes' schedulers each seating it."""
    now = utcnow()
    sets: dict[tuple[str, str], tuple[datetime, datetime]] = {}
    with Session(store.engine) as s:
        rows = s.execute(
            select(Bot.name, Match.set_id, Match.created_at, Match.finished_at)
            .join(MatchSeat, MatchSeat.bot_id == Bot.id)
            .join(Match, Match.id == MatchSeat.match_id)
        ).all()
    for bot, set_id, created_at, finished_at in rows:
        start, end = sets.get((bot, set_id), (created_at, created_at))
        sets[bot, set_id] = (min(start, created_at), max(end, finished_at or now))
    spans: dict[str, list[tuple[datetime, datetime, str]]] = defaultdict(list)
    for (bot, set_id), (start, end) in sets.items():
        spans[bot].append((start, end, set_id))
    return [
        f"{bot} was seated in sets {first} and {second} at once"
        for bot, first, second in _overlapping(spans)
    ]


def rate(store: Store) -> tuple[int, float]:
    """The matches finished, and the seconds from the first claim to the last finish."""
    with Session(store.engine) as s:
        rows = s.execute(
            select(Match.claimed_at, Match.finished_at).where(Match.status == FINISHED)
        ).all()
    if not rows:
        return 0, 0.0
    first = min(claimed for claimed, _ in rows if claimed is not None)
    last = max(finished for _, finished in rows if finished is not None)
    return len(rows), (last - first).total_seconds()


def _overlapping(
    spans: dict[str, list[tuple[datetime, datetime, str]]],
) -> list[tuple[str, str, str]]:
    """(who, the one, the other) for each span of one who that begins before the span
    before it ends (each who's spans taken in order of their starts)."""
    found = []
    for who, held in sorted(spans.items()):
        for (_start, end, first), (start, _end, second) in pairwise(sorted(held)):
            if start < end:
                found.append((who, first, second))
    return found


def _lines(text: str, pattern: re.Pattern[str]) -> list[str]:
    return [line for line in text.splitlines() if pattern.match(line)]
