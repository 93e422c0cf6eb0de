"""Issue 13, item 6: hostile HTTP bodies and error texts that quote the client.

A body over the gRPC message limit is refused before it is read (413), one that is
not JSON is refused by its type (415), one that does not arrive in time is cut off
(408); an error never carries the client's data whole, so a huge game name or meld
is INVALID_ARGUMENT over gRPC too, not a status too big for gRPC's trailers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx
import pytest
import pytest_asyncio

from mazzo.service.errors import MAX_ERROR_TEXT
from mazzo.service.rest import MAX_BODY_BYTES
from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc
from tests.grpc_helpers import field_violations


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[tuple[httpx.AsyncClient, Any, int]]:
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=30) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield http, game_service_pb2_grpc.GameServiceStub(channel), running.http_port
    await stop_server(running, grace=0.5, quiet=0)


async def test_a_body_over_the_limit_is_refused_unread(servers: Any) -> None:
    http, _, _ = servers
    huge = b'{"state": {"game": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}}'
    reply = await http.post(
        "/v1/state:apply", content=huge, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 413
    assert reply.json()["details"][0]["fieldViolations"][0]["field"] == "body"
    assert len(reply.content) < 2000

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    reply = await http.post("/v1/state:apply", content=chunks())
    assert reply.status_code == 413


async def test_a_body_that_is_not_json_is_refused_by_its_type(servers: Any) -> None:
    http, _, _ = servers
    body = b'{"seed": "1"}'
    reply = await http.post(
        "/v1/games/maraffa:deal", content=body, headers={"content-type": "text/plain"}
    )
    assert reply.status_code == 415 and "application/json" in reply.json()["message"]
    ok = await http.post(
        "/v1/games/maraffa:deal",
        content=body,
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert ok.status_code == 200


async def _part_of_a_body(
    port: int, path: str, start: bytes
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A POST announcing 100 bytes of body and sending only ``start``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    writer.write(head.encode() + b"Content-Length: 100\r\n\r\n" + start)
    await writer.drain()
    return reader, writer


async def test_a_body_that_never_arrives_is_cut_off(
    servers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mazzo.service import rest

    monkeypatch.setattr(rest, "BODY_SECONDS", 0.5)
    _, _, port = servers
    reader, writer = await _part_of_a_body(port, "/v1/games/maraffa:deal", b'{"seed"')
    head = await asyncio.wait_for(reader.readline(), 5)
    assert head.startswith(b"HTTP/1.1 408")
    writer.close()


async def test_a_client_that_leaves_mid_body_is_not_a_server_error(
    servers: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A client gone before its body arrived is the client's doing: no "unexpected
    error" logged (the million-input fuzz logged one as an error)."""
    http, _, port = servers
    _, writer = await _part_of_a_body(port, "/v1/state:score", b'{"state"')
    await asyncio.sleep(0.2)
    writer.close()
    await asyncio.sleep(0.3)
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    assert (await http.post("/v1/games/maraffa:deal", json={})).status_code == 200


async def test_error_texts_quote_the_client_clipped(servers: Any) -> None:
    http, stub, _ = servers
    name = "g" * 20_000
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(gs.DealRequest(game=name))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(caught.value.details()) <= MAX_ERROR_TEXT
    [(field, why)] = field_violations(caught.value)
    assert field == "game" and len(why) <= MAX_ERROR_TEXT
    reply = await http.post(f"/v1/games/{name[:4000]}:deal", json={})
    assert reply.status_code == 400 and len(reply.json()["message"]) <= MAX_ERROR_TEXT


async def test_a_huge_meld_is_refused_as_invalid_not_as_an_oversized_status(
    servers: Any,
) -> None:
    _, stub, _ = servers
    dealt = await stub.Deal(gs.DealRequest(game="burraco", players=2, seed=1))
    state = dealt.state
    move = gs.ApplyMoveRequest(state=state).move
    move.burraco.meld.cards.extend([1] * 3000)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
