"""Randomly broken Ramino states sent to every RPC: never another code than OK,
INVALID_ARGUMENT or FAILED_PRECONDITION, never a hang, one field violation per error.

The valid states come from short random plays of several option sets (bidding, buio,
play before and after taking, a finished match); each is changed in one to three
places: a scalar or an enum of any sub-message set to an edge value, an entry of a
repeated field added, dropped or changed, a card moved between hands.
"""

from __future__ import annotations

import random
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from mazzo.games.ramino import rules
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.state import State
from mazzo.v1 import game_pb2
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_fuzz import fuzz_every_rpc
from tests.ramino.wire import wire_move, wire_state

EDGES = [0, 1, 2, 5, 9, 10, 52, 53, 104, 2**31, 2**32 - 1, 2**63 - 1]
INT_TYPES = {
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_ENUM: (0, 2**31 - 1),
}


def base_states() -> list[State]:
    out = []
    rnd = random.Random(1)
    for options, players in (
        (Options(), 4),
        (Options(dealer_tax=1, max_stake=6), 3),
        (Options(allow_credit=False, starting_chips=6, dealer_tax=1), 2),
        (Options(hand_size=9, match_hands=1), 2),
    ):
        state, _ = rules.deal(options, players, rnd.randrange(100))
        for step in range(400):
            if step in (0, 1, 5, 12, 40, 41, 399) or state.finished:
                out.append(state)
            if state.finished:
                break
            state, _ = rules.apply(state, rnd.choice(rules.legal_moves(state)))
    return out


def _fields(msg: Message) -> list[tuple[Message, FieldDescriptor]]:
    """Every (holder, field) of numeric type reachable in ``msg``."""
    found = []
    for f in msg.DESCRIPTOR.fields:
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            if f.is_repeated:
                for sub in getattr(msg, f.name):
                    found.extend(_fields(sub))
            elif msg.HasField(f.name):
                found.extend(_fields(getattr(msg, f.name)))
        elif f.type in INT_TYPES or f.type == FieldDescriptor.TYPE_BOOL:
            found.append((msg, f))
    return found


def mutate(rnd: random.Random, msg: game_pb2.GameState) -> str:
    holder, f = rnd.choice(_fields(msg))
    if f.type == FieldDescriptor.TYPE_BOOL:
        value: Any = rnd.random() < 0.5
    else:
        lo, hi = INT_TYPES[f.type]
        value = min(max(rnd.choice(EDGES), lo), hi)
    if f.is_repeated:
        items = getattr(holder, f.name)
        action = rnd.choice(["add", "drop", "set"])
        if action == "add" or not items:
            items.append(value)
        elif action == "drop":
            del items[rnd.randrange(len(items))]
        else:
            items[rnd.randrange(len(items))] = value
        return f"{f.full_name} {action} {value}"
    if f.containing_oneof is None and f.has_presence and rnd.random() < 0.2:
        holder.ClearField(f.name)
        return f"{f.full_name} cleared"
    setattr(holder, f.name, value)
    return f"{f.full_name} = {value}"


async def test_randomly_broken_states_never_give_another_code(stub: GameServiceStub) -> None:
    """250 broken states through every RPC: only client codes, one field violation each."""
    rnd = random.Random(4)
    bases = [(wire_state(s), rules.legal_moves(s)) for s in base_states()]
    seen, wrong = await fuzz_every_rpc(
        stub,
        rnd,
        bases,
        rounds=250,
        mutate=mutate,
        wire_move=wire_move,
        no_move="draw",
        seats=7,
        check_returned_state=False,
    )
    assert not wrong, "\n".join(wrong)
    assert seen.get(grpc.StatusCode.INVALID_ARGUMENT, 0) > 100, seen
    assert seen.get(grpc.StatusCode.OK, 0) > 20, seen
