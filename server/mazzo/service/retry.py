"""The retry policy every Mazzo client uses: a gRPC service config retrying UNAVAILABLE.

Every GameService call is a pure function of its request, so a call refused while a
server stops, or lost with a worker that died, can be sent again safely: gRPC
retries it with backoff, on a new connection if the old one is gone. Calls to bots
are not retried: a bot that cannot be reached is the referee's to adjudicate. The
same JSON is in ``clients/service-config.json`` for the clients in other languages
(a test keeps the two equal).
"""

from __future__ import annotations

import json
from typing import Any

SERVICE_CONFIG: dict[str, Any] = {
    "methodConfig": [
        {
            "name": [{"service": "mazzo.v1.GameService"}],
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.05s",
                "maxBackoff": "1s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ]
}

#: How soon a channel whose connection attempt failed tries again, then backing off
#: 1.6x a time. gRPC's default, 1 s, is longer than the retries' backoff (at most
#: 0.05 + 0.1 + 0.2 + 0.4 s): a channel that met a worker as it died failed every call
#: until its second attempt, retries included. Other clients: the same channel
#: argument in C-core languages, ``grpc.WithConnectParams`` in Go.
RECONNECT_BACKOFF_MS = 100

#: Options for ``grpc.aio.insecure_channel`` / ``secure_channel``.
CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.enable_retries", 1),
    ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
    ("grpc.initial_reconnect_backoff_ms", RECONNECT_BACKOFF_MS),
]
