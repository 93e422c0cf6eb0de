#!/usr/bin/env python3
"""Replay two hostile uses of the search pool against a fresh ``mazzo serve`` and time
them (docs/search.md, "Bounded work"):

1. an over-budget ``Simulate`` (6-player Ramino, 1,024 determinizations, 10,000
   playouts): how long until it is refused;
2. ``--simulates`` heavy ``Simulate`` calls at once over gRPC (each just under the
   budget) while HTTP ``LegalMoves`` calls with a 40 KB body (over the size that is
   parsed in a pool) are sent one after another: their worst and median latency, and
   how the Simulates were answered.

Prints the figures as JSON, with the machine.

    PYTHONPATH=server .venv/bin/python scripts/hostile_search.py --simulates 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter

import grpc
import httpx
from google.protobuf import json_format

from mazzo.ops.replicas import start_replica
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc as gs_grpc

BODY_BYTES = 40 * 1024


def start_server() -> tuple[subprocess.Popen[str], int, int]:
    """``mazzo serve`` on free ports: the process, its gRPC and HTTP ports."""
    replica = start_replica()
    return replica.process, replica.grpc_port, replica.http_port


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


async def over_budget(stub: gs_grpc.GameServiceStub, tries: int) -> dict[str, object]:
    """Seconds until an over-budget 6-player Ramino Simulate is refused."""
    dealt = await stub.Deal(gs.DealRequest(game="ramino", players=6, seed=3))
    view = (await stub.GetView(gs.GetViewRequest(state=dealt.state, seat=dealt.seat))).view
    request = gs.SimulateRequest(view=view, playouts=10_000, determinizations=1024, seed=1)
    times, codes = [], set()
    for _ in range(tries):
        start = time.perf_counter()
        try:
            await stub.Simulate(request)
            codes.add("OK")
        except grpc.aio.AioRpcError as e:
            codes.add(e.code().name)
        times.append(time.perf_counter() - start)
    return {"seconds": [round(t, 3) for t in times], "codes": sorted(codes)}


async def flood(
    stub: gs_grpc.GameServiceStub, http: httpx.AsyncClient, simulates: int
) -> dict[str, object]:
    """The latency of padded HTTP LegalMoves while ``simulates`` heavy Simulates run."""
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=7))
    moves = len((await stub.LegalMoves(gs.LegalMovesRequest(state=dealt.state))).moves)
    # Just under the budget: moves x playouts x (1 + the bound of 41 moves).
    playouts = 2_000_000 // (moves * 42)
    heavy = gs.SimulateRequest(state=dealt.state, playouts=playouts, seed=1)
    text = json_format.MessageToJson(gs.LegalMovesRequest(state=dealt.state), indent=None)
    body = text + " " * (BODY_BYTES - len(text))
    headers = {"content-type": "application/json"}

    async def one_simulate() -> str:
        try:
            await stub.Simulate(heavy)
            return "OK"
        except grpc.aio.AioRpcError as e:
            return e.code().name

    start = time.perf_counter()
    tasks = [asyncio.create_task(one_simulate()) for _ in range(simulates)]
    await asyncio.sleep(0.2)  # let them all arrive
    latencies = []
    while not all(t.done() for t in tasks) or not latencies:
        sent = time.perf_counter()
        reply = await http.post("/v1/state:legalMoves", content=body, headers=headers)
        latencies.append(time.perf_counter() - sent)
        assert reply.status_code == 200, reply.text
        await asyncio.sleep(0.1)
    outcomes = Counter(await asyncio.gather(*tasks))
    return {
        "simulates": dict(outcomes),
        "playouts_each": playouts,
        "flood_seconds": round(time.perf_counter() - start, 2),
        "legal_moves_calls": len(latencies),
        "legal_moves_worst_s": round(max(latencies), 3),
        "legal_moves_median_s": round(statistics.median(latencies), 3),
    }


async def run(args: argparse.Namespace) -> dict[str, object]:
    process, port, http_port = start_server()
    try:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{http_port}", timeout=600) as http,
        ):
            stub = gs_grpc.GameServiceStub(channel)
            # Start the pools: their processes' start is not what is measured.
            dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=7))
            view = (await stub.GetView(gs.GetViewRequest(state=dealt.state))).view
            await stub.Determinize(gs.DeterminizeRequest(view=view, count=1))
            text = json_format.MessageToJson(gs.LegalMovesRequest(state=dealt.state))
            padded = text + " " * (BODY_BYTES - len(text))
            await http.post(
                "/v1/state:legalMoves", content=padded, headers={"content-type": "application/json"}
            )
            return {
                "machine": {
                    "cpu": cpu_model(),
                    "cores": os.cpu_count(),
                    "python": platform.python_version(),
                },
                "over_budget_simulate": await over_budget(stub, args.tries),
                "flood": await flood(stub, http, args.simulates),
            }
    finally:
        process.terminate()
        process.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulates", type=int, default=40, help="heavy Simulates at once")
    parser.add_argument("--tries", type=int, default=3, help="over-budget Simulates, one by one")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
