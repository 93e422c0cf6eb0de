"""The machinery the gRPC fuzz tests of every game share (docs/rules/api-contract.md "Errors").

A fuzz test takes valid wire states, breaks each in one to three random places (the
game decides where and how) and sends it to LegalMoves, ApplyMove, GetView and
Score. Every answer must be OK, INVALID_ARGUMENT or FAILED_PRECONDITION with exactly
one field violation, never another code, never a hang (per-call timeout).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations

TIMEOUT = 10.0
CLIENT_CODES = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION}
BIG_VALUES = (2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1, -1, -(2**31), -(2**63))
#: the range of each numeric field type, so that a value can be set at all
BOUNDS = {
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_ENUM: (-(2**31), 2**31 - 1),
}


def edge_value(
    rnd: random.Random,
    f: FieldDescriptor,
    holder: Message,
    edges: Sequence[int],
    strings: Sequence[str],
) -> Any:
    """A value for field ``f``: a coin for a bool, one of ``strings``, bytes that may
    look like a sealed token's start (docs/sealing.md), else an edge or a big value (or
    the current value plus or minus one), clamped to the field's type."""
    if f.type == FieldDescriptor.TYPE_BOOL:
        return rnd.random() < 0.5
    if f.type == FieldDescriptor.TYPE_STRING:
        return rnd.choice(strings)
    if f.type == FieldDescriptor.TYPE_BYTES:
        return rnd.choice([b"", b"\x01", b"\x01\x02k1"]) + rnd.randbytes(rnd.choice([0, 40, 300]))
    lo, hi = BOUNDS[f.type]
    candidates = [*edges, *BIG_VALUES]
    if not f.is_repeated:
        current = getattr(holder, f.name)
        candidates += [current + 1, current - 1]
    return min(max(rnd.choice(candidates), lo), hi)


def change_field(rnd: random.Random, holder: Message, f: FieldDescriptor, value: Any) -> str:
    """Set a scalar field to ``value``, or replace, append, delete, clear or copy an entry
    of a repeated one; the change in words."""
    if f.is_repeated:
        items = getattr(holder, f.name)
        action = rnd.choice(["replace", "append", "delete", "clear", "copy"])
        if action == "replace" and len(items):
            items[rnd.randrange(len(items))] = value
        elif action == "delete" and len(items):
            del items[rnd.randrange(len(items))]
        elif action == "clear":
            del items[:]
        elif action == "copy" and len(items):
            items.append(items[rnd.randrange(len(items))])
        else:
            items.append(value)
        return f"{f.full_name} {action} {value}"
    setattr(holder, f.name, value)
    return f"{f.full_name} = {value}"


async def accepted(stub: GameServiceStub, state: game_pb2.GameState) -> bool:
    """Whether LegalMoves takes the state without an error."""
    try:
        await stub.LegalMoves(gs.LegalMovesRequest(state=state), timeout=TIMEOUT)
    except grpc.aio.AioRpcError:
        return False
    return True


async def fuzz_every_rpc(
    stub: GameServiceStub,
    rnd: random.Random,
    bases: Sequence[tuple[game_pb2.GameState, Sequence[Any]]],
    *,
    rounds: int,
    mutate: Callable[[random.Random, game_pb2.GameState], str],
    wire_move: Callable[[Any], game_pb2.Move],
    no_move: Any,
    seats: int,
    check_returned_state: bool = True,
) -> tuple[dict[grpc.StatusCode, int], list[str]]:
    """``rounds`` broken states through the four RPCs: the count of each code, and every
    wrong answer (collected before any assertion). A base comes with its legal moves;
    ApplyMove gets one of them (or ``no_move``), GetView a seat below ``seats``. With
    ``check_returned_state``, a state ApplyMove returns must itself be accepted."""
    seen: dict[grpc.StatusCode, int] = {}
    wrong: list[str] = []
    for n in range(rounds):
        base, moves = rnd.choice(bases)
        msg = game_pb2.GameState()
        msg.CopyFrom(base)
        changes = [mutate(rnd, msg) for _ in range(rnd.randint(1, 3))]
        move = wire_move(rnd.choice(moves) if moves else no_move)
        seat = rnd.randrange(seats)
        for rpc, call in (
            ("LegalMoves", stub.LegalMoves(gs.LegalMovesRequest(state=msg), timeout=TIMEOUT)),
            (
                "ApplyMove",
                stub.ApplyMove(gs.ApplyMoveRequest(state=msg, move=move), timeout=TIMEOUT),
            ),
            ("GetView", stub.GetView(gs.GetViewRequest(state=msg, seat=seat), timeout=TIMEOUT)),
            ("Score", stub.Score(gs.ScoreRequest(state=msg), timeout=TIMEOUT)),
        ):
            try:
                reply = await call
            except grpc.aio.AioRpcError as err:
                code = err.code()
                if code not in CLIENT_CODES:
                    wrong.append(f"#{n} {rpc} {changes}: {code.name} {err.details()}")
                elif len(field_violations(err)) != 1:
                    wrong.append(f"#{n} {rpc} {changes}: {code.name} without one field violation")
            else:
                code = grpc.StatusCode.OK
                returned = rpc == "ApplyMove" and check_returned_state
                if returned and not await accepted(stub, reply.state):
                    wrong.append(f"#{n} {rpc} {changes}: returned a state LegalMoves refuses")
            seen[code] = seen.get(code, 0) + 1
    return seen, wrong
