"""HTTP connections that never send a whole request (docs/errors.md#connections-that-send-nothing).

Starts ``mazzo serve`` in its own process, opens ``--silent`` connections that send
nothing and ``--half`` that send half a request head, then probes ``GET /v1/games`` on
new connections every quarter second while a thread keeps calling gRPC
``LegalMoves`` (``hostile_frames.Watch``). Reports, as JSON: the probes' statuses and
content types, how long until a probe is served again, what the half-sent
connections got and when every hostile connection was closed, the worst
``LegalMoves`` latency and the server's peak RSS.

    PYTHONPATH=server .venv/bin/python scripts/hostile_connections.py
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_frames import Watch
from mazzo.ops.replicas import start_replica

HALF_HEAD = b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"
PROBE = b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


async def probe(port: int) -> tuple[str, str]:
    """One request on a new connection: (status, content type), or what went wrong."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
        writer.write(PROBE)
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
    except (TimeoutError, OSError) as e:
        return type(e).__name__, ""
    head = answer.split(b"\r\n\r\n", 1)[0].decode(errors="replace").split("\r\n")
    if not head or not head[0]:
        return "closed", ""
    kinds = [h.split(":", 1)[1].strip() for h in head[1:] if h.lower().startswith("content-type")]
    return head[0].split()[1], (kinds or [""])[0]


async def attack(port: int, silent: int, half: int, seconds: float) -> dict[str, Any]:
    started = time.monotonic()
    opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(silent + half)]
    for _, writer in opened[silent:]:
        writer.write(HALF_HEAD)

    async def fate(reader: asyncio.StreamReader) -> tuple[str, float]:
        data = await reader.read()
        status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
        return status, time.monotonic() - started

    fates = [asyncio.create_task(fate(r)) for r, _ in opened]
    probes: list[tuple[float, str, str]] = []
    while time.monotonic() - started < seconds:
        status, kind = await probe(port)
        probes.append((round(time.monotonic() - started, 2), status, kind))
        await asyncio.sleep(0.25)
    done, _ = await asyncio.wait(fates, timeout=5)
    ends = [t.result() for t in done]
    served_again = next((t for t, status, _ in probes if status == "200"), None)
    return {
        "hostile_connections": silent + half,
        "probes": dict(collections.Counter(f"{s} {k}".strip() for _, s, k in probes)),
        "first_probe_served_s": served_again,
        "hostile_answers": dict(collections.Counter(s for s, _ in ends)),
        "hostile_closed_by_s": round(max((t for _, t in ends), default=0.0), 2),
        "hostile_still_open": len(opened) - len(done),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--silent", type=int, default=600)
    parser.add_argument("--half", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=14.0)
    args = parser.parse_args()
    replica = start_replica()
    server, grpc_port, http_port = replica.process, replica.grpc_port, replica.http_port
    try:
        watch = Watch(server.pid, grpc_port, 4000.0)
        report = asyncio.run(attack(http_port, args.silent, args.half, args.seconds))
        watch.stop.set()
        print(json.dumps(report | watch.figures(), indent=2))
    finally:
        server.terminate()
        server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
