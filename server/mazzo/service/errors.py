"""Domain errors -> gRPC status, in one place (an interceptor on every RPC), which
also counts and times every call (metrics.py).

Requests reach the handlers as bytes and are parsed here, so that bytes which are
not the request message are INVALID_ARGUMENT like any other bad input, not the
UNKNOWN grpc would answer. A ``RulesError`` becomes INVALID_ARGUMENT (or
FAILED_PRECONDITION for ``NotAllowedNow``) with its message and a
``google.rpc.BadRequest`` field violation, so clients in any language can point at
the field. A ``Denied`` call (the arena's API: a token that may not) is its code
and message. A search pool that is full (``Busy``) is RESOURCE_EXHAUSTED with a
``google.rpc.RetryInfo``: the client tries again later. Anything else is a
bug of ours: INTERNAL with a generic message, logged with its traceback.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from opentelemetry.trace import StatusCode, Tracer

from mazzo.codec.wire import parse
from mazzo.core.errors import NotAllowedNow, RulesError
from mazzo.service.logs import REQUEST_ID_KEY, bind_request, current_request_id
from mazzo.service.metrics import Metrics
from mazzo.service.simulator import Busy
from mazzo.service.tracing import start_span

log = logging.getLogger("mazzo.service")
access = logging.getLogger("mazzo.access")

Handler = Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]


#: The longest text an error carries: messages quote what the client sent (a game
#: name, a meld), and a status must stay far below gRPC's 8 KiB of trailers.
MAX_ERROR_TEXT = 1000


def clipped(text: str, limit: int = MAX_ERROR_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def status_of(error: RulesError) -> status_pb2.Status:
    """The rich status of a domain error, its texts clipped to ``MAX_ERROR_TEXT``."""
    code = (
        code_pb2.FAILED_PRECONDITION
        if isinstance(error, NotAllowedNow)
        else code_pb2.INVALID_ARGUMENT
    )
    bad = error_details_pb2.BadRequest()
    violation = bad.field_violations.add()
    violation.field = clipped(error.field, 200)
    violation.description = clipped(error.reason)
    detail = any_pb2.Any()
    detail.Pack(bad)
    return status_pb2.Status(code=code, message=clipped(str(error)), details=[detail])


def busy_status(busy: Busy) -> status_pb2.Status:
    """RESOURCE_EXHAUSTED with a ``google.rpc.RetryInfo`` of when to try again: what
    tells a full pool from gRPC's own RESOURCE_EXHAUSTED (a message over its size
    limit, which has no details), and what the HTTP door answers 429 for."""
    info = error_details_pb2.RetryInfo()
    info.retry_delay.seconds = busy.retry_seconds
    detail = any_pb2.Any()
    detail.Pack(info)
    return status_pb2.Status(
        code=code_pb2.RESOURCE_EXHAUSTED, message=clipped(str(busy)), details=[detail]
    )


class Denied(Exception):
    """A call refused for who makes it or what it names, not for its content: a missing
    or unknown token (UNAUTHENTICATED), another's resource (PERMISSION_DENIED), an
    unknown one (NOT_FOUND). ``code`` is a ``google.rpc.Code``; no details: the
    message says it all, and says nothing of what the caller may not see."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code

    def status(self) -> status_pb2.Status:
        return status_pb2.Status(code=self.code, message=clipped(str(self)))


def retry_seconds(status: status_pb2.Status) -> int | None:
    """The delay of a status's ``google.rpc.RetryInfo`` in whole seconds (rounded up,
    at least 1), or None without one."""
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            delay = info.retry_delay
            seconds: int = delay.seconds + (1 if delay.nanos > 0 else 0)
            return max(1, seconds)
    return None


class _Observed:
    """One method's metric series, looked up once rather than on every call."""

    def __init__(self, metrics: Metrics, method: str) -> None:
        service, _, name = method.lstrip("/").rpartition("/")
        labels = ("unary", service, name)
        self.method = method
        self.started = metrics.started.labels(*labels)
        self.handling = metrics.handling.labels(*labels)
        self._handled = metrics.handled
        self.labels = labels
        self._by_code: dict[str, Any] = {}
        self.rejected = metrics.rejected

    def handled(self, code: grpc.StatusCode) -> None:
        child = self._by_code.get(code.name)
        if child is None:
            child = self._by_code[code.name] = self._handled.labels(*self.labels, code.name)
        child.inc()


SHUTTING_DOWN = "the server is shutting down"
#: Health checks are never refused: during a drain they answer NOT_SERVING.
HEALTH_PREFIX = "/grpc.health.v1.Health/"


class Admission:
    """Calls in flight, and whether new ones are still taken: on a graceful stop the
    server first refuses new calls with UNAVAILABLE (a client retries them elsewhere)
    and lets the ones it has finish, before gRPC's own shutdown, which would cancel a
    call that had arrived but not yet started."""

    #: The drain ends once no call has arrived for this long (or at its time limit):
    #: calls gRPC had received but not yet handed over are refused, not cancelled.
    QUIET_SECONDS = 0.25

    def __init__(self) -> None:
        self.in_flight = 0
        self.draining = False
        self.refused = 0
        self._last_arrival = 0.0

    def enter(self) -> bool:
        self._last_arrival = time.monotonic()
        if self.draining:
            self.refused += 1
            return False
        self.in_flight += 1
        return True

    def leave(self) -> None:
        self.in_flight -= 1

    async def drain(self, seconds: float, quiet: float = QUIET_SECONDS) -> None:
        """Refuse new calls from now on; return when the calls in flight have finished
        and no call has arrived for ``quiet`` seconds, or after ``seconds``. (An
        in-process server whose clients are all gone needs no quiet: 0.)"""
        self.draining = True
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            silent = time.monotonic() - self._last_arrival >= quiet
            if not self.in_flight and silent:
                return
            await asyncio.sleep(self.QUIET_SECONDS / 5)


def _guarded(
    handler: Handler,
    deserialize: Callable[[bytes], Any] | None,
    observed: _Observed,
    access_log: bool,
    tracer: Tracer | None,
    admission: Admission,
) -> Handler:
    async def guarded(request: Any, context: grpc.aio.ServicerContext) -> Any:
        if not admission.enter():
            observed.handled(grpc.StatusCode.UNAVAILABLE)
            await context.abort(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        try:
            return await _call(request, context)
        except grpc.aio.AbortError as abort:
            _unlink(abort)
            del request, context
            raise
        finally:
            admission.leave()

    async def _call(request: Any, context: grpc.aio.ServicerContext) -> Any:
        observed.started.inc()
        start = time.perf_counter()
        bind_request(lambda: _metadata_value(context, REQUEST_ID_KEY))
        span = None
        if tracer is not None:
            service, method = observed.labels[1], observed.labels[2]
            span = start_span(tracer, service, method, context.invocation_metadata())
        code = grpc.StatusCode.OK
        # When the answer was ready. A reply is sent after this function returns, a
        # refusal by awaiting the abort: neither send is the call's handling time.
        ready: float | None = None
        try:
            if deserialize is not None:
                request = parse(deserialize, request, "request")
            reply = await handler(request, context)
            code = context.code() or grpc.StatusCode.OK
            return reply
        except RulesError as e:
            status = status_of(e)
            code = _CODES[status.code]
            observed.rejected.labels(type(e).__name__).inc()
            ready = time.perf_counter()
            await context.abort_with_status(rpc_status.to_status(status))
        except Busy as e:
            code = grpc.StatusCode.RESOURCE_EXHAUSTED
            observed.rejected.labels("Busy").inc()
            ready = time.perf_counter()
            await context.abort_with_status(rpc_status.to_status(busy_status(e)))
        except Denied as e:
            code = _CODES[e.code]
            observed.rejected.labels("Denied").inc()
            ready = time.perf_counter()
            await context.abort_with_status(rpc_status.to_status(e.status()))
        except grpc.aio.AbortError:
            code = context.code() or grpc.StatusCode.UNKNOWN
            raise
        except Exception:
            code = grpc.StatusCode.INTERNAL
            log.exception(
                "unexpected error in %s",
                observed.method,
                extra={"request_id": current_request_id()},
            )
            ready = time.perf_counter()
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")
        finally:
            elapsed = (ready or time.perf_counter()) - start
            observed.handling.observe(elapsed)
            observed.handled(code)
            if span is not None:
                span.set_attribute("rpc.grpc.status_code", code.value[0])
                if code is not grpc.StatusCode.OK:
                    span.set_status(StatusCode.ERROR, code.name)
                span.end()
            if access_log:
                access.info(
                    "rpc",
                    extra={
                        "method": observed.method,
                        "code": code.name,
                        "ms": round(elapsed * 1e3, 3),
                        "request_id": current_request_id(),
                    },
                )

    # Probes are answered while draining, so they can see NOT_SERVING.
    return _call if observed.method.startswith(HEALTH_PREFIX) else guarded


_CODES = {code.value[0]: code for code in grpc.StatusCode}


def _unlink(abort: grpc.aio.AbortError) -> None:
    """Free a refused call's data now rather than at the next full collection.

    gRPC keeps the abort on the call's state, and the abort's traceback keeps the
    handler's frames, whose ``context`` keeps the call's state: a cycle, holding the
    request and its decoded state, that only the cyclic collector frees. With one call
    in three refused (the fuzz), those cycles made full collections of 30-40 ms that
    held every call on the loop. Clearing the finished frames, dropping the domain
    error it was raised from, and the caller deleting its own ``context`` breaks it."""
    traceback.clear_frames(abort.__traceback__)
    abort.__context__ = None


def _metadata_value(context: grpc.aio.ServicerContext, key: str) -> str | None:
    for name, value in context.invocation_metadata() or ():
        if name == key:
            return str(value)
    return None


class DomainErrorInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Wraps every unary-unary handler: requests are parsed, domain errors map to
    status codes, and every call is counted and timed.

    Wrapped handlers are kept per method: handlers never change while serving, and
    building one per call would tax every RPC.
    """

    def __init__(
        self,
        metrics: Metrics | None = None,
        access_log: bool = False,
        tracer: Tracer | None = None,
    ) -> None:
        self.metrics = metrics if metrics is not None else Metrics()
        self.access_log = access_log
        self.tracer = tracer
        self.admission = Admission()
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        wrapped = grpc.unary_unary_rpc_method_handler(
            _guarded(
                handler.unary_unary,
                handler.request_deserializer,
                _Observed(self.metrics, method),
                self.access_log,
                self.tracer,
                self.admission,
            ),
            response_serializer=handler.response_serializer,
        )
        self._wrapped[method] = wrapped
        return wrapped
