"""``mazzo serve`` as its users run it: a process, a port, signals, the environment."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo import __version__
from mazzo.buildinfo import current
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc

START_TIMEOUT = 30


@contextmanager
def serve(
    *args: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """Run ``mazzo serve`` and yield the process and the port it announced."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", "serve", "--http-port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving gRPC on" in line, (line, proc.stderr.read() if proc.stderr else "")
        yield proc, int(line.rsplit(":", 1)[1])
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(START_TIMEOUT)


def check_serving(port: int) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=10
        )
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


def test_serve_on_port_zero_announces_the_port_and_stops_cleanly_on_sigterm() -> None:
    with serve("--host", "127.0.0.1", "--port", "0") as (proc, port):
        check_serving(port)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=START_TIMEOUT)
        assert proc.returncode == 0
        assert "shutting down" in out


def test_the_first_log_line_names_the_build() -> None:
    """docs/compiled.md: an operator reads in the log which build of the engines serves."""
    with serve("--port", "0", "--no-http") as (proc, _):
        assert proc.stderr is not None
        first = json.loads(proc.stderr.readline())
    build = current()
    assert first["message"] == f"mazzo {__version__} ({build.describe()})", first
    assert first["build"] == build.label


def test_host_and_port_come_from_the_environment() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    env = {"MAZZO_HOST": "127.0.0.1", "MAZZO_PORT": str(free)}
    with serve(env=env) as (_, port):
        assert port == free
        check_serving(port)


def test_a_second_server_on_a_busy_port_fails_loudly() -> None:
    """Port reuse is off: the second server must not silently share the port."""
    with serve("--port", "0") as (_, port):
        second = subprocess.run(
            [sys.executable, "-m", "mazzo", "serve", "--no-http", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
        )
        assert second.returncode == 1
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr
        check_serving(port)


def test_a_bad_port_is_refused_by_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mazzo", "serve", "--no-http", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert result.returncode == 2
    assert "is not a port (0..65535)" in result.stderr


@pytest.mark.slow
def test_a_wheel_built_from_the_sources_carries_the_generated_code(
    tmp_path: os.PathLike[str],
) -> None:
    """``pip install .`` works from a clean clone: the build generates mazzo.v1. This is
    the pure wheel (``MAZZO_PURE=1``: for any platform); make compiled-test checks the
    compiled build. Built with this venv's build tools (``--no-build-isolation``: 2 s,
    not 15): that ``[build-system] requires`` is enough, an isolated build shows each
    time ``make venv`` installs the package (``pip install -e``), before any test."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wheel_command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*wheel_command, "-q", "-w", str(tmp_path), root],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "MAZZO_PURE": "1"},
    )
    assert result.returncode == 0, result.stderr
    import zipfile

    (wheel,) = [p for p in os.listdir(tmp_path) if p.endswith(".whl")]
    assert wheel.endswith("-py3-none-any.whl"), wheel
    names = zipfile.ZipFile(os.path.join(tmp_path, wheel)).namelist()
    for module in (
        "game_service_pb2.py",
        "game_service_pb2_grpc.py",
        "maraffa_pb2.py",
        "bot_pb2.py",
    ):
        assert f"mazzo/v1/{module}" in names
    assert "mazzo/cli.py" in names


@pytest.mark.slow
def test_workers_share_one_port_and_every_worker_serves() -> None:
    """--workers N: N processes on one port (SO_REUSEPORT on purpose); connections
    from many clients spread over all of them (each access-log line names its process)."""
    with serve("--workers", "2", "--port", "0", "--access-log") as (proc, port):
        assert proc.stdout is not None
        assert "HTTP/JSON on" in proc.stdout.readline()
        workers = {int(pid) for pid in proc.stdout.readline().split(":", 2)[2].split()}
        assert len(workers) == 2
        check_serving(port)  # the parent announces the ports once every worker serves
        # A fresh connection each time, so the kernel picks a worker each time: a local
        # subchannel pool, or gRPC may reuse the last channel's connection (seen under
        # load: all 40 calls on one worker).
        for _ in range(40):
            options = [("grpc.use_local_subchannel_pool", 1)]
            with grpc.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                stub.Deal(gs.DealRequest(game="maraffa", seed=1), timeout=10)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=START_TIMEOUT)
        assert proc.returncode == 0
    deals = [
        json.loads(line)
        for line in err.splitlines()
        if line.startswith("{") and '"/mazzo.v1.GameService/Deal"' in line
    ]
    assert len(deals) == 40
    assert {d["process"] for d in deals} == workers
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)


@pytest.mark.slow
def test_workers_die_with_a_killed_parent() -> None:
    """Even a SIGKILLed supervisor leaves no worker holding the ports."""
    with serve("--workers", "2", "--port", "0") as (proc, port):
        assert proc.stdout is not None
        proc.stdout.readline()  # HTTP port
        workers = [int(pid) for pid in proc.stdout.readline().split(":", 2)[2].split()]
        check_serving(port)
        proc.kill()
        proc.wait(START_TIMEOUT)
    deadline = time.monotonic() + 2 * START_TIMEOUT
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), [_status(p) for p in workers]


def _alive(pid: int) -> bool:
    """Running, as opposed to gone or a zombie: an orphan that exited holds no port,
    and waits for the machine's init to reap it."""
    return _status(pid).get("State", "Z").split()[0] not in ("Z", "X")


def _status(pid: int) -> dict[str, str]:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    fields = dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)
    return {
        k: v.strip()
        for k, v in fields.items()
        if k in ("Name", "State", "PPid", "SigPnd", "ShdPnd")
    }


def _load(
    port: int,
    seconds: float,
    channels: int,
    per_channel: int,
    options: list,  # type: ignore[type-arg]
    stop: threading.Event | None = None,
) -> dict[str, int]:
    """Deal calls from ``channels`` connections, ``per_channel`` in flight on each, for
    ``seconds`` or until ``stop`` is set: the count of each status code."""
    import asyncio
    from collections import Counter

    codes: Counter[str] = Counter()

    async def run() -> None:
        end = time.monotonic() + seconds
        chans = [
            grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options) for _ in range(channels)
        ]

        async def worker(stub: game_service_pb2_grpc.GameServiceStub) -> None:
            while time.monotonic() < end and not (stop is not None and stop.is_set()):
                try:
                    await stub.Deal(gs.DealRequest(game="maraffa", seed=1), timeout=10)
                    codes["OK"] += 1
                except grpc.aio.AioRpcError as e:
                    codes[e.code().name] += 1

        stubs = [game_service_pb2_grpc.GameServiceStub(c) for c in chans]
        await asyncio.gather(*(worker(s) for s in stubs for _ in range(per_channel)))
        for c in chans:
            await c.close()

    asyncio.run(run())
    return dict(codes)


def test_calls_after_sigterm_are_refused_as_unavailable_never_cancelled() -> None:
    """Issue 13, item 9: calls that arrived after SIGTERM ended CANCELLED (gRPC's own
    shutdown cancels calls it received but had not started); now the server refuses
    new calls with UNAVAILABLE, which a client may retry, and lets the others finish.
    The clients go on calling for 1 s after the signal, well inside the 5 s grace
    (clients still calling past the grace may see CANCELLED: docs/errors.md)."""
    with serve("--port", "0", "--no-http") as (proc, port):
        codes: dict[str, int] = {}
        stop = threading.Event()
        load = threading.Thread(target=lambda: codes.update(_load(port, 60.0, 1, 64, [], stop)))
        load.start()
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        time.sleep(1.0)
        stop.set()
        load.join()
        proc.wait(START_TIMEOUT)
    assert codes.get("OK", 0) > 0
    assert set(codes) <= {"OK", "UNAVAILABLE"}, codes


@pytest.mark.slow
def test_a_killed_worker_costs_no_call_and_its_successor_has_traffic_within_5_s(
    tmp_path: Path,
) -> None:
    """--workers 2 under load, one worker SIGKILLed: with the retry policy of
    clients/service-config.json no call fails, and the restarted worker serves calls
    within 5 s of serving (workers close connections after about 4 s, so clients
    reconnect and the kernel spreads them again)."""
    from mazzo.service.retry import CHANNEL_OPTIONS

    log = tmp_path / "stderr"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mazzo",
                "serve",
                "--workers",
                "2",
                "--port",
                "0",
                "--no-http",
                "--access-log",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            assert proc.stdout is not None
            port = int(proc.stdout.readline().rsplit(":", 1)[1])
            workers = [int(p) for p in proc.stdout.readline().split(":", 2)[2].split()]
            codes: dict[str, int] = {}
            load = threading.Thread(
                target=lambda: codes.update(_load(port, 16.0, 8, 4, CHANNEL_OPTIONS))
            )
            load.start()
            time.sleep(3)
            os.kill(workers[0], signal.SIGKILL)
            load.join()
            proc.send_signal(signal.SIGTERM)
            proc.wait(START_TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
    lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
    assert codes.get("OK", 0) > 0 and set(codes) == {"OK"}, codes
    fresh = [x for x in lines if x.get("process") not in workers]
    started = next(x for x in fresh if "serving gRPC" in x.get("message", ""))
    served = next(x for x in fresh if x.get("method", "").endswith("/Deal"))

    def at(x: dict) -> float:  # type: ignore[type-arg]
        return (
            time.mktime(time.strptime(x["time"].split(",")[0], "%Y-%m-%d %H:%M:%S"))
            + int(x["time"].split(",")[1]) / 1000
        )

    assert at(served) - at(started) <= 5.0, (started, served)
