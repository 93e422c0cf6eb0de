"""gRPC's ApplyMove runs bytes to bytes (``GameService.apply_move_bytes``): the state's
bytes are cut from the request unparsed and looked up in the memo of states this
server produced. These tests pin that the shortcut answers exactly what the full
path answers, for every game, for requests in any valid shape, and that it never
trusts bytes it did not produce.
"""

from __future__ import annotations

import random

import grpc
import pytest

from mazzo.codec.wire import entry
from mazzo.core.errors import InvalidState
from mazzo.service.game_service import GameService
from mazzo.service.state_memo import StateMemo
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_helpers import field_violations

GAMES = [
    ("maraffa", 4),
    ("maraffa", 3),
    ("maraffa", 2),
    ("maraffa", 5),
    ("burraco", 4),
    ("ramino", 3),
]


async def played_requests(game: str, players: int, moves: int, seed: int) -> list[bytes]:
    """The ApplyMove requests of a match played forward by a random client."""
    service = GameService()
    rnd = random.Random(seed)
    dealt = await service.Deal(gs.DealRequest(game=game, players=players, seed=seed), None)
    state, legal = dealt.state, list(dealt.legal_moves)
    requests = []
    for _ in range(moves):
        if state.finished:
            break
        request = gs.ApplyMoveRequest(state=state, move=rnd.choice(legal)).SerializeToString()
        requests.append(request)
        reply = gs.ApplyMoveResponse.FromString(await service.apply_move_bytes(request, None))
        state, legal = reply.state, list(reply.legal_moves)
    return requests


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_bytes_path_answers_as_the_message_path(game: str, players: int) -> None:
    requests = await played_requests(game, players, moves=60, seed=5)
    forward = GameService()  # will know every state it is sent: it produced them
    await forward.Deal(gs.DealRequest(game=game, players=players, seed=5), None)
    cold = GameService(memo=StateMemo(entries=0))  # decodes every state in full
    reference = GameService(memo=StateMemo(entries=0))
    for request in requests:
        expected = await reference.ApplyMove(gs.ApplyMoveRequest.FromString(request), None)
        assert (
            gs.ApplyMoveResponse.FromString(await forward.apply_move_bytes(request, None))
            == expected
        )
        assert await cold.apply_move_bytes(request, None) == await forward.apply_move_bytes(
            request, None
        )
    assert forward.memo.hits >= len(requests)
    assert cold.memo.hits == 0


async def test_the_reply_state_is_the_next_requests_memo_key() -> None:
    """A client that sends back the state it was given hits the memo every move."""
    requests = await played_requests("maraffa", 4, moves=40, seed=8)
    service = GameService()
    await service.Deal(gs.DealRequest(game="maraffa", players=4, seed=8), None)
    for request in requests:
        await service.apply_move_bytes(request, None)
    assert (service.memo.hits, service.memo.misses) == (len(requests), 0)


async def test_requests_in_other_valid_shapes_give_the_same_reply() -> None:
    """Fields in reverse order, a field split in two (protobuf merges them), unknown
    fields: not the shape the shortcut reads, so the request is parsed in full."""
    request = (await played_requests("maraffa", 4, moves=12, seed=3))[-1]
    parsed = gs.ApplyMoveRequest.FromString(request)
    state, move = parsed.state.SerializeToString(), parsed.move.SerializeToString()
    first = game_pb2.GameState(game=parsed.state.game, players=parsed.state.players)
    rest = game_pb2.GameState()
    rest.CopyFrom(parsed.state)
    rest.ClearField("game")
    reshaped = [
        entry(2, move) + entry(1, state),
        entry(1, first.SerializeToString()) + entry(1, rest.SerializeToString()) + entry(2, move),
        entry(1, state) + entry(2, move) + entry(9, b"unknown"),
    ]
    service = GameService(memo=StateMemo(entries=0))
    expected = await service.apply_move_bytes(request, None)
    for data in reshaped:
        reparsed = gs.ApplyMoveRequest.FromString(data)
        assert (reparsed.state, reparsed.move) == (parsed.state, parsed.move)
        assert await service.apply_move_bytes(data, None) == expected


async def test_a_changed_byte_is_never_taken_from_the_memo() -> None:
    """The memo answers only for the exact bytes it stored; a state with one card
    duplicated is decoded, validated and refused even right after the real one."""
    request = (await played_requests("maraffa", 4, moves=6, seed=4))[-1]
    parsed = gs.ApplyMoveRequest.FromString(request)
    service = GameService()
    await service.apply_move_bytes(request, None)
    hands = parsed.state.maraffa.hands
    hands[0].cards[0] = hands[1].cards[0]
    with pytest.raises(InvalidState) as raised:
        await service.apply_move_bytes(parsed.SerializeToString(), None)
    assert raised.value.field.startswith("state.maraffa.")


async def test_malformed_requests_are_invalid_argument_on_every_rpc(
    channel: grpc.aio.Channel,
) -> None:
    """Bytes that are not the request message: INVALID_ARGUMENT on field ``request``
    (or the sub-message that does not parse), never UNKNOWN."""
    methods = [
        "/mazzo.v1.GameService/" + name
        for name in ("ListGames", "Deal", "LegalMoves", "ApplyMove", "GetView", "Score")
    ] + ["/grpc.health.v1.Health/Check"]
    for method in methods:
        call = channel.unary_unary(method)
        for data, field in ((b"\xff\xff", "request"), (b"\x0a\x05ab", "request")):
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await call(data, timeout=10)
            assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT, method
            assert [f for f, _ in field_violations(raised.value)] == [field], method
    apply = channel.unary_unary("/mazzo.v1.GameService/ApplyMove")
    dealt = await game_service_pb2_grpc.GameServiceStub(channel).Deal(
        gs.DealRequest(game="maraffa", seed=1)
    )
    state = dealt.state.SerializeToString()
    for data, field in (
        (entry(1, b"\xff") + entry(2, b""), "state"),
        (entry(1, state) + entry(2, b"\x0a\x09x"), "move"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as raised:
            await apply(data, timeout=10)
        assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert [f for f, _ in field_violations(raised.value)] == [field]
