"""``mazzo bench``: speed figures as JSON, each compared inside one run.

Absolute times depend on the machine; ratios measured side by side in one run do
not (much), so the RPC figures are given against ``grpc.health.v1.Health/Check``
on the same server and channel.

Random Maraffa play picks uniformly among the legal moves except CLAIM (listed
last): a random claim would end the match at once, so "random hands" would mostly
be claims. Random Burraco and Ramino play pick uniformly among all the legal moves (for
Ramino, CLOSE included). Every move still goes through ``apply``, which checks it.

Ramino's closure figures: the worst time of one ``best_closure`` over sampled hands,
every memo cleared before each call; and the agreement of ``best_closure`` with the
spec's own loop (``games.ramino.reference``) on ``--closure-hands`` hands, spread over
the machine's cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mazzo.games.burraco import rules as burraco
from mazzo.games.burraco.options import Options as BurracoOptions
from mazzo.games.burraco.state import Stage as BurracoStage
from mazzo.games.maraffa import events as maraffa_events
from mazzo.games.maraffa import rules as maraffa
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.maraffa.state import Phase

Report = dict[str, Any]
WARM_UP_HANDS = 30


class _Stopwatch:
    """Wall and CPU time since it was made: CPU time is the steadier figure on a
    shared machine."""

    def __init__(self, seconds: float) -> None:
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.deadline = self.start + seconds

    def running(self) -> bool:
        return time.perf_counter() < self.deadline

    def rates(self, unit: str, count: int, moves: int) -> Report:
        """``count`` units (hands, deals) and ``moves`` per wall and per CPU second."""
        elapsed = time.perf_counter() - self.start
        cpu = time.process_time() - self.cpu_start
        return {
            unit: count,
            "moves": moves,
            "seconds": round(elapsed, 3),
            f"{unit}_per_second": round(count / elapsed),
            f"{unit}_per_cpu_second": round(count / cpu),
            "us_per_move": round(elapsed / max(moves, 1) * 1e6, 3),
            "cpu_us_per_move": round(cpu / max(moves, 1) * 1e6, 3),
        }


def maraffa_random_hands(
    players: int, seconds: float, seed: int = 1, options: Options | None = None
) -> Report:
    """Random Maraffa hands per second in-process, every move checked by ``apply``."""
    rnd = random.Random(seed).random
    legal_moves, apply = maraffa.legal_moves, maraffa.apply
    hand_scored = maraffa_events.HandScored
    over = Phase.OVER
    options = options or Options()
    hands = moves = matches = 0
    watch = _Stopwatch(seconds)
    while watch.running():
        state, _ = maraffa.deal(options, players, matches)
        matches += 1
        while True:
            legal = legal_moves(state)
            # Never the final CLAIM, which would end the game at once.
            state, events = apply(state, legal[int(rnd() * (len(legal) - 1))])
            moves += 1
            if len(events) > 3:  # a hand ends (or, with two players, both draw)
                hands += sum(type(e) is hand_scored for e in events)
                if state.phase is over:
                    break
    return {"players": players, **watch.rates("hands", hands, moves)}


def ramino_random_hands(players: int, seconds: float, seed: int = 1) -> Report:
    """Random Ramino hands per second in-process, every move checked by ``apply``. A
    hand runs from the deal to its end (closed, uncontested, void, stock exhausted).
    The rate is also given per second of CPU time, which other processes on the
    machine do not disturb."""
    from mazzo.games.ramino import events as ramino_events
    from mazzo.games.ramino import rules as ramino
    from mazzo.games.ramino.options import Options as RaminoOptions

    rnd = random.Random(seed).random
    legal_moves, apply = ramino.legal_moves, ramino.apply
    hand_ended = ramino_events.HandEnded
    options = RaminoOptions()
    hands = moves = closed = matches = 0
    watch = _Stopwatch(seconds)
    while watch.running():
        state, _ = ramino.deal(options, players, matches)
        matches += 1
        while not state.finished and watch.running():
            legal = legal_moves(state)
            state, events = apply(state, legal[int(rnd() * len(legal))])
            moves += 1
            for e in events:
                if type(e) is hand_ended:
                    hands += 1
                    closed += e.result.closure is not None
    cpu_time = time.process_time() - watch.cpu_start
    return {
        "players": players,
        "closed_hands": closed,
        **watch.rates("hands", hands, moves),
        "cpu_ms_per_hand": round(cpu_time / max(hands, 1) * 1e3, 3),
        "moves_per_hand": round(moves / max(hands, 1)),
    }


def _closure_sample(count: int, seed: int) -> list[tuple[tuple[int, ...], int, bool]]:
    """Hands to value: closure shapes of every type with 0-2 cards changed, and random
    ones (reference.sample_hand), with both jokers settings and both set rules."""
    from mazzo.games.ramino.reference import sample_hand

    rnd = random.Random(seed)
    return [
        (sample_hand(rnd), 1 if rnd.random() < 0.85 else 0, rnd.random() < 0.2)
        for _ in range(count)
    ]


def ramino_closure_check(hands: int, seed: int = 7) -> Report:
    """The time of one closure check (``best_closure`` of ten cards) over sampled hands,
    ``cold``: the memo of whole results is cleared before each call, and every other
    memo of the search lives within one check. Each hand is timed three times and its
    best time kept, so a time slice lost to another process is not taken for the
    check's own cost; ``cpu_worst_us`` is the worst of the same best-of-three in the
    thread's CPU time, which a loaded machine does not inflate."""
    from mazzo.games.ramino import closures

    sample = _closure_sample(hands, seed)
    times, cpu_times = [], []
    for ten, jokers, dup in sample:
        best = best_cpu = float("inf")
        for _ in range(3):
            closures._best_closure.cache_clear()
            c, t = time.thread_time(), time.perf_counter()
            closures.best_closure(ten, jokers, dup)
            best = min(best, time.perf_counter() - t)
            best_cpu = min(best_cpu, time.thread_time() - c)
        times.append(best)
        cpu_times.append(best_cpu)
    times.sort()
    cold = {
        "worst_us": round(times[-1] * 1e6, 1),
        "p99_us": round(times[int(len(times) * 0.99)] * 1e6, 1),
        "median_us": round(times[len(times) // 2] * 1e6, 1),
        "cpu_worst_us": round(max(cpu_times) * 1e6, 1),
    }
    return {"hands": len(sample), "cold": cold}


def _agreement_chunk(args: tuple[int, int]) -> tuple[int, int, dict[int, int], list[str]]:
    from mazzo.core.cards import codes
    from mazzo.games.ramino import reference
    from mazzo.games.ramino.closures import best_closure

    count, seed = args
    agreed = 0
    kinds: dict[int, int] = {}
    wrong = []
    for ten, jokers, dup in _closure_sample(count, seed):
        found = best_closure(ten, jokers, dup)
        expected = reference.best_closure(ten, jokers, dup)
        if (found.multiplier, found.joker, found.stands_for) == expected:
            agreed += 1
        else:
            wrong.append(f"{codes(ten)} jokers={jokers} dup={dup}: {found} != {expected}")
        kinds[expected[0]] = kinds.get(expected[0], 0) + 1
    return count, agreed, kinds, wrong


def ramino_closure_agreement(hands: int, seed: int = 100) -> Report:
    """``best_closure`` against the spec's loop on ``hands`` sampled hands: same
    multiplier, same joker, same code it stands for. One worker process per core; the
    CPU time counts them all (the spec's loop is almost all of it)."""
    from concurrent.futures import ProcessPoolExecutor

    chunk = 500
    jobs = [(min(chunk, hands - i), seed + i) for i in range(0, hands, chunk)]
    start = time.perf_counter()
    total = agreed = 0
    kinds: dict[int, int] = {}
    wrong: list[str] = []
    cpu_before = _cpu_with_children()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for count, ok, seen, bad in pool.map(_agreement_chunk, jobs):
            total += count
            agreed += ok
            wrong.extend(bad)
            for k, n in seen.items():
                kinds[k] = kinds.get(k, 0) + n
    cpu = _cpu_with_children() - cpu_before  # the workers have been reaped: counted
    return {
        "hands": total,
        "agreed": agreed,
        "by_multiplier": dict(sorted(kinds.items())),
        "disagreements": wrong[:10],
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(cpu, 1),
        "cpu_ms_per_hand": round(cpu / max(total, 1) * 1e3, 2),
    }


def _cpu_with_children() -> float:
    """User + system CPU seconds of this process and its reaped children."""
    import resource

    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def burraco_random_hands(players: int, seconds: float, seed: int = 1) -> Report:
    """Random Burraco hands per second in-process, every move checked by ``apply``.

    Each hand is a one-hand match (``hands = 1``), so the deal's shuffle is counted; the
    player picks uniformly among the legal moves. A few hands first fill the engine's
    memo tables (a long-running server has them full), uncounted. The machine may be
    shared, so the figures are given per wall-clock second and per CPU second of this
    process.
    """
    rnd = random.Random(seed).random
    legal_moves, apply = burraco.legal_moves, burraco.apply
    over = BurracoStage.OVER
    options = BurracoOptions(hands=1)
    for warm in range(WARM_UP_HANDS):
        state, _ = burraco.deal(options, players, 2**63 + warm)
        while state.stage is not over:
            legal = legal_moves(state)
            state, _ = apply(state, legal[int(rnd() * len(legal))])
    hands = moves = 0
    watch = _Stopwatch(seconds)
    while watch.running():
        state, _ = burraco.deal(options, players, hands)
        hands += 1
        while state.stage is not over:
            legal = legal_moves(state)
            state, _ = apply(state, legal[int(rnd() * len(legal))])
            moves += 1
    return {"players": players, **watch.rates("hands", hands, moves)}


def burraco_move_times(seconds: float, players: int = 4, seed: int = 2) -> Report:
    """Engine microseconds per call, by move kind (``apply``) and by stage (``legal_moves``),
    from random 4-player hands: the averages, and the slowest average of all."""
    rnd = random.Random(seed)
    clock = time.perf_counter_ns
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    options = BurracoOptions(hands=1)
    deadline = time.perf_counter() + seconds
    hands = 0
    while time.perf_counter() < deadline:
        state, _ = burraco.deal(options, players, 10_000 + hands)
        hands += 1
        while state.stage is not BurracoStage.OVER:
            t0 = clock()
            legal = burraco.legal_moves(state)
            t1 = clock()
            move = legal[rnd.randrange(len(legal))]
            new, _ = burraco.apply(state, move)
            t2 = clock()
            stage = totals["legal_moves " + state.stage.name.lower()]
            stage[0] += t1 - t0
            stage[1] += 1
            kind = totals["apply " + type(move).__name__]
            kind[0] += t2 - t1
            kind[1] += 1
            state = new
    averages = {k: round(ns / n / 1000, 2) for k, (ns, n) in sorted(totals.items())}
    return {
        "hands": hands,
        "us_per_call": averages,
        "calls": {k: n for k, (_, n) in sorted(totals.items())},
        "slowest_average_us": max(averages.values()),
    }


def burraco_largest_legal_list(hands: int = 10_000, seed: int = 3) -> Report:
    """The longest ``LegalMoves`` list seen over random hands (4, 3 and 2 players in turn)."""
    rnd = random.Random(seed).random
    options = BurracoOptions(hands=1)
    largest = {2: 0, 3: 0, 4: 0}
    moves = 0
    start = time.perf_counter()
    for h in range(hands):
        players = (4, 3, 2)[h % 3]
        state, _ = burraco.deal(options, players, 20_000 + h)
        while state.stage is not BurracoStage.OVER:
            legal = burraco.legal_moves(state)
            if len(legal) > largest[players]:
                largest[players] = len(legal)
            state, _ = burraco.apply(state, legal[int(rnd() * len(legal))])
            moves += 1
    return {
        "hands": hands,
        "moves": moves,
        "largest_by_players": {str(p): n for p, n in sorted(largest.items())},
        "largest": max(largest.values()),
        "seconds": round(time.perf_counter() - start, 1),
    }


def maraffa_random_hands_deck39(seconds: float, seed: int = 1) -> Report:
    """Random hands per second of the 39-card form for three, every move checked."""
    options = Options(three_player_form=ThreePlayerForm.DECK39)
    return {"form": "deck39", **maraffa_random_hands(3, seconds, seed, options)}


def trionfo_random_deals(seconds: float, seed: int = 1) -> Report:
    """Random five-player Trionfo deals per second in-process, every move checked by
    ``apply``: a uniform random player, so every contract and thrown-in deals occur."""
    from mazzo.games.maraffa.trionfo import rules as trionfo

    rnd = random.Random(seed).random
    legal_moves, apply = trionfo.legal_moves, trionfo.apply
    options = Options(match_deals=10)
    deals = moves = matches = 0
    watch = _Stopwatch(seconds)
    while watch.running():
        state, _ = trionfo.deal(options, 5, matches)
        matches += 1
        while not state.finished:
            legal = legal_moves(state)
            state, _ = apply(state, legal[int(rnd() * len(legal))])
            moves += 1
        deals += state.table.deal_number
    return {"players": 5, **watch.rates("deals", deals, moves)}


def _sample_state(players: int = 4, plays: int = 14, seed: int = 3) -> tuple[Any, Any]:
    """A mid-hand state (trump declared, some tricks played) and a legal move in it."""
    rnd = random.Random(seed)
    state, _ = maraffa.deal(Options(), players, seed)
    for _ in range(plays + 1):
        legal = maraffa.legal_moves(state)
        state, _ = maraffa.apply(state, legal[rnd.randrange(len(legal) - 1)])
    return state, maraffa.legal_moves(state)[0]


def _per_call(fn: Callable[[], object], seconds: float) -> float:
    """Microseconds per call of ``fn``, over about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            fn()
        n += 100
    return (time.perf_counter() - start) / n * 1e6


def state_codec(seconds: float) -> Report:
    """Microseconds to encode a mid-hand state to bytes, and to decode and validate it."""
    from mazzo.codec import maraffa as codec
    from mazzo.games.maraffa.validate import validate
    from mazzo.v1 import game_pb2

    state, _ = _sample_state()
    seat = maraffa.to_act(state)

    def encode() -> bytes:
        msg = game_pb2.GameState()
        codec.state_to_wire(state, seat, msg)
        return msg.SerializeToString()

    data = encode()

    def decode() -> object:
        msg = game_pb2.GameState.FromString(data)
        decoded = codec.state_from_wire(msg)
        validate(decoded)
        return decoded

    return {
        "state_bytes": len(data),
        "encode_us": round(_per_call(encode, seconds / 2), 2),
        "decode_validate_us": round(_per_call(decode, seconds / 2), 2),
    }


@contextlib.contextmanager
def _server_process(extra: Sequence[str] = ()) -> Iterator[tuple[int, int]]:
    """``mazzo serve`` (with ``extra`` options) in its own process on a free port;
    yields its port and pid."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--no-http", *extra]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "serving gRPC on" not in line:
            raise RuntimeError(f"server did not start: {line!r}")
        yield int(line.rsplit(":", 1)[1]), proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def _process_cpu(pid: int) -> float | None:
    """CPU seconds a process has used (Linux ``/proc``), None where unknown."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _Calls:
    """Calls completed and server CPU spent by one kind of call, over several rounds."""

    def __init__(self, server_pid: int) -> None:
        self.pid = server_pid
        self.calls = 0
        self.seconds = 0.0
        self.server_cpu: float | None = 0.0

    async def measure(self, call: Callable[[], Any], seconds: float, in_flight: int) -> None:
        cpu = _process_cpu(self.pid)
        start = time.perf_counter()
        self.calls += await _count(call, seconds, in_flight)
        self.seconds += time.perf_counter() - start
        after = _process_cpu(self.pid)
        if cpu is None or after is None or self.server_cpu is None:
            self.server_cpu = None
        else:
            self.server_cpu += after - cpu

    def report(self, name: str) -> Report:
        out: Report = {f"{name}_per_second": round(self.calls / self.seconds)}
        if self.server_cpu is not None:
            out[f"{name}_server_cpu_us"] = round(self.server_cpu / self.calls * 1e6, 1)
        return out


async def _count(call: Callable[[], Any], seconds: float, in_flight: int) -> int:
    """Calls completed in about ``seconds`` with ``in_flight`` calls outstanding."""
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await call()
            done += 1

    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return done


async def _rate(call: Callable[[], Any], seconds: float, in_flight: int) -> float:
    """Completed calls per second with ``in_flight`` calls outstanding at all times."""
    start = time.perf_counter()
    done = await _count(call, seconds, in_flight)
    return done / (time.perf_counter() - start)


def _forward_player(stub: Any, seed: int = 1) -> Callable[[], Any]:
    """One ApplyMove of a match played forward per call: every request carries the
    state the previous response returned, as a real client does. Each task in flight
    plays its own match, dealing a new one when it ends."""
    from mazzo.v1 import game_service_pb2

    rnd = random.Random(seed)
    matches: dict[object, list[Any]] = {}
    dealt = 0

    async def play() -> None:
        nonlocal dealt
        task = asyncio.current_task()
        match = matches.get(task)
        if match is None or match[0].finished:
            dealt += 1
            reply = await stub.Deal(game_service_pb2.DealRequest(game="maraffa", seed=dealt))
            match = matches[task] = [reply.state, reply.legal_moves]
        state, moves = match
        move = moves[rnd.randrange(len(moves) - 1)]  # never the final CLAIM
        reply = await stub.ApplyMove(game_service_pb2.ApplyMoveRequest(state=state, move=move))
        match[0], match[1] = reply.state, reply.legal_moves

    return play


async def _grpc_rates(port: int, server_pid: int, seconds: float) -> Report:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from mazzo.codec import maraffa as codec
    from mazzo.v1 import game_service_pb2, game_service_pb2_grpc

    state, move = _sample_state()
    request = game_service_pb2.ApplyMoveRequest()
    codec.state_to_wire(state, maraffa.to_act(state), request.state)
    codec.move_to_wire(move, request.move)
    check = health_pb2.HealthCheckRequest()
    report: Report = {"apply_request_bytes": request.ByteSize()}
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        await stub.ApplyMove(request)  # warm up both paths
        await health.Check(check)
        cases = {
            "in_flight_1": (lambda: stub.ApplyMove(request), 1),
            "in_flight_64": (lambda: stub.ApplyMove(request), 64),
            "play_forward_in_flight_64": (_forward_player(stub), 64),
        }
        for name, (apply, in_flight) in cases.items():
            # Alternate short rounds so that drift in machine load hits both alike.
            applied, checked = _Calls(server_pid), _Calls(server_pid)
            for _ in range(3):
                await checked.measure(lambda: health.Check(check), seconds / 9, in_flight)
                await applied.measure(apply, seconds / 9, in_flight)
            figures = {**applied.report("apply_move"), **checked.report("health_check")}
            figures["apply_over_health"] = round(
                figures["apply_move_per_second"] / figures["health_check_per_second"], 3
            )
            report[name] = figures
    return report


def grpc_apply_vs_health(seconds: float) -> Report:
    """``ApplyMove`` calls per second against ``Health/Check`` on the same server and channel.

    ``in_flight_N`` repeats one mid-hand request the server never produced, so every
    call decodes and validates the state in full (the worst case);
    ``play_forward_in_flight_64`` plays 64 matches forward as clients do. Each case
    alternates three short rounds of each call, and also gives the server's CPU time
    per call (``*_server_cpu_us``), which other load on the machine disturbs less.
    """
    with _server_process() as (port, pid):
        return asyncio.run(_grpc_rates(port, pid, seconds))


def grpc_through_envoy(seconds: float, counts: tuple[int, ...] = (1, 2, 4)) -> Report:
    """ApplyMove calls per second through Envoy with 1, 2 and 4 replicas behind it,
    64 in flight on one channel, against Health/Check through the same Envoy."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from mazzo.codec import maraffa as codec
    from mazzo.ops.replicas import fleet
    from mazzo.v1 import game_service_pb2, game_service_pb2_grpc

    state, move = _sample_state()
    request = game_service_pb2.ApplyMoveRequest()
    codec.state_to_wire(state, maraffa.to_act(state), request.state)
    codec.move_to_wire(move, request.move)
    check = health_pb2.HealthCheckRequest()
    report: Report = {"cores": os.cpu_count()}

    async def measure(port: int) -> Report:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            await stub.ApplyMove(request)
            apply_rate = await _rate(lambda: stub.ApplyMove(request), seconds / 2, 64)
            health_rate = await _rate(lambda: health.Check(check), seconds / 2, 64)
        return {
            "apply_move_per_second": round(apply_rate),
            "health_check_per_second": round(health_rate),
        }

    for n in counts:
        with fleet(n) as running:
            report[f"replicas_{n}"] = asyncio.run(measure(running.envoy_port))
    return report


async def _referee_matches(bots: tuple[str, str, str, str], seconds: float) -> Report:
    from mazzo.referee.engine import LocalEngine
    from mazzo.referee.games import hooks_for
    from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match

    lineup = [Entrant("a", (bots[0], bots[2])), Entrant("b", (bots[1], bots[3]))]
    engine, pools = LocalEngine(), Pools()
    hand_dealt = hooks_for("maraffa").hand_dealt
    matches = hands = moves = 0
    bot_seconds = 0.0
    try:
        # One match first, so that starting bot processes is not counted.
        await play_match(MatchSpec("warm-up", "maraffa", 0), lineup, engine, pools)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            matches += 1
            record = await play_match(
                MatchSpec(f"m{matches}", "maraffa", matches), lineup, engine, pools
            )
            moves += len(record["moves"])
            hands += 1 + sum(hand_dealt(m["events"]) for m in record["moves"])
            bot_seconds += sum(record["time_used_ms"].values()) / 1000
        elapsed = time.perf_counter() - start
    finally:
        await pools.close()
    return {
        "bots": list(bots),
        "matches": matches,
        "hands": hands,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1),
        "us_per_move": round(elapsed / moves * 1e6, 2),
        "bot_us_per_move": round(bot_seconds / moves * 1e6, 2),
        "referee_overhead_us_per_move": round((elapsed - bot_seconds) / moves * 1e6, 2),
    }


def referee_builtin(seconds: float) -> Report:
    """Maraffa through the referee, in-process rules and builtin bots (heuristic v random):
    hands per second, and the referee's time per move beside the bots' own (the bots'
    time is what the referee's clock charges them)."""
    bots = ("builtin:heuristic", "builtin:random", "builtin:heuristic", "builtin:random")
    return asyncio.run(_referee_matches(bots, seconds))


def referee_exec(seconds: float) -> Report:
    """The same with four ``exec:`` bots (the example Python bot): the bots' time
    includes writing, reading and parsing the JSON lines on both sides."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py"
    if not example.exists():
        return {"skipped": f"{example} not found (a source checkout is needed)"}
    bots = tuple(f"exec:{sys.executable} {example} {i}" for i in range(4))
    return asyncio.run(_referee_matches((bots[0], bots[1], bots[2], bots[3]), seconds))


def _search() -> Any:
    from mazzo import bench_search

    return bench_search


def _sealing() -> Any:
    from mazzo import bench_sealing

    return bench_sealing


def _layers() -> Any:
    from mazzo import bench_layers

    return bench_layers


def _rl() -> Any:
    from mazzo import bench_rl

    return bench_rl


def run_all(
    seconds: float = 2.0,
    only: list[str] | None = None,
    closure_hands: int = 2000,
    anchors: bool = False,
    builds: bool = False,
) -> Report:
    """Every measurement (or ``only`` these); ``anchors``: also ``bench_anchors``, which
    needs the ``anchors`` extra; ``builds``: also ``bench_builds``, compiled against pure
    Python."""
    measurements: dict[str, Callable[[], Report]] = {
        "maraffa_random_hands_4p": lambda: maraffa_random_hands(4, seconds),
        "maraffa_random_hands_3p": lambda: maraffa_random_hands(3, seconds / 2),
        "maraffa_random_hands_2p": lambda: maraffa_random_hands(2, seconds / 2),
        "maraffa_random_hands_3p_deck39": lambda: maraffa_random_hands_deck39(seconds / 2),
        "trionfo_random_deals_5p": lambda: trionfo_random_deals(seconds),
        "maraffa_state_codec": lambda: state_codec(seconds),
        "wire_layers": lambda: _layers().wire_layers(max(100, int(2000 * seconds))),
        "grpc_apply_move_vs_health_check": lambda: grpc_apply_vs_health(4 * seconds),
        "grpc_through_envoy": lambda: grpc_through_envoy(2 * seconds),
        "referee_maraffa_builtin_bots": lambda: referee_builtin(seconds),
        "referee_maraffa_exec_bots": lambda: referee_exec(seconds),
        "burraco_random_hands_4p": lambda: burraco_random_hands(4, seconds),
        "burraco_random_hands_3p": lambda: burraco_random_hands(3, seconds / 2),
        "burraco_random_hands_2p": lambda: burraco_random_hands(2, seconds / 2),
        "burraco_move_times": lambda: burraco_move_times(seconds),
        "burraco_largest_legal_list": lambda: burraco_largest_legal_list(),
        "ramino_random_hands_4p": lambda: ramino_random_hands(4, seconds),
        "ramino_random_hands_3p": lambda: ramino_random_hands(3, seconds / 2),
        "ramino_random_hands_2p": lambda: ramino_random_hands(2, seconds / 2),
        "ramino_closure_check": lambda: ramino_closure_check(closure_hands),
        "ramino_closure_agreement": lambda: ramino_closure_agreement(closure_hands),
        "search_apply_moves_vs_apply_move": lambda: _search().apply_moves_vs_apply_move(
            2 * seconds
        ),
        "search_determinize": lambda: _search().determinize_rates(seconds),
        "search_simulate_vs_in_process": lambda: _search().simulate_vs_in_process(2 * seconds),
        "search_pimc_decisions": lambda: _search().pimc_decisions(),
        "sealed_apply_move_vs_plain": lambda: _sealing().sealed_vs_plain(4 * seconds),
        "rl": lambda: _rl().rl(seconds),
    }
    if anchors or (only is not None and "anchors" in only):
        from mazzo import bench_anchors

        measurements["anchors"] = lambda: bench_anchors.anchors(seconds)
    if builds or (only is not None and "builds" in only):
        from mazzo import bench_builds

        measurements["builds"] = lambda: bench_builds.builds(seconds, closure_hands)
    from mazzo.ops.replicas import MissingPrerequisite

    unknown = sorted(set(only or ()) - set(measurements))
    if unknown:
        raise ValueError(f"no benchmark {unknown[0]!r}; there are: {', '.join(measurements)}")
    from mazzo.buildinfo import current

    report: Report = {
        "python": sys.version.split()[0],
        "build": current().describe(),
        "seconds_per_measurement": seconds,
    }
    for name, measure in measurements.items():
        if only is None or name in only:
            try:
                report[name] = measure()
            except MissingPrerequisite as e:
                report[name] = {"skipped": str(e)}
    return report
