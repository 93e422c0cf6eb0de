"""``mazzo bench --only wire_layers``: each speed layer of the codecs and the service
against what it replaced, in this process's build (docs/compiled.md, "The speed
layers").

The layers were added to save microseconds in pure Python: responses assembled from
memoised wire entries (``codec.wire``), a Maraffa state written from memoised pieces,
``ApplyMove`` routed by its raw bytes, and memos of decoded states, moves and tables.
Each pair below times the layer and the plain protobuf way in one process, per call
(best of five rounds of CPU time), so a layer the compiled build makes unnecessary
shows a ratio near 1 in ``MAZZO_PURE=0`` and can go. The plain ways are written here,
as the code they replaced was; they are mostly protobuf's own C calls, which the
compiled build does not change.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from mazzo.bench.common import Report, position_after
from mazzo.codec.common import as_wire
from mazzo.codec.wire import _varint, message_fields, varint
from mazzo.games.maraffa import wire as maraffa_codec
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.game_service import GameService, _decoded, _move_from_bytes
from mazzo.service.sampling import decision
from mazzo.v1 import game_pb2, game_service_pb2

#: A mid-hand position of each game: (players, random moves played).
POSITIONS = {"maraffa": (4, 15), "burraco": (4, 40), "ramino": (4, 60)}


def _per_call_us(fn: Callable[[], object], calls: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.thread_time()
        for _ in range(calls):
            fn()
        best = min(best, time.thread_time() - start)
    return round(best / calls * 1e6, 2)


def _pair(
    layer: Callable[[], Any],
    plain: Callable[[], Any],
    calls: int,
    same: Callable[[Any], Any] = lambda value: value,
) -> Report:
    """Both ways timed, once they are checked to give the same answer (``same`` picks
    what is compared: the decoded state of a memo's entry)."""
    if same(layer()) != same(plain()):
        raise AssertionError("a layer and its plain way disagree")
    layer_us, plain_us = _per_call_us(layer, calls), _per_call_us(plain, calls)
    return {
        "layer_us": layer_us,
        "plain_us": plain_us,
        "plain_over_layer": round(plain_us / layer_us, 1),
    }


def _maraffa_state_plain(state: Any, to_act: int) -> bytes:
    """A Maraffa state filled field by field through protobuf (the encoder before the
    memoised pieces)."""
    out = game_pb2.GameState(game="maraffa", players=state.table.players, to_act=to_act)
    out.finished = state.phase is Phase.OVER
    out.match_score.extend(state.table.totals)
    m = out.maraffa
    m.MergeFromString(maraffa_codec._hands_bytes(state.hands))
    m.table.MergeFromString(maraffa_codec._table_bytes(state.table))
    m.rng.seed, m.rng.counter = state.table.seed, state.table.counter
    m.phase = maraffa_codec._PhaseV(state.phase)
    if state.trump != NO_SUIT:
        m.trump = maraffa_codec._SuitV(state.trump + 1)
    m.played.extend(as_wire(state.played))
    if any(state.signals):
        m.signals.extend(as_wire(state.signals))
    m.stock.extend(as_wire(state.stock))
    m.drawn.extend(as_wire(state.drawn))
    if state.marafona_seat != NO_SEAT:
        m.marafona_seat = state.marafona_seat
    return out.SerializeToString()


def _game_layers(game: str, calls: int) -> Report:
    rules, codec = rules_for(game), CODECS[game]
    players, plays = POSITIONS[game]
    state = position_after(game, players, plays, seed=3)
    seat, moves = decision(rules, state)
    for _ in range(20):  # on to a turn with a choice (past a draw or a trump call)
        if len(moves) >= 5:
            break
        state, _ = rules.apply(state, moves[0])
        seat, moves = decision(rules, state)
    after, events = rules.apply(state, moves[0])
    field = game_service_pb2.LegalMovesResponse.DESCRIPTOR.fields_by_name["moves"].number
    events_field = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["events"].number
    data = codec.state_bytes(state, seat)
    move = game_pb2.Move()
    codec.move_to_wire(moves[0], move)
    move_data = move.SerializeToString()
    memo = GameService().memo
    memo.put(data, _decoded(game_pb2.GameState.FromString(data)))

    def moves_plain() -> object:
        out = game_service_pb2.LegalMovesResponse()
        for m in moves:
            codec.move_to_wire(m, out.moves.add())
        return out.SerializeToString()

    def events_plain() -> object:
        out = game_service_pb2.ApplyMoveResponse()
        for e in events:
            codec.event_to_wire(e, out.events.add())
        return out.SerializeToString()

    report: Report = {
        "legal_moves": len(moves),
        "moves_from_memoised_entries": _pair(
            lambda: codec.moves_bytes(moves, field), moves_plain, calls
        ),
        "events_from_memoised_entries": _pair(
            lambda: codec.events_bytes(events, events_field), events_plain, calls
        ),
        "state_memo_against_decode_and_validate": _pair(
            lambda: memo.get(data),
            lambda: _decoded(game_pb2.GameState.FromString(data)),
            calls // 10,
            lambda loaded: loaded[2],
        ),
        "move_memo_against_decode": _pair(
            lambda: _move_from_bytes(game, move_data),
            lambda: _move_from_bytes.__wrapped__(game, move_data),
            calls,
        ),
    }
    if game == "maraffa":
        table = after.table
        report["state_from_memoised_pieces"] = _pair(
            lambda: codec.state_bytes(after, seat), lambda: _maraffa_state_plain(after, seat), calls
        )
        message = game_pb2.GameState.FromString(data).maraffa
        key = (message.table.SerializeToString(), table.seed, table.counter, table.totals, players)
        report["table_memo_against_decode"] = _pair(
            lambda: maraffa_codec._table_from_bytes(*key),
            lambda: maraffa_codec._table_from_bytes.__wrapped__(*key),
            calls // 10,
        )
    return report


def wire_layers(calls: int = 2000) -> Report:
    """Every layer against its plain way, per game where each game has one."""
    report: Report = {game: _game_layers(game, calls) for game in POSITIONS}
    state = position_after("maraffa", 4, 15, seed=3)
    rules, codec = rules_for("maraffa"), CODECS["maraffa"]
    request = game_service_pb2.ApplyMoveRequest()
    codec.state_to_wire(state, 1, request.state)
    codec.move_to_wire(rules.legal_moves(state)[0], request.move)
    data = request.SerializeToString()

    def parsed() -> tuple[bytes, bytes]:
        r = game_service_pb2.ApplyMoveRequest.FromString(data)
        return r.state.SerializeToString(), r.move.SerializeToString()

    report["apply_move_routed_by_raw_bytes"] = _pair(
        lambda: message_fields(data, 2), parsed, calls, tuple
    )
    report["varint_from_table"] = _pair(lambda: varint(300), lambda: _varint(300), calls)
    return report
