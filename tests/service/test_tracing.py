"""OpenTelemetry: a server span per RPC when configured, joined to the caller's trace."""

from __future__ import annotations

import grpc
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from mazzo.service.server import start_server, stop_server
from mazzo.service.tracing import configured_tracer
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "00f067aa0ba902b7"


async def test_every_rpc_is_a_server_span_in_the_callers_trace() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    running, port = await start_server("127.0.0.1", 0, tracer=provider.get_tracer("test"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            traceparent = f"00-{TRACE_ID}-{PARENT}-01"
            await stub.Deal(
                gs.DealRequest(game="maraffa"), metadata=(("traceparent", traceparent),)
            )
            with pytest.raises(grpc.aio.AioRpcError):
                await stub.Deal(gs.DealRequest(game="scopa"))
    finally:
        await stop_server(running, grace=0.5, quiet=0)
    ok, failed = exporter.get_finished_spans()
    assert ok.name == "mazzo.v1.GameService/Deal" and ok.kind is SpanKind.SERVER
    assert ok.attributes is not None and ok.attributes["rpc.grpc.status_code"] == 0
    assert format(ok.context.trace_id, "032x") == TRACE_ID
    assert ok.parent is not None and format(ok.parent.span_id, "016x") == PARENT
    assert failed.status.status_code is StatusCode.ERROR
    assert failed.attributes is not None and failed.attributes["rpc.grpc.status_code"] == 3


def test_tracing_is_off_unless_the_environment_asks() -> None:
    assert configured_tracer({}) is None
    assert (
        configured_tracer({"OTEL_EXPORTER_OTLP_ENDPOINT": "x", "OTEL_SDK_DISABLED": "true"}) is None
    )
