"""``mazzo.v1.GameService``: thin handlers over the rules and codecs.

Every state that comes in is decoded and validated before use; nothing is kept
between calls. Responses that list moves are assembled from pre-encoded moves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import grpc

from mazzo.codec import CODECS, GameCodec
from mazzo.codec.common import memo_for
from mazzo.codec.wire import entry, message_fields, parse, varint
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.registry import GAMES, rules_for
from mazzo.service.metrics import Metrics
from mazzo.service.state_memo import StateMemo
from mazzo.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc

_LEGAL_MOVES_FIELD = game_service_pb2.LegalMovesResponse.DESCRIPTOR.fields_by_name["moves"].number
_APPLY_MOVES_FIELD = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name[
    "legal_moves"
].number
_APPLY_EVENTS_FIELD = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["events"].number
_DEAL_MOVES_FIELD = game_service_pb2.DealResponse.DESCRIPTOR.fields_by_name["legal_moves"].number
_APPLY_STATE_FIELD = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["state"].number
_APPLY_SEAT_KEY = varint(
    game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["seat"].number << 3
)


def _game_of(msg: game_pb2.GameState) -> tuple[Any, GameCodec]:
    if not msg.game:
        raise InvalidState("state.game", "the state names no game")
    return rules_for(msg.game, "state.game"), CODECS[msg.game]


Loaded = tuple[Any, GameCodec, Any]


def load_state(msg: game_pb2.GameState, memo: StateMemo | None = None) -> Loaded:
    """Decode and validate an incoming state: the one door every state passes.

    A state this process produced comes back byte for byte and is known valid; the
    memo (see state_memo.py) skips the work for it and nothing else.
    """
    if memo is not None:
        known = memo.get(msg.SerializeToString())
        if known is not None:
            loaded: Loaded = known
            return loaded
    return _decoded(msg)


def _decoded(msg: game_pb2.GameState) -> Loaded:
    rules, codec = _game_of(msg)
    state = codec.state_from_wire(msg)
    rules.validate(state)
    return rules, codec, state


def _remember(memo: StateMemo, msg: game_pb2.GameState, loaded: Loaded) -> None:
    memo.put(msg.SerializeToString(), loaded)


#: A real move is a few bytes; longer ones (unknown fields) are decoded, not kept.
_MOVE_KEY_LIMIT = 256


@lru_cache(maxsize=4096)
def _move_from_bytes(game: str, data: bytes) -> Any:
    """A wire move decoded once: moves recur across every match, and the domain moves
    are immutable (errors are raised again each time, never cached)."""
    return CODECS[game].move_from_wire(parse(game_pb2.Move.FromString, data, "move"), "move")


def _decision(rules: Any, state: Any) -> tuple[int, Any]:
    if rules.finished(state):
        return 0, ()
    return rules.to_act(state), rules.legal_moves(state)


class GameService(game_service_pb2_grpc.GameServiceServicer):
    def __init__(self, memo: StateMemo | None = None, metrics: Metrics | None = None) -> None:
        self.memo = memo if memo is not None else StateMemo()
        self.metrics = metrics if metrics is not None else Metrics()
        self._deals = {game: self.metrics.deals.labels(game) for game in GAMES}
        self._moves = {game: self.metrics.moves.labels(game) for game in GAMES}

    async def ListGames(
        self, request: game_service_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ListGamesResponse:
        response = game_service_pb2.ListGamesResponse()
        for game_id, rules in GAMES.items():
            info = response.games.add(
                id=game_id,
                display_name=rules.display_name,
                player_counts=rules.player_counts,
                default_players=rules.default_players,
            )
            for spec in rules.options:
                info.options.add(
                    name=spec.name,
                    description=spec.description,
                    default_value=spec.default,
                    allowed_values=spec.allowed,
                )
            codec = CODECS[game_id]
            codec.options_to_wire(
                rules.default_options(), getattr(info.defaults, codec.options_field)
            )
        return response

    async def Deal(
        self, request: game_service_pb2.DealRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.DealResponse:
        rules = rules_for(request.game)
        codec = CODECS[request.game]
        options = codec.options(request.options)
        players = request.players or rules.default_players
        if players not in rules.player_counts:
            allowed = ", ".join(map(str, rules.player_counts))
            raise InvalidArgument("players", f"{request.game} is for {allowed} players")
        state, _ = rules.deal(options, players, request.seed)
        self._deals[rules.id].inc()
        response = game_service_pb2.DealResponse()
        seat, moves = _decision(rules, state)
        codec.state_to_wire(state, seat, response.state)
        _remember(self.memo, response.state, (rules, codec, state))
        response.seat = seat
        response.MergeFromString(codec.moves_bytes(moves, _DEAL_MOVES_FIELD))
        return response

    async def LegalMoves(
        self, request: game_service_pb2.LegalMovesRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.LegalMovesResponse:
        rules, codec, state = load_state(request.state, self.memo)
        seat, moves = _decision(rules, state)
        response = game_service_pb2.LegalMovesResponse(seat=seat)
        response.MergeFromString(codec.moves_bytes(moves, _LEGAL_MOVES_FIELD))
        return response

    async def ApplyMove(
        self, request: game_service_pb2.ApplyMoveRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ApplyMoveResponse:
        """The message form of ``apply_move_bytes`` (HTTP/JSON and in-process callers)."""
        loaded = load_state(request.state, self.memo)
        move = loaded[1].move_from_wire(request.move, "move")
        return game_service_pb2.ApplyMoveResponse.FromString(self._applied(loaded, move))

    async def apply_move_bytes(self, data: bytes, context: grpc.aio.ServicerContext) -> bytes:
        """gRPC's ApplyMove, from request bytes to response bytes.

        The call a match is played with, so it skips what a played-forward state does
        not need: the state's bytes, cut from the request unparsed, are the memo's key,
        and the new state is serialised once, for the reply and as the next key. A
        state the memo does not know, or a request in any unusual shape, is parsed
        and checked in full as everywhere else.
        """
        fields = message_fields(data, 2)
        if fields is None:
            request = parse(game_service_pb2.ApplyMoveRequest.FromString, data, "request")
            fields = [request.state.SerializeToString(), request.move.SerializeToString()]
        state_bytes, move_bytes = fields
        loaded = self.memo.get(state_bytes)
        if loaded is None:
            loaded = _decoded(parse(game_pb2.GameState.FromString, state_bytes, "state"))
        decode = memo_for(_move_from_bytes, move_bytes, limit=_MOVE_KEY_LIMIT)
        return self._applied(loaded, decode(loaded[1].game, move_bytes))

    def _applied(self, loaded: Loaded, move: Any) -> bytes:
        """The serialised ``ApplyMoveResponse`` of playing ``move``."""
        rules, codec, state = loaded
        state, events = rules.apply(state, move)
        self._moves[rules.id].inc()
        seat, moves = _decision(rules, state)
        state_bytes = codec.state_bytes(state, seat)
        self.memo.put(state_bytes, (rules, codec, state))
        return b"".join(
            (
                entry(_APPLY_STATE_FIELD, state_bytes),
                codec.events_bytes(events, _APPLY_EVENTS_FIELD),
                _APPLY_SEAT_KEY + varint(seat) if seat else b"",
                codec.moves_bytes(moves, _APPLY_MOVES_FIELD),
            )
        )

    async def GetView(
        self, request: game_service_pb2.GetViewRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.GetViewResponse:
        rules, codec, state = load_state(request.state, self.memo)
        response = game_service_pb2.GetViewResponse()
        codec.view_to_wire(rules.view(state, request.seat), response.view)
        return response

    async def Score(
        self, request: game_service_pb2.ScoreRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ScoreResponse:
        rules, codec, state = load_state(request.state, self.memo)
        report = rules.score(state)
        response = game_service_pb2.ScoreResponse(finished=report.finished, winners=report.winners)
        for side in report.sides:
            out = response.sides.add(side=side.side, seats=side.seats, match_total=side.match_total)
            codec.side_score_to_wire(side.detail, getattr(out, codec.options_field))
        return response


def add_to_server(service: GameService, server: grpc.aio.Server) -> None:
    """Register ``service`` as the generated code would, except that ApplyMove, the
    call of every move, goes bytes to bytes (``apply_move_bytes``)."""
    handlers = {
        method.name: grpc.unary_unary_rpc_method_handler(
            getattr(service, method.name),
            request_deserializer=getattr(game_service_pb2, method.input_type.name).FromString,
            response_serializer=getattr(
                game_service_pb2, method.output_type.name
            ).SerializeToString,
        )
        for method in _SERVICE.methods
    }
    handlers["ApplyMove"] = grpc.unary_unary_rpc_method_handler(service.apply_move_bytes)
    server.add_registered_method_handlers(_SERVICE.full_name, handlers)


_SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
