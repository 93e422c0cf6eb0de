"""The server object: owns the port, the servicers, health, reflection and shutdown."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from mazzo.service.errors import DomainErrorInterceptor
from mazzo.service.game_service import GameService
from mazzo.v1 import bot_pb2, game_service_pb2, game_service_pb2_grpc

log = logging.getLogger("mazzo.server")

GAME_SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
# Bots implement this service; the server only describes it through reflection, which
# needs its descriptor loaded.
BOT_SERVICE = bot_pb2.DESCRIPTOR.services_by_name["Bot"].full_name
SHUTDOWN_GRACE_SECONDS = 5.0
GC_THRESHOLD = 20_000

# Off: a second server on a busy port must fail, not silently share it.
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]


class PortInUseError(RuntimeError):
    pass


async def start_server(host: str = "127.0.0.1", port: int = 50051) -> tuple[grpc.aio.Server, int]:
    """Build and start a server; returns it with the bound port (``port=0`` picks one)."""
    server = grpc.aio.server(interceptors=[DomainErrorInterceptor()], options=SERVER_OPTIONS)
    game_service_pb2_grpc.add_GameServiceServicer_to_server(GameService(), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (GAME_SERVICE, BOT_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as e:
        raise PortInUseError(f"cannot listen on {address}: {e}") from e
    if bound == 0:
        raise PortInUseError(f"cannot listen on {address}")
    await server.start()
    for name in ("", GAME_SERVICE):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    server.health = health_servicer
    _tune_gc()
    return server, bound


def _tune_gc() -> None:
    """Requests allocate many short-lived objects and no cycles worth chasing often:
    move what start-up built out of the collector's view and collect young objects
    less often, so the cyclic collector stops rescanning the same long-lived heap."""
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


async def stop_server(server: grpc.aio.Server, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
    """Stop taking calls, report NOT_SERVING, let calls in flight finish."""
    health_servicer = getattr(server, "health", None)
    if health_servicer is not None:
        await health_servicer.enter_graceful_shutdown()
    await server.stop(grace)


async def serve(host: str, port: int) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully."""
    server, bound = await start_server(host, port)
    log.info("mazzo serving gRPC on %s:%d", host, bound)
    print(f"mazzo: serving gRPC on {host}:{bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    print("mazzo: shutting down", flush=True)
    await stop_server(server)
