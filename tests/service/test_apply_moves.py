"""ApplyMoves: a sequence of moves in one call, all or nothing."""

from __future__ import annotations

import random

import grpc
import pytest

from mazzo.service.game_service import MAX_APPLY_MOVES
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_helpers import field_violations

GAMES = [("maraffa", 4), ("maraffa", 2), ("maraffa", 5), ("burraco", 2), ("ramino", 4)]


async def played(
    stub: game_service_pb2_grpc.GameServiceStub, game: str, players: int, count: int
) -> tuple[gs.DealResponse, list[game_pb2.Move], list[gs.ApplyMoveResponse]]:
    """A deal and ``count`` random moves played with ApplyMove (never a Maraffa claim)."""
    rng = random.Random(f"{game}{players}")
    dealt = await stub.Deal(gs.DealRequest(game=game, players=players, seed=5))
    state, legal = dealt.state, list(dealt.legal_moves)
    moves, replies = [], []
    for _ in range(count):
        if state.finished:
            break
        safe = [m for m in legal if not m.maraffa.HasField("claim")] or legal
        move = rng.choice(safe)
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
        moves.append(move)
        replies.append(reply)
        state, legal = reply.state, list(reply.legal_moves)
    return dealt, moves, replies


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_a_sequence_in_one_call_is_the_same_as_one_call_a_move(
    stub: game_service_pb2_grpc.GameServiceStub, game: str, players: int
) -> None:
    dealt, moves, replies = await played(stub, game, players, 60)
    together = await stub.ApplyMoves(gs.ApplyMovesRequest(state=dealt.state, moves=moves))
    last = replies[-1]
    assert together.state == last.state
    assert together.seat == last.seat and list(together.legal_moves) == list(last.legal_moves)
    assert [list(a.events) for a in together.applied] == [list(r.events) for r in replies]


async def test_an_illegal_move_is_named_by_its_index_and_nothing_is_applied(
    stub: game_service_pb2_grpc.GameServiceStub,
) -> None:
    dealt, moves, _ = await played(stub, "maraffa", 4, 12)
    # Move 12 is move 0 again: its card has been played.
    bad = [*moves, moves[0]]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMoves(gs.ApplyMovesRequest(state=dealt.state, moves=bad))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, why)] = field_violations(caught.value)
    assert field.startswith("moves[12]") and "move 12" in why


async def test_a_move_after_the_match_is_over_is_refused_by_index(
    stub: game_service_pb2_grpc.GameServiceStub,
) -> None:
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=5))
    claim = next(m for m in dealt.legal_moves if m.maraffa.HasField("claim"))
    # A claim at the first card is false: the match is lost at once, and over.
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMoves(gs.ApplyMovesRequest(state=dealt.state, moves=[claim, claim]))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert field_violations(caught.value)[0][0] == "moves[1]"


@pytest.mark.parametrize("count", [0, MAX_APPLY_MOVES + 1])
async def test_the_number_of_moves_is_bounded(
    stub: game_service_pb2_grpc.GameServiceStub, count: int
) -> None:
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=5))
    moves = [dealt.legal_moves[0]] * count
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMoves(gs.ApplyMovesRequest(state=dealt.state, moves=moves))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "moves"
