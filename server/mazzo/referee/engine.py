"""Where the rules run: in this process (the default) or in a remote ``GameService``.

Both engines hand the match loop the same things in wire form: the ``ActRequest``
for a seat, the events of a move as the bytes of ``ApplyMoveResponse.events``, and
the ``ScoreResponse``, so records are identical whichever engine played the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import grpc

from mazzo.codec import GameCodec
from mazzo.core.errors import InvalidArgument
from mazzo.core.rules import AnyRules
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.retry import CHANNEL_OPTIONS
from mazzo.v1 import bot_pb2, game_pb2, game_service_pb2, game_service_pb2_grpc

_ACT_MOVES = bot_pb2.ActRequest.DESCRIPTOR.fields_by_name["legal_moves"].number
_EVENTS = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["events"].number


class Position(Protocol):
    @property
    def finished(self) -> bool: ...

    @property
    def seat(self) -> int: ...


class Engine(Protocol):
    async def deal(
        self, game: str, options: game_pb2.GameOptions, players: int, seed: int
    ) -> Position: ...

    async def request(self, position: Any, seat: int) -> bot_pb2.ActRequest: ...

    async def apply(self, position: Any, index: int) -> tuple[Any, bytes]: ...

    async def score(self, position: Any) -> game_service_pb2.ScoreResponse: ...

    async def state(self, position: Any) -> game_pb2.GameState: ...

    def sealed(self, position: Any) -> Any:
        """A sealed match's record entry (``SealedEngine``); None for the others."""
        ...

    async def close(self) -> None: ...


def players_for(game: str, players: int) -> int:
    """``players`` checked against the game; 0 means the game's default."""
    rules = rules_for(game)
    players = players or rules.default_players
    if players not in rules.player_counts:
        allowed = ", ".join(map(str, rules.player_counts))
        raise InvalidArgument("players", f"{game} is for {allowed} players, not {players}")
    return players


@dataclass(frozen=True, slots=True)
class LocalPosition:
    rules: AnyRules
    codec: GameCodec
    state: Any
    seat: int
    finished: bool
    moves: Sequence[Any]


class LocalEngine:
    """The rules in-process: no encoding but what the bots and the records need."""

    async def deal(
        self, game: str, options: game_pb2.GameOptions, players: int, seed: int
    ) -> LocalPosition:
        rules, codec = rules_for(game), CODECS[game]
        state, _ = rules.deal(codec.options(options), players_for(game, players), seed)
        return _local(rules, codec, state)

    async def request(self, position: LocalPosition, seat: int) -> bot_pb2.ActRequest:
        codec = position.codec
        request = bot_pb2.ActRequest(seat=seat)
        codec.view_to_wire(position.rules.view(position.state, seat), request.view)
        request.MergeFromString(codec.moves_bytes(position.moves, _ACT_MOVES))
        return request

    async def apply(self, position: LocalPosition, index: int) -> tuple[LocalPosition, bytes]:
        rules, codec = position.rules, position.codec
        state, events = rules.apply(position.state, position.moves[index])
        return _local(rules, codec, state), codec.events_bytes(events, _EVENTS)

    async def score(self, position: LocalPosition) -> game_service_pb2.ScoreResponse:
        report = position.rules.score(position.state)
        codec = position.codec
        response = game_service_pb2.ScoreResponse(finished=report.finished, winners=report.winners)
        for side in report.sides:
            out = response.sides.add(side=side.side, seats=side.seats, match_total=side.match_total)
            codec.side_score_to_wire(side.detail, getattr(out, codec.options_field))
        return response

    async def state(self, position: LocalPosition) -> game_pb2.GameState:
        msg = game_pb2.GameState()
        position.codec.state_to_wire(position.state, position.seat, msg)
        return msg

    def sealed(self, position: Any) -> None:
        return None

    async def close(self) -> None:
        return None


def _local(rules: AnyRules, codec: GameCodec, state: Any) -> LocalPosition:
    if rules.finished(state):
        return LocalPosition(rules, codec, state, 0, True, ())
    return LocalPosition(rules, codec, state, rules.to_act(state), False, rules.legal_moves(state))


@dataclass(frozen=True, slots=True)
class RemotePosition:
    state: game_pb2.GameState
    seat: int
    moves: Sequence[game_pb2.Move]

    @property
    def finished(self) -> bool:
        return self.state.finished


class RemoteEngine:
    """The rules of a ``GameService`` at ``host:port``: one ApplyMove and one GetView per move."""

    def __init__(self, target: str, ca: Path | None = None) -> None:
        """``target`` is ``HOST:PORT`` (or ``grpc://HOST:PORT``), or ``grpcs://HOST:PORT``
        for TLS, checked against ``ca`` or the system's roots."""
        self.target = target
        if target.startswith("grpcs://"):
            credentials = grpc.ssl_channel_credentials(
                root_certificates=None if ca is None else ca.read_bytes()
            )
            self._channel = grpc.aio.secure_channel(
                target.removeprefix("grpcs://"), credentials, options=CHANNEL_OPTIONS
            )
        else:
            self._channel = grpc.aio.insecure_channel(
                target.removeprefix("grpc://"), options=CHANNEL_OPTIONS
            )
        self._stub = game_service_pb2_grpc.GameServiceStub(self._channel)

    async def deal(
        self, game: str, options: game_pb2.GameOptions, players: int, seed: int
    ) -> RemotePosition:
        dealt = await self._stub.Deal(
            game_service_pb2.DealRequest(game=game, options=options, players=players, seed=seed)
        )
        return RemotePosition(dealt.state, dealt.seat, dealt.legal_moves)

    async def request(self, position: RemotePosition, seat: int) -> bot_pb2.ActRequest:
        got = await self._stub.GetView(
            game_service_pb2.GetViewRequest(state=position.state, seat=seat)
        )
        return bot_pb2.ActRequest(view=got.view, legal_moves=position.moves, seat=seat)

    async def apply(self, position: RemotePosition, index: int) -> tuple[RemotePosition, bytes]:
        reply = await self._stub.ApplyMove(
            game_service_pb2.ApplyMoveRequest(state=position.state, move=position.moves[index])
        )
        events = game_service_pb2.ApplyMoveResponse(events=reply.events).SerializeToString()
        return RemotePosition(reply.state, reply.seat, reply.legal_moves), events

    async def score(self, position: RemotePosition) -> game_service_pb2.ScoreResponse:
        response: game_service_pb2.ScoreResponse = await self._stub.Score(
            game_service_pb2.ScoreRequest(state=position.state)
        )
        return response

    async def state(self, position: RemotePosition) -> game_pb2.GameState:
        return position.state

    def sealed(self, position: Any) -> None:
        return None

    async def close(self) -> None:
        await self._channel.close()


@dataclass(frozen=True, slots=True)
class SealedPosition:
    """A match played with sealed tokens on the service, and the same match in this
    process beside it (the referee's own copy: the score, the deal hash, and a check
    that the service plays the same rules)."""

    local: LocalPosition
    tokens: tuple[bytes, ...]
    match_id: str
    commitment: bytes
    reveal: game_service_pb2.DealReveal | None

    @property
    def finished(self) -> bool:
        return self.local.finished

    @property
    def seat(self) -> int:
        return self.local.seat


class SealedEngine:
    """``--seal``: a keyed ``GameService`` plays the match with one token per seat
    (docs/sealing.md); each bot is sent its own seat's token and no other. The service
    commits to the deal at ``Deal`` and reveals the salt with the last move; the
    record keeps both (``sealed``), checked by ``mazzo verify``."""

    def __init__(self, target: str, ca: Path | None = None) -> None:
        self._remote = RemoteEngine(target, ca)
        self._stub = self._remote._stub
        self._local = LocalEngine()

    async def deal(
        self, game: str, options: game_pb2.GameOptions, players: int, seed: int
    ) -> SealedPosition:
        local = await self._local.deal(game, options, players, seed)
        dealt = await self._stub.Deal(
            game_service_pb2.DealRequest(
                game=game, options=options, players=players, seed=seed, seal=True
            )
        )
        if dealt.seat != local.seat:
            raise RuntimeError(f"the service deals seat {dealt.seat} first, the rules {local.seat}")
        return SealedPosition(
            local, tuple(dealt.sealed_states), dealt.match_id, dealt.deal_commitment, None
        )

    def _token(self, position: SealedPosition, seat: int) -> tuple[int, bytes]:
        decider = position.local.rules.controller(position.local.state, seat)
        return decider, position.tokens[decider]

    async def request(self, position: SealedPosition, seat: int) -> bot_pb2.ActRequest:
        request = await self._local.request(position.local, seat)
        _, request.sealed_state = self._token(position, seat)
        return request

    async def apply(self, position: SealedPosition, index: int) -> tuple[SealedPosition, bytes]:
        local = position.local
        decider, token = self._token(position, local.seat)
        move = game_pb2.Move()
        local.codec.move_to_wire(local.moves[index], move)
        reply = await self._stub.ApplyMove(
            game_service_pb2.ApplyMoveRequest(sealed_state=token, seat=decider, move=move)
        )
        after, events = await self._local.apply(local, index)
        served = game_service_pb2.ApplyMoveResponse(events=reply.events).SerializeToString()
        if served != events or reply.seat != after.seat:
            raise RuntimeError("the service's sealed match differs from the rules' own")
        reveal = reply.deal_reveal if reply.HasField("deal_reveal") else None
        return SealedPosition(
            after, tuple(reply.sealed_states), position.match_id, position.commitment, reveal
        ), events

    async def score(self, position: SealedPosition) -> game_service_pb2.ScoreResponse:
        return await self._local.score(position.local)

    async def state(self, position: SealedPosition) -> game_pb2.GameState:
        return await self._local.state(position.local)

    def sealed(self, position: SealedPosition) -> dict[str, Any]:
        """The record's ``sealed``: the service's match id and commitment, and what its
        last move revealed (nothing when the match ended in a forfeit)."""
        entry: dict[str, Any] = {
            "match_id": position.match_id,
            "deal_commitment": position.commitment.hex(),
        }
        if position.reveal is not None:
            entry["deal_salt"] = position.reveal.salt.hex()
        return entry

    async def close(self) -> None:
        await self._remote.close()


def engine_for(service: str | None, ca: Path | None = None, seal: bool = False) -> Engine:
    if seal:
        if service is None:
            raise ValueError("--seal plays through a keyed GameService: give --service too")
        return SealedEngine(service, ca)
    return LocalEngine() if service is None else RemoteEngine(service, ca)
