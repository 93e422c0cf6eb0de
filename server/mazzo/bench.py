"""``mazzo bench``: speed figures as JSON, each compared inside one run.

Absolute times depend on the machine; ratios measured side by side in one run do
not (much), so the RPC figures are given against ``grpc.health.v1.Health/Check``
on the same server and channel.

Random play picks uniformly among the legal moves except CLAIM (listed last): a
random claim would end the match at once, so "random hands" would mostly be
claims. Every move still goes through ``apply``, which checks it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from mazzo.games.maraffa import events as maraffa_events
from mazzo.games.maraffa import rules as maraffa
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.maraffa.state import Phase

Report = dict[str, Any]


def maraffa_random_hands(players: int, seconds: float, seed: int = 1) -> Report:
    """Random Maraffa hands per second in-process, every move checked by ``apply``."""
    rnd = random.Random(seed).random
    legal_moves, apply = maraffa.legal_moves, maraffa.apply
    hand_scored = maraffa_events.HandScored
    over = Phase.OVER
    options = Options()
    hands = moves = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = maraffa.deal(options, players, matches)
        matches += 1
        while state.phase is not over:
            legal = legal_moves(state)
            state, events = apply(state, legal[int(rnd() * (len(legal) - 1))])
            moves += 1
            if len(events) > 3:
                hands += sum(type(e) is hand_scored for e in events)
    elapsed = time.perf_counter() - start
    return {
        "players": players,
        "hands": hands,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed),
        "us_per_move": round(elapsed / moves * 1e6, 3),
    }


def maraffa_random_hands_deck39(seconds: float, seed: int = 1) -> Report:
    """Random hands per second of the 39-card form for three, every move checked."""
    rnd = random.Random(seed).random
    legal_moves, apply = maraffa.legal_moves, maraffa.apply
    hand_scored = maraffa_events.HandScored
    over = Phase.OVER
    options = Options(three_player_form=ThreePlayerForm.DECK39)
    hands = moves = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = maraffa.deal(options, 3, matches)
        matches += 1
        while state.phase is not over:
            legal = legal_moves(state)
            state, events = apply(state, legal[int(rnd() * (len(legal) - 1))])
            moves += 1
            if len(events) > 3:
                hands += sum(type(e) is hand_scored for e in events)
    elapsed = time.perf_counter() - start
    return {
        "players": 3,
        "form": "deck39",
        "hands": hands,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed),
        "us_per_move": round(elapsed / moves * 1e6, 3),
    }


def trionfo_random_deals(seconds: float, seed: int = 1) -> Report:
    """Random five-player Trionfo deals per second in-process, every move checked by
    ``apply``: a uniform random player, so every contract and thrown-in deals occur."""
    from mazzo.games.maraffa import trionfo

    rnd = random.Random(seed).random
    legal_moves, apply = trionfo.legal_moves, trionfo.apply
    options = Options(match_deals=10)
    deals = moves = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = trionfo.deal(options, 5, matches)
        matches += 1
        while not state.finished:
            legal = legal_moves(state)
            state, _ = apply(state, legal[int(rnd() * len(legal))])
            moves += 1
        deals += state.table.deal_number
    elapsed = time.perf_counter() - start
    return {
        "players": 5,
        "deals": deals,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(deals / elapsed),
        "us_per_move": round(elapsed / moves * 1e6, 3),
    }


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
def _server_process() -> Iterator[int]:
    """``mazzo serve`` in its own process on a free port; yields the port."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", "serve", "--host", "127.0.0.1", "--port", "0"],
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
        yield int(line.rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(10)


async def _rate(call: Callable[[], Any], seconds: float, in_flight: int) -> float:
    """Completed calls per second with ``in_flight`` calls outstanding at all times."""
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await call()
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return done / (time.perf_counter() - start)


async def _play_forward_rate(stub: Any, seconds: float, in_flight: int, seed: int = 1) -> float:
    """ApplyMove calls per second from ``in_flight`` matches each played forward: every
    request carries the state the previous response returned, as a real client does."""
    from mazzo.v1 import game_service_pb2

    rnd = random.Random(seed)
    done = 0
    deadline = time.perf_counter() + seconds

    async def player(match: int) -> None:
        nonlocal done
        dealt = await stub.Deal(game_service_pb2.DealRequest(game="maraffa", seed=match))
        state, moves = dealt.state, dealt.legal_moves
        while time.perf_counter() < deadline:
            if state.finished:
                dealt = await stub.Deal(game_service_pb2.DealRequest(game="maraffa", seed=match))
                state, moves = dealt.state, dealt.legal_moves
            move = moves[rnd.randrange(len(moves) - 1)]  # never the final CLAIM
            reply = await stub.ApplyMove(game_service_pb2.ApplyMoveRequest(state=state, move=move))
            state, moves = reply.state, reply.legal_moves
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(player(m) for m in range(in_flight)))
    return done / (time.perf_counter() - start)


async def _grpc_rates(port: int, seconds: float) -> Report:
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
        for in_flight in (1, 64):
            # Alternate short rounds so that drift in machine load hits both alike.
            rates: dict[str, list[float]] = {"apply": [], "health": []}
            for _ in range(3):
                rates["health"].append(
                    await _rate(lambda: health.Check(check), seconds / 6, in_flight)
                )
                rates["apply"].append(
                    await _rate(lambda: stub.ApplyMove(request), seconds / 6, in_flight)
                )
            apply_rate = sum(rates["apply"]) / 3
            health_rate = sum(rates["health"]) / 3
            report[f"in_flight_{in_flight}"] = {
                "apply_move_per_second": round(apply_rate),
                "health_check_per_second": round(health_rate),
                "apply_over_health": round(apply_rate / health_rate, 3),
            }
        # Matches played forward: the states come back as the server produced them.
        health_rate = await _rate(lambda: health.Check(check), seconds / 3, 64)
        forward_rate = await _play_forward_rate(stub, seconds / 3, 64)
        report["play_forward_in_flight_64"] = {
            "apply_move_per_second": round(forward_rate),
            "health_check_per_second": round(health_rate),
            "apply_over_health": round(forward_rate / health_rate, 3),
        }
    return report


def grpc_apply_vs_health(seconds: float) -> Report:
    """``ApplyMove`` calls per second against ``Health/Check`` on the same server and channel.

    ``in_flight_N`` repeats one mid-hand request the server never produced, so every
    call decodes and validates the state in full (the worst case);
    ``play_forward_in_flight_64`` plays 64 matches forward as clients do.
    """
    with _server_process() as port:
        return asyncio.run(_grpc_rates(port, seconds))


def run_all(seconds: float = 2.0, only: list[str] | None = None) -> Report:
    measurements: dict[str, Callable[[], Report]] = {
        "maraffa_random_hands_4p": lambda: maraffa_random_hands(4, seconds),
        "maraffa_random_hands_3p": lambda: maraffa_random_hands(3, seconds / 2),
        "maraffa_random_hands_2p": lambda: maraffa_random_hands(2, seconds / 2),
        "maraffa_random_hands_3p_deck39": lambda: maraffa_random_hands_deck39(seconds / 2),
        "trionfo_random_deals_5p": lambda: trionfo_random_deals(seconds),
        "maraffa_state_codec": lambda: state_codec(seconds),
        "grpc_apply_move_vs_health_check": lambda: grpc_apply_vs_health(4 * seconds),
    }
    report: Report = {"python": sys.version.split()[0], "seconds_per_measurement": seconds}
    for name, measure in measurements.items():
        if only is None or name in only:
            report[name] = measure()
    return report
