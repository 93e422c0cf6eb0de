"""A fuzz of every GameService RPC, game and form, over gRPC and HTTP, against a server
in its own process: protobuf-field mutations of valid requests, not just bytes.

The corpus is valid requests of every RPC from seeded random play of every form. A
fuzzed request is one of them with one to three random changes at random places in
its message tree (a scalar set to an edge value, an entry of a repeated field
replaced, appended, deleted, copied or cleared, a message field cleared, an unknown
game or option), sent over gRPC or, one time in four, as JSON over HTTP. Every answer
must be OK or a client error (INVALID_ARGUMENT / FAILED_PRECONDITION; HTTP 400 / 409)
carrying exactly one field violation: never UNKNOWN, INTERNAL or RESOURCE_EXHAUSTED,
never a hang. The server's access log gives each call's time on the server, and
``/proc`` its RSS (and its pool's) after warm-up and at the end; the warm-up is
every valid request once, then the first tenth of the fuzz.

``run(n)`` is the whole fuzz; ``tests/service/test_fuzz_every_rpc.py`` runs five
hundred in CI, and ``make fuzz N=1000000`` the long run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import httpx
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from mazzo.games.registry import CODECS, rules_for
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_fuzz import change_field, edge_value
from tests.grpc_helpers import field_violations
from tests.random_play import random_play_positions

TIMEOUT = 30.0
CLIENT_CODES = {"INVALID_ARGUMENT", "FAILED_PRECONDITION"}
STRINGS = ("", "maraffa", "burraco", "ramino", "nosuch", "x" * 5000, "maraffa\x00")

#: Every form, with options that keep matches short: (game, players, options JSON).
FORMS: list[tuple[str, int, dict[str, Any]]] = [
    ("maraffa", 4, {"target": 21, "signals": "MARAFFA_SIGNAL_SET_EXTENDED"}),
    ("maraffa", 3, {"target": 21}),
    ("maraffa", 3, {"target": 21, "threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39"}),
    ("maraffa", 2, {"target": 21}),
    ("maraffa", 5, {"matchDeals": 2}),
    ("burraco", 4, {"hands": 1}),
    ("burraco", 3, {"hands": 1}),
    ("burraco", 2, {"hands": 1}),
    ("ramino", 4, {"matchHands": 2}),
    ("ramino", 2, {"matchHands": 2}),
    ("ramino", 6, {"matchHands": 1}),
]

#: RPC -> (HTTP route, request class). Deal's route carries the game in its path.
ROUTES: dict[str, tuple[str, type[Message]]] = {
    "Deal": ("/v1/games/{game}:deal", gs.DealRequest),
    "LegalMoves": ("/v1/state:legalMoves", gs.LegalMovesRequest),
    "ApplyMove": ("/v1/state:apply", gs.ApplyMoveRequest),
    "GetView": ("/v1/state:view", gs.GetViewRequest),
    "Score": ("/v1/state:score", gs.ScoreRequest),
    "ApplyMoves": ("/v1/state:applyMoves", gs.ApplyMovesRequest),
    "Determinize": ("/v1/view:determinize", gs.DeterminizeRequest),
    "Simulate": ("/v1/state:simulate", gs.SimulateRequest),
}
#: The six rules RPCs, whose server time per request is the fuzz's bound of interest.
RULES_RPCS = ("Deal", "LegalMoves", "ApplyMove", "GetView", "Score", "ApplyMoves")


def corpus(seed: int = 1, per_form: int = 12) -> list[tuple[str, Message]]:
    """Valid requests of every RPC from seeded random play of every form."""
    rng = random.Random(seed)
    out: list[tuple[str, Message]] = []
    for game, players, values in FORMS:
        rules, codec = rules_for(game), CODECS[game]
        options = json_format.ParseDict({game: values}, game_pb2.GameOptions())
        out.append(("Deal", gs.DealRequest(game=game, players=players, options=options, seed=7)))
        state, _ = rules.deal(codec.options(options), players, rng.randrange(2**32))
        positions = random_play_positions(rules, state, rng, steps=400, every=7)
        for state in rng.sample(positions, min(per_form, len(positions))):
            seat = rules.to_act(state)
            wire = game_pb2.GameState()
            codec.state_to_wire(state, seat, wire)
            legal = rules.legal_moves(state)
            moves = []
            for move in legal[:3]:
                msg = game_pb2.Move()
                codec.move_to_wire(move, msg)
                moves.append(msg)
            view = game_pb2.GameView()
            decider = rules.controller(state, seat)
            codec.view_to_wire(rules.view(state, decider), view)
            out += [
                ("LegalMoves", gs.LegalMovesRequest(state=wire)),
                ("ApplyMove", gs.ApplyMoveRequest(state=wire, move=moves[0])),
                ("GetView", gs.GetViewRequest(state=wire, seat=rng.randrange(players))),
                ("Score", gs.ScoreRequest(state=wire)),
                ("ApplyMoves", gs.ApplyMovesRequest(state=wire, moves=moves[:1])),
                ("Determinize", gs.DeterminizeRequest(view=view, count=3, seed=1)),
                ("Simulate", gs.SimulateRequest(view=view, playouts=1, determinizations=1)),
                ("Simulate", gs.SimulateRequest(state=wire, playouts=1)),
            ]
    return out


def _places(msg: Message) -> list[tuple[Message, FieldDescriptor]]:
    """Every (message, field) in ``msg``'s tree that a change can land on."""
    found = []
    stack = [msg]
    while stack:
        holder = stack.pop()
        for f in holder.DESCRIPTOR.fields:
            found.append((holder, f))
            if f.message_type is None:
                continue
            if f.is_repeated:
                stack.extend(getattr(holder, f.name))
            elif holder.HasField(f.name):
                stack.append(getattr(holder, f.name))
    return found


def mutate(rng: random.Random, msg: Message) -> str:
    """One random change somewhere in ``msg``'s tree; the change in words."""
    holder, f = rng.choice(_places(msg))
    if f.message_type is not None:
        if f.is_repeated:
            items = getattr(holder, f.name)
            if items and rng.random() < 0.6:
                action = rng.choice(["delete", "copy", "clear"])
                if action == "delete":
                    del items[rng.randrange(len(items))]
                elif action == "copy":
                    items.add().CopyFrom(items[rng.randrange(len(items))])
                else:
                    del items[:]
                return f"{f.full_name} {action}"
            items.add()
            return f"{f.full_name} append empty"
        holder.ClearField(f.name)
        return f"{f.full_name} cleared"
    edges = [0, 1, 2, 3, 4, 5, 6, 10, 13, 40, 41, 54, 108, 1024, 4096, 10000]
    value = edge_value(rng, f, holder, edges, STRINGS)
    return change_field(rng, holder, f, value)


@dataclass
class Tally:
    codes: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    http: int = 0

    def bad(self, text: str) -> None:
        if len(self.wrong) < 50:
            self.wrong.append(text)


async def _grpc_call(
    stub: GameServiceStub, rpc: str, request: Message, tally: Tally, why: str
) -> None:
    try:
        await getattr(stub, rpc)(request, timeout=TIMEOUT)
        tally.codes[f"{rpc}:OK"] += 1
    except grpc.aio.AioRpcError as e:
        code = e.code().name
        tally.codes[f"{rpc}:{code}"] += 1
        if code not in CLIENT_CODES:
            tally.bad(f"gRPC {rpc} {why}: {code} {e.details()[:200]}")
        elif len(field_violations(e)) != 1:
            tally.bad(f"gRPC {rpc} {why}: {code} without exactly one field violation")


async def _http_call(
    http: httpx.AsyncClient, rpc: str, request: Message, tally: Tally, why: str
) -> None:
    route, _ = ROUTES[rpc]
    body = json_format.MessageToDict(request)
    if rpc == "Deal":
        game = body.pop("game", "") or "maraffa"
        route = route.format(game=game[:200].replace("/", "_").replace("\x00", "_") or "x")
    try:
        reply = await http.post(route, json=body)
    except httpx.TransportError as e:  # a problem to report, not the end of the run
        tally.http += 1
        tally.codes[f"{rpc}:HTTP-{type(e).__name__}"] += 1
        tally.bad(f"HTTP {rpc} {why}: {type(e).__name__} {str(e)[:200]}")
        return
    tally.http += 1
    tally.codes[f"{rpc}:HTTP{reply.status_code}"] += 1
    if reply.status_code == 200:
        return
    if reply.status_code not in (400, 404, 409):
        tally.bad(f"HTTP {rpc} {why}: {reply.status_code} {reply.text[:200]}")
        return
    if reply.status_code == 404:  # a game name that is no route segment
        return
    details = reply.json().get("details", [])
    violations = [v for d in details for v in d.get("fieldViolations", [])]
    if len(violations) != 1:
        tally.bad(f"HTTP {rpc} {why}: {reply.status_code} without exactly one field violation")


def rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:  # gone between listing and reading
        pass
    return 0


def children_rss_kib(pid: int) -> int:
    """The RSS of ``pid``'s children (the simulator's pool), summed."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            total += rss_kib(int(child))
    return total


#: How much nicer than the server the fuzzing process runs (the pool's workers: 10).
CLIENT_NICENESS = 5

#: The part of the run that is warm-up: the server's memos and caches (bounded by
#: entries and bytes) fill from fuzzed requests like the rest, so the RSS compared
#: with at the end is the one they reach, and what grows after it is a leak.
WARM_UP_SHARE = 0.1


async def _fuzz(
    port: int, http_port: int, pid: int, n: int, seed: int, in_flight: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    base = corpus(seed)
    tally = Tally()
    warm_up = int(n * WARM_UP_SHARE)
    async with (
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{http_port}", timeout=TIMEOUT) as http,
    ):
        stub = GameServiceStub(channel)
        for rpc, request in base:
            await _grpc_call(stub, rpc, request, Tally(), "warm-up")

        async def fuzzed(numbers: range) -> None:
            counter = iter(numbers)

            async def worker() -> None:
                for i in counter:
                    rpc, original = base[rng.randrange(len(base))]
                    request = type(original)()
                    request.CopyFrom(original)
                    changes = [mutate(rng, request) for _ in range(rng.randint(1, 3))]
                    why = f"#{i} {changes}"
                    if i % 4 == 3:
                        await _http_call(http, rpc, request, tally, why)
                    else:
                        await _grpc_call(stub, rpc, request, tally, why)

            await asyncio.gather(*(worker() for _ in range(in_flight)))

        start = time.perf_counter()
        await fuzzed(range(warm_up))
        warm, warm_pool = rss_kib(pid), children_rss_kib(pid)
        await fuzzed(range(warm_up, n))
        elapsed = time.perf_counter() - start
    return {
        "requests": n,
        "warm_up_requests": warm_up,
        "seconds": round(elapsed, 1),
        "http_requests": tally.http,
        "codes": dict(sorted(tally.codes.items())),
        "wrong": tally.wrong,
        "rss_kib_after_warm_up": warm,
        "rss_kib_after_run": rss_kib(pid),
        "pool_rss_kib_after_warm_up": warm_pool,
        "pool_rss_kib_after_run": children_rss_kib(pid),
    }


def server_times(log: Path) -> tuple[dict[str, float], list[str]]:
    """The slowest call of each RPC, in ms on the server, from its access log, and the
    ten slowest calls of the rules RPCs (RPC, code, ms)."""
    worst: dict[str, float] = {}
    rules_calls: list[tuple[float, str]] = []
    with log.open() as lines:
        for line in lines:
            if not line.startswith("{") or '"method"' not in line:
                continue
            entry = json.loads(line)
            rpc = entry["method"].rsplit("/", 1)[1]
            worst[rpc] = max(worst.get(rpc, 0.0), entry["ms"])
            if rpc in RULES_RPCS:
                rules_calls.append((entry["ms"], f"{rpc} {entry['code']} {entry['ms']} ms"))
    slowest = [text for _, text in sorted(rules_calls, reverse=True)[:10]]
    return worst, slowest


def run(n: int, seed: int = 1, in_flight: int = 16, folder: Path | None = None) -> dict[str, Any]:
    """The whole fuzz: a server of its own, ``n`` fuzzed requests, the report."""
    folder = folder or Path(os.environ.get("TMPDIR", "/tmp"))
    log = folder / f"fuzz-server-{os.getpid()}.log"
    with log.open("w") as err:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mazzo",
                "serve",
                "--port",
                "0",
                "--http-port",
                "0",
                "--access-log",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        # The load comes from this process, on the same machine: nicer than the server,
        # so that the server times are the server's, not this process's turn on a core.
        os.nice(CLIENT_NICENESS)
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline().rsplit(":", 1)[1])
            http_port = int(server.stdout.readline().rsplit(":", 1)[1])
            report = asyncio.run(_fuzz(port, http_port, server.pid, n, seed, in_flight))
        finally:
            server.terminate()
            server.wait(30)
    worst, slowest = server_times(log)
    log.unlink()
    report["worst_server_ms"] = worst
    report["slowest_rules_calls"] = slowest
    report["worst_rules_rpc_ms"] = max((worst.get(r, 0.0) for r in RULES_RPCS), default=0.0)
    warm, after = report["rss_kib_after_warm_up"], report["rss_kib_after_run"]
    report["rss_growth_percent"] = round((after - warm) / warm * 100, 1) if warm else 0.0
    return report


def check(report: dict[str, Any], max_rules_ms: float, max_rss_growth: float) -> list[str]:
    """What the report shows wrong, against the issue's bounds."""
    problems = list(report["wrong"])
    for code in report["codes"]:
        if any(bad in code for bad in ("UNKNOWN", "INTERNAL", "RESOURCE_EXHAUSTED", "HTTP5")):
            problems.append(f"{code}: {report['codes'][code]}")
    if report["worst_rules_rpc_ms"] > max_rules_ms:
        problems.append(f"a rules RPC took {report['worst_rules_rpc_ms']} ms on the server")
    if report["rss_growth_percent"] > max_rss_growth:
        problems.append(f"RSS grew {report['rss_growth_percent']} % after warm-up")
    return problems


Main = Callable[[], int]


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--in-flight", type=int, default=16)
    args = parser.parse_args()
    report = run(args.n, args.seed, args.in_flight)
    problems = check(report, 50.0, 20.0)
    report["problems"] = problems
    print(json.dumps(report, indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
