"""The service over gRPC: ``ApplyMove`` against ``Health/Check`` on one server and
channel, and through Envoy in front of 1, 2 and 4 replicas.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.bench.common import (
    Calls,
    Report,
    call_rate,
    sample_state,
    server_process,
)
from mazzo.games.maraffa import wire as codec
from mazzo.ops.replicas import fleet
from mazzo.v1 import game_service_pb2, game_service_pb2_grpc


def _forward_player(stub: Any, seed: int = 1) -> Callable[[], Any]:
    """One ApplyMove of a match played forward per call: every request carries the
    state the previous response returned, as a real client does. Each task in flight
    plays its own match, dealing a new one when it ends."""
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


def _requests() -> tuple[game_service_pb2.ApplyMoveRequest, health_pb2.HealthCheckRequest]:
    """The ApplyMove request measured (a sample Maraffa move) and the Health/Check
    request it is measured against."""
    state, move = sample_state()
    request = game_service_pb2.ApplyMoveRequest()
    codec.state_to_wire(state, state.to_act, request.state)
    codec.move_to_wire(move, request.move)
    return request, health_pb2.HealthCheckRequest()


async def _grpc_rates(port: int, server_pid: int, seconds: float) -> Report:
    request, check = _requests()
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
            applied, checked = Calls(server_pid), Calls(server_pid)
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
    with server_process() as (port, pid):
        return asyncio.run(_grpc_rates(port, pid, seconds))


def grpc_through_envoy(seconds: float, counts: tuple[int, ...] = (1, 2, 4)) -> Report:
    """ApplyMove calls per second through Envoy with 1, 2 and 4 replicas behind it,
    64 in flight on one channel, against Health/Check through the same Envoy."""
    request, check = _requests()
    report: Report = {"cores": os.cpu_count()}

    async def measure(port: int) -> Report:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            await stub.ApplyMove(request)
            apply_rate = await call_rate(lambda: stub.ApplyMove(request), seconds / 2, 64)
            health_rate = await call_rate(lambda: health.Check(check), seconds / 2, 64)
        return {
            "apply_move_per_second": round(apply_rate),
            "health_check_per_second": round(health_rate),
        }

    for n in counts:
        with fleet(n) as running:
            report[f"replicas_{n}"] = asyncio.run(measure(running.envoy_port))
    return report
