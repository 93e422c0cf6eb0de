"""``mazzo.v1.Tables/Join`` over HTTP/1.1 and JSON, for bots without gRPC streaming.

A shell script with curl, or a browser's ``fetch``, cannot hold a bidirectional gRPC
stream; each can read a long response and send requests. So the one stream is split
in two, with the same messages in the proto's JSON mapping:

- ``POST /v1/tables:join``, the body a ``BotMessage`` holding the ``Hello``: the
  answer is the stream of ``TableMessage``\\ s, one JSON object a line
  (``application/x-ndjson``), the ``Welcome`` first. ``{}`` lines (no kind) keep a
  quiet stream alive and let the gateway notice a peer that is gone. A stream that
  another connection of the token replaced ends with a ``Refusal`` of no decision
  (sequence 0, its field ``hello``): do not dial again. Any other end without the
  run's ``MatchEnded`` is a drop: dial again within the grace.
- ``POST /v1/tables:answer``, the body a ``BotMessage`` holding an ``Answer``, with
  ``Authorization: Bearer TOKEN``: 200 ``{}`` when applied, else the ``Refusal``
  (400 when it counts as a fault, 409 for a decision no longer pending).

The door serves its OpenAPI document at ``GET /openapi.json``.

**From a page of another origin** (a bot written as a web page, served from its
author's site): with ``HttpOptions.cors`` (``--cors-origin``), the door answers the
browser's CORS preflight and names the allowed origin on its answers (Starlette's
``CORSMiddleware``), for those origins only (``*``: any). No cookie is ever asked for
or allowed: a token is the bot's whole credential, so a page of another origin can do
no more than what its own token lets it. Off by default: a browser refuses a page
another origin's answers.

POST, not GET, for the join: the token travels in a body, never in a URL (which
proxies and access logs keep). Not a WebSocket: ``curl`` and ``read`` speak this, and
a browser reads the lines with ``fetch``.

The HTTP side is only a transport: the seats, tokens, limits, rate limit and set of
live connections are the ``Gateway``'s, so a name has one live connection whichever
transport it came by, and a bot that drops on one may come back on the other within
the grace. The same limits as the gRPC door, in HTTP's words: a ``Hello`` body within
``Limits.hello_seconds`` (408), bodies up to ``Limits.max_receive`` (413), a wrong
token 401, a malformed message 400 naming the field, too many connections from an
address 429 with ``Retry-After``, and each stream's bounded queue. Errors other than
refusals are ``google.rpc.Status`` JSON, as the rules service's REST API writes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import ssl
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import grpc
import uvicorn
from google.protobuf import json_format
from google.rpc import code_pb2, status_pb2
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, request_response

from mazzo.core.errors import InvalidArgument
from mazzo.gateway.server import Connection, Gateway, Seat, retry_status
from mazzo.service.errors import status_of
from mazzo.service.http_connections import HttpLimits, listening_socket, start_uvicorn
from mazzo.service.rest import status_response
from mazzo.v1 import tables_pb2

log = logging.getLogger("mazzo.gateway")

NDJSON = "application/x-ndjson"
JOIN_PATH = "/v1/tables:join"
ANSWER_PATH = "/v1/tables:answer"

#: The HTTP status of each refusal of a Hello (the gRPC side's code, in HTTP's words).
_HTTP_STATUS = {
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.DEADLINE_EXCEEDED: 408,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
}
_CODES = {
    grpc.StatusCode.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    grpc.StatusCode.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    grpc.StatusCode.RESOURCE_EXHAUSTED: code_pb2.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED: code_pb2.DEADLINE_EXCEEDED,
    grpc.StatusCode.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
}


def openapi_document() -> bytes:
    """This door's OpenAPI 3 document, made from the proto by scripts/gen_openapi.py."""
    return resources.files("mazzo.gateway").joinpath("openapi.json").read_bytes()


async def _openapi(request: Request) -> Response:
    return Response(openapi_document(), media_type="application/json")


@dataclass(frozen=True)
class HttpOptions:
    """What the HTTP door adds to the gateway's ``Limits``."""

    #: A stream quiet this long gets a ``{}`` line: a gone peer fails the write.
    heartbeat: float = 5.0
    #: How long the stream's last messages may take to leave once it is over.
    flush: float = 1.0
    #: The origins whose pages may call the door (``gateway.origins``; ``*``: any).
    cors: tuple[str, ...] = ()


def door_route(
    path: str,
    endpoint: Callable[[Request], Awaitable[Response]],
    cors: Sequence[str],
    method: str = "POST",
) -> Route:
    """The door's route at ``path``; with ``cors`` origins, it also answers their
    pages' preflight (``OPTIONS``) and names the origin on its answers."""
    if not cors:
        return Route(path, endpoint, methods=[method])

    async def only(request: Request) -> Response:  # an OPTIONS that is no preflight
        if request.method != method:
            return Response(status_code=405, headers={"allow": f"{method}, OPTIONS"})
        return await endpoint(request)

    app = CORSMiddleware(
        request_response(only),
        allow_origins=list(cors),
        allow_methods=[method],
        allow_headers=["authorization", "content-type"],
        expose_headers=["retry-after"],  # a 429's: when to dial again
        max_age=600,
    )
    return Route(path, app, methods=[method, "OPTIONS"])


class HttpDoor:
    """The HTTP/JSON door of ``gateway``; served beside its gRPC port. ``routes`` are
    served beside the door's own: a page that speaks the protocol from the same origin
    (``mazzo match --bot human``'s, which the CLI brings: the gateway knows no page)."""

    def __init__(
        self,
        gateway: Gateway,
        options: HttpOptions = HttpOptions(),
        routes: Sequence[BaseRoute] = (),
    ) -> None:
        self.gateway = gateway
        self.options = options
        #: The live connections that came by HTTP (also in the gateway's own set).
        self.connections: set[Connection] = set()
        cors = options.cors
        self.app = Starlette(
            routes=[
                door_route(JOIN_PATH, self.join, cors),
                door_route(ANSWER_PATH, self.answer, cors),
                door_route("/openapi.json", _openapi, cors, "GET"),
                *routes,
            ]
        )
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(
        self,
        host: str,
        port: int,
        cert: str | None = None,
        key: str | None = None,
        client_ca: str | None = None,
    ) -> int:
        """Listen on ``host:port`` (0: a free port), over TLS with ``cert`` and ``key``
        (and client certificates signed by ``client_ca``: mutual TLS);
        the port bound. Like ``mazzo serve``'s HTTP API: uvicorn on this loop, with the
        head deadline and connection cap of ``service.http_connections``."""
        limits = HttpLimits()
        secure: dict[str, Any] = {}
        if cert is not None and key is not None:
            secure = {"ssl_certfile": cert, "ssl_keyfile": key}
            if client_ca is not None:
                secure |= {"ssl_ca_certs": client_ca, "ssl_cert_reqs": ssl.CERT_REQUIRED}
        try:
            sock = listening_socket(host, port)
        except OSError as e:
            raise OSError(f"cannot listen on {host}:{port} (the gateway's HTTP door): {e}") from e
        server = await start_uvicorn(
            self.app, sock, limits, h11_max_incomplete_event_size=16 * 1024, **secure
        )
        self._server = server
        self._task = asyncio.create_task(server.main_loop())
        bound: int = sock.getsockname()[1]
        return bound

    async def stop(self) -> None:
        """Close the door; call after ``Gateway.stop``, which ends the streams cleanly."""
        for conn in list(self.connections):
            conn.close()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await self._task
            await self._server.shutdown()
            self._server = self._task = None

    # The stream.

    async def join(self, request: Request) -> Response:
        gateway = self.gateway
        limits = gateway.limits
        host = request.client.host if request.client else ""
        retry = gateway.rate.admit(host)
        if retry:
            why = f"too many connections from this address; try again in {math.ceil(retry)} s"
            return status_response(retry_status(why, retry), 429)
        message = await self._message(request, "hello")
        if isinstance(message, Response):
            return message
        seat = gateway.admit(message.hello)
        if not isinstance(seat, Seat):
            code, why = seat
            return _status(_HTTP_STATUS.get(code, 400), _CODES.get(code, code_pb2.UNKNOWN), why)
        conn = Connection(f"http:{host}", limits.queue)
        gateway._connections.add(conn)
        self.connections.add(conn)
        seat.attach(conn)
        log.info("%s connected from %s", seat.name, conn.peer)
        return _Stream(self, seat, conn)

    def _ended(self, seat: Seat, conn: Connection) -> None:
        self.gateway._connections.discard(conn)
        self.connections.discard(conn)
        seat.detach(conn)
        log.info("%s disconnected%s", seat.name, f": {conn.why}" if conn.why else "")

    # Answers.

    async def answer(self, request: Request) -> Response:
        gateway = self.gateway
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        name = gateway.tokens.who(token.strip()) if scheme.lower() == "bearer" else None
        if name is None:
            # Guessing tokens costs the address its connections' budget.
            host = request.client.host if request.client else ""
            retry = gateway.rate.admit(host)
            if retry:
                why = f"too many attempts from this address; try again in {math.ceil(retry)} s"
                return status_response(retry_status(why, retry), 429)
            why = "send the token as 'Authorization: Bearer TOKEN'; this one is unknown"
            return _status(401, code_pb2.UNAUTHENTICATED, why)
        message = await self._message(request, "answer")
        if isinstance(message, Response):
            return message
        seat = gateway.seats.get(name)
        if seat is None or seat.conn is None or seat.conn not in self.connections:
            why = f"{name} has no HTTP stream open: POST {JOIN_PATH} first"
            return _status(409, code_pb2.FAILED_PRECONDITION, why)
        refusal = seat.answer(message.answer)
        if refusal is None:
            return Response(b"{}", 200, media_type="application/json")
        body = json_format.MessageToJson(refusal, indent=None)
        return Response(body, 400 if refusal.refusal.fault else 409, media_type="application/json")

    async def _message(self, request: Request, kind: str) -> tables_pb2.BotMessage | Response:
        """The body as a ``BotMessage`` holding ``kind``, or the refusal: 413 past
        ``Limits.max_receive``, 408 past ``Limits.hello_seconds``, 400 naming the field,
        499 (never sent) when the bot is gone before its body came, as a drop leaves it
        (found by ``make drops``: uvicorn logged each as an application error)."""
        limits = self.gateway.limits
        declared = request.headers.get("content-length", "")
        too_big = f"the body is over {limits.max_receive} bytes"
        if declared.isdigit() and int(declared) > limits.max_receive:
            return _bad(413, "body", too_big)
        chunks, size = [], 0
        try:
            async with asyncio.timeout(limits.hello_seconds):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limits.max_receive:
                        return _bad(413, "body", too_big)
                    chunks.append(chunk)
        except TimeoutError:
            why = f"the body did not arrive within {limits.hello_seconds:g} s"
            return _status(408, code_pb2.DEADLINE_EXCEEDED, why)
        except ClientDisconnect:  # a bot dropped mid-request: its doing, no error of ours
            why = "the bot closed the connection before its body arrived"
            return _status(499, code_pb2.CANCELLED, why)
        message = tables_pb2.BotMessage()
        try:
            json_format.Parse(b"".join(chunks), message)
        except (json_format.ParseError, ValueError) as e:
            return _bad(400, "body", f"not a BotMessage in JSON: {e}")
        if message.WhichOneof("kind") != kind:
            wanted = "a Hello opens a stream" if kind == "hello" else "a Hello only opens one"
            return _bad(400, kind, f"send a BotMessage with its {kind!r} set: {wanted}")
        return message


class _Stream(Response):
    """The join's answer: a line per message until the connection is over, either way
    (the bot closes it, the gateway drops it, or the run ends and the body ends)."""

    def __init__(self, door: HttpDoor, seat: Seat, conn: Connection) -> None:
        self.status_code = 200
        self.raw_headers = [(b"content-type", NDJSON.encode()), (b"cache-control", b"no-store")]
        self.background = None
        self.door, self.seat, self.conn = door, seat, conn

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        conn, flush = self.conn, self.door.options.flush

        async def watch() -> None:  # the bot's end: it closed its side
            while (await receive())["type"] != "http.disconnect":
                pass
            conn.close()

        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            writer = asyncio.create_task(_lines(conn, send, self.door.options.heartbeat))
            watcher = asyncio.create_task(watch())
            try:
                await conn.done.wait()
            finally:
                writer.cancel()
                watcher.cancel()
            with contextlib.suppress(TimeoutError, OSError):
                async with asyncio.timeout(flush):
                    # The run's end: what is queued (its MatchEnded) goes first. A bot
                    # dropped for not reading gets none of its backlog.
                    while not conn.why and not conn.queue.empty():
                        message = conn.queue.get_nowait()
                        if message is not None:
                            await send(_chunk(_line(message)))
                    if conn.why and conn.code == grpc.StatusCode.FAILED_PRECONDITION:
                        await send(_chunk(_line(_final(conn.why))))
                    await send({"type": "http.response.body", "body": b""})
        finally:
            self.door._ended(self.seat, conn)


async def _lines(conn: Connection, send: Any, heartbeat: float) -> None:
    """Write the queue's messages, a ``{}`` after each quiet ``heartbeat``."""
    with contextlib.suppress(OSError):
        while True:
            try:
                async with asyncio.timeout(heartbeat):
                    message = await conn.queue.get()
            except TimeoutError:
                await send(_chunk(b"{}\n"))
                continue
            if message is None:
                break
            await send(_chunk(_line(message)))
    conn.close()


def _final(why: str) -> tables_pb2.TableMessage:
    """The last line of a stream the gateway ends for good (another connection of the
    token replaced it): what gRPC says with ``FAILED_PRECONDITION``, which a body that
    just ends cannot say. A ``Refusal`` of no decision (sequence 0, no fault), its
    field ``hello``: the bot is not to dial in again, or two copies of it would take
    the seat from each other in turn. A drop, or the run's end, has no such line."""
    message = tables_pb2.TableMessage()
    refusal = message.refusal
    refusal.reason, refusal.fault = why, False
    violation = refusal.field_violations.add()
    violation.field, violation.description = "hello", why
    return message


def _line(message: tables_pb2.TableMessage) -> bytes:
    return json_format.MessageToJson(message, indent=None).encode() + b"\n"


def _chunk(body: bytes) -> dict[str, Any]:
    return {"type": "http.response.body", "body": body, "more_body": True}


def _status(http_status: int, code: int, message: str) -> Response:
    return status_response(status_pb2.Status(code=code, message=message), http_status)


def _bad(http_status: int, field: str, reason: str) -> Response:
    """INVALID_ARGUMENT with its ``google.rpc.BadRequest`` field violation."""
    return status_response(status_of(InvalidArgument(field, reason)), http_status)
