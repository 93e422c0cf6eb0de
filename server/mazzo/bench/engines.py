"""The engines in-process: random hands per second, Ramino's closures, the state codec.

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

import os
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from mazzo.bench.common import (
    Report,
    Stopwatch,
    cpu_with_children,
    per_call,
    sample_state,
)
from mazzo.core.cards import codes
from mazzo.games.burraco import rules as burraco
from mazzo.games.burraco.options import Options as BurracoOptions
from mazzo.games.burraco.state import Stage as BurracoStage
from mazzo.games.maraffa import events as maraffa_events
from mazzo.games.maraffa import rules as maraffa
from mazzo.games.maraffa import wire as codec
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.maraffa.state import Phase
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.validate import validate
from mazzo.games.ramino import closures, reference
from mazzo.games.ramino import events as ramino_events
from mazzo.games.ramino import rules as ramino
from mazzo.games.ramino.closures import best_closure
from mazzo.games.ramino.options import Options as RaminoOptions
from mazzo.games.ramino.reference import sample_hand
from mazzo.v1 import game_pb2

WARM_UP_HANDS = 30


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
    watch = Stopwatch(seconds)
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
    rnd = random.Random(seed).random
    legal_moves, apply = ramino.legal_moves, ramino.apply
    hand_ended = ramino_events.HandEnded
    options = RaminoOptions()
    hands = moves = closed = matches = 0
    watch = Stopwatch(seconds)
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
    chunk = 500
    jobs = [(min(chunk, hands - i), seed + i) for i in range(0, hands, chunk)]
    start = time.perf_counter()
    total = agreed = 0
    kinds: dict[int, int] = {}
    wrong: list[str] = []
    cpu_before = cpu_with_children()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for count, ok, seen, bad in pool.map(_agreement_chunk, jobs):
            total += count
            agreed += ok
            wrong.extend(bad)
            for k, n in seen.items():
                kinds[k] = kinds.get(k, 0) + n
    cpu = cpu_with_children() - cpu_before  # the workers have been reaped: counted
    return {
        "hands": total,
        "agreed": agreed,
        "by_multiplier": dict(sorted(kinds.items())),
        "disagreements": wrong[:10],
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(cpu, 1),
        "cpu_ms_per_hand": round(cpu / max(total, 1) * 1e3, 2),
    }


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
    watch = Stopwatch(seconds)
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
    rnd = random.Random(seed).random
    legal_moves, apply = trionfo.legal_moves, trionfo.apply
    options = Options(match_deals=10)
    deals = moves = matches = 0
    watch = Stopwatch(seconds)
    while watch.running():
        state, _ = trionfo.deal(options, 5, matches)
        matches += 1
        while not state.finished:
            legal = legal_moves(state)
            state, _ = apply(state, legal[int(rnd() * len(legal))])
            moves += 1
        deals += state.table.deal_number
    return {"players": 5, **watch.rates("deals", deals, moves)}


def state_codec(seconds: float) -> Report:
    """Microseconds to encode a mid-hand state to bytes, and to decode and validate it."""
    state, _ = sample_state()
    seat = state.to_act

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
        "encode_us": round(per_call(encode, seconds / 2), 2),
        "decode_validate_us": round(per_call(decode, seconds / 2), 2),
    }
