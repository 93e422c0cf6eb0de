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

#: Options for ``grpc.aio.insecure_channel`` / ``secure_channel``.
CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.enable_retries", 1),
    ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
]
