"""``mazzo serve --workers N``: N server processes sharing one port.

One Python process uses about one core; more cores need more processes. Each
worker is a full server with SO_REUSEPORT deliberately on, so the kernel spreads
incoming connections over them (gRPC clients keep a connection, so balance across
workers comes from many clients — or from Envoy, see deploy/). The parent only
supervises: it restarts a worker that dies and passes SIGTERM on for a graceful stop.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

from mazzo.service.lifetime import die_with

POLL_SECONDS = 0.2
STOP_TIMEOUT = 30.0


def _reserve(host: str, port: int) -> socket.socket:
    """Bind (without listening) to learn the port when 0 was asked and to hold it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def run_workers(
    workers: int, host: str, port: int, http_port: int | None, extra: Sequence[str]
) -> int:
    reserved = [_reserve(host, port)]
    port = reserved[0].getsockname()[1]
    if http_port is not None:
        reserved.append(_reserve(host, http_port))
        http_port = reserved[1].getsockname()[1]
    command = [sys.executable, "-m", "mazzo", "serve", "--reuse-port", "--host", host]
    command += ["--port", str(port)]
    command += ["--no-http"] if http_port is None else ["--http-port", str(http_port)]
    command += list(extra)

    def start() -> subprocess.Popen[bytes]:
        """A worker, returned once it serves (it announces each port on stdout)."""
        child = subprocess.Popen(command, stdout=subprocess.PIPE, preexec_fn=die_with)
        assert child.stdout is not None
        for _ in range(1 if http_port is None else 2):
            if b"serving" not in child.stdout.readline():
                child.kill()
                raise RuntimeError(f"a worker did not start: {' '.join(command)}")
        return child

    children: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(workers):
            children.append(start())
    except RuntimeError as e:
        print(f"mazzo: {e}", file=sys.stderr, flush=True)
        _stop(children)
        return 1
    finally:
        for sock in reserved:
            sock.close()
    print(f"mazzo: serving gRPC on {host}:{port}", flush=True)
    if http_port is not None:
        print(f"mazzo: serving HTTP/JSON on {host}:{http_port}", flush=True)
    print(f"mazzo: {workers} workers: {' '.join(str(c.pid) for c in children)}", flush=True)
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(POLL_SECONDS)
        for i, child in enumerate(children):
            if child.poll() is not None and not stopping:
                print(
                    f"mazzo: worker {child.pid} exited ({child.returncode}); restarting",
                    file=sys.stderr,
                    flush=True,
                )
                children[i] = start()
    print("mazzo: shutting down", flush=True)
    _stop(children)
    return 0


def _stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM for a graceful stop; a worker that does not stop in time is killed."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            child.kill()
