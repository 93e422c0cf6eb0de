"""Issue 13 item 6: calls at once are bounded, per gRPC connection and over HTTP, so
one client cannot queue work without end on a process's one event loop."""

from __future__ import annotations

import asyncio

from mazzo.service.http_connections import BoundedH11Protocol
from mazzo.service.server import (
    HTTP_LIMITS,
    SERVER_OPTIONS,
    SHARED_PORT_OPTIONS,
    start_server,
    stop_server,
)


def test_grpc_streams_at_once_are_bounded_on_every_server() -> None:
    for options in (SERVER_OPTIONS, SHARED_PORT_OPTIONS):
        assert ("grpc.max_concurrent_streams", 128) in options


async def test_http_requests_at_once_are_bounded() -> None:
    running, _ = await start_server("127.0.0.1", 0, http_port=0)
    try:
        assert running.http is not None
        protocol = running.http.config.http
        assert isinstance(protocol, type) and issubclass(protocol, BoundedH11Protocol)
        assert protocol.limits == HTTP_LIMITS and HTTP_LIMITS.connections == 512
        # Idle connections outlive client pools' (httpx: 5 s) and load balancers' (60 s).
        assert running.http.config.timeout_keep_alive == HTTP_LIMITS.idle_seconds > 60
    finally:
        await stop_server(running, grace=0.5, quiet=0)


async def test_past_128_calls_on_one_connection_every_refusal_is_one_to_send_again() -> None:
    """Issue 36, item 7: the server refuses a stream past its 128 at once (RST_STREAM
    REFUSED_STREAM), which a client sees as UNAVAILABLE when its view of the
    connection's free slots runs ahead of the server's. The call never started, so it
    is safe to send again: the retry policy every Mazzo client uses (docs/errors.md)
    does so up to 5 times, which on a quiet machine gets all 400 calls below their
    answer; on a machine loaded past its cores a few are refused 5 times running (as
    the docs say), and sending those again gets them theirs. Either way every call is
    answered, each answer the same, and no refusal is anything but the documented one."""
    from collections import Counter
    from pathlib import Path

    import grpc

    from mazzo.service.retry import CHANNEL_OPTIONS
    from mazzo.v1 import game_service_pb2 as gs
    from mazzo.v1.game_service_pb2_grpc import GameServiceStub

    doc = (Path(__file__).parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `UNAVAILABLE` (14)"))
    assert "128 calls at once on one connection" in row and "REFUSED_STREAM" in row
    running, port = await start_server("127.0.0.1", 0)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as ch:
            stub = GameServiceStub(ch)
            dealt = await stub.Deal(gs.DealRequest(game="burraco", players=4, seed=1))
            request = gs.LegalMovesRequest(state=dealt.state)
            expected = (await stub.LegalMoves(request)).SerializeToString(deterministic=True)
            refusals: Counter[str] = Counter()

            async def one() -> bool:
                try:
                    answer = await stub.LegalMoves(request, timeout=60)
                except grpc.aio.AioRpcError as e:
                    refusals[f"{e.code().name}: {'Stream removed' in (e.details() or '')}"] += 1
                    return False
                assert answer.SerializeToString(deterministic=True) == expected
                return True

            waiting, rounds = 400, 0
            while waiting and rounds < 10:
                rounds += 1
                waiting -= sum(await asyncio.gather(*(one() for _ in range(waiting))))
            assert waiting == 0, (rounds, refusals)
            assert set(refusals) <= {"UNAVAILABLE: True"}, refusals
    finally:
        await stop_server(running, grace=0.5, quiet=0)
