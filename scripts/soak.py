"""``make soak``: a server under steady mixed load for a while; errors, memory and latency.

Starts ``mazzo serve`` on a free port in its own process and keeps ``--in-flight``
clients busy for ``--seconds``: each plays matches of every game and form forward
(Deal, then ApplyMove with a random legal move; every few moves also LegalMoves,
GetView, Score, ApplyMoves, Determinize and a small Simulate), dealing anew when a
match ends. Reports, as JSON: calls and errors by code, the server's RSS sampled
every ``--sample`` seconds, its growth over the last half of the run, and latency
percentiles per RPC. Exits 1 if any call failed or RSS grew over ``--max-growth``
percent in the last half.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from typing import Any

import grpc
from google.protobuf import json_format

from mazzo.games.registry import GAMES
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub

#: (game, players, options): every registered game's sample forms (its declaration's
#: conformance part), each match kept short by its options.
FORMS: list[tuple[str, int, dict[str, Any]]] = [
    (id, form.players, form.options)
    for id, game in GAMES.items()
    for form in game.conformance().forms
]
#: The game whose positions are also simulated: the first registered, as the soak was
#: measured. With every game's simulated, a 40 s run at 64 in flight (pure Python) had
#: the full search pool refuse 3,443 calls (RESOURCE_EXHAUSTED) against 1,728.
SIMULATED = next(iter(GAMES))


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _options(game: str, values: dict[str, Any]) -> game_pb2.GameOptions:
    return json_format.ParseDict({game: values}, game_pb2.GameOptions())


class Load:
    def __init__(self, stub: GameServiceStub, seed: int) -> None:
        self.stub = stub
        self.codes: Counter[str] = Counter()
        self.latency: defaultdict[str, list[float]] = defaultdict(list)
        self.rng = random.Random(seed)

    async def call(self, name: str, request: Any) -> Any:
        start = time.perf_counter()
        try:
            reply = await getattr(self.stub, name)(request, timeout=30)
        except grpc.aio.AioRpcError as e:
            self.codes[f"{name}:{e.code().name}"] += 1
            return None
        finally:
            self.latency[name].append(time.perf_counter() - start)
        self.codes["OK"] += 1
        return reply

    async def play(self, until: float) -> None:
        while time.monotonic() < until:
            game, players, values = self.rng.choice(FORMS)
            dealt = await self.call(
                "Deal",
                gs.DealRequest(
                    game=game,
                    players=players,
                    options=_options(game, values),
                    seed=self.rng.randrange(2**32),
                ),
            )
            if dealt is None:
                continue
            state, moves, ply = dealt.state, list(dealt.legal_moves), 0
            avoid = GAMES[game].strategy.avoid_at_random_on_wire
            while not state.finished and time.monotonic() < until:
                safe = [m for m in moves if not avoid(m)] or moves
                move = self.rng.choice(safe)
                ply += 1
                if ply % 17 == 0:
                    await self.extras(state, simulate=game == SIMULATED)
                reply = await self.call("ApplyMove", gs.ApplyMoveRequest(state=state, move=move))
                if reply is None:
                    break
                state, moves = reply.state, list(reply.legal_moves)

    async def extras(self, state: game_pb2.GameState, simulate: bool) -> None:
        """The other RPCs, now and then, on the position at hand."""
        legal = await self.call("LegalMoves", gs.LegalMovesRequest(state=state))
        view = await self.call("GetView", gs.GetViewRequest(state=state, seat=state.to_act))
        await self.call("Score", gs.ScoreRequest(state=state))
        if legal is not None and legal.moves:
            await self.call("ApplyMoves", gs.ApplyMovesRequest(state=state, moves=[legal.moves[0]]))
        if view is not None:
            await self.call(
                "Determinize",
                gs.DeterminizeRequest(view=view.view, count=4, seed=self.rng.randrange(99)),
            )
            if simulate:
                await self.call(
                    "Simulate",
                    gs.SimulateRequest(view=view.view, playouts=1, determinizations=2),
                )


async def run(port: int, pid: int, seconds: float, in_flight: int, sample: float) -> dict[str, Any]:
    until = time.monotonic() + seconds
    rss: list[tuple[float, int]] = []
    started = time.monotonic()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = GameServiceStub(channel)
        loads = [Load(stub, i) for i in range(in_flight)]

        async def sampler() -> None:
            while time.monotonic() < until:
                rss.append((round(time.monotonic() - started, 1), rss_kib(pid)))
                await asyncio.sleep(sample)

        await asyncio.gather(sampler(), *(load.play(until) for load in loads))
    rss.append((round(time.monotonic() - started, 1), rss_kib(pid)))
    codes: Counter[str] = Counter()
    latency: defaultdict[str, list[float]] = defaultdict(list)
    for load in loads:
        codes.update(load.codes)
        for name, times in load.latency.items():
            latency[name].extend(times)
    half = [kib for t, kib in rss if t >= seconds / 2] or [rss[-1][1]]
    growth = (half[-1] - half[0]) / half[0] * 100 if half[0] else 0.0

    def pct(times: list[float], q: float) -> float:
        times = sorted(times)
        return round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 2)

    return {
        "seconds": seconds,
        "in_flight": in_flight,
        "calls": sum(codes.values()),
        "codes": dict(codes),
        "errors": sum(n for c, n in codes.items() if c != "OK"),
        "rss_kib": rss,
        "rss_growth_last_half_percent": round(growth, 2),
        "latency_ms": {
            name: {"p50": pct(t, 0.5), "p99": pct(t, 0.99), "max": pct(t, 1.0), "calls": len(t)}
            for name, t in sorted(latency.items())
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--in-flight", type=int, default=64)
    parser.add_argument("--sample", type=float, default=10)
    parser.add_argument("--max-growth", type=float, default=2.0)
    parser.add_argument("--out", help="write the report here too")
    args = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "mazzo", "serve", "--port", "0", "--no-http"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().rsplit(":", 1)[1])
        report = asyncio.run(run(port, server.pid, args.seconds, args.in_flight, args.sample))
    finally:
        server.terminate()
        server.wait(30)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    ok = report["errors"] == 0 and report["rss_growth_last_half_percent"] <= args.max_growth
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
