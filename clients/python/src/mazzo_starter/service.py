"""The channel to a Mazzo ``GameService`` that every program here uses.

It carries the gRPC service config of ``clients/service-config.json``, read from that
file (so there is one copy): UNAVAILABLE is retried with backoff, which is safe
because every ``GameService`` call is a pure function of its request.
"""

from __future__ import annotations

import json
from pathlib import Path

import grpc

#: ``clients/service-config.json``: this file is clients/python/src/mazzo_starter/service.py.
SERVICE_CONFIG = Path(__file__).resolve().parents[3] / "service-config.json"
#: After a failed connection attempt gRPC waits 1 s by default, longer than the retries'
#: backoff: a channel that met a server as it died would fail calls until then.
RECONNECT_BACKOFF_MS = 100


def channel_options() -> list[tuple[str, int | str]]:
    config = json.loads(SERVICE_CONFIG.read_text(encoding="utf-8"))  # fails loudly if absent
    return [
        ("grpc.enable_retries", 1),
        ("grpc.service_config", json.dumps(config)),
        ("grpc.initial_reconnect_backoff_ms", RECONNECT_BACKOFF_MS),
    ]


def game_service_channel(target: str) -> grpc.Channel:
    """A blocking channel to ``target`` (HOST:PORT) with the retry policy."""
    return grpc.insecure_channel(target, options=channel_options())


def game_service_aio_channel(target: str) -> grpc.aio.Channel:
    """The same for asyncio code (the search bot)."""
    return grpc.aio.insecure_channel(target, options=channel_options())
