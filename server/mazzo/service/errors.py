"""Domain errors -> gRPC status, in one place (an interceptor on every RPC).

A ``RulesError`` becomes INVALID_ARGUMENT (or FAILED_PRECONDITION for
``NotAllowedNow``) with its message and a ``google.rpc.BadRequest`` field
violation, so clients in any language can point at the field. Anything else is a
bug of ours: INTERNAL with a generic message, logged with its traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from mazzo.core.errors import NotAllowedNow, RulesError

log = logging.getLogger("mazzo.service")

Handler = Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]


def status_of(error: RulesError) -> status_pb2.Status:
    """The rich status of a domain error."""
    code = (
        code_pb2.FAILED_PRECONDITION
        if isinstance(error, NotAllowedNow)
        else code_pb2.INVALID_ARGUMENT
    )
    bad = error_details_pb2.BadRequest()
    violation = bad.field_violations.add()
    violation.field = error.field
    violation.description = error.reason
    detail = any_pb2.Any()
    detail.Pack(bad)
    return status_pb2.Status(code=code, message=str(error), details=[detail])


def _guarded(handler: Handler) -> Handler:
    async def guarded(request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await handler(request, context)
        except RulesError as e:
            await context.abort_with_status(rpc_status.to_status(status_of(e)))
        except grpc.aio.AbortError:
            raise
        except Exception:
            log.exception("unexpected error in %s", getattr(handler, "__qualname__", handler))
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")

    return guarded


class DomainErrorInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Wraps every unary-unary handler so domain errors map to status codes.

    Wrapped handlers are kept per method: handlers never change while serving, and
    building one per call would tax every RPC.
    """

    def __init__(self) -> None:
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
            _guarded(handler.unary_unary),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
        self._wrapped[method] = wrapped
        return wrapped
