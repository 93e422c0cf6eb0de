"""Randomly broken Briscola states sent to every RPC: never another code than OK,
INVALID_ARGUMENT or FAILED_PRECONDITION, never a hang, one field violation per error.

The valid states come from short random plays at 2, 3 and 4 players (a deal, mid
trick, the stock empty, a finished match); each is changed in one to three places: a
scalar or an enum of any sub-message set to an edge value, an entry of a repeated
field added, dropped, replaced or copied.
"""

from __future__ import annotations

import random

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from mazzo.games.briscola import rules
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import State
from mazzo.v1 import game_pb2
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.briscola.wire import wire_move, wire_state
from tests.grpc_fuzz import BOUNDS, change_field, edge_value, fuzz_every_rpc

EDGES = [0, 1, 2, 3, 4, 5, 13, 20, 34, 39, 40, 41, 53, 54, 1000, 1001, 2**31, 2**63]
STRINGS = ["briscola", "maraffa", "", "x" * 50]


def base_states() -> list[State]:
    out = []
    rnd = random.Random(1)
    for options, players in (
        (Options(hands_to_win=2), 2),
        (Options(removed_two=41), 3),
        (Options(partners_show_hands=True), 4),
    ):
        state, _ = rules.deal(options, players, rnd.randrange(100))
        for step in range(200):
            if step in (0, 1, 5, 28, 35, 39, 80) or state.finished:
                out.append(state)
            if state.finished:
                break
            state, _ = rules.apply(state, rnd.choice(rules.legal_moves(state)))
    return out


def _fields(msg: Message) -> list[tuple[Message, FieldDescriptor]]:
    """Every (holder, field) of scalar type reachable in ``msg``."""
    found = []
    for f in msg.DESCRIPTOR.fields:
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            if f.is_repeated:
                for sub in getattr(msg, f.name):
                    found.extend(_fields(sub))
            elif msg.HasField(f.name):
                found.extend(_fields(getattr(msg, f.name)))
        elif f.type in BOUNDS or f.type in (FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_STRING):
            found.append((msg, f))
    return found


def mutate(rnd: random.Random, msg: game_pb2.GameState) -> str:
    holder, f = rnd.choice(_fields(msg))
    value = edge_value(rnd, f, holder, EDGES, STRINGS)
    if f.containing_oneof is None and f.has_presence and not f.is_repeated and rnd.random() < 0.2:
        holder.ClearField(f.name)
        return f"{f.full_name} cleared"
    return change_field(rnd, holder, f, value)


async def test_randomly_broken_states_never_give_another_code(stub: GameServiceStub) -> None:
    """300 broken states through every RPC: only client codes, one field violation each."""
    rnd = random.Random(4)
    bases = [(wire_state(s), rules.legal_moves(s)) for s in base_states()]
    seen, wrong = await fuzz_every_rpc(
        stub,
        rnd,
        bases,
        rounds=300,
        mutate=mutate,
        wire_move=wire_move,
        no_move="play AS",
        seats=5,
    )
    assert not wrong, "\n".join(wrong)
    assert seen.get(grpc.StatusCode.INVALID_ARGUMENT, 0) > 150, seen
    assert seen.get(grpc.StatusCode.OK, 0) > 20, seen
