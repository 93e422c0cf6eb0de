"""The ``kill -9`` drill: crash safety shown, not argued (issue 34, item 4).

``drill`` starts ``mazzo arena run`` as a process of its own on a database, SIGKILLs it
at random moments (seeded), restarts it each time, then lets a last run stop cleanly,
and ``audit`` checks what crash safety promises (docs/arena.md):

- **none lost**: every match finished in the database right after a kill (the process
  dead, nothing in flight) is finished at the end, with the same record; and every
  match a run printed as finished is finished;
- **none counted twice**: each finished match has one rating update per seat, and no
  other match has any; each bot's games are the finished matches it sat in, its
  faults the sum of its updates' faults;
- **none dropped silently**: no match is left ``playing`` after the clean stop, every
  voided match has its reason, and each match a killed run left in play is voided
  saying its worker crashed;
- **the ladders go on**: the last run finishes the matches it was asked for;
- every finished record verifies (``referee.verify``, with the deal commitments the
  arena stored before each first move).

``tests/arena/test_crash.py`` runs a short drill on SQLite and on PostgreSQL;
``scripts/arena_crash.py`` a longer one, printing the report as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from mazzo.arena.models import (
    FINISHED,
    PLAYING,
    VOIDED,
    Bot,
    Match,
    MatchSeat,
    Rating,
    RatingUpdate,
)
from mazzo.arena.store import Refused, Store
from mazzo.referee.verify import OK, verify

#: The drill's bots: builtin random players (quick), one per owner on each ladder.
OWNERS = ("ada", "bob", "cy", "di")
#: A ladder: game, players, options.
LadderForm = tuple[str, int, dict[str, Any]]


def example_ladders() -> list[LadderForm]:
    """Every registered game's short example form (its declaration's conformance part:
    Maraffa to one point, one hand of Ramino, ...), the drill's ladders by default."""
    from mazzo.games.registry import GAMES

    return [
        (id, form.players, dict(form.options))
        for id, game in GAMES.items()
        for form in [game.conformance().example_form()]
    ]


#: A run prints ``[3/40] finished: MATCH-ID: ...`` for each match it finished.
FINISHED_LINE = re.compile(r"^\[\d+(?:/\d+)?\] finished: (\S+):", re.M)


@dataclass
class Kill:
    """One ``kill -9``: when (seconds after the run started), how many matches were
    finished then, which the killed run left in play, how many it had printed."""

    at: float
    finished: int
    playing: list[str]
    printed: int


@dataclass
class Report:
    kills: list[Kill] = field(default_factory=list)
    finished: int = 0
    voided: int = 0
    #: Matches voided because their worker crashed (those the kills left in play).
    crashed: int = 0
    scheduled: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def enter_bots(store: Store, ladders: Sequence[LadderForm] | None = None) -> None:
    """The drill's ladders (by default ``example_ladders()``) and bots (one per owner
    and ladder), unless entered."""
    for owner in OWNERS:
        try:
            store.add_owner(owner)
        except Refused:
            return  # entered by an earlier drill on this database
    for game, players, options in example_ladders() if ladders is None else ladders:
        ladder = store.add_ladder(game, players, options)
        for owner in OWNERS:
            store.add_bot(owner, f"{owner}-{game}", ladder, "builtin", "builtin:random")


def command(url: str, seed: int, matches: int, workers: int = 2) -> list[str]:
    """``mazzo arena run``, waiting when it has nothing to play, until ``matches``."""
    return [
        sys.executable,
        "-m",
        "mazzo",
        "arena",
        "run",
        "--db",
        url,
        "--workers",
        str(workers),
        "--matches",
        str(matches),
        "--seed",
        str(seed),
        "--wait",
    ]


def _digest(record: object) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def finished_records(store: Store) -> dict[str, str]:
    """The finished matches, by id, with their record's digest."""
    with Session(store.engine) as s:
        rows = s.execute(select(Match.id, Match.record).where(Match.status == FINISHED))
        return {match_id: _digest(record) for match_id, record in rows}


def playing(store: Store) -> list[str]:
    with Session(store.engine) as s:
        return sorted(s.scalars(select(Match.id).where(Match.status == PLAYING)))


def drill(
    url: str,
    kills: int,
    seed: int,
    folder: Path,
    last: int = 4,
    workers: int = 2,
    env: dict[str, str] | None = None,
    ladders: Sequence[LadderForm] | None = None,
) -> Report:
    """Kill ``mazzo arena run`` ``kills`` times (the first at a random moment from its
    start, the others a random moment after it printed its first finished match), then
    let a last run finish ``last`` matches and stop; the audit's report. ``folder``
    keeps each run's output; ``ladders``: ``enter_bots``'s."""
    rng = random.Random(seed)
    began = time.monotonic()
    report = Report()
    snapshots: list[dict[str, str]] = []
    printed: set[str] = set()
    with Store(url) as store:
        enter_bots(store, ladders)
        for run in range(kills + 1):
            out = folder / f"run-{run}.out"
            final = run == kills
            with out.open("w") as sink:
                started = time.monotonic()
                process = subprocess.Popen(
                    command(url, rng.randrange(2**31), last if final else 10_000, workers),
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    env=env,
                )
                try:
                    if final:
                        code = process.wait(timeout=120)
                    else:
                        if run == 0:
                            time.sleep(rng.uniform(0.05, 2.0))
                        else:
                            _wait_for(out, FINISHED_LINE, 20.0)
                            time.sleep(rng.uniform(0.0, 1.0))
                            # during play: a match in the database as being played
                            _until(lambda: bool(playing(store)), 5.0)
                        process.kill()  # SIGKILL
                        code = process.wait()
                finally:
                    if process.poll() is None:
                        process.kill()
                        process.wait()
            text = out.read_text(errors="replace")
            ids = FINISHED_LINE.findall(text)
            printed.update(ids)
            if final:
                if code != 0 or f"{last} matches finished" not in text:
                    report.problems.append(f"the last run ended {code}: {text[-2000:]}")
                continue
            snapshots.append(finished_records(store))
            report.kills.append(
                Kill(
                    round(time.monotonic() - started, 3),
                    len(snapshots[-1]),
                    playing(store),
                    len(ids),
                )
            )
        crashed = {m for kill in report.kills for m in kill.playing}
        report.problems += audit(store, snapshots, printed, crashed)
        with Session(store.engine) as s:
            status = Counter(s.scalars(select(Match.status)))
        report.finished, report.voided = status[FINISHED], status[VOIDED]
        report.scheduled = status["scheduled"]
        report.crashed = len(crashed)
    report.seconds = round(time.monotonic() - began, 2)
    return report


def _wait_for(path: Path, pattern: re.Pattern[str], seconds: float) -> None:
    _until(lambda: bool(pattern.search(path.read_text(errors="replace"))), seconds)


def _until(condition: Callable[[], bool], seconds: float) -> None:
    """Poll ``condition`` until it holds, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not condition():
        time.sleep(0.02)


def audit(
    store: Store,
    snapshots: list[dict[str, str]],
    printed: set[str],
    crashed: set[str],
) -> list[str]:
    """What crash safety promises, checked (module docstring): the problems found."""
    problems: list[str] = []
    with Session(store.engine) as s:
        matches = {m.id: m for m in s.scalars(select(Match))}
        seats = Counter(s.scalars(select(MatchSeat.match_id)))
        updates = list(s.scalars(select(RatingUpdate)))
        bots = {b.id: b for b in s.scalars(select(Bot))}
        sat = Counter(
            bot
            for bot, status in s.execute(
                select(MatchSeat.bot_id, Match.status).join(Match, Match.id == MatchSeat.match_id)
            )
            if status == FINISHED
        )
        ratings = {r.bot_id: r for r in s.scalars(select(Rating))}
    finished = {i: m for i, m in matches.items() if m.status == FINISHED}
    now = {i: _digest(m.record) for i, m in finished.items()}
    for n, before in enumerate(snapshots):
        lost = sorted(set(before) - set(now))
        changed = sorted(i for i in before if i in now and now[i] != before[i])
        if lost:
            problems.append(f"kill {n + 1}: {len(lost)} finished matches lost: {lost[:5]}")
        if changed:
            problems.append(f"kill {n + 1}: records changed after it: {changed[:5]}")
    for n in range(1, len(snapshots)):
        if len(snapshots[n]) < len(snapshots[n - 1]):
            problems.append(f"fewer matches finished at kill {n + 1} than at kill {n}")
    if unrecorded := sorted(printed - set(finished)):
        problems.append(f"printed as finished, not finished: {unrecorded[:5]}")
    per_match = Counter(u.match_id for u in updates)
    for match_id, count in per_match.items():
        if match_id not in finished:
            problems.append(f"rating updates for {match_id}, which is not finished")
        elif count != seats[match_id]:
            problems.append(f"{match_id}: {count} rating updates for {seats[match_id]} seats")
    problems += [f"{i}: finished with no rating update" for i in finished if i not in per_match]
    faults = Counter[int]()
    for u in updates:
        faults[u.bot_id] += u.faults
    for bot_id, bot in bots.items():
        rating = ratings[bot_id]
        if rating.games != sat[bot_id] or rating.faults != faults[bot_id]:
            problems.append(
                f"{bot.name}: {rating.games} games and {rating.faults} faults rated, "
                f"{sat[bot_id]} finished matches and {faults[bot_id]} faults stored"
            )
    for match in matches.values():
        if match.status == PLAYING:
            problems.append(f"{match.id} is left playing (by {match.claimed_by})")
        if match.status == VOIDED and not match.voided_reason:
            problems.append(f"{match.id} is voided with no reason")
    for match_id in sorted(crashed):
        reason = matches[match_id].voided_reason or ""
        if matches[match_id].status != VOIDED or "crashed" not in reason:
            problems.append(
                f"{match_id}, in play at a kill, is {matches[match_id].status} ({reason!r}), "
                "not voided as crashed"
            )
    records = [m.record for m in finished.values() if m.record is not None]
    published = {
        m.id: {"mazzo_commitment": 1, "id": m.id, "deal_commitment": m.deal_commitment}
        for m in finished.values()
    }
    verdict = verify(records, published)
    if verdict.code != OK or verdict.records != len(finished):
        problems.append(f"records that do not verify: {verdict.failures}")
    return problems


def environment() -> dict[str, str]:
    """This process's environment, with the folder ``mazzo`` is imported from first on
    ``PYTHONPATH``: the runs play this code."""
    import mazzo

    source = str(Path(mazzo.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    return env
