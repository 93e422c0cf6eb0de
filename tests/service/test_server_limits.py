"""Issue 13 item 6: calls at once are bounded, per gRPC connection and over HTTP, so
one client cannot queue work without end on a process's one event loop."""

from __future__ import annotations

from mazzo.service.http_connections import BoundedH11Protocol
from mazzo.service.server import (
    HTTP_LIMITS,
    SERVER_OPTIONS,
    SHARED_PORT_OPTIONS,
    start_server,
    stop_server,
)


def test_grpc_streams_at_once_are_bounded_on_every_server() -> None:
    for options in (SERVER_OPTIONS, SHARED_PORT_OPTIONS):
        assert ("grpc.max_concurrent_streams", 128) in options


async def test_http_requests_at_once_are_bounded() -> None:
    running, _ = await start_server("127.0.0.1", 0, http_port=0)
    try:
        assert running.http is not None
        protocol = running.http.config.http
        assert isinstance(protocol, type) and issubclass(protocol, BoundedH11Protocol)
        assert protocol.limits == HTTP_LIMITS and HTTP_LIMITS.connections == 512
        # Idle connections outlive client pools' (httpx: 5 s) and load balancers' (60 s).
        assert running.http.config.timeout_keep_alive == HTTP_LIMITS.idle_seconds > 60
    finally:
        await stop_server(running, grace=0.5)
