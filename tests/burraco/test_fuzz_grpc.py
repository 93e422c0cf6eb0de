"""Randomly broken Burraco states through every RPC: only the client's error codes.

Valid states of every form and moment of a hand (start, MELD stage, a pozzetto
taken, the last turn, a finished match) get one to three random changes to any
scalar or repeated field, anywhere in the message (history included), and are sent
to LegalMoves, ApplyMove, GetView and Score. Every answer must be OK,
INVALID_ARGUMENT or FAILED_PRECONDITION with exactly one field violation, never
another code; a state that ApplyMove returns is itself accepted.
"""

from __future__ import annotations

import random
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from mazzo.games.burraco import rules
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import State
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco import examples as ex
from tests.burraco.wire import wire_move, wire_state
from tests.grpc_helpers import field_violations

TIMEOUT = 10
CLIENT_CODES = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION}
EDGE_VALUES = (0, 1, 2, 3, 4, 5, 7, 11, 13, 18, 41, 52, 53, 54, 99, 255)
BIG_VALUES = (2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1, -1, -(2**31), -(2**63))
BOUNDS = {
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_ENUM: (-(2**31), 2**31 - 1),
}


def base_states() -> list[State]:
    """States the rules produced, at several moments, for 2, 3 and 4 players."""
    rnd = random.Random(3)
    out = [ex.bu3(), ex.bu4(), ex.bu5("5S 6S KD"), ex.bu8()]
    for players in (2, 3, 4):
        state, _ = rules.deal(Options(hands=1, target=300), players, rnd.randrange(2**32))
        for step in range(400):
            if state.finished:
                break
            if step % 37 == 0:
                out.append(state)
            moves = rules.legal_moves(state)
            state, _ = rules.apply(state, moves[rnd.randrange(len(moves))])
        out.append(state)
    return out


def holders(msg: game_pb2.GameState, rnd: random.Random) -> list[Message]:
    """Every message inside the state that a mutation may touch."""
    b = msg.burraco
    found: list[Message] = [msg, b, b.table, b.table.options, b.rng]
    for repeated in (b.hands, b.melds, b.pozzetti, b.table.last_hand_scores):
        if len(repeated):
            found.append(rnd.choice(repeated))
    if len(b.history):
        event = rnd.choice(b.history)
        kind = event.WhichOneof("event")
        if kind:
            found.append(getattr(event, kind))
    return found


def value(rnd: random.Random, f: FieldDescriptor, holder: Message) -> Any:
    if f.type == FieldDescriptor.TYPE_BOOL:
        return rnd.random() < 0.5
    if f.type == FieldDescriptor.TYPE_STRING:
        return rnd.choice(["", "burraco", "maraffa", "BURRACO", "7"])
    lo, hi = BOUNDS[f.type]
    candidates = [*EDGE_VALUES, *BIG_VALUES]
    if not f.is_repeated:
        current = getattr(holder, f.name)
        candidates += [current + 1, current - 1]
    return min(max(rnd.choice(candidates), lo), hi)


def mutate(rnd: random.Random, msg: game_pb2.GameState) -> str:
    holder = rnd.choice(holders(msg, rnd))
    fields = [f for f in holder.DESCRIPTOR.fields if f.type != FieldDescriptor.TYPE_MESSAGE]
    if not fields:
        return "nothing"
    f = rnd.choice(fields)
    new = value(rnd, f, holder)
    if f.is_repeated:
        items = getattr(holder, f.name)
        action = rnd.choice(["replace", "append", "delete", "clear", "copy"])
        if action == "replace" and len(items):
            items[rnd.randrange(len(items))] = new
        elif action == "delete" and len(items):
            del items[rnd.randrange(len(items))]
        elif action == "clear":
            del items[:]
        elif action == "copy" and len(items):
            items.append(items[rnd.randrange(len(items))])
        else:
            items.append(new)
        return f"{f.full_name} {action} {new}"
    setattr(holder, f.name, new)
    return f"{f.full_name} = {new}"


async def accepted(stub: GameServiceStub, state: game_pb2.GameState) -> bool:
    try:
        await stub.LegalMoves(gs.LegalMovesRequest(state=state), timeout=TIMEOUT)
    except grpc.aio.AioRpcError:
        return False
    return True


async def test_randomly_mutated_states_never_give_another_code(stub: GameServiceStub) -> None:
    rnd = random.Random(11)
    bases = [(wire_state(s), rules.legal_moves(s)) for s in base_states()]
    seen: dict[grpc.StatusCode, int] = {}
    wrong: list[str] = []
    for n in range(400):
        base, moves = rnd.choice(bases)
        msg = game_pb2.GameState()
        msg.CopyFrom(base)
        changes = [mutate(rnd, msg) for _ in range(rnd.randint(1, 3))]
        move = wire_move(rnd.choice(moves) if moves else "draw")
        seat = rnd.randrange(5)
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
                if rpc == "ApplyMove" and not await accepted(stub, reply.state):
                    wrong.append(f"#{n} {rpc} {changes}: returned a state LegalMoves refuses")
            seen[code] = seen.get(code, 0) + 1
    assert not wrong, "\n".join(wrong)
    assert seen.get(grpc.StatusCode.INVALID_ARGUMENT, 0) > 100, seen
    assert seen.get(grpc.StatusCode.OK, 0) > 20, seen


def random_move(rnd: random.Random) -> game_pb2.Move:
    """A wire move of any action with random cards (in or out of the deck) and meld ids."""
    msg = game_pb2.Move()
    m = msg.burraco
    action = rnd.choice(["draw", "pick_up", "meld", "lay_off", "discard", "none"])
    cards = [rnd.choice((*range(0, 55), 99, 2**31 - 1)) for _ in range(rnd.randint(0, 16))]
    if action in ("draw", "pick_up"):
        getattr(m, action).SetInParent()
    elif action == "meld":
        m.meld.cards.extend(cards)  # type: ignore[arg-type]
        m.meld.kind = rnd.choice((0, 1, 2, 3, -1))  # type: ignore[assignment]
    elif action == "lay_off":
        m.lay_off.meld_id = rnd.choice((0, 1, 2, 5, 40, 2**32 - 1))
        m.lay_off.cards.extend(cards)  # type: ignore[arg-type]
    elif action == "discard":
        m.discard.card = rnd.choice((*range(0, 55), 2**31 - 1))  # type: ignore[assignment]
    return msg


async def test_random_moves_never_give_another_code(stub: GameServiceStub) -> None:
    """Random wire moves on valid states: OK or a client error with one field violation."""
    rnd = random.Random(12)
    bases = [wire_state(s) for s in base_states()]
    seen: dict[grpc.StatusCode, int] = {}
    wrong: list[str] = []
    for n in range(600):
        move = random_move(rnd)
        request = gs.ApplyMoveRequest(state=rnd.choice(bases), move=move)
        try:
            await stub.ApplyMove(request, timeout=TIMEOUT)
            code = grpc.StatusCode.OK
        except grpc.aio.AioRpcError as err:
            code = err.code()
            if code not in CLIENT_CODES or len(field_violations(err)) != 1:
                wrong.append(f"#{n} {move}: {code.name} {err.details()}")
        seen[code] = seen.get(code, 0) + 1
    assert not wrong, "\n".join(wrong)
    assert seen.get(grpc.StatusCode.INVALID_ARGUMENT, 0) > 100, seen
    assert seen.get(grpc.StatusCode.OK, 0) > 10, seen
