"""The ``kill -9`` drill: crash safety shown, not argued (issue 34, item 4).

``drill`` starts ``mazzo arena run`` as a process of its own on a database, SIGKILLs it
at random moments (seeded), restarts it each time, then lets a last run stop cleanly,
and ``audit`` checks what crash safety promises (docs/arena.md):

- **none lost**: every match finished in the database right after a kill (the process
  dead, nothing in flight) is finished at the end, with the same record; and every
  match a run printed as finished is finished;
- **none counted twice**: each finished match has one rating update per seat, and no
  other match has any; each bot's games are the finished matches it sat in, its
  faults the sum of its updates' faults; every duplicate set over with a finished
  match is rated (``set_ratings``, whose key rates it once at most);
- **none dropped silently**: no match is left ``playing`` after the clean stop, every
  voided match has its reason, and each match a killed run left in play is voided
  saying its worker crashed;
- **the ladders go on**: the last run finishes the matches it was asked for;
- every finished record verifies (``referee.verify``, with the deal commitments the
  arena stored before each first move).

With ``dial_in`` bots the arena is ``mazzo arena serve`` with its gateway on a port
kept across restarts, and each dial-in bot is the Python starter's ``--connect`` mode,
a process of its own through the whole drill: it dials again when the arena dies
(``--retry-for``), and logs each match the gateway told it ended (``--log``: ``finished
MATCH RECORD``). The audit then checks the bots' own account too:

- every match a bot logged as finished is finished in the database with that record
  id, the bot sat in it, and no bot logged one twice (the arena stores a record before
  it tells the bots: ``play_match``'s ``on_record``);
- every bot ran to the end and left when the last run stopped.

With ``minutes`` the drill lasts that long, one kill at a random moment in each of
``kills + 1`` equal slots of it but the last, the last run stopping at the end (a
SIGTERM: matches in play are voided, saying the arena stopped).

``tests/arena/test_crash.py`` runs a short drill on SQLite and on PostgreSQL, and one
with two dial-in bots; ``scripts/arena_crash.py`` a longer one (``make arena-crash``,
``make arena-drill`` for issue 34's 30 minutes), printing the report as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import socket
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
    DIAL_IN,
    FINISHED,
    PLAYING,
    SCHEDULED,
    VOIDED,
    Bot,
    Match,
    MatchSeat,
    Rating,
    RatingUpdate,
    SetRating,
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
    #: Bots in all, and how many of them dial in.
    bots: int = 0
    dial_in: int = 0
    finished: int = 0
    voided: int = 0
    #: Why matches were voided (worker names and ids left out), how many each.
    voided_reasons: dict[str, int] = field(default_factory=dict)
    #: Matches voided because their worker crashed (those the kills left in play).
    crashed: int = 0
    scheduled: int = 0
    #: Finished matches that a kill or the end lost (snapshots, printed, logged).
    lost: int = 0
    #: Matches counted twice: rating updates not one per seat, logged twice by a bot.
    counted_twice: int = 0
    #: Finished records that verify (of ``finished``).
    verified: int = 0
    #: Matches the dial-in bots logged as finished (all checked), and the finished
    #: matches of dial-in bots that no log names (told of while the arena was killed).
    logged: int = 0
    unlogged: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def enter_bots(
    store: Store,
    ladders: Sequence[LadderForm] | None = None,
    bots: int | None = None,
    dial_in: int = 0,
) -> dict[str, str]:
    """The drill's ladders (by default ``example_ladders()``) and bots, unless entered:
    ``bots`` in all spread evenly over the ladders (default: one per owner of
    ``OWNERS`` on each), each bot of an owner of its own on its ladder (any table is
    then possible); ``dial_in`` of them dial in (spread evenly too, the last of each
    ladder), the others are builtin random players. The dial-in bots' tokens, by name
    (none when entered already)."""
    forms = example_ladders() if ladders is None else list(ladders)
    each = _spread(len(OWNERS) * len(forms) if bots is None else bots, len(forms))
    dialing = _spread(dial_in, len(forms))
    owners = [OWNERS[k] if k < len(OWNERS) else f"o{k}" for k in range(max(each, default=0))]
    tokens: dict[str, str] = {}
    for owner in owners:
        try:
            store.add_owner(owner)
        except Refused:
            return tokens  # entered by an earlier drill on this database
    for (game, players, options), count, calling in zip(forms, each, dialing, strict=True):
        if count < players or calling > count:
            raise ValueError(f"{count} bots ({calling} dialing in) for a {players}p ladder")
        ladder = store.add_ladder(game, players, options)
        for k, owner in enumerate(owners[:count]):
            name = f"{owner}-{game}"
            if k >= count - calling:
                tokens[name] = store.add_bot(owner, name, ladder, DIAL_IN, "").token
            else:
                store.add_bot(owner, name, ladder, "builtin", "builtin:random")
    return tokens


def _spread(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` as even as can be, the larger first."""
    return [total // parts + (1 if k < total % parts else 0) for k in range(parts)]


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


def serve_command(
    url: str, seed: int, workers: int = 2, gateway_port: int = 0, grace: float = 10.0
) -> list[str]:
    """``mazzo arena serve`` with its gateway on ``gateway_port`` (0: a free one; the
    drill keeps one port across restarts, so the dial-in bots dial it again) and the
    grace ``grace``, the API on free ports: it prints ``gateway: grpc://HOST:PORT`` once
    it listens, and plays with ``workers`` workers until SIGTERM."""
    return [
        *command(url, seed, 0, workers)[:4],
        "serve",
        *("--db", url, "--port", "0", "--http-port", "0"),
        *("--gateway-port", str(gateway_port), "--workers", str(workers)),
        *("--grace", str(grace), "--seed", str(seed)),
    ]


def dial_in_command(gateway_port: int, token: str, seed: int, log: Path) -> list[str]:
    """The Python starter dialing in with ``token``: dialing again for two minutes when
    the gateway goes away, logging each match it was told ended to ``log``."""
    return [
        sys.executable,
        "-m",
        "mazzo_starter.bot",
        "--connect",
        f"127.0.0.1:{gateway_port}",
        "--token",
        token,
        "--seed",
        str(seed),
        "--retry-for",
        "120",
        "--log",
        str(log),
    ]


def free_port() -> int:
    """A port free now, below the kernel's range for port 0 (``ip_local_port_range``):
    the drill's gateway binds it again after each kill, and between a kill and the
    restart any other process on a shared machine binding port 0 could be given a port
    of that range, and answer the dial-in bots in the arena's place."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.SystemRandom()
    for _ in range(100):
        port = rng.randrange(max(1024, low - 12000), low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use
            return port
    with socket.socket() as s:  # all busy: any free one
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def drill(
    url: str,
    kills: int,
    seed: int,
    folder: Path,
    last: int = 4,
    workers: int = 2,
    env: dict[str, str] | None = None,
    ladders: Sequence[LadderForm] | None = None,
    bots: int | None = None,
    dial_in: int = 0,
    minutes: float | None = None,
    starter: Path | None = None,
) -> Report:
    """Kill the arena ``kills`` times, restarting it each time, then let a last run
    finish at least ``last`` matches and stop; the audit's report. Without ``minutes``
    the first kill comes at a random moment from its start, the others a random moment
    after the run printed its first finished match; with ``minutes``, one at a random
    moment of each of ``kills + 1`` equal slots of that time but the last (module
    docstring). ``folder`` keeps each run's output and the bots' logs; ``ladders``,
    ``bots`` and ``dial_in``: ``enter_bots``'s; ``starter``: the folder the Python
    starter (``mazzo_starter``) is imported from, for the dial-in bots."""
    rng = random.Random(seed)
    began = time.monotonic()
    report = Report()
    snapshots: list[dict[str, str]] = []
    printed: set[str] = set()
    serving = dial_in > 0 or minutes is not None
    gateway = free_port()
    arena_env = dict(os.environ if env is None else env)
    arena_env.setdefault("MAZZO_ARENA_ADMIN_TOKEN", hashlib.sha256(os.urandom(16)).hexdigest())
    slot = None if minutes is None else minutes * 60 / (kills + 1)
    dialers: dict[str, subprocess.Popen[bytes]] = {}
    logs = folder / "bots"
    logs.mkdir(parents=True, exist_ok=True)
    with Store(url) as store:
        tokens = enter_bots(store, ladders, bots, dial_in)
        try:
            for run in range(kills + 1):
                out = folder / f"run-{run}.out"
                final = run == kills
                joined = _joined(logs)
                with out.open("w") as sink:
                    started = time.monotonic()
                    run_seed = rng.randrange(2**31)
                    process = subprocess.Popen(
                        serve_command(url, run_seed, workers, gateway)
                        if serving
                        else command(url, run_seed, last if final else 10_000, workers),
                        stdout=sink,
                        stderr=subprocess.STDOUT,
                        env=arena_env,
                    )
                    if run == 0:
                        dialers = _start_dialers(tokens, gateway, rng, logs, arena_env, starter)
                    try:
                        if final:
                            # every dial-in bot back before the end (else it dials on)
                            back = joined + len(dialers)
                            _until(lambda: _joined(logs) >= back, 60.0)  # noqa: B023
                            # and as many matches logged as finished as there are
                            # dial-in bots, so the audit of their logs checks some
                            told_each = len(dialers)
                            code = _last_run(
                                process,
                                out,
                                last,
                                serving,
                                began,
                                minutes,
                                lambda: _logged_matches(logs) >= told_each,  # noqa: B023
                            )
                        else:
                            if slot is not None:
                                _sleep_until(began + (run + rng.uniform(0.05, 0.95)) * slot)
                            elif run == 0:
                                time.sleep(rng.uniform(0.05, 2.0))
                            else:
                                _wait_for(out, FINISHED_LINE, 20.0)
                                if tokens:  # and a dial-in bot told of one by this run
                                    told = _told(logs)
                                    _until(lambda: _told(logs) > told, 20.0)  # noqa: B023
                                time.sleep(rng.uniform(0.0, 1.0))
                                # during play: a match in the database as being played
                                _until(lambda: bool(playing(store)), 5.0)
                            if process.poll() is not None:  # no kill: it ended
                                report.problems.append(
                                    f"run {run} ended by itself ({process.returncode}) "
                                    "before its kill"
                                )
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
                    report.problems += _last_problems(code, text, len(ids), last, serving)
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
                report.problems += _gone(dialers, logs)
        finally:
            report.problems += _stop_dialers(dialers, logs)
        crashed = {m for kill in report.kills for m in kill.playing}
        logged = {name: _read_log(logs / f"{name}.log") for name in tokens}
        report.problems += audit(store, snapshots, printed, crashed, logged, report)
        with Session(store.engine) as s:
            status = Counter(s.scalars(select(Match.status)))
            reasons = Counter(
                _reason(r)
                for r in s.scalars(select(Match.voided_reason).where(Match.status == VOIDED))
            )
            kinds = Counter(s.scalars(select(Bot.kind)))
        report.finished, report.voided = status[FINISHED], status[VOIDED]
        report.voided_reasons = dict(reasons.most_common())
        report.scheduled = status["scheduled"]
        report.crashed = len(crashed)
        report.bots, report.dial_in = sum(kinds.values()), kinds[DIAL_IN]
    report.seconds = round(time.monotonic() - began, 2)
    return report


def _sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.monotonic()))


def _last_run(
    process: subprocess.Popen[bytes],
    out: Path,
    last: int,
    serving: bool,
    began: float,
    minutes: float | None,
    told: Callable[[], bool],
) -> int:
    """The last run, to its clean end: ``mazzo arena run --matches last`` stops by
    itself; ``serve`` is stopped (SIGTERM) once it printed ``last`` finished matches,
    the dial-in bots were ``told`` enough (on a loaded machine a short drill could
    otherwise end before its bots logged a match, and check nothing) and, with
    ``minutes``, the drill's time is up."""
    if not serving:
        return process.wait(timeout=120)
    if minutes is not None:
        _sleep_until(began + minutes * 60)
    _until(
        lambda: len(FINISHED_LINE.findall(out.read_text(errors="replace"))) >= last and told(),
        120.0,
    )
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=60)


def _last_problems(code: int, text: str, finished: int, last: int, serving: bool) -> list[str]:
    stopped = finished >= last if serving else f"{last} matches finished" in text
    if code == 0 and stopped:
        return []
    return [f"the last run ended {code} with {finished} finished: {text[-2000:]}"]


def _start_dialers(
    tokens: dict[str, str],
    gateway: int,
    rng: random.Random,
    logs: Path,
    env: dict[str, str],
    starter: Path | None,
) -> dict[str, subprocess.Popen[bytes]]:
    """One starter process per dial-in bot, its output beside its log."""
    if starter is not None:
        env = {
            **env,
            "PYTHONPATH": os.pathsep.join(p for p in (str(starter), env.get("PYTHONPATH")) if p),
        }
    dialers = {}
    for name, token in sorted(tokens.items()):
        with (logs / f"{name}.out").open("w") as sink:
            dialers[name] = subprocess.Popen(
                dial_in_command(gateway, token, rng.randrange(2**31), logs / f"{name}.log"),
                stdout=sink,
                stderr=subprocess.STDOUT,
                env=env,
            )
    return dialers


def _gone(dialers: dict[str, subprocess.Popen[bytes]], logs: Path) -> list[str]:
    """The dial-in bots that stopped (they must dial again, not give up), each with the
    end of its output (why it stopped)."""
    return [
        f"dial-in bot {name} exited with {p.returncode} before the end{_said(logs, name)}"
        for name, p in dialers.items()
        if p.poll() is not None
    ]


def _said(logs: Path, name: str, lines: int = 3) -> str:
    """The last ``lines`` of a dial-in bot's output, for a problem's message."""
    try:
        text = (logs / f"{name}.out").read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return f" (its last output: {' | '.join(text[-lines:])})" if text else ""


def _stop_dialers(dialers: dict[str, subprocess.Popen[bytes]], logs: Path) -> list[str]:
    """Wait for the dial-in bots to leave (the last run's clean stop ends their
    streams); those that do not within 30 s are killed, and said."""
    problems = []
    deadline = time.monotonic() + 30
    for name, process in dialers.items():
        try:
            code = process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            problems.append(f"dial-in bot {name} was still running at the end")
            continue
        if code != 0:
            problems.append(f"dial-in bot {name} exited with {code}{_said(logs, name)}")
    return problems


#: A dial-in bot's log: ``finished MATCH RECORD`` (``abandoned MATCH`` lines aside).
LOGGED = re.compile(r"^finished (\S+) (\S+)$", re.M)


def _read_log(path: Path) -> list[tuple[str, str]]:
    """(match id, record id) of each match a bot logged as finished."""
    return LOGGED.findall(path.read_text()) if path.exists() else []


def _joined(logs: Path) -> int:
    """Times the dial-in bots joined the gateway so far, in all (their ``JOINED`` lines)."""
    return sum(out.read_text().count("JOINED ") for out in logs.glob("*.out"))


def _told(logs: Path) -> int:
    """Matches the dial-in bots logged as finished so far, in all."""
    return sum(len(_read_log(log)) for log in logs.glob("*.log"))


def _logged_matches(logs: Path) -> int:
    """Distinct matches the dial-in bots logged as finished so far."""
    return len({match for log in logs.glob("*.log") for match, _ in _read_log(log)})


def _reason(reason: str | None) -> str:
    """A voided match's reason with its worker, ids and times left out (for counting)."""
    text = re.sub(r"\S+/\d+/\S+", "WORKER", reason or "")
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+", "TIME", text)
    return re.sub(r"\(its process .*\)", "(its process is gone)", text)


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
    logged: dict[str, list[tuple[str, str]]] | None = None,
    report: Report | None = None,
) -> list[str]:
    """What crash safety promises, checked (module docstring): the problems found.
    ``logged``: the matches each dial-in bot logged as finished (match id, record id),
    by name; ``report``: given its figures (lost, counted twice, verified, logged)."""
    problems: list[str] = []
    lost: set[str] = set()
    twice: set[str] = set()
    with Session(store.engine) as s:
        matches = {m.id: m for m in s.scalars(select(Match))}
        seats = Counter(s.scalars(select(MatchSeat.match_id)))
        updates = list(s.scalars(select(RatingUpdate)))
        rated = set(s.scalars(select(SetRating.set_id)))
        bots = {b.id: b for b in s.scalars(select(Bot))}
        sat = Counter(
            bot
            for bot, status in s.execute(
                select(MatchSeat.bot_id, Match.status).join(Match, Match.id == MatchSeat.match_id)
            )
            if status == FINISHED
        )
        ratings = {r.bot_id: r for r in s.scalars(select(Rating))}
        seated: dict[str, set[str]] = {}
        for name, match_id in s.execute(
            select(Bot.name, MatchSeat.match_id).join(Bot, Bot.id == MatchSeat.bot_id)
        ):
            seated.setdefault(name, set()).add(match_id)
    finished = {i: m for i, m in matches.items() if m.status == FINISHED}
    now = {i: _digest(m.record) for i, m in finished.items()}
    for n, before in enumerate(snapshots):
        gone = sorted(set(before) - set(now))
        changed = sorted(i for i in before if i in now and now[i] != before[i])
        if gone:
            problems.append(f"kill {n + 1}: {len(gone)} finished matches lost: {gone[:5]}")
            lost.update(gone)
        if changed:
            problems.append(f"kill {n + 1}: records changed after it: {changed[:5]}")
    for n in range(1, len(snapshots)):
        if len(snapshots[n]) < len(snapshots[n - 1]):
            problems.append(f"fewer matches finished at kill {n + 1} than at kill {n}")
    if unrecorded := sorted(printed - set(finished)):
        problems.append(f"printed as finished, not finished: {unrecorded[:5]}")
        lost.update(unrecorded)
    per_match = Counter(u.match_id for u in updates)
    for match_id, count in per_match.items():
        if match_id not in finished:
            problems.append(f"rating updates for {match_id}, which is not finished")
            twice.add(match_id)
        elif count != seats[match_id]:
            problems.append(f"{match_id}: {count} rating updates for {seats[match_id]} seats")
            twice.add(match_id)
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
    by_set: dict[str, set[str]] = {}
    for match in matches.values():
        by_set.setdefault(match.set_id, set()).add(match.status)
    for set_id, statuses in sorted(by_set.items()):
        over = not statuses & {SCHEDULED, PLAYING}
        if over and FINISHED in statuses and set_id not in rated:
            problems.append(f"set {set_id} is over and was never rated")
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
    told, unlogged = _check_logs(logged or {}, finished, seated, problems, lost, twice)
    records = [m.record for m in finished.values() if m.record is not None]
    published = {
        m.id: {"mazzo_commitment": 1, "id": m.id, "deal_commitment": m.deal_commitment}
        for m in finished.values()
    }
    verdict = verify(records, published)
    if verdict.code != OK or verdict.records != len(finished):
        problems.append(f"records that do not verify: {verdict.failures}")
    if report is not None:
        report.lost, report.counted_twice = len(lost), len(twice)
        report.verified = verdict.records - len({i for i, _ in verdict.failures})
        report.logged, report.unlogged = told, unlogged
    return problems


def _check_logs(
    logged: dict[str, list[tuple[str, str]]],
    finished: dict[str, Match],
    seated: dict[str, set[str]],
    problems: list[str],
    lost: set[str],
    twice: set[str],
) -> tuple[int, int]:
    """The bots' own account against the database: every match a bot logged as
    finished is finished, with that record id, and the bot sat in it; no bot logged a
    match twice. Adds to ``problems``, ``lost`` and ``twice``; (matches logged, finished
    matches of these bots their logs do not name)."""
    told: set[str] = set()
    unlogged = 0
    for name, lines in sorted(logged.items()):
        for match_id, times in Counter(m for m, _ in lines).items():
            if times > 1:
                problems.append(f"{name} logged {match_id} as finished {times} times")
                twice.add(match_id)
        for match_id, record_id in lines:
            told.add(match_id)
            if match_id not in finished:
                problems.append(f"{name} logged {match_id} as finished; it is not")
                lost.add(match_id)
            elif record_id != (finished[match_id].record or {}).get("id"):
                problems.append(f"{name} logged {match_id} with record {record_id!r}")
            elif match_id not in seated.get(name, set()):
                problems.append(f"{name} logged {match_id}, where it did not sit")
        mine = {m for m in seated.get(name, set()) if m in finished}
        unlogged += len(mine - {m for m, _ in lines})
    return len(told), unlogged


def environment() -> dict[str, str]:
    """This process's environment, with the folder ``mazzo`` is imported from first on
    ``PYTHONPATH``: the runs play this code."""
    import mazzo

    source = str(Path(mazzo.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    return env
