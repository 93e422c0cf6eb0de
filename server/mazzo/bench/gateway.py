"""``mazzo bench --only gateway``: bots that dial in against bots the referee dials.

One referee process (the referee and its gateway on one event loop, as ``mazzo
tournament --gateway`` runs them) plays ``tables`` concurrent four-player Maraffa
matches, each table's matches one after another, in two kinds of phase:

- ``dial_in``: every seat is ``connect:NAME``; ``4 * tables`` bots hold a
  ``mazzo.v1.Tables/Join`` stream each, each on a TCP connection of its own (as bots
  on other machines would), to the gateway;
- ``grpc``: every seat is ``grpc://127.0.0.1:PORT``; as many ``mazzo.v1.Bot`` servers,
  a port each, which the referee dials (a channel and TCP connection each).

The bots of both kinds live in ``clients`` load processes of their own (the same
processes for both kinds). Every bot plays the first legal move that is not a claim,
so table ``t``'s ``n``-th match of a round, which has the same seed in both kinds, is
the same match move for move in both. Each phase starts with a full garbage
collection (what the last phase's stopped matches left) and warms up (connections
made, tables under way) before its window of ``seconds`` is measured; then its
matches are stopped where they are.

Two modes:

- flat out (``rounds`` rounds, each kind once a round, in the order dial-in, gRPC,
  then gRPC, dial-in, ... so that drift in the machine's load hits both alike): the
  bots answer at once, so the referee process is as busy as it can be;
- ``paced`` (two more rounds, in both orders): each bot thinks a random time,
  uniform between 0 and twice ``think`` seconds, before it answers, as bots do: a
  load the machine carries, at which latency is the transport's, not a queue's. Flat
  out, every table has a decision in flight at all times, so a move's round trip is
  about ``tables`` over the moves per second (Little's law), whatever the transport.

The figures, per kind:

- ``moves_per_cpu_second``: moves applied over the CPU time (user + system, every
  thread: ``getrusage(RUSAGE_SELF)``) of the referee process, which holds the
  referee, its gateway and its gRPC client channels. The load processes' CPU is
  reported apart (``load_processes_cpu_seconds``), not counted.
  ``dial_in_over_grpc_moves_per_cpu_second`` is the ratio of the two kinds' flat-out
  figures, over all rounds: above 1, a move costs the referee less through its
  gateway than through channels to bots that serve. ``round_ratios`` are each
  round's, ``median_round_ratio`` their median: on a shared machine one round's
  ratio can be far off, as other work comes and goes.
- ``delivery_ms``: one way, from the referee's engine handing over a move's request
  (the match loop then asks the bot: through the gateway's queue and stream, or a
  gRPC call) to the bot holding it, read and parsed.
- ``answer_ms``: one way back, from the bot writing its answer to the referee having
  applied the move.
- ``round_trip_ms`` (flat out): from the request handed over to the move applied, as
  the referee's match loop sees it; paced, it would include the thinking.

Each end stamps ``time.monotonic()``, which on Linux is ``CLOCK_MONOTONIC``, one clock
for every process on the machine, so stamps taken in different processes compare.
A decision is matched across processes by a digest of its view's bytes (unique to a
seat, a match and a ply). The digest costs the referee a few microseconds per move in
the windows, both kinds alike. On a machine with fewer cores than processes the
referee and the bots take turns on the cores, and waiting for a core is in every
latency: the report gives the load average at the start (``load_average``).

``python -m mazzo.bench.gateway`` (the referee) and ``python -m
mazzo.bench.gateway_bots`` (the bots) are the bench's own child processes, started by
``gateway()``; they are not commands for people.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mazzo.bench.common import Report
from mazzo.bench.gateway_bots import (
    KINDS,
    START_SECONDS,
    cpu_seconds,
    digest,
    name_of,
    read_line,
)
from mazzo.gateway.server import Gateway, Limits
from mazzo.gateway.tokens import TokenBook
from mazzo.referee import heap
from mazzo.referee.bots import Launch
from mazzo.referee.engine import LocalEngine, LocalPosition
from mazzo.referee.match import Entrant, MatchSpec, Pools, TimeControl, play_match
from mazzo.v1 import bot_pb2

#: Generous, so that a slow moment of a loaded machine is measured, not faulted.
CLOCK = TimeControl(move=30.0, bank=300.0)


# The referee process.


@dataclass
class _Watch:
    """What the referee records while a window is open."""

    #: The phase whose window is open ('dial_in', 'grpc_paced', ...); '' while none is.
    recording: str = ""
    #: Per phase: a decision's digest -> when its request was handed over, and when
    #: its move was applied. Floats in plain dicts: nothing the garbage collector
    #: scans, however many decisions a run stamps.
    asked: dict[str, dict[str, float]] = field(default_factory=dict)
    applied: dict[str, dict[str, float]] = field(default_factory=dict)


class _CountingEngine(LocalEngine):
    """The in-process rules, counting the moves and stamping each in the windows."""

    def __init__(self, watch: _Watch) -> None:
        self.watch = watch
        self.moves = 0
        #: The position's id -> (its phase, its decision's digest).
        self._asked: dict[int, tuple[str, str]] = {}

    async def request(self, position: LocalPosition, seat: int) -> bot_pb2.ActRequest:
        request = await super().request(position, seat)
        phase = self.watch.recording
        if phase:
            key = digest(request.view)
            self.watch.asked.setdefault(phase, {})[key] = time.monotonic()
            self._asked[id(position)] = (phase, key)
        else:
            # A position's id is reused once it is freed: no stamp of a match stopped
            # in an earlier window may be taken for this one's.
            self._asked.pop(id(position), None)
        return request

    def forget(self) -> None:
        """Drop the stamps of moves asked and never applied (their matches stopped)."""
        self._asked.clear()

    async def apply(self, position: LocalPosition, index: int) -> tuple[LocalPosition, bytes]:
        asked = self._asked.pop(id(position), None)
        if asked is not None:
            phase, key = asked
            self.watch.applied.setdefault(phase, {})[key] = time.monotonic()
        self.moves += 1
        return await super().apply(position, index)


class _Stalls:
    """What holds the referee's event loop up: how late a timer of every ``TICK``
    seconds runs (a busy loop, or a process waiting for a core), and the garbage
    collector's pauses."""

    TICK = 0.01

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.pauses: list[float] = []
        #: Pauses of full collections (the oldest generation's, the whole heap).
        self.full: list[float] = []
        self._gc_start = 0.0
        self._ticker: asyncio.Task[None] | None = None

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_start
            self.pauses.append(pause)
            if info["generation"] == 2:
                self.full.append(pause)

    async def _tick(self) -> None:
        while True:
            due = time.perf_counter() + self.TICK
            await asyncio.sleep(self.TICK)
            self.lags.append(max(0.0, time.perf_counter() - due))

    def __enter__(self) -> _Stalls:
        gc.callbacks.append(self._gc)
        self._ticker = asyncio.create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._gc)
        if self._ticker is not None:
            self._ticker.cancel()


def _lineups(tables: int, seat_bot: Sequence[str]) -> list[list[Entrant]]:
    """Table ``t``: bots ``4t .. 4t+3`` in seats 0 to 3 (sides: seats 0 and 2, 1 and 3)."""
    lineups = []
    for t in range(tables):
        bots = [seat_bot[4 * t + s] for s in range(4)]
        lineups.append(
            [Entrant(f"t{t}a", (bots[0], bots[2])), Entrant(f"t{t}b", (bots[1], bots[3]))]
        )
    return lineups


async def _table(
    t: int, round_no: int, tables: int, lineup: list[Entrant], engine: LocalEngine, pools: Pools
) -> None:
    """One table's matches, one after another, until cancelled."""
    n = 0
    while True:
        seed = (round_no * tables + t) * 1000 + n
        spec = MatchSpec(f"r{round_no}t{t}m{n}", "maraffa", seed, players=4)
        await play_match(spec, lineup, engine, pools, CLOCK)
        n += 1


@dataclass
class _Referee:
    """The run's gateway, engine, pools and lineups of each kind."""

    engine: _CountingEngine
    pools: dict[str, Pools]
    lineups: dict[str, list[list[Entrant]]]
    seconds: float
    warm: float
    profiles: dict[str, cProfile.Profile]

    async def phase(self, kind: str, round_no: int, paced: bool) -> Report:
        """Play every table for ``warm`` seconds, then measure a window of ``seconds``."""
        name = f"{kind}_paced" if paced else kind
        lineups = self.lineups[kind]
        # What the last phase left (its stopped matches) is collected before this one
        # starts, so that no phase pays for another's garbage.
        gc.collect()
        tasks = [
            asyncio.create_task(
                _table(t, round_no, len(lineups), lineup, self.engine, self.pools[kind])
            )
            for t, lineup in enumerate(lineups)
        ]
        await asyncio.sleep(self.warm)
        self.engine.forget()
        moves, cpu, wall = self.engine.moves, cpu_seconds(), time.perf_counter()
        self.engine.watch.recording = name
        profile = self.profiles.get(name)
        if profile is not None:
            profile.enable()
        with _Stalls() as stalls:
            await asyncio.sleep(self.seconds)
        if profile is not None:
            profile.disable()
        self.engine.watch.recording = ""
        moves = self.engine.moves - moves
        cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [r for r in results if not isinstance(r, asyncio.CancelledError)]
        if failed:
            raise RuntimeError(f"{name}: a table stopped: {failed[0]!r}")
        started = sum(self.pools[kind].started().values())
        return {
            "phase": name,
            "round": round_no,
            "moves": moves,
            "cpu": cpu,
            "seconds": wall,
            "bots_started": started,
            "loop_lag": stalls.lags,
            "gc_pauses": stalls.pauses,
            "full_gc_pauses": stalls.full,
        }


async def _referee(args: argparse.Namespace) -> None:
    names = [name_of(i) for i in range(4 * args.tables)]
    limits = Limits(hello_seconds=START_SECONDS, rate=1 << 30, grace=30.0)
    gateway = Gateway(TokenBook.load(Path(args.tokens)), limits, forms=[("maraffa", 4)])
    for name in names:
        gateway.seat(name)
    port = await gateway.start("127.0.0.1", 0)
    print(json.dumps({"gateway": f"127.0.0.1:{port}"}), flush=True)
    ports = [int(p) for p in (await read_line(sys.stdin)).split()]  # the bots' servers'
    await gateway.wait_for(names, START_SECONDS)
    heap.settle()  # as await_dialed_in does in mazzo tournament --gateway
    seat_bots = {
        "dial_in": [f"connect:{name}" for name in names],
        "grpc": [f"grpc://127.0.0.1:{p}" for p in ports],
    }
    profiles = {}
    if args.profile:
        # CPU time, not wall time: on a shared machine a wait for a core is no cost of ours.
        windows = [*KINDS, *(f"{kind}_paced" for kind in KINDS)]
        profiles = {name: cProfile.Profile(time.process_time) for name in windows}
    referee = _Referee(
        _CountingEngine(_Watch()),
        {kind: Pools(Launch(gateway=gateway)) for kind in KINDS},
        {kind: _lineups(args.tables, seat_bots[kind]) for kind in KINDS},
        args.seconds,
        args.warm,
        profiles,
    )
    phases: list[Report] = []
    try:
        for round_no in range(args.rounds):
            for kind in KINDS if round_no % 2 == 0 else KINDS[::-1]:
                phases.append(await referee.phase(kind, round_no, paced=False))
        if args.think > 0:
            print(json.dumps({"think": args.think}), flush=True)
            await read_line(sys.stdin)  # every bot thinks now
            # Two rounds, in both orders, as flat out.
            for i, kind in enumerate([*KINDS, *KINDS[::-1]]):
                phases.append(await referee.phase(kind, args.rounds + i, paced=True))
    finally:
        for pool in referee.pools.values():
            await pool.close()
        await gateway.stop()
    for name, profile in profiles.items():
        profile.dump_stats(f"{args.profile}.{name}.prof")
    watch = referee.engine.watch
    out = {"phases": phases, "asked": watch.asked, "applied": watch.applied}
    Path(args.out).write_text(json.dumps(out))
    print(json.dumps({"done": True}), flush=True)


# The bench: starts the children, relays between them, puts the figures together.


class _Child:
    """A child process of the bench, speaking JSON lines on stdout."""

    def __init__(self, module: str, args: Sequence[str], folder: Path, label: str) -> None:
        self.label = label
        self.err_path = folder / f"{label}.stderr"
        self.err = self.err_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(10)
            tail = self.err_path.read_text()[-2000:]
            raise RuntimeError(f"{self.label} exited ({self.proc.returncode}): {tail}")
        found: dict[str, Any] = json.loads(line)
        return found

    def tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()


def _percentiles(seconds: Sequence[float]) -> Report:
    """How many, p50, p99 and the largest, in milliseconds."""
    if not seconds:
        return {"count": 0}
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)

    return {"count": len(ordered), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)}


def _figures(
    phases: list[Report],
    sent: dict[str, list[float]],
    received: dict[str, list[float]],
    round_trip: bool,
) -> Report:
    """A kind's figures over its phases' windows; ``sent``: the referee's stamps,
    ``received``: the bots' (each by the decision's digest)."""
    moves = sum(p["moves"] for p in phases)
    cpu = sum(p["cpu"] for p in phases)
    wall = sum(p["seconds"] for p in phases)
    both = [(s, received[key]) for key, s in sent.items() if key in received]
    figures: Report = {
        "moves": moves,
        "referee_cpu_seconds": round(cpu, 3),
        "seconds": round(wall, 3),
        "moves_per_second": round(moves / wall),
        "moves_per_cpu_second": round(moves / cpu) if cpu else None,
        "referee_cpu_us_per_move": round(cpu / max(moves, 1) * 1e6, 1),
        "bots_started": max(p["bots_started"] for p in phases),
        "referee_loop_lag_ms": _percentiles([x for p in phases for x in p["loop_lag"]]),
        "referee_gc_pause_ms": _percentiles([x for p in phases for x in p["gc_pauses"]]),
        "referee_full_gc_pause_ms": _percentiles([x for p in phases for x in p["full_gc_pauses"]]),
        "delivery_ms": _percentiles([r[0] - s[0] for s, r in both]),
        "answer_ms": _percentiles([s[1] - r[1] for s, r in both]),
    }
    if round_trip:
        figures["round_trip_ms"] = _percentiles([s[1] - s[0] for s, _ in both])
    return figures


def gateway(
    seconds: float,
    tables: int = 250,
    clients: int = 2,
    rounds: int = 4,
    think: float = 0.5,
    profile: Path | None = None,
) -> Report:
    """``4 * tables`` bots on ``tables`` Maraffa tables, dialing in and dialed, in one
    run (the module's docstring says what each figure is). ``seconds``: each phase's
    window; ``think``: the paced phases' mean time a bot thinks (0: no paced phases);
    ``profile``: cProfile the referee in each phase's window, to ``PROFILE.PHASE.prof``."""
    if tables < 1:
        raise ValueError(f"the gateway bench needs a table at least, not {tables}")
    bots = 4 * tables
    clients = max(1, min(clients, bots))
    warm = min(max(seconds / 2, 0.2), 3.0)
    load_average = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="mazzo-bench-gateway-") as temp:
        folder = Path(temp)
        book = TokenBook()
        tokens = {name_of(i): book.new(name_of(i)) for i in range(bots)}
        book.save(folder / "tokens.json")
        secret = folder / "bot-tokens.json"
        fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(tokens, out)
        children: list[_Child] = []
        try:
            cut = [bots * i // clients for i in range(clients + 1)]
            loads = []
            for i in range(clients):
                spec = ["--tokens", str(secret), "--first", str(cut[i])]
                spec += ["--count", str(cut[i + 1] - cut[i]), "--out", str(folder / f"b{i}.json")]
                loads.append(_Child("mazzo.bench.gateway_bots", spec, folder, f"bots{i}"))
                children.append(loads[-1])
            spec = ["--tokens", str(folder / "tokens.json"), "--tables", str(tables)]
            spec += ["--seconds", str(seconds), "--warm", str(warm), "--rounds", str(rounds)]
            spec += ["--think", str(think), "--out", str(folder / "referee.json")]
            if profile is not None:
                spec += ["--profile", str(profile)]
            # All start at once: the referee's gateway is up before the bots dial.
            referee = _Child("mazzo.bench.gateway", spec, folder, "referee")
            children.append(referee)
            ports = [p for load in loads for p in load.read()["ports"]]
            target = referee.read()["gateway"]
            referee.tell(" ".join(map(str, ports)))
            for load in loads:
                load.tell(target)
            for load in loads:
                load.read()  # all its bots joined
            while "done" not in (said := referee.read()):
                for load in loads:  # the paced phases begin: the bots think from now on
                    load.tell(str(said["think"]))
                    load.read()
                referee.tell("go")
            referee.proc.wait(30)
            answers = dict.fromkeys(KINDS, 0)
            load_cpu = 0.0
            received: dict[str, dict[str, list[float]]] = {kind: {} for kind in KINDS}
            for i, load in enumerate(loads):
                load.tell("figures")
                said = load.read()
                load_cpu += said["cpu"]
                for kind in KINDS:
                    answers[kind] += said["answers"][kind]
                for kind, key, got, answered in json.loads((folder / f"b{i}.json").read_text()):
                    received[kind][key] = [got, answered]
            result = json.loads((folder / "referee.json").read_text())
        finally:
            for child in children:
                child.stop()
    report: Report = {
        "tables": tables,
        "bots": bots,
        "client_processes": clients,
        "rounds": rounds,
        "seconds_per_window": seconds,
        "warm_up_seconds": warm,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in load_average],
    }
    phases = result["phases"]

    def sent(phase: str) -> dict[str, list[float]]:
        """The phase's decisions applied: digest -> [asked, applied]."""
        asked, applied = result["asked"].get(phase, {}), result["applied"].get(phase, {})
        return {key: [t, applied[key]] for key, t in asked.items() if key in applied}

    for kind in KINDS:
        flat = [p for p in phases if p["phase"] == kind]
        report[kind] = {"answers_by_bots_in_the_run": answers[kind]}
        if flat:
            report[kind].update(_figures(flat, sent(kind), received[kind], round_trip=True))
        paced = [p for p in phases if p["phase"] == f"{kind}_paced"]
        if paced:
            report[kind]["paced"] = {
                "think_mean_ms": round(think * 1000),
                **_figures(paced, sent(f"{kind}_paced"), received[kind], round_trip=False),
            }
    ratios = []
    for round_no in range(rounds):
        rate = {
            p["phase"]: p["moves"] / max(p["cpu"], 1e-9) for p in phases if p["round"] == round_no
        }
        ratios.append(round(rate["dial_in"] / rate["grpc"], 3))
    dial, served = (report[kind].get("moves_per_cpu_second") for kind in KINDS)
    report["dial_in_over_grpc_moves_per_cpu_second"] = (
        round(dial / served, 3) if dial and served else None
    )
    report["round_ratios"] = ratios
    report["median_round_ratio"] = round(statistics.median(ratios), 3) if ratios else None
    report["load_processes_cpu_seconds"] = round(load_cpu, 3)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """The referee's process (``gateway()`` starts it; the bots' ports come on stdin)."""
    parser = argparse.ArgumentParser(prog="python -m mazzo.bench.gateway")
    parser.add_argument("--tokens", required=True)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--warm", type=float, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--think", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--profile")
    asyncio.run(_referee(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
