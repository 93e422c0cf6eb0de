"""Helpers for tests that go through the gRPC API."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from mazzo.games.maraffa import wire as codec
from mazzo.games.maraffa.state import State
from mazzo.v1 import game_pb2


def wire_state(state: State) -> game_pb2.GameState:
    """The wire form of a domain state (as a client would send it)."""
    msg = game_pb2.GameState()
    codec.state_to_wire(state, state.to_act if not state.finished else 0, msg)
    return msg


def wire_move(move: object) -> game_pb2.Move:
    msg = game_pb2.Move()
    codec.move_to_wire(move, msg)  # type: ignore[arg-type]
    return msg


def field_violations(error: grpc.aio.AioRpcError) -> list[tuple[str, str]]:
    """The (field, description) pairs of the google.rpc.BadRequest in an error's details."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the error carries no rich status"
    found = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            found.extend((v.field, v.description) for v in bad.field_violations)
    return found
