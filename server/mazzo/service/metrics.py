"""Prometheus metrics with the names operators already chart for gRPC servers.

``grpc_server_started_total``, ``grpc_server_handled_total`` and
``grpc_server_handling_seconds`` follow go-grpc-prometheus, so existing dashboards
work; ``mazzo_*`` counters say what the service did per game, and ``mazzo_build_info``
which build of the engines serves (``build="mypyc"`` or ``"pure"``: docs/compiled.md).
Each server owns its registry (several servers may live in one process, e.g. in tests).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, Info, generate_latest

from mazzo import __version__
from mazzo.buildinfo import current

#: Handling times here run from tens of microseconds to about a second.
BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
METHOD_LABELS = ("grpc_type", "grpc_service", "grpc_method")


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.started = Counter(
            "grpc_server_started_total",
            "RPCs started on the server.",
            METHOD_LABELS,
            registry=self.registry,
        )
        self.handled = Counter(
            "grpc_server_handled_total",
            "RPCs completed on the server, whatever their status code.",
            (*METHOD_LABELS, "grpc_code"),
            registry=self.registry,
        )
        self.handling = Histogram(
            "grpc_server_handling_seconds",
            "Time to handle an RPC, from the request decoded to the response built.",
            METHOD_LABELS,
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.deals = Counter(
            "mazzo_deals_total", "Matches dealt.", ("game",), registry=self.registry
        )
        self.moves = Counter(
            "mazzo_moves_applied_total", "Moves applied.", ("game",), registry=self.registry
        )
        self.rejected = Counter(
            "mazzo_requests_rejected_total",
            "Requests refused as the client's mistake, by kind (InvalidState, IllegalMove, ...).",
            ("reason",),
            registry=self.registry,
        )
        build = current()
        Info("mazzo_build", "Which build of the engines serves.", registry=self.registry).info(
            {"version": __version__, "build": build.label, "compiled_modules": str(build.modules)}
        )
        self.http = Counter(
            "mazzo_http_requests_total",
            "HTTP/JSON requests by route and status.",
            ("route", "status"),
            registry=self.registry,
        )

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return generate_latest(self.registry)
