"""``mazzo.v1.GameService``: thin handlers over the rules and codecs.

Every state that comes in is decoded and validated before use; nothing is kept
between calls. Responses that list moves are assembled from pre-encoded moves.
A request may carry a seat's sealed token instead of the state (sealing.py): it is
opened here, and answered with only what that seat may know.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

import grpc

from mazzo.codec import GameCodec, bounds
from mazzo.codec.bounds import MAX_APPLY_MOVES
from mazzo.codec.common import MEMO_ENTRIES, memo_for
from mazzo.codec.wire import entry, message_fields, parse, varint
from mazzo.core import fair
from mazzo.core.errors import InvalidArgument, InvalidState, NotAllowedNow, RulesError
from mazzo.core.rules import AnyRules
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.players.playout import Horizon, PolicyKind
from mazzo.service.metrics import Metrics
from mazzo.service.sampling import MAX_SIMULATED_MOVES, check_budget, decision
from mazzo.service.sealing import (
    BadToken,
    Header,
    Sealer,
    check_decides,
    holders,
    read_header,
    seats_of,
)
from mazzo.service.simulator import Simulator, drawn_from_state
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
_MOVES_MOVES_FIELD = game_service_pb2.ApplyMovesResponse.DESCRIPTOR.fields_by_name[
    "legal_moves"
].number
_MOVE_EVENTS_FIELD = game_service_pb2.MoveEvents.DESCRIPTOR.fields_by_name["events"].number
_APPLY_REVEAL_FIELD = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name[
    "deal_reveal"
].number
_APPLY_SEALED_FIELD = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name[
    "sealed_states"
].number

#: Determinize: states per call. A search samples tens; a thousand is a long study.
MAX_SAMPLES = 1024
#: Simulate: playouts of each legal move (per sample).
MAX_PLAYOUTS = 10_000
MAX_SIMULATED_MOVES = MAX_SIMULATED_MOVES  # Simulate's budget (sampling.py), kept here too


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
        # The lists outside lists, before the key is made: a padded one costs nothing.
        bounds.check(msg, "state", InvalidState, deep=False)
        known = memo.get(msg.SerializeToString())
        if known is not None:
            loaded: Loaded = known
            return loaded
    return _decoded(msg)


def _decoded(msg: game_pb2.GameState) -> Loaded:
    bounds.check(msg, "state", InvalidState)
    rules, codec = _game_of(msg)
    state = codec.state_from_wire(msg)
    rules.validate(state)
    return rules, codec, state


def _remember(memo: StateMemo, msg: game_pb2.GameState, loaded: Loaded) -> None:
    memo.put(msg.SerializeToString(), loaded)


def _decided(
    memo: StateMemo, response: Any, loaded: Loaded, seat: int, moves: Sequence[Any], field: int
) -> None:
    """A reply's state, remembered (it comes back in the next request), the seat to act
    and its legal moves (``moves`` at ``field``)."""
    codec, state = loaded[1], loaded[2]
    codec.state_to_wire(state, seat, response.state)
    _remember(memo, response.state, loaded)
    response.seat = seat
    response.MergeFromString(codec.moves_bytes(moves, field))


#: A real move is a few bytes; longer ones (unknown fields) are decoded, not kept.
_MOVE_KEY_LIMIT = 256


@lru_cache(maxsize=MEMO_ENTRIES)
def _move_from_bytes(game: str, data: bytes) -> Any:
    """A wire move decoded once: moves recur across every match, and the domain moves
    are immutable (errors are raised again each time, never cached)."""
    move = parse(game_pb2.Move.FromString, data, "move")
    bounds.check(move, "move", InvalidArgument)
    return CODECS[game].move_from_wire(move, "move")


def load_view(msg: game_pb2.GameView, field: str = "view") -> tuple[Any, GameCodec, Any]:
    """Decode and check a view a client sends (Determinize, Simulate)."""
    if not msg.game:
        raise InvalidArgument(f"{field}.game", "the view names no game")
    bounds.check(msg, field, InvalidArgument)
    rules = rules_for(msg.game, f"{field}.game")
    codec = CODECS[msg.game]
    return rules, codec, codec.view_from_wire(msg, field)


def deal_commitment(rules: AnyRules, codec: Any, dealt: Any, seed: int, salt: bytes) -> bytes:
    """The commitment to a deal (``fair.commitment``): its hash is of the dealt state's
    wire form exactly as ``mazzo replay`` and ``mazzo verify`` rebuild it."""
    msg = game_pb2.GameState()
    codec.state_to_wire(dealt, decision(rules, dealt)[0], msg)
    dealt_hash = fair.deal_hash(msg.SerializeToString(deterministic=True))
    return fair.commitment(salt, seed, dealt_hash)


class GameService(game_service_pb2_grpc.GameServiceServicer):
    def __init__(
        self,
        memo: StateMemo | None = None,
        metrics: Metrics | None = None,
        simulator: Simulator | None = None,
        sealer: Sealer | None = None,
    ) -> None:
        self.memo = memo if memo is not None else StateMemo()
        #: With keys (--seal-key-file), states may travel sealed (sealing.py).
        self.sealer = sealer
        self.simulator = simulator if simulator is not None else Simulator()
        self.metrics = metrics if metrics is not None else Metrics()
        self._deals = {game: self.metrics.deals.labels(game) for game in GAMES}
        self._moves = {game: self.metrics.moves.labels(game) for game in GAMES}

    async def ListGames(
        self, request: game_service_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ListGamesResponse:
        response = game_service_pb2.ListGamesResponse()
        for game_id, game in GAMES.items():
            rules = game.rules
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
        sealer = self._sealer("seal") if request.seal else None
        rules = rules_for(request.game)
        codec = CODECS[request.game]
        options = codec.options(request.options)
        players = request.players or rules.default_players
        if players not in rules.player_counts:
            allowed = ", ".join(map(str, rules.player_counts))
            raise InvalidArgument("players", f"{request.game} is for {allowed} players")
        seed = request.seed
        if sealer is not None and seed == 0:
            # No seed: a sealed deal must not be one anybody can deal again in plain.
            seed = secrets.randbits(64) or 1
        state, _ = rules.deal(options, players, seed)
        self._deals[rules.id].inc()
        response = game_service_pb2.DealResponse()
        seat, moves = decision(rules, state)
        if sealer is not None:
            # The first decision's moves would show the dealer that seat's cards.
            match_id = sealer.new_match_id()
            state_bytes = codec.state_bytes(state, seat)
            self.memo.put(state_bytes, (rules, codec, state))
            response.sealed_states.extend(
                self._tokens(
                    rules, state, state_bytes, match_id, 0, seats_of(rules, state), sealer.key_id
                )
            )
            response.match_id = match_id.hex()
            response.seat = seat
            salt = sealer.deal_salt(sealer.key_id, match_id)
            response.deal_commitment = deal_commitment(rules, codec, state, seed, salt)
            return response
        if request.commit:
            salt = secrets.token_bytes(fair.SALT_BYTES)
            response.deal_commitment = deal_commitment(rules, codec, state, request.seed, salt)
            response.deal_salt = salt
        _decided(self.memo, response, (rules, codec, state), seat, moves, _DEAL_MOVES_FIELD)
        return response

    async def LegalMoves(
        self, request: game_service_pb2.LegalMovesRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.LegalMovesResponse:
        opened = self._unsealed(request, request.HasField("state"))
        if opened is None:
            rules, codec, state = load_state(request.state, self.memo)
        else:
            header, (rules, codec, state) = opened
            if not rules.finished(state):
                check_decides(rules, state, header.seat)
        seat, moves = decision(rules, state)
        response = game_service_pb2.LegalMovesResponse(seat=seat)
        response.MergeFromString(codec.moves_bytes(moves, _LEGAL_MOVES_FIELD))
        return response

    async def ApplyMove(
        self, request: game_service_pb2.ApplyMoveRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ApplyMoveResponse:
        """The message form of ``apply_move_bytes`` (HTTP/JSON and in-process callers)."""
        if request.sealed_state or request.seat:
            return game_service_pb2.ApplyMoveResponse.FromString(self._apply_sealed(request))
        bounds.check(request.move, "move", InvalidArgument)
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
        if fields is None:  # also every sealed request: its token and seat are fields 3, 4
            request = parse(game_service_pb2.ApplyMoveRequest.FromString, data, "request")
            if request.sealed_state or request.seat:
                return self._apply_sealed(request)
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
        seat, moves = decision(rules, state)
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

    def _apply_sealed(self, request: game_service_pb2.ApplyMoveRequest) -> bytes:
        """ApplyMove by a token's seat, which must decide now: the answer holds a fresh
        token for every seat, the public events, the next seat to decide, and its
        legal moves only if that is the same player (they would show another player's
        cards)."""
        bounds.check(request.move, "move", InvalidArgument)
        opened = self._unsealed(request, request.HasField("state"))
        assert opened is not None, "a request with a seat and no token is refused"
        header, (rules, codec, state) = opened
        if not rules.finished(state):  # a finished match is refused by the rules, on move
            check_decides(rules, state, header.seat)
        move = codec.move_from_wire(request.move, "move")
        state, events = rules.apply(state, move)
        self._moves[rules.id].inc()
        seat, moves = decision(rules, state)
        state_bytes = codec.state_bytes(state, seat)
        self.memo.put(state_bytes, (rules, codec, state))
        own = bool(moves) and rules.controller(state, seat) == header.seat
        tokens = self._tokens(
            rules, state, state_bytes, header.match_id, header.move + 1, header.seats, header.key_id
        )
        reveal = b""
        if rules.finished(state):
            reveal = entry(_APPLY_REVEAL_FIELD, self._reveal(header, rules, codec, state))
        return b"".join(
            (
                codec.events_bytes(events, _APPLY_EVENTS_FIELD),
                _APPLY_SEAT_KEY + varint(seat) if seat else b"",
                codec.moves_bytes(moves, _APPLY_MOVES_FIELD) if own else b"",
                *(entry(_APPLY_SEALED_FIELD, token) for token in tokens),
                reveal,
            )
        )

    def _reveal(self, header: Header, rules: AnyRules, codec: Any, state: Any) -> bytes:
        """The serialized ``DealReveal`` of a sealed match that is over: its salt, its
        seed, and the commitment they open with the seed's deal (the server keeps
        nothing: it deals the seed again). A finished state the server opened from
        its own token is the proof the match is over."""
        assert self.sealer is not None
        table = state.table  # every game's: what stays fixed within a hand
        # Trionfo's table has no player count: it is for 5, with a total per seat.
        players = getattr(table, "players", None) or len(table.totals)
        dealt, _ = rules.deal(table.options, players, table.seed)
        salt = self.sealer.deal_salt(header.key_id, header.match_id)
        return game_service_pb2.DealReveal(
            salt=salt,
            seed=table.seed,
            deal_commitment=deal_commitment(rules, codec, dealt, table.seed, salt),
        ).SerializeToString()

    def _sealer(self, field: str) -> Sealer:
        if self.sealer is None:
            raise NotAllowedNow(
                field, "this server seals no states: it was started without --seal-key-file"
            )
        return self.sealer

    def _unsealed(
        self, request: Any, has_position: bool, seat_alone: bool = False
    ) -> tuple[Header, Loaded] | None:
        """The header and state of the token a request carries, opened for the seat it
        names (None without a token). Nothing of a token that does not open is told.
        Without a token, ``seat`` is refused (it would be silently ignored) unless it
        has a meaning of its own (``seat_alone``: GetView's)."""
        token: bytes = request.sealed_state
        if not token:
            if request.seat and not seat_alone:
                raise InvalidArgument("seat", "seat is given only with sealed_state, as its seat")
            return None
        if has_position:
            raise InvalidArgument("sealed_state", "give the position or sealed_state, not both")
        sealer = self._sealer("sealed_state")
        header = read_header(token)
        if request.seat != header.seat:
            raise InvalidArgument("seat", "not the seat of sealed_state: a token serves its own")
        _, state_bytes = sealer.open(token, header)
        loaded = self.memo.get(state_bytes)
        if loaded is None:
            try:
                loaded = _decoded(parse(game_pb2.GameState.FromString, state_bytes, "state"))
            except RulesError as e:  # sealed by a key of ours, yet not a state we accept
                raise BadToken(f"the sealed state does not load: {e}") from None
        return header, loaded

    def _tokens(
        self,
        rules: AnyRules,
        state: Any,
        state_bytes: bytes,
        match_id: bytes,
        move: int,
        seats: int,
        key_id: str,
    ) -> list[bytes]:
        """One token per seat (empty for a seat another decides for), under the key the
        match was dealt with."""
        sealer = self.sealer
        assert sealer is not None
        return [
            sealer.seal(state_bytes, match_id, move, seat, seats, key_id) if holds else b""
            for seat, holds in enumerate(holders(rules, state, seats))
        ]

    async def GetView(
        self, request: game_service_pb2.GetViewRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.GetViewResponse:
        opened = self._unsealed(request, request.HasField("state"), seat_alone=True)
        if opened is None:
            rules, codec, state = load_state(request.state, self.memo)
        else:
            header, (rules, codec, state) = opened
        response = game_service_pb2.GetViewResponse()
        codec.view_to_wire(rules.view(state, request.seat), response.view)
        if opened is not None and rules.finished(state):
            response.deal_reveal.MergeFromString(self._reveal(header, rules, codec, state))
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

    async def Determinize(
        self, request: game_service_pb2.DeterminizeRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.DeterminizeResponse:
        """The message form of ``determinize_bytes`` (HTTP/JSON and in-process callers)."""
        answer = await self.determinize_bytes(request, context)
        return game_service_pb2.DeterminizeResponse.FromString(answer)

    async def determinize_bytes(
        self, request: game_service_pb2.DeterminizeRequest, context: grpc.aio.ServicerContext
    ) -> bytes:
        """gRPC's Determinize: the answer (up to a thousand states) is encoded in the
        pool and sent as it comes, never parsed on the event loop."""
        if not 1 <= request.count <= MAX_SAMPLES:
            raise InvalidArgument("count", f"count must be 1..{MAX_SAMPLES}, not {request.count}")
        opened = self._unsealed(request, request.HasField("view"))
        if opened is None:
            rules, _, view = load_view(request.view)
        else:
            header, (rules, _, state) = opened
            view = rules.view(state, header.seat)
        with self.simulator.searching():
            return await self.simulator.determinize_response(
                rules.id, view, request.count, request.seed
            )

    async def ApplyMoves(
        self, request: game_service_pb2.ApplyMovesRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.ApplyMovesResponse:
        """All or nothing: the first move that fails is named by its index, and no state
        is returned."""
        count = len(request.moves)
        if not 1 <= count <= MAX_APPLY_MOVES:
            raise InvalidArgument("moves", f"give 1..{MAX_APPLY_MOVES} moves, not {count}")
        for i, wire_move in enumerate(request.moves):
            bounds.check(wire_move, f"moves[{i}]", InvalidArgument)
        rules, codec, state = load_state(request.state, self.memo)
        response = game_service_pb2.ApplyMovesResponse()
        for i, wire_move in enumerate(request.moves):
            try:
                move = codec.move_from_wire(wire_move, "move")
                state, events = rules.apply(state, move)
            except RulesError as e:
                raise _at_move(e, i) from None
            response.applied.add().MergeFromString(codec.events_bytes(events, _MOVE_EVENTS_FIELD))
        self._moves[rules.id].inc(count)
        seat, moves = decision(rules, state)
        _decided(self.memo, response, (rules, codec, state), seat, moves, _MOVES_MOVES_FIELD)
        return response

    async def Simulate(
        self, request: game_service_pb2.SimulateRequest, context: grpc.aio.ServicerContext
    ) -> game_service_pb2.SimulateResponse:
        """Checked and admitted here (``Busy`` when the pool has all the searches it
        takes); sampled and played out in the simulator's pool."""
        playouts = request.playouts
        if not 1 <= playouts <= MAX_PLAYOUTS:
            raise InvalidArgument("playouts", f"playouts must be 1..{MAX_PLAYOUTS}, not {playouts}")
        policy = _enum_choice(request.policy, _POLICIES, "policy")
        horizon = _enum_choice(request.horizon, _HORIZONS, "horizon")
        with self.simulator.searching():
            return await self._simulated(request, playouts, policy, horizon)

    async def _simulated(
        self,
        request: game_service_pb2.SimulateRequest,
        playouts: int,
        policy: PolicyKind,
        horizon: Horizon,
    ) -> game_service_pb2.SimulateResponse:
        position = request.WhichOneof("position")
        opened = self._unsealed(request, position is not None)
        to_match_end = horizon is Horizon.MATCH
        if opened is not None:
            header, (rules, codec, state) = opened
            if rules.finished(state):
                raise NotAllowedNow(
                    "sealed_state", "the match is over: there is nothing to simulate"
                )
            check_decides(rules, state, header.seat)
            drawn = await self.simulator.determinize(
                rules.id,
                rules.view(state, header.seat),
                _determinizations(request),
                request.seed,
                to_match_end,
                playouts,
            )
        elif position == "state":
            if request.determinizations > 1:
                raise InvalidArgument(
                    "determinizations", "a state is one position: determinizations is 0 or 1"
                )
            rules, codec, state = load_state(request.state, self.memo)
            if rules.finished(state):
                raise NotAllowedNow("state", "the match is over: there is nothing to simulate")
            drawn = drawn_from_state(rules, state, to_match_end, self.simulator.pieces)
        elif position == "view":
            count = _determinizations(request)
            rules, codec, view = load_view(request.view)
            drawn = await self.simulator.determinize(
                rules.id, view, count, request.seed, to_match_end, playouts
            )
            if rules.finished(drawn.first):
                raise NotAllowedNow("view", "the match is over: there is nothing to simulate")
        else:
            raise InvalidArgument(
                "position", "give the position: a state, a view or a sealed_state"
            )
        # Counted in the pool already for samples; here for every position.
        moves, samples = drawn.moves, drawn.samples
        check_budget(moves, playouts, samples, drawn.limit)
        stats, simulated = await self.simulator.run(
            rules.id, drawn, playouts, policy, horizon, request.seed
        )
        first = drawn.first
        response = game_service_pb2.SimulateResponse(
            seat=rules.to_act(first), playouts=moves * playouts * samples
        )
        response.simulated_moves = simulated
        decider = rules.controller(first, response.seat)
        response.side = next(
            s.side
            for s in rules.score(first).sides
            if decider in s.seats or response.seat in s.seats
        )
        for move, stat in zip(rules.legal_moves(first), stats, strict=True):
            out = response.outcomes.add(playouts=stat.playouts)
            codec.move_to_wire(move, out.move)
            for side in range(stat.sides):
                out.sides.add(
                    side=side,
                    mean_score_change=stat.mean(side),
                    score_change_standard_error=stat.standard_error(side),
                    win_rate=stat.win_rate(side),
                )
        return response


E = TypeVar("E")


def _determinizations(request: game_service_pb2.SimulateRequest) -> int:
    """Simulate's samples of a view (or a token's view): 0 means 1."""
    count = request.determinizations or 1
    if not 1 <= count <= MAX_SAMPLES:
        raise InvalidArgument(
            "determinizations", f"determinizations must be 0..{MAX_SAMPLES}, not {count}"
        )
    return count


def _enum_choice(value: int, choices: dict[int, E], field: str) -> E:
    """An enum field's meaning, its UNSPECIFIED (0) being the first choice's."""
    if value not in choices:
        raise InvalidArgument(field, f"unknown {field} {value}")
    return choices[value]


_POLICIES: dict[int, PolicyKind] = {
    game_service_pb2.PLAYOUT_POLICY_UNSPECIFIED: PolicyKind.RANDOM,
    game_service_pb2.PLAYOUT_POLICY_RANDOM: PolicyKind.RANDOM,
    game_service_pb2.PLAYOUT_POLICY_HEURISTIC: PolicyKind.HEURISTIC,
}
_HORIZONS: dict[int, Horizon] = {
    game_service_pb2.PLAYOUT_HORIZON_UNSPECIFIED: Horizon.HAND,
    game_service_pb2.PLAYOUT_HORIZON_HAND: Horizon.HAND,
    game_service_pb2.PLAYOUT_HORIZON_MATCH: Horizon.MATCH,
}


def _at_move(error: RulesError, index: int) -> RulesError:
    """``error`` of one move, re-addressed to that move of ``moves`` (same class)."""
    field = error.field
    if field == "move" or field.startswith("move."):
        field = f"moves[{index}]" + field.removeprefix("move")
    return type(error)(field, f"move {index} of the sequence: {error.reason}")


def add_to_server(service: GameService, server: grpc.aio.Server) -> None:
    """Register ``service`` as the generated code would, except that ApplyMove, the
    call of every move, goes bytes to bytes (``apply_move_bytes``), and Determinize's
    answer goes out as the pool encoded it (``determinize_bytes``)."""
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
    handlers["Determinize"] = grpc.unary_unary_rpc_method_handler(
        service.determinize_bytes,
        request_deserializer=game_service_pb2.DeterminizeRequest.FromString,
    )
    server.add_registered_method_handlers(_SERVICE.full_name, handlers)


_SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
