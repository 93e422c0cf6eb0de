"""Helpers for Briscola tests that go through the gRPC API."""

from __future__ import annotations

from mazzo.games.briscola import wire as codec
from mazzo.games.briscola.moves import Move, parse
from mazzo.games.briscola.state import State
from mazzo.v1 import game_pb2


def wire_state(state: State) -> game_pb2.GameState:
    """The wire form of a domain state, as a client would send it."""
    msg = game_pb2.GameState()
    codec.state_to_wire(state, 0 if state.finished else state.to_act, msg)
    return msg


def wire_move(move: Move | str) -> game_pb2.Move:
    msg = game_pb2.Move()
    codec.move_to_wire(parse(move) if isinstance(move, str) else move, msg)
    return msg


def move_text(msg: game_pb2.Move) -> str:
    """The text form of a wire move (``play 7S``)."""
    return str(codec.move_from_wire(msg))
