"""The decoders' memos keep no long key. proto3 keeps unknown fields, so a client can
pad a table, a turn or a move to the size of a whole request; if such bytes were
memo keys, a few thousand requests would hold gigabytes. Padded bytes decode exactly
as the plain ones, without entering the memo."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mazzo.codec.wire import entry
from mazzo.games.burraco import wire as burraco
from mazzo.games.maraffa import wire as maraffa
from mazzo.games.maraffa.trionfo import wire as maraffa_trionfo
from mazzo.games.ramino import wire as ramino
from mazzo.games.registry import CODECS
from mazzo.service import game_service
from mazzo.service.game_service import GameService
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs

PADDING = entry(999, b"x" * 100_000)  # an unknown field, kept by protobuf


async def dealt(game: str, players: int, moves: int = 0) -> game_pb2.GameState:
    service = GameService()
    reply = await service.Deal(gs.DealRequest(game=game, players=players, seed=3), None)
    state, legal = reply.state, reply.legal_moves
    rnd = random.Random(3)
    for _ in range(moves):
        move = rnd.choice(legal)
        applied = await service.ApplyMove(gs.ApplyMoveRequest(state=state, move=move), None)
        state, legal = applied.state, applied.legal_moves
    return state


TABLES: list[tuple[str, int, Any]] = [
    ("maraffa", 4, maraffa._table_from_bytes),
    ("maraffa", 5, maraffa_trionfo._table_from_bytes),
    ("burraco", 4, burraco._table_from_bytes),
    ("ramino", 3, ramino._table_from_bytes),
]


@pytest.mark.parametrize(("game", "players", "memo"), TABLES)
async def test_a_padded_table_decodes_as_the_plain_one_and_is_not_kept(
    game: str, players: int, memo: Any
) -> None:
    msg = await dealt(game, players)
    padded = game_pb2.GameState()
    padded.CopyFrom(msg)
    getattr(padded, game).table.MergeFromString(PADDING)
    assert len(padded.SerializeToString()) > 100_000
    codec = CODECS[game]
    memo.cache_clear()
    assert codec.state_from_wire(padded) == codec.state_from_wire(msg)
    assert memo.cache_info().currsize == 1  # the plain table only


async def test_padded_ramino_turns_decode_as_the_plain_ones_and_are_not_kept() -> None:
    msg = await dealt("ramino", 3, moves=40)
    turns = len(msg.ramino.turns)
    assert turns > 2
    padded = game_pb2.GameState()
    padded.CopyFrom(msg)
    padded.ramino.turns[1].MergeFromString(PADDING)
    memo = ramino._turn_from_bytes
    memo.cache_clear()
    decoded = CODECS["ramino"].state_from_wire(padded)
    assert memo.cache_info().currsize == 0
    assert decoded == CODECS["ramino"].state_from_wire(msg)
    assert memo.cache_info().currsize == turns  # each (entry, index) once


async def test_a_padded_move_is_applied_as_the_plain_one_and_is_not_kept() -> None:
    msg = await dealt("maraffa", 4)
    service = GameService()
    move = (await service.LegalMoves(gs.LegalMovesRequest(state=msg), None)).moves[0]
    plain = gs.ApplyMoveRequest(state=msg, move=move).SerializeToString()
    padded_move = move.SerializeToString() + PADDING
    padded = entry(1, msg.SerializeToString()) + entry(2, padded_move)
    game_service._move_from_bytes.cache_clear()
    reply = await service.apply_move_bytes(padded, None)
    assert game_service._move_from_bytes.cache_info().currsize == 0
    assert reply == await service.apply_move_bytes(plain, None)
    assert game_service._move_from_bytes.cache_info().currsize == 1
