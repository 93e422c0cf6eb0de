"""``mazzo tournament CONFIG``: many matches, in parallel, recorded, resumable, rated.

Each match is written to the records file as it ends; ``--resume`` plays only the
scheduled matches not in the file. Results depend only on the schedule (ids, seeds,
lineups) and the bots, and standings are computed from the records in schedule
order, so a run interrupted and resumed ends with the same table as one that was
not. Ctrl-C stops scheduling, abandons the matches in flight (they were not
recorded, so a resume plays them) and prints the standings so far.

Where the matches run is a backend's business: in this process on one event loop
(``LocalBackend``), or as Ray tasks (``mazzo.referee.ray_backend``). Every match is a
``MatchTask``, plain values that ``play_task`` turns into a record anywhere, so the
schedule shards over any number of machines and the records do not depend on where
each match ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import secrets
import signal
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mazzo.core import fair
from mazzo.gateway.server import Gateway
from mazzo.referee.bots import (
    LOCAL,
    Launch,
    await_dialed_in,
    await_reachable,
    check_startable,
    dial_in_names,
)
from mazzo.referee.engine import Engine, engine_for, players_for
from mazzo.referee.match import (
    Entrant,
    FaultLedger,
    FaultRules,
    MatchSpec,
    OnFault,
    Pools,
    TimeControl,
    options_json,
    play_match,
    table_of,
)
from mazzo.referee.ratings import match_scores, standings
from mazzo.referee.records import (
    Json,
    RecordWriter,
    abandoned,
    commitments_path,
    published_commitment,
    read_commitments,
    read_records,
    repair,
)
from mazzo.referee.schedule import Job, pairings, schedule
from mazzo.referee.sprt import Sprt
from mazzo.referee.watch import Watcher


@dataclass(frozen=True)
class Config:
    name: str
    game: str
    entrants: tuple[Entrant, ...]
    players: int = 0
    seed: int = 1
    format: str = "round-robin"
    challengers: tuple[str, ...] = ()
    deals: int = 10
    duplicate: bool = True
    concurrency: int = 1
    options: Json = field(default_factory=dict)
    clock: TimeControl = field(default_factory=TimeControl)
    #: Bots (by spec) on a clock of their own: a person's (``mazzo tournament`` with a
    #: ``human`` seat), for the seats they decide for; played in this process only.
    own_clocks: dict[str, TimeControl] = field(default_factory=dict)
    faults: FaultRules = field(default_factory=FaultRules)
    records: Path | None = None
    service: str | None = None
    #: Entrant -> the commitment (hex) to its entropy secret, published with the
    #: schedule (docs/fair-deals.md); empty: the seeds are the base seed's alone.
    entropy: dict[str, str] = field(default_factory=dict)
    #: Entrant -> its revealed secret, given when the run starts (``--entropy``).
    reveals: dict[str, bytes] = field(default_factory=dict)
    #: Play through the service's sealed tokens (``--seal``; needs ``service``).
    seal: bool = False
    #: Whether the config gave ``seed``: a sealed run without one draws its base seed.
    seed_given: bool = True

    @staticmethod
    def load(path: Path) -> Config:
        with path.open("rb") as f:
            data = tomllib.load(f)
        return Config.from_dict(data, path.parent)

    @staticmethod
    def from_dict(data: dict[str, Any], base: Path = Path()) -> Config:
        known = {
            "name", "game", "entrants", "players", "seed", "format", "challengers", "deals",
            "duplicate", "concurrency", "options", "time", "faults", "records", "service",
            "entropy", "seal",
        }  # fmt: skip
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        game = data.get("game")
        if not isinstance(game, str):
            raise ValueError('a tournament config needs game = "<game id>"')
        if not data.get("entrants"):
            raise ValueError("a tournament config needs [[entrants]]")
        entrants = []
        for e in data.get("entrants", []):
            bots = e.get("bots") or ([e["bot"]] if "bot" in e else [])
            if "name" not in e:
                raise ValueError("every entrant needs a name")
            entrants.append(Entrant(e["name"], tuple(bots)))
        time_ = data.get("time", {})
        faults = data.get("faults", {})
        options = data.get("options", {})
        settings = [f"{k}={_toml_value(v)}" for k, v in options.items()]
        records = data.get("records")
        entropy = data.get("entropy", {})
        if not isinstance(entropy, dict):
            raise ValueError('entropy is a table: entrant name = "commitment hex"')
        names = {e.name for e in entrants}
        if entropy and set(entropy) != names:
            missing, extra = sorted(names - set(entropy)), sorted(set(entropy) - names)
            raise ValueError(
                "entropy needs a commitment from every entrant and no one else"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; not entrants: {', '.join(extra)}" if extra else "")
            )
        for name, text in entropy.items():
            fair.from_hex(text, f"entropy.{name}", fair.DIGEST_BYTES)
        return Config(
            name=data.get("name", "tournament"),
            game=game,
            entrants=tuple(entrants),
            players=int(data.get("players", 0)),
            seed=int(data.get("seed", 1)),
            seed_given="seed" in data,
            format=data.get("format", "round-robin"),
            challengers=tuple(data.get("challengers", ())),
            deals=int(data.get("deals", 10)),
            duplicate=bool(data.get("duplicate", True)),
            concurrency=max(1, int(data.get("concurrency", 1))),
            options=options_json(game, settings),
            clock=TimeControl(float(time_.get("move", 1.0)), float(time_.get("bank", 10.0))),
            faults=FaultRules(
                OnFault(faults.get("on_fault", "random")), int(faults.get("disqualify_after", 0))
            ),
            records=None if records is None else base / records,
            service=data.get("service"),
            entropy={name: text.lower() for name, text in entropy.items()},
            seal=bool(data.get("seal", False)),
        )

    def with_reveals(self, reveals: dict[str, Any]) -> Config:
        """The config with the entrants' revealed secrets (hex), each checked against
        its commitment: ``ValueError`` naming every entrant whose secret is missing or
        does not open its commitment."""
        if not self.entropy:
            raise ValueError("--entropy: this tournament's config commits to no entropy")
        secrets: dict[str, bytes] = {}
        wrong = []
        for name, committed in self.entropy.items():
            try:
                secret = fair.from_hex(reveals.get(name), f"entropy of {name}")
                ok = fair.entropy_commitment(secret).hex() == committed
            except ValueError:
                ok = False
            if not ok:
                wrong.append(name)
            else:
                secrets[name] = secret
        extra = sorted(set(reveals) - set(self.entropy))
        problems = []
        if wrong:
            problems.append(f"no secret that opens the commitment of {', '.join(wrong)}")
        if extra:
            problems.append(f"not entrants: {', '.join(extra)}")
        if problems:
            raise ValueError("--entropy: " + "; ".join(problems))
        return dataclasses.replace(self, reveals=secrets)

    def sealed_seed(self, records: Path) -> Config:
        """A sealed run whose config gives no seed: its base seed drawn from the system's
        randomness (the default seed 1 would let anybody deal its matches in plain), or
        for ``--resume`` the one its records already hold."""
        if not self.seal or self.seed_given:
            return self
        held = {
            record["tournament"]["base_seed"]
            for record in read_records(records)
            if isinstance(record.get("tournament"), dict) and "base_seed" in record["tournament"]
        }
        if len(held) > 1:
            raise ValueError(f"{records}: its records hold {len(held)} base seeds")
        seed = held.pop() if held else secrets.randbits(64) or 1
        return dataclasses.replace(self, seed=seed, seed_given=True)

    def mixed(self) -> bytes | None:
        """The entrants' entropy mixed (None without entropy); ``ValueError`` until
        every secret is revealed."""
        if not self.entropy:
            return None
        if set(self.reveals) != set(self.entropy):
            raise ValueError(
                "this tournament's seeds need every entrant's entropy: give --entropy FILE"
            )
        return fair.mix(self.reveals)

    def jobs(self) -> list[Job]:
        sides, _ = table_of(self.game, self.players, _options_message(self.options))
        groups = pairings(self.entrants, len(sides), self.format, self.challengers)
        return schedule(
            groups,
            self.deals,
            self.seed,
            self.game,
            self.players,
            self.options,
            self.duplicate,
            self.mixed(),
        )


def _toml_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _options_message(options: Json) -> Any:
    return MatchSpec("", "", 0, 0, options).options_message()


def sprt_scores(records: Sequence[Json], first: str, duplicate: bool) -> list[float]:
    """The SPRT's samples for ``first``: a score per match, or per complete duplicate pair."""
    per_match = {}
    for record in records:
        names = [s["entrant"] for s in record["sides"]]
        per_match[record["id"]] = (record, match_scores(record)[names.index(first)])
    if not duplicate:
        return [score for _, score in per_match.values()]
    groups: dict[tuple[int, int], list[float]] = {}
    sizes: dict[tuple[int, int], int] = {}
    for record, score in per_match.values():
        tag = record["tournament"]
        key = (tag["pairing"], tag["deal"])
        groups.setdefault(key, []).append(score)
        sizes[key] = len(record["sides"])
    return [sum(s) / len(s) for k, s in groups.items() if len(s) == sizes[k]]


class Progress:
    """A progress bar with ETA on a terminal; elsewhere a line every tenth of the run."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.total, self.done = total, done
        self._bar: Any = None
        self._task: Any = None
        self._next_line = done + max(1, total // 10)
        self._quiet = not enabled
        if enabled and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self._bar = Bar(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self._bar.start()
            self._task = self._bar.add_task("matches", total=total, completed=done)

    def advance(self, note: str = "") -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=note or "matches")
        elif not self._quiet and (self.done >= self._next_line or self.done == self.total):
            print(f"{self.done}/{self.total} matches {note}", file=sys.stderr, flush=True)
            self._next_line = self.done + max(1, self.total // 10)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def tournament_tag(config: Config, job: Job) -> Json:
    """The record's ``tournament`` field: where the match sits in the schedule, and
    what its seed was drawn from (the base seed, and the entrants' entropy)."""
    tag: Json = {
        "name": config.name,
        "pairing": job.pairing,
        "deal": job.deal,
        "orientation": job.orientation,
        "duplicate": config.duplicate,
        "base_seed": config.seed,
    }
    if config.entropy:
        tag["entropy"] = [
            {"entrant": name, "commitment": config.entropy[name], "secret": secret.hex()}
            for name, secret in sorted(config.reveals.items())
        ]
    return tag


@dataclass(frozen=True)
class MatchTask:
    """One scheduled match as plain values: what a worker anywhere needs to play it.

    ``prior_faults`` are the faults per entrant recorded before the match was sent,
    which is all a remote worker knows of the run's ``disqualify_after`` ledger."""

    job: Job
    tag: Json
    clock: TimeControl
    faults: FaultRules
    prior_faults: dict[str, int] = field(default_factory=dict)
    service: str | None = None
    #: Folder for the bots' stderr and the exec: bots' working folder, as seen by the
    #: referee; a worker that does not have them uses none and its own.
    logs: str | None = None
    cwd: str | None = None
    #: The CA file checking ``grpcs://`` bots and service, as seen by the referee.
    ca: str | None = None
    seal: bool = False


async def play_task(task: MatchTask) -> tuple[Json, dict[str, int]]:
    """Play one match with its own engine and bots: the record, and the bots started.
    A pure function of the task for deterministic bots, so it may run (or be retried)
    on any worker."""
    cwd = Path(task.cwd) if task.cwd and os.path.isdir(task.cwd) else None
    logs = Path(task.logs) if task.logs and os.path.isdir(task.logs) else None
    ca = Path(task.ca) if task.ca else None
    engine = engine_for(task.service or None, ca, task.seal)
    pools = Pools(Launch(cwd, ca), logs)
    ledger = FaultLedger(task.faults.disqualify_after, dict(task.prior_faults))
    try:
        job = task.job
        record = await play_match(
            job.spec, job.lineup, engine, pools, task.clock, task.faults, ledger
        )
    finally:
        await pools.close()
        await engine.close()
    record["tournament"] = dict(task.tag)
    return record, pools.started()


class Backend(Protocol):
    """Where a run's matches are played. ``play`` returns the match's record (with its
    ``tournament`` tag) and counts its faults in the run's ledger."""

    name: str

    async def start(self, config: Config) -> None: ...

    async def play(self, job: Job, ledger: FaultLedger) -> Json: ...

    def started(self) -> dict[str, int]: ...

    async def close(self) -> None: ...


class LocalBackend:
    """Matches on this process's event loop; bots are kept running across matches and
    the fault ledger is shared live, so a disqualification takes effect at once."""

    name = "local"

    def __init__(
        self, launch: Launch = LOCAL, logs: Path | None = None, watcher: Watcher | None = None
    ) -> None:
        self._logs = logs
        self._watcher = watcher
        #: The service's CA too, where the engine is remote (``engine_for``).
        self._ca = launch.ca
        self._config: Config | None = None
        self._engine: Engine | None = None
        self._pools = Pools(launch, logs)
        #: Given each match's header before its first move (``run_tournament``
        #: publishes its deal commitment with it).
        self.on_deal: Callable[[Json], None] | None = None
        #: Given each match's record (with its tag) before its dial-in bots are told it
        #: ended (``run_tournament`` writes it there: no bot hears of a record that an
        #: interruption could still lose).
        self.on_record: Callable[[Json], None] | None = None

    async def start(self, config: Config) -> None:
        self._config = config
        self._engine = engine_for(config.service or None, self._ca, config.seal)

    async def play(self, job: Job, ledger: FaultLedger) -> Json:
        config, engine = self._config, self._engine
        assert config is not None and engine is not None, "start() the backend first"
        tag = tournament_tag(config, job)

        async def store(record: Json) -> None:
            record["tournament"] = tag
            await self.keep(record)

        record = await play_match(
            job.spec,
            job.lineup,
            engine,
            self._pools,
            config.clock,
            config.faults,
            ledger,
            on_deal=self.on_deal,
            watcher=self._watcher,
            on_record=store,
            own_clocks=config.own_clocks,
        )
        record["tournament"] = tag
        return record

    async def keep(self, record: Json) -> None:
        """Keep a match's record as it ends (``on_record``), before its bots are told."""
        if self.on_record is not None:
            self.on_record(record)

    def started(self) -> dict[str, int]:
        return self._pools.started()

    async def close(self) -> None:
        await self._pools.close()
        if self._engine is not None:
            await self._engine.close()


#: Ctrl-C and a service manager's stop both end a run cleanly: bots closed, records kept.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass
class Outcome:
    summary: Json
    records: list[Json]
    interrupted: bool = False
    sprt: str | None = None


@dataclass
class _Run:
    """What a run's workers share: the records so far, the fault ledger, the SPRT's
    decision, the matches published and not yet recorded, and the event that stops
    them all (Ctrl-C, a decided SPRT, ``stop_after``)."""

    config: Config
    names: list[str]
    sprt: Sprt | None
    ledger: FaultLedger
    recorded: list[Json]
    on_record: Callable[[Json], None] | None = None
    stop_after: int | None = None
    decision: str | None = field(init=False)
    #: Matches recorded by this run.
    new: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    #: Published in this run, no record yet.
    in_play: set[str] = field(default_factory=set)
    #: Written as their matches ended (``write``), not yet counted (``_recorded``).
    written: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.decision = self.decide()

    def decide(self) -> Any:
        return _decide(self.sprt, self.recorded, self.names, self.config.duplicate)

    async def worker(
        self, pending: Iterator[Job], backend: Backend, writer: RecordWriter, bar: Progress
    ) -> None:
        """Play the pending matches one after another until none is left or the run
        stops."""
        while not self.stop.is_set():
            job = next(pending, None)
            if job is None:
                return
            record = await backend.play(job, self.ledger)
            self._recorded(record, writer, bar)

    def write(self, record: Json, writer: RecordWriter) -> None:
        """Write a record as its match ends, before its bots are told (``LocalBackend``'s
        ``on_record``); ``_recorded`` then counts it without writing it again."""
        writer.write(record)
        self.written.add(record["id"])
        self.in_play.discard(record["id"])  # stopped before it is counted: not abandoned

    def _recorded(self, record: Json, writer: RecordWriter, bar: Progress) -> None:
        """Write a finished match's record (unless written as it ended), and stop the
        run if that decides it."""
        if record["id"] in self.written:
            self.written.discard(record["id"])
        else:
            writer.write(record)
        self.in_play.discard(record["id"])
        self.recorded.append(record)
        self.new += 1
        if self.on_record is not None:
            self.on_record(record)
        bar.advance(_leader(self.recorded, self.names))
        self.decision = self.decide()
        if self.decision or (self.stop_after is not None and self.new >= self.stop_after):
            self.stop.set()


async def run_tournament(
    config: Config,
    records_path: Path,
    resume: bool = False,
    sprt: Sprt | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    logs: Path | None = None,
    on_record: Callable[[Json], None] | None = None,
    backend: Backend | None = None,
    ca: Path | None = None,
    watcher: Watcher | None = None,
    gateway: Gateway | None = None,
    dial_in_wait: float = 60.0,
) -> Outcome:
    """Play the scheduled matches not yet recorded, ``config.concurrency`` at a time, on
    ``backend`` (default: this process); ``stop_after`` (for tests) stops like a Ctrl-C
    once that many new matches are recorded. ``watcher`` watches the matches played in
    this process (the live view; not those of another backend). ``gateway`` seats the
    ``connect:`` bots (this process only), each waited for at most ``dial_in_wait``."""
    jobs = config.jobs()
    by_id = {job.spec.id: job for job in jobs}
    existing = read_records(records_path)
    _check_resumable(records_path, existing, by_id, config.game, resume)
    specs = [bot for entrant in config.entrants for bot in entrant.bots]
    if backend is None:  # Ray's workers start the bots on their own machines
        check_startable(specs)
        await await_reachable(specs, ca)
        if gateway is not None:
            gateway.forms.add((config.game, players_for(config.game, config.players)))
        await await_dialed_in(specs, gateway, dial_in_wait)
    elif dial_in_names(specs):
        raise ValueError("connect: seats are played in this process: not with --backend ray")
    repair(records_path)
    done = {r["id"] for r in existing}
    names = [e.name for e in config.entrants]
    if sprt is not None and len(names) != 2:
        raise ValueError("--sprt is for a run of two entrants")
    ledger = _ledger_of(config.faults, existing)
    run = _Run(config, names, sprt, ledger, list(existing), on_record, stop_after)
    pending = iter([] if run.decision else [j for j in jobs if j.spec.id not in done])
    bar = Progress(len(jobs), len(done), progress)
    launch = Launch(ca=ca, gateway=gateway)
    backend = backend if backend is not None else LocalBackend(launch, logs, watcher)
    # Ray's workers play their matches elsewhere: their commitments are in the records only.
    published: RecordWriter | None = None
    if isinstance(backend, LocalBackend):
        published = _publish_deals(backend, config, by_id, records_path, done, run.in_play)
    loop = asyncio.get_running_loop()
    _add_stop_signals(loop, run.stop)
    writer = RecordWriter(records_path)
    if isinstance(backend, LocalBackend):
        backend.on_record = lambda record: run.write(record, writer)
    started = time.perf_counter()
    try:
        await backend.start(config)
        workers = [
            asyncio.create_task(run.worker(pending, backend, writer, bar))
            for _ in range(config.concurrency)
        ]
        await _until_done_or_stopped(workers, run.stop)
    finally:
        _remove_stop_signals(loop)
        writer.close()
        if published is not None:
            _abandon_in_play(published, run.in_play)
        bar.close()
        await backend.close()
    return _outcome(run, jobs, backend, started)


def _check_resumable(
    records_path: Path,
    existing: Sequence[Json],
    by_id: dict[str, Job],
    game: str,
    resume: bool,
) -> None:
    """A file with records is only continued when asked, and only with its schedule's."""
    if existing and not resume:
        raise ValueError(f"{records_path} has records: --resume to continue, or another file")
    for record in existing:
        job = by_id.get(record["id"])
        if job is None or job.spec.seed != record["seed"] or record["game"] != game:
            raise ValueError(f"{records_path}: match {record['id']} is not of this schedule")


def _ledger_of(rules: FaultRules, existing: Sequence[Json]) -> FaultLedger:
    """The run's fault ledger, counting the faults of the matches already recorded."""
    ledger = FaultLedger(rules.disqualify_after)
    for record in existing:
        for fault in record["faults"]:
            ledger.add(fault["entrant"])
    return ledger


def _publish_deals(
    backend: LocalBackend,
    config: Config,
    by_id: dict[str, Job],
    records_path: Path,
    recorded: set[str],
    in_play: set[str],
) -> RecordWriter:
    """Have ``backend`` publish each match's deal commitment (written and flushed)
    before its first move, beside the records (docs/fair-deals.md); the commitments
    file, open. Each published match is ``in_play`` until its record is written."""
    out = _publisher(commitments_path(records_path), recorded)

    def publish(header: Json) -> None:
        tag = tournament_tag(config, by_id[header["id"]])
        out.write(published_commitment(header, tag))
        in_play.add(header["id"])

    backend.on_deal = publish
    return out


def _abandon_in_play(published: RecordWriter, in_play: set[str]) -> None:
    """Say the matches in play abandoned (the run stopped), and close the file."""
    for match_id in sorted(in_play):
        published.write(abandoned(match_id))
    published.close()


def _add_stop_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    for signum in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)


def _remove_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
    for signum in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signum)


async def _until_done_or_stopped(workers: list[asyncio.Task[None]], stop: asyncio.Event) -> None:
    """Wait for the workers to finish. On a stop, or a worker's failure, abandon the
    matches in flight (a resume plays them) and raise the failure, if any."""
    stopper = asyncio.create_task(stop.wait())
    try:
        while running := [w for w in workers if not w.done()]:
            await asyncio.wait([*running, stopper], return_when=asyncio.FIRST_COMPLETED)
            failed = [w for w in workers if w.done() and not w.cancelled() and w.exception()]
            if failed or stop.is_set():
                # Ctrl-C, a decided SPRT, stop_after or a bug: abandon what is in flight.
                for w in workers:
                    w.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
                if failed:
                    raise failed[0].exception()  # type: ignore[misc]
                break
    finally:
        stopper.cancel()


def _outcome(run: _Run, jobs: Sequence[Job], backend: Backend, started: float) -> Outcome:
    """The run's standings, in schedule order, with how it went and the SPRT's test."""
    order = {job.spec.id: i for i, job in enumerate(jobs)}
    recorded, names, config = run.recorded, run.names, run.config
    recorded.sort(key=lambda r: order[r["id"]])
    interrupted = len(recorded) < len(jobs) and run.decision is None
    summary = standings(recorded, names)
    summary.update(
        tournament=config.name,
        game=config.game,
        format=config.format,
        duplicate=config.duplicate,
        matches=len(recorded),
        scheduled=len(jobs),
        complete=len(recorded) == len(jobs),
        seconds=round(time.perf_counter() - started, 3),
        bots_started=backend.started(),
        backend=backend.name,
        disqualified=sorted(n for n in names if run.ledger.disqualified(n)),
    )
    if run.sprt is not None:
        summary["sprt"] = _sprt_summary(run.sprt, run)
    return Outcome(summary, recorded, interrupted, run.decision)


def _sprt_summary(sprt: Sprt, run: _Run) -> Json:
    """The sequential test on the run's records: its settings, where it stands, and
    its decision."""
    of = run.names[0]
    samples = sprt_scores(run.recorded, of, run.config.duplicate)
    lower, upper = sprt.bounds
    return {
        "of": of,
        "elo0": sprt.elo0,
        "elo1": sprt.elo1,
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "llr": sprt.llr(samples),
        "bounds": [lower, upper],
        "samples": len(samples),
        "decision": run.decision,
    }


def _publisher(path: Path, recorded: set[str]) -> RecordWriter:
    """The commitments file, opened to append. A match published by an earlier run
    that has no record was in play when that run stopped (a crash writes no note of
    it): said abandoned now, before this run publishes anything."""
    repair(path)
    earlier = read_commitments(path) if path.exists() else {}
    writer = RecordWriter(path)
    for match_id, line in earlier.items():
        if not line.get("abandoned") and match_id not in recorded:
            writer.write(abandoned(match_id))
    return writer


def _decide(sprt: Sprt | None, records: Sequence[Json], names: Sequence[str], dup: bool) -> Any:
    if sprt is None or not records:
        return None
    return sprt.decide(sprt_scores(records, names[0], dup))


def _leader(records: Sequence[Json], names: Sequence[str]) -> str:
    wins = dict.fromkeys(names, 0.0)
    for record in records:
        for side, score in enumerate(match_scores(record)):
            wins[record["sides"][side]["entrant"]] += score
    best = max(wins, key=lambda n: wins[n])
    return f"leader {best} {wins[best]:g}/{len(records)}"


def _elo(value: float) -> str:
    return f"{round(value):+d}" if round(value) else "0"


def render(summary: Json) -> str:
    """The standings as a table for people."""
    from io import StringIO

    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{summary['tournament']}: {summary['matches']}/{summary['scheduled']}")
    for col in ("#", "entrant", "matches", "win rate [95% CI]", "pts/hand [95% CI]"):
        table.add_column(col)
    elo = any("elo" in row for row in summary["standings"])
    if elo:
        table.add_column("Elo [95% CI]")
    table.add_column("OpenSkill mu +- sigma")
    table.add_column("faults")
    for i, row in enumerate(summary["standings"], 1):
        lo, hi = row["win_rate_ci"]
        plo, phi = row["points_per_hand_ci"]
        cells = [
            str(i),
            row["name"],
            str(row["matches"]),
            f"{row['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]",
            f"{row['points_per_hand']:.2f} [{plo:.2f}, {phi:.2f}]",
        ]
        if elo:
            e = row["elo"]
            cells.append(f"{_elo(e['elo'])} [{_elo(e['ci'][0])}, {_elo(e['ci'][1])}]")
        sk = row["openskill"]
        cells.append(f"{sk['mu']:.1f} ± {sk['sigma']:.1f}")
        dq = " DQ" if row["name"] in summary.get("disqualified", []) else ""
        cells.append(f"{row['faults']}{dq}")
        table.add_row(*cells)
    out = StringIO()
    console = Console(file=out, width=140)
    console.print(table)
    for p in summary["pairings"]:
        line = f"{' vs '.join(p['entrants'])}: {p['matches']} matches"
        if "elo_difference" in p:
            d = p["elo_difference"]
            line += f"; Elo of {d['of']} {_elo(d['elo'])} [{_elo(d['ci'][0])}, {_elo(d['ci'][1])}]"
        if "duplicate" in p:
            d = p["duplicate"]
            lo, hi = d["points_difference_ci"]
            line += (
                f"; duplicate, {d['deals']} deals: {d['of']} {d['points_difference']:+.2f} points"
                f" [{lo:+.2f}, {hi:+.2f}] per deal, won every rotation {d['won_every_rotation']},"
                f" split {d['split']}, lost every rotation {d['lost_every_rotation']}"
            )
        console.print(line)
    if "sprt" in summary:
        s = summary["sprt"]
        console.print(
            f"SPRT [{s['elo0']}, {s['elo1']}] for {s['of']}: LLR {s['llr']:.2f} "
            f"({s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}) after {s['samples']} samples: "
            f"{s['decision'] or 'undecided'}"
        )
    return out.getvalue()
