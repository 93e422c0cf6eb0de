"""Whole Briscola matches played through the API only, as a client would: over gRPC
at each table size, and a hand over REST that gives the same answers as gRPC.

A random client deals, then answers every decision with a random move from the
``legal_moves`` of the last response, sending back the state it was given. After
every response: the cards add up to the pack, the seat to act matches LegalMoves,
and each scored hand's points add up to 120; now and then GetView of every seat shows
its own hand, the partner's only when the options allow, and never the stock. The
same moves played in-process by the engine give byte-identical states. At the end
Score names the winner: the side with ``hands_to_win`` hands.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx
import pytest
import pytest_asyncio
from google.protobuf import json_format

from mazzo.games.briscola import rules
from mazzo.games.briscola.options import Options
from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.briscola.wire import move_text, wire_state

MAX_MOVES = 2_000

FORMS = [
    (2, {"handsToWin": 2}, Options(hands_to_win=2)),
    (3, {"removedTwo": "CARD_2S"}, Options(removed_two=2)),
    (4, {"partnersShowHands": True}, Options(partners_show_hands=True)),
]


@pytest.mark.parametrize(("players", "json_options", "options"), FORMS, ids=["2", "3", "4"])
async def test_a_random_match_through_grpc(
    stub: GameServiceStub, players: int, json_options: dict[str, Any], options: Options
) -> None:
    rnd = random.Random(players)
    request = gs.DealRequest(game="briscola", players=players, seed=40 + players)
    json_format.ParseDict({"briscola": json_options}, request.options)
    dealt = await stub.Deal(request)
    state, moves = dealt.state, dealt.legal_moves
    local, _ = rules.deal(options, players, 40 + players)
    pack = 39 if players == 3 else 40
    hands = 0
    for n in range(MAX_MOVES):
        assert state == wire_state(local)
        if state.finished:
            break
        b = state.briscola
        assert sum(len(h.cards) for h in b.hands) + len(b.stock) + len(b.played) == pack
        assert moves, "a live state always has a legal move"
        index = rnd.randrange(len(moves))
        move = moves[index]
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
        chosen = rules.legal_moves(local)[index]
        assert move_text(move) == str(chosen)
        local, _ = rules.apply(local, chosen)
        state, moves = reply.state, reply.legal_moves
        for event in reply.events:
            if event.briscola.WhichOneof("event") == "hand_scored":
                hands += 1
                assert sum(s.points for s in event.briscola.hand_scored.scores) == 120
        if n % 7 == 0 and not state.finished:
            check = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
            assert check.seat == reply.seat == state.to_act
            assert list(check.moves) == list(moves)
            await _check_views(stub, state)
    assert state.finished, "the match ends"
    score = await stub.Score(gs.ScoreRequest(state=state))
    won = list(state.match_score)
    assert max(won) == options.hands_to_win and hands >= sum(won)
    assert list(score.winners) == [won.index(max(won))]


async def _check_views(stub: GameServiceStub, state: game_pb2.GameState) -> None:
    b = state.briscola
    n = state.players
    for seat in range(n):
        view = (await stub.GetView(gs.GetViewRequest(state=state, seat=seat))).view.briscola
        assert list(view.hand) == list(b.hands[seat].cards)
        shown = n == 4 and b.table.options.partners_show_hands and not b.stock
        partner = list(b.hands[(seat + 2) % 4].cards) if shown else []
        assert list(view.partner_hand) == partner
        assert view.stock_size == len(b.stock)
        visible = set(view.hand) | set(view.partner_hand) | {view.trump_card}
        for trick in [*view.tricks, view.current_trick]:
            visible |= set(trick.cards)
        hidden = {c for s, h in enumerate(b.hands) if s != seat for c in h.cards}
        hidden -= {*partner, view.trump_card}  # the trump card was seen face up
        hidden |= set(b.stock[:-1])
        assert not (visible & hidden), "a view shows a hidden card"
        assert "rng" not in str(view)


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[tuple[httpx.AsyncClient, GameServiceStub]]:
    """One server with both faces: an HTTP client and a gRPC stub to it."""
    running, port = await start_server("127.0.0.1", 0, http_port=0)
    base = f"http://127.0.0.1:{running.http_port}"
    async with (
        httpx.AsyncClient(base_url=base, timeout=10) as http,
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield http, game_service_pb2_grpc.GameServiceStub(channel)
    await stop_server(running, grace=0.5, quiet=0)


async def test_a_hand_over_rest_matches_grpc(servers: Any) -> None:
    """A whole four-player hand over HTTP/JSON: every reply equals gRPC's."""
    http, stub = servers
    body = {"players": 4, "seed": "5", "options": {"briscola": {"partnersShowHands": True}}}
    dealt = (await http.post("/v1/games/briscola:deal", json=body)).json()
    request = gs.DealRequest(game="briscola", players=4, seed=5)
    request.options.briscola.partners_show_hands = True
    grpc_reply = await stub.Deal(request)
    assert dealt == json_format.MessageToDict(grpc_reply)
    state, moves = dealt["state"], dealt["legalMoves"]
    rnd = random.Random(5)
    while not state.get("finished"):
        move = rnd.choice(moves)
        reply = await http.post("/v1/state:apply", json={"state": state, "move": move})
        assert reply.status_code == 200, reply.text
        rest = reply.json()
        request = gs.ApplyMoveRequest()
        json_format.ParseDict({"state": state, "move": move}, request)
        assert rest == json_format.MessageToDict(await stub.ApplyMove(request))
        state, moves = rest["state"], rest.get("legalMoves", [])
    assert state["matchScore"] in (["1"], ["1", "0"], ["0", "1"])
    view = (await http.post("/v1/state:view", json={"state": state, "seat": 1})).json()
    assert "rng" not in view["view"]["briscola"] and view["view"]["briscola"]["tricks"]
    score = (await http.post("/v1/state:score", json={"state": state})).json()
    points = [side["briscola"]["lastHand"].get("points", 0) for side in score["sides"]]
    assert sum(points) == 120
    bad = await http.post(
        "/v1/state:apply",
        json={"state": dealt["state"], "move": {"briscola": {"playCard": {}}}},
    )
    assert bad.status_code == 400
    (detail,) = bad.json()["details"]
    assert detail["fieldViolations"][0]["field"] == "move.briscola.play_card.card"
