"""HTTP connections that cannot be held open for nothing, and a JSON answer past the cap.

uvicorn closes a connection only once it has answered a request on it and the
connection then idles (``timeout_keep_alive``): a connection that never sends a whole
request head stays open for good, and some 512 of them made uvicorn's
``limit_concurrency`` answer every other client with a plain-text 503. This protocol
(uvicorn's h11 protocol, pinned with uvicorn) adds what is missing:

- **a deadline for the request head**: from the connection's opening, or from the
  first byte of a request after an answer, the request line and headers must arrive
  within ``HttpLimits.head_seconds``; else HTTP 408 with a JSON ``google.rpc.Status``
  (``DEADLINE_EXCEEDED``) when part of a head came, and the connection is closed;
- **no request body left trickling** after the answer: a client still sending the
  body of an answered request (a 413, say) has ``head_seconds`` more to finish it,
  read and dropped, before the connection is closed (closing at once would reset the
  connection under the client's feet and lose the answer it has not read yet);
- **the cap as the API's error**: a connection opened past ``HttpLimits.connections``
  gets its request answered 503 with a JSON ``Status`` (``UNAVAILABLE``) and a
  ``Retry-After``, then is closed; its head must arrive within a second.

Requests at once are bounded by the same cap: h11 serves one request at a time on a
connection.
"""

from __future__ import annotations

import asyncio
import json
import socket
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import Server, ServerState

#: gRPC codes of the answers written here (google.rpc.Code).
_DEADLINE_EXCEEDED, _UNAVAILABLE = 4, 14


@dataclass(frozen=True)
class HttpLimits:
    """How long a request head may take, how many connections a server holds, how long
    an answered connection may idle, and what a client past the cap is told to wait."""

    head_seconds: float = 10.0
    connections: int = 512
    idle_seconds: int = 65
    retry_after_seconds: int = 1
    #: the head deadline of a connection past the cap: it is only told to come back
    over_cap_head_seconds: float = 1.0
    #: How long a stopping server waits for its requests in flight to end before it
    #: cancels them: a client that never sends the body it announced, or never reads
    #: an answer, does not keep the process from ending.
    shutdown_seconds: int = 5


def status_body(code: int, message: str) -> bytes:
    """A ``google.rpc.Status`` without details, in the proto3 JSON mapping."""
    return json.dumps({"code": code, "message": message}).encode()


def raw_response(status: int, reason: str, body: bytes, extra: str = "") -> bytes:
    """A whole HTTP/1.1 answer that closes its connection, written without h11 (which
    cannot answer before a request head has arrived)."""
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode() + body


def over_capacity_app(limits: HttpLimits) -> Any:
    """The ASGI app that answers every request of a connection past the cap."""
    message = (
        f"the server holds {limits.connections} HTTP connections at once; "
        f"retry in {limits.retry_after_seconds} s"
    )
    body = status_body(_UNAVAILABLE, message)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(limits.retry_after_seconds).encode()),
        (b"connection", b"close"),
    ]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    return app


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on request heads and a JSON answer past
    the connection cap (the module's docstring says why)."""

    limits = HttpLimits()

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._head_timer: asyncio.TimerHandle | None = None
        self._drain_timer: asyncio.TimerHandle | None = None
        self._head_seconds = self.limits.head_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.connections:
            self.app = over_capacity_app(self.limits)
            self._head_seconds = self.limits.over_cap_head_seconds
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:  # a head begun (or awaited), not complete
            if self._head_timer is None:
                self._arm_head_timer()
        else:
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self._drain_timer = self.loop.call_later(self._head_seconds, self._undrained)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        if self._drain_timer is not None:
            self._drain_timer.cancel()
        super().connection_lost(exc)

    def _undrained(self) -> None:
        """The body of an answered request still coming after the grace: closed."""
        self._drain_timer = None
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self._head_seconds, self._head_too_late)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        """No whole request head in time: a 408 for a client that sent part of one, a
        plain close for one that sent nothing (or is idle between requests)."""
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        begun = bool(self.conn.trailing_data[0])
        if begun:
            why = f"the request's head did not arrive within {self._head_seconds:g} s"
            body = status_body(_DEADLINE_EXCEEDED, f"request: {why}")
            self.transport.write(raw_response(408, "Request Timeout", body))
        self.transport.close()


def bounded_protocol(limits: HttpLimits) -> type[BoundedH11Protocol]:
    """The protocol class for uvicorn's ``Config(http=...)`` with these limits."""
    return type("BoundedH11Protocol", (BoundedH11Protocol,), {"limits": limits})


async def start_uvicorn(
    app: Any, sock: socket.socket, limits: HttpLimits, **options: Any
) -> Server:
    """uvicorn serving ``app`` on the bound ``sock`` with these limits (``options``:
    TLS, an event size), started; its ``main_loop`` is the caller's to run. One way
    for every HTTP server of ours, so each bounds its connections alike."""
    config = Config(
        app,
        log_level="warning",
        lifespan="off",
        http=bounded_protocol(limits),
        timeout_keep_alive=limits.idle_seconds,
        timeout_graceful_shutdown=limits.shutdown_seconds,
        **options,
    )
    server = Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    await server.startup(sockets=[sock])
    return server


def listening_socket(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0: a free port) for uvicorn to serve on.

    IPPROTO_TCP said, not 0: asyncio turns Nagle off only on sockets that say it (the
    accepted ones inherit it); with Nagle a kept-alive answer waited ~40 ms for the
    client's delayed ACK. OSError, the socket closed, when the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock
