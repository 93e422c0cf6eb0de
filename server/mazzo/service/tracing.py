"""OpenTelemetry tracing, on when configured by the standard OTEL_* variables.

With ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_TRACES_EXPORTER=otlp``) set, every
RPC becomes a server span (``rpc.system=grpc``, service, method, status code),
joined to the caller's trace when its metadata carries W3C ``traceparent``.
Otherwise nothing is set up and calls pay nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from opentelemetry import trace
from opentelemetry.propagate import extract
from opentelemetry.trace import SpanKind, Tracer

SERVICE_NAME = "mazzo"


def configured_tracer(env: dict[str, str] | None = None) -> Tracer | None:
    """A tracer exporting over OTLP if the environment asks for one, else None."""
    env = dict(os.environ) if env is None else env
    wanted = env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or env.get("OTEL_TRACES_EXPORTER") == "otlp"
    if not wanted or env.get("OTEL_SDK_DISABLED") == "true":
        return None
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": SERVICE_NAME}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    return provider.get_tracer(SERVICE_NAME)


def start_span(
    tracer: Tracer, service: str, method: str, metadata: Iterable[tuple[str, str]] | None
) -> trace.Span:
    """A server span for one RPC, child of the caller's span if it sent one."""
    carrier = {key: str(value) for key, value in metadata or ()}
    return tracer.start_span(
        f"{service}/{method}",
        context=extract(carrier),
        kind=SpanKind.SERVER,
        attributes={"rpc.system": "grpc", "rpc.service": service, "rpc.method": method},
    )
