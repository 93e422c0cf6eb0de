"""The service end to end: discovery, health, reflection, matches through gRPC."""

from __future__ import annotations

import random

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import game_service_pb2_grpc
from tests.grpc_helpers import field_violations


async def test_list_games_describes_maraffa(stub: game_service_pb2_grpc.GameServiceStub) -> None:
    response = await stub.ListGames(gs.ListGamesRequest())
    maraffa = {g.id: g for g in response.games}["maraffa"]
    assert list(maraffa.player_counts) == [2, 3, 4, 5]
    assert maraffa.default_players == 4
    options = {o.name: o for o in maraffa.options}
    assert options["target"].default_value == "41"
    assert maraffa.defaults.maraffa.target == 41


async def test_health_reports_serving(channel: grpc.aio.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "mazzo.v1.GameService"):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_reflection_lists_and_describes_both_services(channel: grpc.aio.Channel) -> None:
    """What `grpcurl list` and `grpcurl describe` rely on."""
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    names: set[str] = set()
    async for reply in stub.ServerReflectionInfo(iter([request])):
        names.update(s.name for s in reply.list_services_response.service)
    assert {"mazzo.v1.GameService", "mazzo.v1.Bot"} <= names
    for name in ("mazzo.v1.GameService", "mazzo.v1.Bot"):
        ask = reflection_pb2.ServerReflectionRequest(file_containing_symbol=name)
        async for reply in stub.ServerReflectionInfo(iter([ask])):
            assert not reply.HasField("error_response"), reply.error_response
            assert reply.file_descriptor_response.file_descriptor_proto


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_random_match_through_grpc_finishes(
    stub: game_service_pb2_grpc.GameServiceStub, players: int
) -> None:
    """A whole match played only through the API: every hand's card points sum to 11."""
    rnd = random.Random(players)
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=players, seed=players))
    state, moves = dealt.state, dealt.legal_moves
    hands = 0
    while not state.finished:
        assert moves, "a live match always has a legal move"
        # Never the final CLAIM: a random claim would end the match at once.
        move = moves[rnd.randrange(len(moves) - 1)]
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
        for event in reply.events:
            if event.maraffa.HasField("hand_scored"):
                scores = event.maraffa.hand_scored.scores
                assert scores[0].card_points + scores[1].card_points == 11
                hands += 1
        state, moves = reply.state, reply.legal_moves
    assert hands >= 1
    assert not moves
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished and len(score.winners) == 1
    winner = score.winners[0]
    assert score.sides[winner].match_total >= 41 or state.maraffa.table.HasField("last_claim")


async def test_unknown_game_is_invalid_argument(
    stub: game_service_pb2_grpc.GameServiceStub,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(gs.DealRequest(game="scopa"))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "game"
