"""Scale-out: several replicas behind the Envoy of deploy/envoy, per-call balancing."""

from __future__ import annotations

import asyncio

import grpc
import httpx
import pytest

from mazzo.ops.replicas import fleet
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc

pytestmark = pytest.mark.slow


def deals_served(http_port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{http_port}/metrics", timeout=10).text
    prefix = 'mazzo_deals_total{game="maraffa"}'
    (line,) = [line for line in text.splitlines() if line.startswith(prefix)]
    return float(line.rsplit(" ", 1)[1])


def test_every_replica_serves_calls_through_envoy_on_one_channel() -> None:
    """One client channel (one HTTP/2 connection to Envoy); Envoy spreads the calls
    over every replica, and transcodes REST to gRPC with JSON error bodies."""
    with fleet(3) as f:

        async def load() -> None:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{f.envoy_port}") as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                await asyncio.gather(
                    *(stub.Deal(gs.DealRequest(game="maraffa", seed=i)) for i in range(60))
                )

        asyncio.run(load())
        served = [deals_served(r.http_port) for r in f.replicas]
        assert sum(served) == 60
        assert all(n >= 10 for n in served), served
        rest = httpx.post(
            f"http://127.0.0.1:{f.envoy_port}/v1/games/maraffa:deal", json={"seed": "3"}, timeout=10
        )
        assert rest.status_code == 200 and rest.json()["state"]["game"] == "maraffa"
        error = httpx.post(
            f"http://127.0.0.1:{f.envoy_port}/v1/games/scopa:deal", json={}, timeout=10
        )
        assert error.status_code == 400
        assert error.json()["details"][0]["fieldViolations"][0]["field"] == "game"
