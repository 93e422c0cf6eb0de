"""Large JSON over REST is converted in the server's pool, not on its event loop.

The proto3 JSON mapping is pure Python: a thousand Determinize samples written as
JSON took half a second, and a megabyte of request parsed took a quarter, during
which every other call on the server waited (seen as a 332 ms LegalMoves in the
fuzz). Here: large answers and bodies go through the pool, and what comes out is
what gRPC answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
import httpx
import pytest_asyncio
from google.protobuf import json_format
from google.protobuf.message import Message

from mazzo.service.rest import POOL_ANSWER_BYTES, POOL_BODY_BYTES
from mazzo.service.server import Running, start_server, stop_server
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub


@dataclass
class Doors:
    http: httpx.AsyncClient
    stub: GameServiceStub
    pooled: list[str]


@pytest_asyncio.fixture
async def doors() -> AsyncIterator[Doors]:
    """A server whose pool notes each conversion it is given."""
    running: Running
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    simulator = running.service.simulator
    pooled: list[str] = []
    json_of, parse = simulator.json_of, simulator.parse

    async def noted_json_of(message: Message) -> str:
        pooled.append(f"answer {message.DESCRIPTOR.name}")
        return await json_of(message)

    async def noted_parse(text: bytes, message: Message) -> None:
        pooled.append(f"body {message.DESCRIPTOR.name}")
        await parse(text, message)

    simulator.json_of = noted_json_of  # type: ignore[method-assign]
    simulator.parse = noted_parse  # type: ignore[method-assign]
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=60) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield Doors(http, GameServiceStub(channel), pooled)
    await stop_server(running, grace=0.5, quiet=0)


async def a_view(stub: GameServiceStub) -> Any:
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=3))
    seen = await stub.GetView(gs.GetViewRequest(state=dealt.state, seat=dealt.seat))
    return seen.view


async def test_a_large_answer_is_written_in_the_pool_and_equals_grpcs(doors: Doors) -> None:
    view = await a_view(doors.stub)
    request = gs.DeterminizeRequest(view=view, count=300, seed=5)
    by_grpc = await doors.stub.Determinize(request)
    assert by_grpc.ByteSize() > POOL_ANSWER_BYTES
    body = json_format.MessageToJson(request)
    reply = await doors.http.post("/v1/view:determinize", content=body)
    assert reply.status_code == 200, reply.text
    assert json_format.Parse(reply.content, gs.DeterminizeResponse()) == by_grpc
    assert doors.pooled == ["answer DeterminizeResponse"]


async def test_a_small_answer_is_written_where_it_is_made(doors: Doors) -> None:
    view = await a_view(doors.stub)
    request = gs.DeterminizeRequest(view=view, count=1, seed=5)
    body = json_format.MessageToJson(request)
    reply = await doors.http.post("/v1/view:determinize", content=body)
    assert reply.status_code == 200, reply.text
    assert doors.pooled == []


async def test_a_large_body_is_parsed_in_the_pool(doors: Doors) -> None:
    view = await a_view(doors.stub)
    request = gs.DeterminizeRequest(view=view, count=2, seed=5)
    body = json_format.MessageToJson(request, indent=None)
    padded = body[:-1] + " " * POOL_BODY_BYTES + "}"
    reply = await doors.http.post(
        "/v1/view:determinize", content=padded, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 200, reply.text
    by_grpc = await doors.stub.Determinize(request)
    assert json_format.Parse(reply.content, gs.DeterminizeResponse()) == by_grpc
    assert doors.pooled == ["body DeterminizeRequest"]


async def test_a_large_bad_body_is_refused_with_its_field(doors: Doors) -> None:
    padded = '{"count": 2, "nosuch": "' + "x" * POOL_BODY_BYTES + '"}'
    reply = await doors.http.post(
        "/v1/view:determinize", content=padded, headers={"content-type": "application/json"}
    )
    assert reply.status_code == 400
    status = reply.json()
    assert status["code"] == 3
    assert status["details"][0]["fieldViolations"][0]["field"] == "body"
    assert len(reply.content) < 4096, "the refusal quotes the body truncated"
    assert doors.pooled == ["body DeterminizeRequest"]
