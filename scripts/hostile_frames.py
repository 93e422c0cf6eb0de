"""The viewer's frames endpoint under a hostile record (docs/viewer.md#bounds).

Starts ``mazzo serve`` (gRPC and HTTP on free ports) in its own process, makes one
long legal Burraco record (four builtin random bots, as many hands as it takes to
reach ``--moves`` moves; or reads ``--record``), and posts it to
``POST /viewer/frames``, with ``?views=1`` and without, while a thread keeps calling
gRPC ``LegalMoves`` and ``Health.Check`` on the same server. Reports, as JSON, per
request: its HTTP status, seconds, size of the answer and the start of a refusal's
message; the worst and 99th-percentile ``LegalMoves`` latency while it ran; and the
peak RSS of the server and of its child processes (the frames pool), sampled every
20 ms. The server is killed if it passes ``--kill-at-mb`` (the machine is shared).

    PYTHONPATH=server .venv/bin/python scripts/hostile_frames.py --moves 19000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import httpx
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.ops.replicas import start_replica
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub

#: Moves per hand of four random Burraco bots, about: to choose the hand count.
MOVES_PER_HAND = 190


def long_record(moves: int, seed: int) -> dict[str, Any]:
    """A legal Burraco record of at least ``moves`` moves (or close), played here."""
    from mazzo.referee.match import MatchSpec, options_json, run_match

    hands = max(1, round(moves / MOVES_PER_HAND))
    spec = MatchSpec("hostile", "burraco", seed, 4, options_json("burraco", [f"hands={hands}"]))
    return asyncio.run(run_match(spec, ["builtin:random"] * 4))


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (the frames pool and the simulator's)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        found += kids
        todo += kids
    return found


class Watch:
    """Peak RSS of the server and of its children, and LegalMoves latencies, in threads."""

    def __init__(self, pid: int, grpc_port: int, kill_at_mib: float) -> None:
        self.pid, self.kill_at = pid, kill_at_mib
        self.server_peak = self.children_peak = self.total_peak = 0.0
        self.latencies: list[float] = []
        self.killed = False
        self.stop = threading.Event()
        channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
        self.stub = GameServiceStub(channel)
        self.health = health_pb2_grpc.HealthStub(channel)
        dealt = self.stub.Deal(gs.DealRequest(game="burraco", players=4, seed=1))
        self.request = gs.LegalMovesRequest(state=dealt.state)
        self.threads = [threading.Thread(target=f, daemon=True) for f in (self._rss, self._calls)]
        for thread in self.threads:
            thread.start()

    def reset(self) -> None:
        self.server_peak = self.children_peak = self.total_peak = 0.0
        self.latencies = []

    def _rss(self) -> None:
        while not self.stop.wait(0.02):
            server = rss_mib(self.pid)
            kids = sum(rss_mib(k) for k in children(self.pid))
            self.server_peak = max(self.server_peak, server)
            self.children_peak = max(self.children_peak, kids)
            self.total_peak = max(self.total_peak, server + kids)
            if server + kids > self.kill_at and not self.killed:
                self.killed = True
                os.kill(self.pid, 9)

    def _calls(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                self.stub.LegalMoves(self.request, timeout=60)
                self.health.Check(health_pb2.HealthCheckRequest(), timeout=60)
            except grpc.RpcError:
                if self.killed:
                    return
                raise
            self.latencies.append((time.perf_counter() - started) / 2)
            time.sleep(0.01)

    def figures(self) -> dict[str, Any]:
        times = sorted(self.latencies) or [0.0]
        return {
            "legal_moves_calls": len(self.latencies),
            "legal_moves_worst_s": round(times[-1], 3),
            "legal_moves_p99_s": round(times[int(0.99 * (len(times) - 1))], 3),
            "server_peak_rss_mib": round(self.server_peak),
            "children_peak_rss_mib": round(self.children_peak),
            "total_peak_rss_mib": round(self.total_peak),
        }


#: (query, Accept-Encoding) of each request by name: with views, without, and without
#: gzip (then the server holds the frames uncompressed: its worst case).
CASES = {"views": ("?views=1", "gzip"), "plain": ("", "gzip"), "identity": ("", "identity")}


def post(http_port: int, body: bytes, query: str, encoding: str, timeout: float) -> dict[str, Any]:
    started = time.perf_counter()
    url = f"http://127.0.0.1:{http_port}/viewer/frames{query}"
    headers = {"content-type": "application/json", "accept-encoding": encoding}
    try:
        reply = httpx.post(url, content=body, headers=headers, timeout=timeout)
    except httpx.HTTPError as e:
        return {"status": None, "error": repr(e)[:200], "seconds": time.perf_counter() - started}
    out: dict[str, Any] = {
        "status": reply.status_code,
        "seconds": round(time.perf_counter() - started, 2),
        "bytes_sent": reply.num_bytes_downloaded,
        "bytes_json": len(reply.content),
    }
    if reply.status_code != 200:
        out["message"] = reply.json().get("message", "")[:160]
        out["retry_after"] = reply.headers.get("retry-after")
    return out


def run(record: bytes, cases: list[str], timeout: float, kill_at_mib: float) -> dict[str, Any]:
    replica = start_replica()
    server, grpc_port, http_port = replica.process, replica.grpc_port, replica.http_port
    try:
        watch = Watch(server.pid, grpc_port, kill_at_mib)
        time.sleep(1.0)
        report: dict[str, Any] = {"idle": watch.figures()}
        for query, encoding in (CASES[name] for name in cases):
            watch.reset()
            answer = post(http_port, record, query, encoding, timeout)
            time.sleep(0.5)  # the latency of calls right after, too
            report[f"POST /viewer/frames{query} ({encoding})"] = answer | watch.figures()
            if watch.killed:
                report["killed_at_mib"] = kill_at_mib
                break
        watch.stop.set()
        return report
    finally:
        server.terminate()
        server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=19_000)
    parser.add_argument("--record", type=Path, help="post this record (one JSON line)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--kill-at-mb", type=float, default=6000.0)
    parser.add_argument("--cases", default=",".join(CASES), help="of: " + ", ".join(CASES))
    args = parser.parse_args()
    if args.record is not None:
        body = args.record.read_bytes().strip()
    else:
        body = json.dumps(long_record(args.moves, args.seed)).encode()
    moves = len(json.loads(body)["moves"])
    report = {"record_moves": moves, "record_bytes": len(body)}
    report |= run(body, args.cases.split(","), args.timeout, args.kill_at_mb)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
