"""Helpers for Burraco tests that go through the gRPC API, as a client would."""

from __future__ import annotations

from mazzo.games.burraco import wire as codec
from mazzo.games.burraco.moves import Move, parse
from mazzo.games.burraco.state import State
from mazzo.v1 import burraco_pb2, game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub


def wire_state(state: State) -> game_pb2.GameState:
    """The wire form of a domain state."""
    msg = game_pb2.GameState()
    codec.state_to_wire(state, 0 if state.finished else state.to_act, msg)
    return msg


def wire_move(move: str | Move) -> game_pb2.Move:
    msg = game_pb2.Move()
    codec.move_to_wire(parse(move) if isinstance(move, str) else move, msg)
    return msg


def text(move: game_pb2.Move) -> str:
    """The text form of a wire move (``meld 5S 6S 7S``)."""
    return str(codec.move_from_wire(move))


async def legal(stub: GameServiceStub, state: game_pb2.GameState) -> list[str]:
    reply = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
    return [text(m) for m in reply.moves]


async def apply(
    stub: GameServiceStub, state: game_pb2.GameState, move: str
) -> gs.ApplyMoveResponse:
    return await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move(move)))


async def apply_all(
    stub: GameServiceStub, state: game_pb2.GameState, moves: list[str]
) -> tuple[gs.ApplyMoveResponse, list[burraco_pb2.BurracoEvent]]:
    """Apply moves one after the other; the last reply and every event on the way."""
    events: list[burraco_pb2.BurracoEvent] = []
    reply = None
    for move in moves:
        reply = await apply(stub, state, move)
        events.extend(e.burraco for e in reply.events)
        state = reply.state
    assert reply is not None
    return reply, events


def of_kind(events: list[burraco_pb2.BurracoEvent], kind: str) -> list:
    return [getattr(e, kind) for e in events if e.WhichOneof("event") == kind]
