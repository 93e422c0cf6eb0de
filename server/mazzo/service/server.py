"""The server object: owns the ports, the servicers, health, reflection and shutdown."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from opentelemetry.trace import Tracer
from starlette.routing import BaseRoute

from mazzo import __version__
from mazzo.buildinfo import current
from mazzo.service.errors import Admission, DomainErrorInterceptor
from mazzo.service.game_service import GameService, add_to_server
from mazzo.service.http_connections import HttpLimits, listening_socket, start_uvicorn
from mazzo.service.metrics import Metrics
from mazzo.service.rest import build_app
from mazzo.service.sealing import Sealer
from mazzo.service.tracing import configured_tracer
from mazzo.v1 import bot_pb2, game_service_pb2

log = logging.getLogger("mazzo.server")

GAME_SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
# Bots implement this service; the server only describes it through reflection, which
# needs its descriptor loaded.
BOT_SERVICE = bot_pb2.DESCRIPTOR.services_by_name["Bot"].full_name
SHUTDOWN_GRACE_SECONDS = 5.0

# Off: a second server on a busy port must fail, not silently share it. Only the
# workers of `mazzo serve --workers N` share ports, on purpose (workers.py).
# Calls at once on one connection are bounded, so one client cannot queue thousands of
# calls on a process (every call of a process shares one event loop).
MAX_CONCURRENT_STREAMS = 128
SERVER_OPTIONS: list[tuple[str, int]] = [
    ("grpc.so_reuseport", 0),
    ("grpc.max_concurrent_streams", MAX_CONCURRENT_STREAMS),
]
# Workers close each connection after about 1 s (grpc adds +-10 % jitter), letting
# its calls finish: clients reconnect, and the kernel spreads the new connections
# over the workers, so a restarted worker has traffic again within 5 s.
SHARED_PORT_OPTIONS: list[tuple[str, int]] = [
    ("grpc.so_reuseport", 1),
    ("grpc.max_concurrent_streams", MAX_CONCURRENT_STREAMS),
    ("grpc.max_connection_age_ms", 1000),
    ("grpc.max_connection_age_grace_ms", 30000),
]
#: HTTP connections (hence requests) at once, how long a request head may take, how
#: long an answered connection may idle (http_connections.py). The idle time is longer
#: than uvicorn's default, 5 s, which is also the idle expiry of common client pools
#: (httpx's): a client could send a request on a connection the server was closing that
#: instant and get a read error (seen once in a million fuzzed requests). 65 s outlasts
#: client pools and a load balancer's usual 60 s, so the other side closes first.
HTTP_LIMITS = HttpLimits(head_seconds=10.0, connections=512, idle_seconds=65)


class PortInUseError(RuntimeError):
    pass


@dataclass(frozen=True)
class Tls:
    """The server's certificate chain and key (PEM files), and with ``client_ca`` the
    authority whose certificates clients must present (mutual TLS)."""

    cert: Path
    key: Path
    client_ca: Path | None = None

    def grpc_credentials(self) -> grpc.ServerCredentials:
        client_ca = self.client_ca.read_bytes() if self.client_ca is not None else None
        return grpc.ssl_server_credentials(
            [(self.key.read_bytes(), self.cert.read_bytes())],
            root_certificates=client_ca,
            require_client_auth=client_ca is not None,
        )

    def describe(self) -> str:
        return "mutual TLS" if self.client_ca is not None else "TLS"


@dataclass
class Running:
    """A started server: gRPC always, HTTP/JSON when asked for."""

    grpc: grpc.aio.Server
    port: int
    health: health.aio.HealthServicer
    service: GameService
    admission: Admission
    http: uvicorn.Server | None = None
    http_port: int | None = None
    http_task: asyncio.Task[None] | None = None
    stopping: bool = False


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def start_server(
    host: str = "127.0.0.1",
    port: int = 50051,
    http_port: int | None = None,
    access_log: bool = False,
    reuse_port: bool = False,
    tracer: Tracer | None = None,
    tls: Tls | None = None,
    sealer: Sealer | None = None,
    http_limits: HttpLimits = HTTP_LIMITS,
    http_routes: Sequence[BaseRoute] = (),
) -> tuple[Running, int]:
    """Start serving; returns the server and its gRPC port (``port=0`` picks one).

    With ``http_port`` (0 picks one) the same service is also served as HTTP/JSON;
    ``access_log`` logs every RPC with its code, time and request id; ``reuse_port``
    shares the ports with the other workers of ``--workers``; ``tracer`` makes a span
    of every RPC (tracing.py); ``tls`` serves both over TLS (mutual with a client CA);
    ``sealer`` seals and opens states with the server's keys (sealing.py);
    ``http_limits`` bounds HTTP connections (http_connections.py); ``http_routes`` are
    served beside the API (``mazzo serve``: the replay viewer's).
    """
    metrics = Metrics()
    interceptor = DomainErrorInterceptor(metrics, access_log, tracer)
    server = grpc.aio.server(
        interceptors=[interceptor],
        options=SHARED_PORT_OPTIONS if reuse_port else SERVER_OPTIONS,
    )
    service = GameService(metrics=metrics, sealer=sealer)
    add_to_server(service, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (GAME_SERVICE.full_name, BOT_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    address = _address(host, port)
    try:
        if tls is None:
            bound = server.add_insecure_port(address)
        else:
            bound = server.add_secure_port(address, tls.grpc_credentials())
    except RuntimeError as e:
        raise PortInUseError(f"cannot listen on {address}: {e}") from e
    if bound == 0:
        raise PortInUseError(f"cannot listen on {address}")
    await server.start()
    for name in ("", GAME_SERVICE.full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    running = Running(server, bound, health_servicer, service, interceptor.admission)
    if http_port is not None:
        try:
            await _start_http(running, host, http_port, reuse_port, tls, http_limits, http_routes)
        except BaseException:
            await server.stop(None)
            raise
    return running, bound


async def _start_http(
    running: Running,
    host: str,
    port: int,
    reuse_port: bool,
    tls: Tls | None = None,
    limits: HttpLimits = HTTP_LIMITS,
    routes: Sequence[BaseRoute] = (),
) -> None:
    """HTTP/JSON on the same event loop, through the same servicer (HTTPS with ``tls``),
    with ``routes`` besides the API's."""
    try:
        sock = listening_socket(host, port, reuse_port)
    except OSError as e:
        raise PortInUseError(f"cannot listen on {_address(host, port)} (HTTP): {e}") from e
    app = build_app(
        GAME_SERVICE,
        running.service,
        running.service.metrics,
        lambda: not running.stopping,
        running.service.simulator,
        running.admission,
        routes,
    )
    secure: dict[str, Any] = {}
    if tls is not None:
        secure = {"ssl_certfile": str(tls.cert), "ssl_keyfile": str(tls.key)}
        if tls.client_ca is not None:
            secure |= {"ssl_ca_certs": str(tls.client_ca), "ssl_cert_reqs": ssl.CERT_REQUIRED}
    http = await start_uvicorn(app, sock, limits, **secure)
    running.http = http
    running.http_port = sock.getsockname()[1]
    running.http_task = asyncio.create_task(http.main_loop())


async def stop_server(
    running: Running, grace: float = SHUTDOWN_GRACE_SECONDS, quiet: float = Admission.QUIET_SECONDS
) -> None:
    """Report NOT_SERVING, refuse new calls (UNAVAILABLE), let calls in flight finish,
    then stop gRPC (whose own shutdown would cancel calls not yet started); ``quiet``:
    the silence that says no more calls are on their way (``Admission.drain``)."""
    running.stopping = True
    await running.health.enter_graceful_shutdown()
    await running.admission.drain(grace, quiet)
    if running.http is not None and running.http_task is not None:
        running.http.should_exit = True
        await running.http_task
        await running.http.shutdown()
    await running.grpc.stop(grace)
    running.service.simulator.close()


def settle_heap() -> None:
    """Put what starting made (modules, descriptors, the servicer: some 100,000
    objects) out of the cyclic collector's reach. Every full collection walked them
    all, holding the event loop, and every call waiting on it, for 75-100 ms (seen
    in the fuzz as rules calls of 280 ms); what calls create is collected as before."""
    gc.collect()
    gc.freeze()


async def serve(
    host: str,
    port: int,
    http_port: int | None,
    access_log: bool = False,
    reuse_port: bool = False,
    tls: Tls | None = None,
    sealer: Sealer | None = None,
    http_routes: Sequence[BaseRoute] = (),
) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully; ``http_routes`` are
    served beside the HTTP API."""
    build = current()
    log.info("mazzo %s (%s)", __version__, build.describe(), extra={"build": build.label})
    tracer = configured_tracer()
    running, bound = await start_server(
        host, port, http_port, access_log, reuse_port, tracer, tls, sealer, HTTP_LIMITS, http_routes
    )
    if sealer is not None:
        log.info(
            "sealing states with key %r; opening with %s",
            sealer.key_id,
            ", ".join(map(repr, sealer.key_ids)),
        )
    settle_heap()
    over = "" if tls is None else f" over {tls.describe()}"
    log.info("mazzo serving gRPC on %s:%d%s", host, bound, over)
    print(f"mazzo: serving gRPC on {host}:{bound}{over}", flush=True)
    if running.http_port is not None:
        web = "HTTP/JSON" if tls is None else "HTTPS/JSON"
        print(f"mazzo: serving {web} on {host}:{running.http_port}{over}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    print("mazzo: shutting down", flush=True)
    await stop_server(running)
