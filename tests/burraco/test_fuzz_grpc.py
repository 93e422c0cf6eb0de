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
from tests.grpc_fuzz import (
    CLIENT_CODES,
    TIMEOUT,
    change_field,
    edge_value,
    fuzz_every_rpc,
)
from tests.grpc_helpers import field_violations

EDGE_VALUES = (0, 1, 2, 3, 4, 5, 7, 11, 13, 18, 41, 52, 53, 54, 99, 255)
STRINGS = ("", "burraco", "maraffa", "BURRACO", "7")


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


def mutate(rnd: random.Random, msg: game_pb2.GameState) -> str:
    holder = rnd.choice(holders(msg, rnd))
    fields = [f for f in holder.DESCRIPTOR.fields if f.type != FieldDescriptor.TYPE_MESSAGE]
    if not fields:
        return "nothing"
    f = rnd.choice(fields)
    return change_field(rnd, holder, f, edge_value(rnd, f, holder, EDGE_VALUES, STRINGS))


async def test_randomly_mutated_states_never_give_another_code(stub: GameServiceStub) -> None:
    """400 broken states through every RPC: only client codes, one field violation each."""
    rnd = random.Random(11)
    bases = [(wire_state(s), rules.legal_moves(s)) for s in base_states()]
    seen, wrong = await fuzz_every_rpc(
        stub, rnd, bases, rounds=400, mutate=mutate, wire_move=wire_move, no_move="draw", seats=5
    )
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
