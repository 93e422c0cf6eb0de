"""HTTP/JSON for every RPC, routed by the proto's ``google.api.http`` annotations.

The routes are read from the service descriptor, not written a second time, and
bodies use the proto3 JSON mapping, so REST and gRPC cannot drift apart. Handlers
call the same servicer as gRPC; errors are a JSON ``google.rpc.Status`` with the
same details as gRPC, under the HTTP status Google's mapping gives its code
(INVALID_ARGUMENT 400; FAILED_PRECONDITION 409, as our API documents it; a full
search pool's RESOURCE_EXHAUSTED, the one with a RetryInfo, 429 with Retry-After).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from google.api import annotations_pb2
from google.protobuf import json_format
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from google.rpc import code_pb2, status_pb2
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mazzo.core.errors import InvalidArgument, RulesError
from mazzo.service.errors import (
    SHUTTING_DOWN,
    Admission,
    Denied,
    busy_status,
    retry_seconds,
    status_of,
)
from mazzo.service.logs import REQUEST_ID_KEY, bind_request, current_request_id
from mazzo.service.metrics import Metrics
from mazzo.service.simulator import SEARCH_METHODS, Busy

log = logging.getLogger("mazzo.rest")

#: The largest request body: gRPC's default receive limit, so both doors take the same.
MAX_BODY_BYTES = 4 * 1024 * 1024
#: The whole body must arrive within this: a client sending slowly holds nothing long.
BODY_SECONDS = 10.0
#: Bodies (JSON) and answers (protobuf) over these sizes are converted in the server's
#: process pool: the JSON mapping is pure Python, about 0.2 ms per KiB of JSON read
#: and 1 ms per KiB of protobuf written as JSON, and on the event loop it would hold
#: every other call for as long (a thousand Determinize samples: half a second).
POOL_BODY_BYTES = 32 * 1024
POOL_ANSWER_BYTES = 8 * 1024

HTTP_STATUS = {
    code_pb2.OK: 200,
    code_pb2.INVALID_ARGUMENT: 400,
    code_pb2.FAILED_PRECONDITION: 409,
    code_pb2.NOT_FOUND: 404,
    code_pb2.UNAUTHENTICATED: 401,
    code_pb2.PERMISSION_DENIED: 403,
    code_pb2.ALREADY_EXISTS: 409,
    code_pb2.UNIMPLEMENTED: 405,
    code_pb2.INTERNAL: 500,
    code_pb2.UNAVAILABLE: 503,
}
JSON = "application/json"


@dataclass(frozen=True)
class HttpRule:
    """One RPC's REST binding, as its ``google.api.http`` option states it."""

    method: MethodDescriptor
    verb: str
    path: str
    body: str


def http_rules(service: ServiceDescriptor) -> list[HttpRule]:
    rules = []
    for method in service.methods:
        rule = method.GetOptions().Extensions[annotations_pb2.http]
        verb = rule.WhichOneof("pattern")
        if verb is None or verb == "custom":
            continue
        rules.append(HttpRule(method, verb.upper(), getattr(rule, verb), rule.body))
    return rules


def _json(message: Message, status: int = 200) -> Response:
    return Response(json_format.MessageToJson(message, indent=None), status, media_type=JSON)


def status_response(status: status_pb2.Status, http_status: int | None = None) -> Response:
    """``status`` as JSON; one that says when to retry (a ``google.rpc.RetryInfo``: a full
    pool) is 429 with Retry-After. gRPC's RESOURCE_EXHAUSTED for a message over its size
    limit has none, and has no HTTP form: a body over the limit is 413."""
    retry = retry_seconds(status)
    if retry is None:
        return _json(status, http_status or HTTP_STATUS.get(status.code, 500))
    response = _json(status, http_status or 429)
    response.headers["retry-after"] = str(retry)
    return response


Handler = Callable[[Any, Any], Awaitable[Message]]


class HttpContext:
    """What a handler may ask of its call over HTTP, in gRPC's words: the headers as
    ``invocation_metadata`` (names in lower case, as gRPC gives them) and the client's
    address as ``peer``. Handed to the handlers of an app built with
    ``context=True`` (the arena's API reads its bearer token so); others get None."""

    def __init__(self, request: Request) -> None:
        self._headers = tuple((k.lower(), v) for k, v in request.headers.items())
        client = request.client
        self._peer = f"http:{client.host}" if client is not None else "http:unknown"

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._headers

    def peer(self) -> str:
        return self._peer


class JsonPool(Protocol):
    """Where large messages are converted (``service.simulator.Simulator``), and the
    admission of the searches whose messages it converts."""

    def searching(self) -> AbstractContextManager[None]: ...

    async def json_of(self, message: Message) -> str: ...

    async def parse(self, text: bytes, message: Message) -> None: ...


async def _parsed(raw: bytes, message: Message, pool: JsonPool | None) -> None:
    if pool is not None and len(raw) > POOL_BODY_BYTES:
        await pool.parse(raw, message)
    else:
        json_format.Parse(raw, message)


async def _answer(reply: Message, pool: JsonPool | None) -> Response:
    if pool is not None and reply.ByteSize() > POOL_ANSWER_BYTES:
        return Response(await pool.json_of(reply), 200, media_type=JSON)
    return _json(reply)


def _endpoint(
    rule: HttpRule,
    handler: Handler,
    metrics: Metrics,
    pool: JsonPool | None,
    admission: Admission | None,
    context: bool = False,
) -> Callable[[Request], Awaitable[Response]]:
    request_class = GetMessageClass(rule.method.input_type)
    counted = {
        code: metrics.http.labels(rule.path, str(code)) for code in (200, 400, 409, 429, 500)
    }
    search = pool is not None and rule.method.name in SEARCH_METHODS

    def admitted() -> AbstractContextManager[None]:
        """A search holds its place in the pool for the whole request: its JSON is
        converted there too, and a full pool refuses it before the body is read."""
        return pool.searching() if search and pool is not None else nullcontext()

    async def endpoint(request: Request) -> Response:
        bind_request(lambda: request.headers.get(REQUEST_ID_KEY))
        if admission is None:
            response = await respond(request)
        elif not admission.enter():  # draining: as over gRPC, the client retries elsewhere
            status = status_pb2.Status(code=code_pb2.UNAVAILABLE, message=SHUTTING_DOWN)
            response = status_response(status)
        else:
            try:
                response = await respond(request)
            finally:
                admission.leave()
        code = response.status_code
        child = counted.get(code) or metrics.http.labels(rule.path, str(code))
        child.inc()
        return response

    async def respond(request: Request) -> Response:
        try:
            with admitted():
                message = await parsed(request)
                if isinstance(message, Response):
                    return message
                reply = await handler(message, HttpContext(request) if context else None)
                return await _answer(reply, pool)
        except RulesError as e:
            return status_response(status_of(e))
        except Busy as e:
            return status_response(busy_status(e))
        except Denied as e:
            return status_response(e.status())
        except Exception:
            log.exception(
                "unexpected error in %s",
                rule.method.full_name,
                extra={"request_id": current_request_id()},
            )
            return status_response(
                status_pb2.Status(code=code_pb2.INTERNAL, message="internal error")
            )

    async def parsed(request: Request) -> Message | Response:
        """The request message from body, query and path, or the refusal."""
        message = request_class()
        try:
            if rule.body == "*":
                raw = await read_body(request)
                if isinstance(raw, Response):
                    return raw
                if raw.strip():
                    await _parsed(raw, message, pool)
            for name, value in request.query_params.items():
                json_format.ParseDict({name: value}, message)
            for name, value in request.path_params.items():
                json_format.ParseDict({name: value}, message)
        except (json_format.ParseError, ValueError) as e:  # ValueError: not UTF-8
            bad = InvalidArgument("body", f"not a valid {request_class.__name__} in JSON: {e}")
            return status_response(status_of(bad))
        return message

    return endpoint


async def read_body(request: Request) -> bytes | Response:
    """The request's JSON body, or the refusal: 415 for a body that is not JSON, 413 for
    one over ``MAX_BODY_BYTES`` (told by its length, or found while reading, before
    the rest is read), 408 for one that does not arrive within ``BODY_SECONDS``, 499
    (never sent) for a client that left before its body arrived."""
    kind = request.headers.get("content-type", JSON).split(";")[0].strip().lower()
    if kind != JSON:
        return _refusal(415, "body", f"send the body as {JSON}, not {kind or 'nothing'}")
    declared = request.headers.get("content-length", "")
    too_big = f"the body is over {MAX_BODY_BYTES} bytes"
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return _refusal(413, "body", too_big)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    return _refusal(413, "body", too_big)
                chunks.append(chunk)
    except TimeoutError:
        why = f"the body did not arrive within {BODY_SECONDS:g} s"
        return status_response(
            status_pb2.Status(code=code_pb2.DEADLINE_EXCEEDED, message=f"body: {why}"), 408
        )
    except ClientDisconnect:  # the client's doing, not an error of ours: CANCELLED, 499
        why = "the client closed the connection before its body arrived"
        return status_response(
            status_pb2.Status(code=code_pb2.CANCELLED, message=f"body: {why}"), 499
        )
    return b"".join(chunks)


def _refusal(http_status: int, field: str, reason: str) -> Response:
    """An INVALID_ARGUMENT status with its field violation, under ``http_status``."""
    return status_response(status_of(InvalidArgument(field, reason)), http_status)


async def _not_found(request: Request, exc: Exception) -> Response:
    """404 and 405 as a JSON Status; a 405 keeps the Allow header Starlette gives it."""
    if isinstance(exc, HTTPException) and exc.status_code == 405:
        status = status_pb2.Status(
            code=code_pb2.UNIMPLEMENTED, message=f"{request.method} is not allowed here"
        )
        response = status_response(status)
        response.headers.update(exc.headers or {})
        return response
    message = f"no route for {request.method} {request.url.path}"
    return status_response(status_pb2.Status(code=code_pb2.NOT_FOUND, message=message))


def openapi_document() -> bytes:
    """The OpenAPI 3 document generated from the proto (scripts/gen_openapi.py)."""
    return resources.files("mazzo.service").joinpath("openapi.json").read_bytes()


def build_app(
    service: ServiceDescriptor,
    servicer: Any,
    metrics: Metrics,
    serving: Callable[[], bool] = lambda: True,
    pool: JsonPool | None = None,
    admission: Admission | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    document: Callable[[], bytes] | None = openapi_document,
    context: bool = False,
) -> Starlette:
    """A Starlette app serving every annotated RPC of ``service`` through ``servicer``,
    the API's OpenAPI document at ``/openapi.json``, Prometheus metrics at
    ``/metrics``, for HTTP-only probes ``/healthz`` (503 while shutting down), and
    and ``extra_routes`` (``mazzo serve`` adds the replay viewer's, docs/viewer.md: the
    service itself knows nothing of it). ``document`` gives the OpenAPI document (None:
    no /openapi.json, for an API that has none yet); with ``context`` each handler gets
    an ``HttpContext`` (headers, peer) instead of None.
    Large bodies and answers are converted in ``pool`` when one is given; with
    ``admission``, calls share the gRPC side's drain (refused with 503 once it starts,
    waited for while in flight)."""
    text = document() if document is not None else None

    async def healthz(request: Request) -> Response:
        ok = serving()
        body = b'{"status": "SERVING"}' if ok else b'{"status": "NOT_SERVING"}'
        return Response(body, 200 if ok else 503, media_type=JSON)

    async def openapi(request: Request) -> Response:
        return Response(text, media_type=JSON)

    async def prometheus(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    routes: list[BaseRoute] = [
        Route(
            rule.path,
            _endpoint(rule, getattr(servicer, rule.method.name), metrics, pool, admission, context),
            methods=[rule.verb],
        )
        for rule in http_rules(service)
    ]
    if text is not None:
        routes.append(Route("/openapi.json", openapi, methods=["GET"]))
    routes.append(Route("/metrics", prometheus, methods=["GET"]))
    routes.append(Route("/healthz", healthz, methods=["GET"]))
    routes += extra_routes
    return Starlette(routes=routes, exception_handlers={404: _not_found, 405: _not_found})
