"""The same API as HTTP/JSON, routed by the proto's google.api.http annotations."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx
import pytest
import pytest_asyncio

from mazzo import __version__
from mazzo.buildinfo import current
from mazzo.service.rest import http_rules
from mazzo.service.server import GAME_SERVICE, start_server, stop_server
from mazzo.v1 import cards_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[
    tuple[httpx.AsyncClient, game_service_pb2_grpc.GameServiceStub]
]:
    """One server with both faces: an HTTP client and a gRPC stub to it."""
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=10) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield http, game_service_pb2_grpc.GameServiceStub(channel)
    await stop_server(running, grace=0.5, quiet=0)


def test_every_rpc_has_a_route_from_its_annotation() -> None:
    routes = {rule.method.name: (rule.verb, rule.path) for rule in http_rules(GAME_SERVICE)}
    assert routes == {
        "ListGames": ("GET", "/v1/games"),
        "Deal": ("POST", "/v1/games/{game}:deal"),
        "LegalMoves": ("POST", "/v1/state:legalMoves"),
        "ApplyMove": ("POST", "/v1/state:apply"),
        "GetView": ("POST", "/v1/state:view"),
        "Score": ("POST", "/v1/state:score"),
        "Determinize": ("POST", "/v1/view:determinize"),
        "ApplyMoves": ("POST", "/v1/state:applyMoves"),
        "Simulate": ("POST", "/v1/state:simulate"),
    }


async def test_healthz_for_http_only_probes(servers: Any) -> None:
    http, _ = servers
    reply = await http.get("/healthz")
    assert reply.status_code == 200 and reply.json() == {"status": "SERVING"}


async def test_list_games(servers: Any) -> None:
    http, _ = servers
    reply = await http.get("/v1/games")
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/json"
    games = {g["id"]: g for g in reply.json()["games"]}
    assert games["maraffa"]["playerCounts"] == [2, 3, 4, 5]


async def test_a_hand_played_over_rest_matches_grpc(servers: Any) -> None:
    """Deal, then apply moves with the state each reply returns, until the first hand
    is scored; the same requests over gRPC give the same answers."""
    http, stub = servers
    dealt = (await http.post("/v1/games/maraffa:deal", json={"players": 4, "seed": "11"})).json()
    grpc_dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=11))
    assert dealt["state"]["maraffa"]["hands"][0]["cards"] == [
        cards_pb2.Card.Name(c) for c in grpc_dealt.state.maraffa.hands[0].cards
    ]
    state, moves = dealt["state"], dealt["legalMoves"]
    rnd = random.Random(3)
    for _ in range(41):
        move = moves[rnd.randrange(len(moves) - 1)]  # never the final CLAIM
        reply = await http.post("/v1/state:apply", json={"state": state, "move": move})
        assert reply.status_code == 200, reply.text
        body = reply.json()
        state, moves = body["state"], body["legalMoves"]
        if any("handScored" in e["maraffa"] for e in body["events"]):
            break
    else:
        pytest.fail("no hand was scored in 41 moves")
    legal = (await http.post("/v1/state:legalMoves", json={"state": state})).json()
    assert legal["moves"] == moves
    view = (await http.post("/v1/state:view", json={"state": state, "seat": 1})).json()
    assert "rng" not in view["view"]["maraffa"]
    score = (await http.post("/v1/state:score", json={"state": state})).json()
    points = [side["maraffa"]["lastHand"].get("cardPoints", 0) for side in score["sides"]]
    assert sum(points) == 11


async def test_errors_carry_the_same_status_and_details_as_grpc(servers: Any) -> None:
    http, stub = servers
    reply = await http.post("/v1/games/scopa:deal", json={})
    assert reply.status_code == 400
    body = reply.json()
    assert body["code"] == 3  # INVALID_ARGUMENT
    (detail,) = body["details"]
    assert detail["@type"] == "type.googleapis.com/google.rpc.BadRequest"
    assert detail["fieldViolations"][0]["field"] == "game"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(gs.DealRequest(game="scopa"))
    assert caught.value.details() == body["message"]


async def test_a_move_after_the_match_is_409(servers: Any) -> None:
    """FAILED_PRECONDITION maps to 409: the request is well-formed, the state forbids it."""
    http, _ = servers
    dealt = (await http.post("/v1/games/maraffa:deal", json={"seed": "2"})).json()
    claim = dealt["legalMoves"][-1]
    assert "claim" in claim["maraffa"]
    over = await http.post("/v1/state:apply", json={"state": dealt["state"], "move": claim})
    state = over.json()["state"]
    assert state["finished"]
    reply = await http.post("/v1/state:apply", json={"state": state, "move": claim})
    assert reply.status_code == 409
    assert reply.json()["code"] == 9  # FAILED_PRECONDITION
    assert reply.json()["details"][0]["fieldViolations"][0]["field"] == "move"


async def test_bad_json_unknown_routes_and_methods(servers: Any) -> None:
    http, _ = servers
    reply = await http.post("/v1/state:apply", content=b"{not json")
    assert reply.status_code == 400
    assert reply.json()["details"][0]["fieldViolations"][0]["field"] == "body"
    reply = await http.post("/v1/state:apply", content=b"\xff\xfe not utf-8")
    assert reply.status_code == 400, "found by schemathesis: once a 500"
    reply = await http.post("/v1/state:apply", json={"stat": {}})
    assert reply.status_code == 400, "unknown fields are refused, not ignored"
    reply = await http.get("/v1/nowhere")
    assert reply.status_code == 404 and reply.json()["code"] == 5
    reply = await http.get("/v1/state:apply")
    assert reply.status_code == 405


async def test_metrics_count_calls_by_method_code_and_game(servers: Any) -> None:
    """Prometheus names operators already chart: grpc_server_handled_total by code,
    grpc_server_handling_seconds, and per-game counters; HTTP calls by route."""
    http, stub = servers
    await stub.Deal(gs.DealRequest(game="maraffa", seed=1))
    with pytest.raises(grpc.aio.AioRpcError):
        await stub.Deal(gs.DealRequest(game="scopa"))
    await http.post("/v1/games/maraffa:deal", json={"seed": "2"})
    text = (await http.get("/metrics")).text
    labels = 'grpc_method="Deal",grpc_service="mazzo.v1.GameService",grpc_type="unary"'
    assert f'grpc_server_handled_total{{grpc_code="OK",{labels}}} 1.0' in text
    assert f'grpc_server_handled_total{{grpc_code="INVALID_ARGUMENT",{labels}}} 1.0' in text
    assert f"grpc_server_handling_seconds_count{{{labels}}} 2.0" in text
    assert 'mazzo_requests_rejected_total{reason="InvalidArgument"} 1.0' in text
    assert 'mazzo_deals_total{game="maraffa"} 2.0' in text
    assert 'mazzo_http_requests_total{route="/v1/games/{game}:deal",status="200"} 1.0' in text
    build = current()
    assert (
        f'mazzo_build_info{{build="{build.label}",compiled_modules="{build.modules}",'
        f'version="{__version__}"}} 1.0'
    ) in text


async def test_access_log_lines_carry_the_callers_request_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    running, port = await start_server("127.0.0.1", 0, access_log=True)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            with caplog.at_level("INFO", logger="mazzo.access"):
                await stub.ListGames(gs.ListGamesRequest(), metadata=(("x-request-id", "r-42"),))
                await stub.ListGames(gs.ListGamesRequest())
    finally:
        await stop_server(running, grace=0.5, quiet=0)
    lines = [r for r in caplog.records if r.name == "mazzo.access"]
    assert len(lines) == 2
    assert lines[0].request_id == "r-42"  # type: ignore[attr-defined]
    assert lines[0].code == "OK" and lines[0].method == "/mazzo.v1.GameService/ListGames"  # type: ignore[attr-defined]
    assert len(lines[1].request_id) == 32, "one is made up when the caller sends none"  # type: ignore[attr-defined]
