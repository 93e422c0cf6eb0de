"""The environment's engine over gRPC: a running ``mazzo serve`` deals, lists the legal
moves, applies them and gives each seat's view (``MazzoEnv(server="HOST:PORT")``).

The server's answers are decoded with the same codecs as the service's own, so the
observations and masks are those of the in-process engines (a test holds the two
together, step by step). The environment still reads the states the server returns
for its own bookkeeping (who decides, when a hand is scored, the rewards), as any
client may: the states are not sealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from mazzo.games.registry import CODECS
from mazzo.service.retry import CHANNEL_OPTIONS
from mazzo.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc


@dataclass(frozen=True)
class Position:
    """A state as the server gave it, decoded, with its legal moves both ways."""

    wire: game_pb2.GameState
    state: Any
    seat: int
    finished: bool
    moves: tuple[Any, ...]
    wire_moves: tuple[game_pb2.Move, ...]


class RemoteGame:
    """One game's calls to the ``GameService`` at ``target`` (``HOST:PORT``,
    ``grpc://HOST:PORT``, or ``grpcs://HOST:PORT`` checked against ``ca`` or the
    system's roots)."""

    def __init__(
        self, target: str, game: str, options: Any, players: int, ca: Path | None = None
    ) -> None:
        self.target = target
        self.game = game
        self.players = players
        self.codec = CODECS[game]
        self.options = game_pb2.GameOptions()
        self.codec.options_to_wire(options, getattr(self.options, self.codec.options_field))
        if target.startswith("grpcs://"):
            credentials = grpc.ssl_channel_credentials(
                root_certificates=None if ca is None else ca.read_bytes()
            )
            self._channel = grpc.secure_channel(
                target.removeprefix("grpcs://"), credentials, options=CHANNEL_OPTIONS
            )
        else:
            self._channel = grpc.insecure_channel(
                target.removeprefix("grpc://"), options=CHANNEL_OPTIONS
            )
        self._stub = game_service_pb2_grpc.GameServiceStub(self._channel)

    def _position(self, wire: game_pb2.GameState, seat: int, moves: Any) -> Position:
        codec = self.codec
        wire_moves = tuple(moves)
        return Position(
            wire,
            codec.state_from_wire(wire),
            seat,
            wire.finished,
            tuple(codec.move_from_wire(m, "legal_moves") for m in wire_moves),
            wire_moves,
        )

    def deal(self, seed: int) -> Position:
        dealt = self._stub.Deal(
            game_service_pb2.DealRequest(
                game=self.game, options=self.options, players=self.players, seed=seed
            )
        )
        return self._position(dealt.state, dealt.seat, dealt.legal_moves)

    def at(self, state: Any, to_act: int) -> Position:
        """A state of ours, sent to the server (which checks it) for its legal moves."""
        wire = game_pb2.GameState()
        self.codec.state_to_wire(state, to_act, wire)
        got = self._stub.LegalMoves(game_service_pb2.LegalMovesRequest(state=wire))
        return self._position(wire, got.seat, got.moves)

    def apply(self, position: Position, index: int) -> Position:
        reply = self._stub.ApplyMove(
            game_service_pb2.ApplyMoveRequest(state=position.wire, move=position.wire_moves[index])
        )
        return self._position(reply.state, reply.seat, reply.legal_moves)

    def view(self, position: Position, seat: int) -> Any:
        got = self._stub.GetView(game_service_pb2.GetViewRequest(state=position.wire, seat=seat))
        return self.codec.view_from_wire(got.view, "view")

    def close(self) -> None:
        self._channel.close()
