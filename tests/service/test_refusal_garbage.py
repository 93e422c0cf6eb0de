"""Issue 13's fuzz: a refused call is freed when it ends, not at the next full
collection. Refusals held in cycles made full collections of 30-40 ms that held every
other call on the loop."""

from __future__ import annotations

import asyncio
import gc

import grpc

from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub

REFUSALS = 20


def _aborts() -> int:
    return sum(isinstance(o, grpc.aio.AbortError) for o in gc.get_objects())


async def test_refused_calls_leave_nothing_for_the_cyclic_collector() -> None:
    running, port = await start_server("127.0.0.1", 0, http_port=None)
    gc.collect()
    gc.disable()
    try:
        before = _aborts()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = GameServiceStub(channel)
            for seed in range(REFUSALS):
                state = game_pb2.GameState(game="maraffa", players=90 + seed)
                try:
                    await stub.LegalMoves(gs.LegalMovesRequest(state=state))
                except grpc.aio.AioRpcError as e:
                    assert e.code() is grpc.StatusCode.INVALID_ARGUMENT
                else:
                    raise AssertionError("an invalid state was accepted")
        await asyncio.sleep(0.2)
        # gRPC's accept loop holds its latest call until the next one arrives.
        assert _aborts() - before <= 1
    finally:
        gc.enable()
        await stop_server(running, grace=0.5, quiet=0)
