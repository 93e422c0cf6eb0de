"""Structured logs: one JSON object per line, each tagged with its request's id.

The request id is the caller's ``x-request-id`` (gRPC metadata or HTTP header) when
it sends one, else a fresh one. Finding it costs a scan of the metadata, so a call
only records where its metadata is; the id is worked out when a line is logged.
"""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

REQUEST_ID_KEY = "x-request-id"

#: How to find the current request's id: set per call, evaluated only when logging.
_request_id: ContextVar[Callable[[], str] | None] = ContextVar("request_id", default=None)


def bind_request(find: Callable[[], str | None]) -> None:
    """Note how the current request's id can be found (its metadata or headers)."""
    cache: list[str] = []

    def request_id() -> str:
        if not cache:
            cache.append(find() or uuid.uuid4().hex)
        return cache[0]

    _request_id.set(request_id)


def current_request_id() -> str | None:
    find = _request_id.get()
    return find() if find is not None else None


class _RequestIdFilter(logging.Filter):
    """Tags any line logged while a request is handled (ours pass it explicitly)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            request_id = current_request_id()
            if request_id is not None:
                record.request_id = request_id
        return True


def configure(fmt: str = "json", level: int = logging.INFO) -> None:
    """Log to stderr, as JSON lines (``fmt="json"``) or plain text."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            )
        )
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    handler.addFilter(_RequestIdFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
