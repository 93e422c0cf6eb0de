"""``mazzo bench``'s figures for search: ApplyMoves, Determinize, Simulate, builtin:pimc.

Each is a ratio or a rate measured side by side in one run: ``ApplyMoves`` of a whole
Maraffa hand against the same hand in ``ApplyMove`` calls, on one server;
``Simulate`` over gRPC against the very same playouts run in this process; and the
decision time of ``builtin:pimc`` over seeded positions.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time
from typing import Any

import grpc

from mazzo.bench.common import Report, position_after, server_process
from mazzo.games.maraffa import events
from mazzo.games.registry import CODECS, rules_for
from mazzo.players.pimc import Settings, choose
from mazzo.players.playout import Horizon, PolicyKind, per_move, play_units, units_of
from mazzo.referee.engine import LocalEngine, LocalPosition
from mazzo.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc


def _hand(seed: int) -> tuple[Any, list[Any]]:
    """A Maraffa deal and the moves of its first hand, played at random."""
    rules = rules_for("maraffa")
    state, _ = rules.deal(CODECS["maraffa"].options(_no_options()), 4, seed)
    start, moves = state, []
    rng = random.Random(seed)
    while True:
        legal = rules.legal_moves(state)
        move = legal[rng.randrange(len(legal) - 1)]  # never the final CLAIM
        state, happened = rules.apply(state, move)
        moves.append(move)
        if any(type(e) is events.HandScored for e in happened):
            return start, moves


def _no_options() -> Any:
    return game_pb2.GameOptions()


def apply_moves_vs_apply_move(seconds: float) -> Report:
    """A whole Maraffa hand (41 moves: trump, then 40 cards) in one ``ApplyMoves`` against
    41 ``ApplyMove`` calls, hands per second on the same server, alternating rounds."""
    codec = CODECS["maraffa"]
    hands = []
    for seed in range(1, 21):
        start, moves = _hand(seed)
        state = game_pb2.GameState()
        codec.state_to_wire(start, rules_for("maraffa").to_act(start), state)
        wire = []
        for move in moves:
            msg = game_pb2.Move()
            codec.move_to_wire(move, msg)
            wire.append(msg)
        hands.append((state, wire))

    async def measure(port: int) -> Report:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)

            async def one_call(i: int) -> None:
                state, moves = hands[i % len(hands)]
                await stub.ApplyMoves(game_service_pb2.ApplyMovesRequest(state=state, moves=moves))

            async def per_move(i: int) -> None:
                state, moves = hands[i % len(hands)]
                for move in moves:
                    reply = await stub.ApplyMove(
                        game_service_pb2.ApplyMoveRequest(state=state, move=move)
                    )
                    state = reply.state

            counts = {"apply_moves": [0, 0.0], "apply_move": [0, 0.0]}
            await one_call(0)
            await per_move(0)
            for _ in range(3):
                for name, play in (("apply_moves", one_call), ("apply_move", per_move)):
                    end = time.perf_counter() + seconds / 6
                    start = time.perf_counter()
                    while time.perf_counter() < end:
                        await play(int(counts[name][0]))
                        counts[name][0] += 1
                    counts[name][1] += time.perf_counter() - start
            rates = {k: n / t for k, (n, t) in counts.items()}
            return {
                "moves_per_hand": len(hands[0][1]),
                "hands_per_second_one_call": round(rates["apply_moves"], 1),
                "hands_per_second_one_call_a_move": round(rates["apply_move"], 1),
                "one_call_over_one_call_a_move": round(
                    rates["apply_moves"] / rates["apply_move"], 2
                ),
            }

    with server_process() as (port, _):
        return asyncio.run(measure(port))


#: Determinize's positions: (game, players, random moves into the match).
SAMPLED = [
    ("maraffa", 4, 17),
    ("maraffa", 2, 15),
    ("maraffa", 3, 13),
    ("maraffa", 5, 20),
    ("burraco", 4, 60),
    ("burraco", 2, 60),
    ("ramino", 4, 25),
]


def determinize_rates(seconds: float) -> Report:
    """Samples per second in this process, from one seat's view of a mid-hand position."""
    report: Report = {}
    for game, players, plays in SAMPLED:
        rules = rules_for(game)
        state = position_after(game, players, plays, seed=3)
        seat = rules.controller(state, rules.to_act(state))
        view = rules.view(state, seat)
        count, samples = 0, 0
        end = time.perf_counter() + seconds / len(SAMPLED)
        start = time.perf_counter()
        while time.perf_counter() < end:
            samples += len(rules.determinize(view, 32, count))
            count += 1
        elapsed = time.perf_counter() - start
        report[f"{game}_{players}p"] = {"samples_per_second": round(samples / elapsed)}
    report["grpc_maraffa_4p"] = _determinize_over_grpc(seconds / len(SAMPLED))
    return report


def _determinize_over_grpc(seconds: float) -> Report:
    """``Determinize`` calls of 32 samples on a server: samples per second, sampled,
    each checked against the view, and sent."""
    rules, codec = rules_for("maraffa"), CODECS["maraffa"]
    state = position_after("maraffa", 4, 17, seed=3)
    view = game_pb2.GameView()
    codec.view_to_wire(rules.view(state, rules.to_act(state)), view)

    async def measure(port: int) -> Report:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            request = game_service_pb2.DeterminizeRequest(view=view, count=32)
            await stub.Determinize(request)
            done, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                request.seed = done
                done += len((await stub.Determinize(request)).states)
            return {"samples_per_second": round(done / (time.perf_counter() - start))}

    with server_process() as (port, _):
        return asyncio.run(measure(port))


def simulate_vs_in_process(seconds: float) -> Report:
    """``Simulate`` over gRPC against the same playouts in this process: a Maraffa
    4-player position 17 moves in, every legal move played out to the end of the hand
    at random, from the state (32 playouts a move) and from the seat's view (32
    determinizations x 4 playouts: builtin:pimc's default)."""
    rules, codec = rules_for("maraffa"), CODECS["maraffa"]
    state = position_after("maraffa", 4, 17, seed=3)
    seat = rules.to_act(state)
    view = rules.view(state, seat)
    wire_state, wire_view = game_pb2.GameState(), game_pb2.GameView()
    codec.state_to_wire(state, seat, wire_state)
    codec.view_to_wire(view, wire_view)
    limit = rules.moves_bound(state, False)
    moves = len(rules.legal_moves(state))
    cases = {
        "from_state": (32, 1, game_service_pb2.SimulateRequest(state=wire_state, playouts=32)),
        "from_view": (
            4,
            32,
            game_service_pb2.SimulateRequest(view=wire_view, playouts=4, determinizations=32),
        ),
    }
    report: Report = {"legal_moves": moves}
    with server_process() as (port, _):

        async def over_grpc(request: Any, rounds: float) -> tuple[int, float]:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                await stub.Simulate(request)  # starts the pool
                done, start = 0, time.perf_counter()
                while time.perf_counter() - start < rounds:
                    reply = await stub.Simulate(request)
                    done += reply.playouts
                return done, time.perf_counter() - start

        for name, (playouts, samples, request) in cases.items():
            seeds = rules.determinize(view, samples, 0) if samples > 1 else [state]
            units = units_of(seeds, moves)
            done, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / 4:
                stats, _ = play_units(
                    "maraffa", units, playouts, PolicyKind.RANDOM, Horizon.HAND, done, limit
                )
                done += sum(s.playouts for s in per_move(units, stats, moves))
            local = done / (time.perf_counter() - start)
            remote_done, remote_time = asyncio.run(over_grpc(request, seconds / 4))
            remote = remote_done / remote_time
            report[name] = {
                "playouts_per_call": playouts * samples * moves,
                "in_process_playouts_per_second": round(local),
                "grpc_playouts_per_second": round(remote),
                "grpc_over_in_process": round(remote / local, 2),
            }
    report["server_pool_processes"] = os.cpu_count()
    return report


def pimc_decisions(count: int = 60) -> Report:
    """``builtin:pimc`` at its defaults (32 samples x 4 playouts, random, to the end of
    the hand), decision times over Maraffa 4-player positions, no time limit."""
    engine = LocalEngine()
    times = []
    for i in range(-1, count):  # decision -1 warms up (imports, the sampler's tables)
        state = position_after("maraffa", 4, 1 + (i * 7) % 36, seed=100 + abs(i))
        rules = rules_for("maraffa")
        position = LocalPosition(
            rules, CODECS["maraffa"], state, rules.to_act(state), False, rules.legal_moves(state)
        )
        request = asyncio.run(engine.request(position, position.seat))
        start = time.perf_counter()
        choose(request, Settings(time=60.0), i)
        if i >= 0:
            times.append(time.perf_counter() - start)
    times.sort()
    return {
        "decisions": count,
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))] * 1000, 1),
        "max_ms": round(times[-1] * 1000, 1),
    }
