"""While a server drains, probes still get an answer: the gRPC health check says
NOT_SERVING (a refusal would tell a load balancer nothing it can act on) and HTTP's
/healthz says 503; every other call is refused as UNAVAILABLE over both doors."""

from __future__ import annotations

import grpc
import httpx
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.service.server import start_server, stop_server


async def test_health_checks_are_answered_while_the_server_drains() -> None:
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    try:
        # What stop_server does first, before it waits for the calls in flight.
        running.stopping = True
        await running.health.enter_graceful_shutdown()
        running.admission.draining = True
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            check = health_pb2_grpc.HealthStub(channel).Check
            reply = await check(health_pb2.HealthCheckRequest(), timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.NOT_SERVING
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{running.http_port}") as http:
            assert (await http.get("/healthz")).status_code == 503
            refused = await http.post("/v1/games/maraffa:deal", json={"players": 4})
            assert refused.status_code == 503
            assert refused.json()["message"] == "the server is shutting down"
    finally:
        running.admission.draining = running.stopping = False
        await stop_server(running, grace=0.5, quiet=0)
