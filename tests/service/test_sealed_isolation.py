"""Seat isolation (issue 19): a token's answers hold nothing its seat's GetView hides.

The mutation test of the views, through tokens: for random positions of every game and
form, and every seat that holds a token, the hidden cards are changed (the seat's view
determinized: whole states, other hands, stock order and generator drawn anew, each
giving that seat exactly the same view), each variant sealed for that seat, and every
RPC that takes a token asked with it. The answers must not change:

- GetView, LegalMoves (or its refusal), Determinize and Simulate: the same for every
  variant.
- ApplyMove (when the seat decides, its first legal moves): the events, the next seat
  and the legal moves given may differ only as the seat's own view after the move
  does (a card it draws is then its own): variants whose next view is the same must
  get the same answer. Only the fresh tokens, opaque, differ.

Score and ApplyMoves take no token; Deal's sealed answer holds only the deciding seat
(tests/service/test_sealed_service.py).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from mazzo.core.errors import RulesError
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.game_service import GameService
from mazzo.service.sampling import decision
from mazzo.service.sealing import Key, Sealer, holders, seats_of
from mazzo.service.simulator import Simulator
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from tests.random_play import random_play_positions
from tests.service.fuzz_every_rpc import FORMS

#: Positions per form, and variants of each (besides the true state).
POSITIONS = 4
VARIANTS = 4
#: ApplyMove is tried with this many of the deciding seat's legal moves.
MOVES = 3
MATCH_ID = bytes(range(16))


def answer(reply: Message | bytes) -> bytes:
    data = reply if isinstance(reply, bytes) else reply.SerializeToString(deterministic=True)
    return bytes(data)


async def asked(call: Any) -> bytes | tuple[str, str, str]:
    """The answer's bytes, or the refusal (its class, field and reason)."""
    try:
        return answer(await call)
    except RulesError as e:
        return (type(e).__name__, e.field, e.reason)


def positions(game: str, players: int, values: dict[str, Any], seed: int) -> list[Any]:
    """Positions of a seeded random match, hands and phases of every kind."""
    rules, codec = rules_for(game), CODECS[game]
    options = codec.options(json_format.ParseDict({game: values}, game_pb2.GameOptions()))
    rnd = random.Random(seed)
    state, _ = rules.deal(options, players, seed)
    found = [state, *random_play_positions(rules, state, rnd, steps=600, every=37, offset=11)]
    return rnd.sample(found, min(POSITIONS, len(found)))


@pytest.mark.parametrize(("game", "players", "values"), FORMS, ids=lambda v: str(v))
async def test_no_answer_to_a_token_changes_with_what_its_seat_cannot_see(
    game: str, players: int, values: dict[str, Any]
) -> None:
    rules, codec = rules_for(game), CODECS[game]
    sealer = Sealer([Key("k1", bytes(range(1, 33)))])
    simulator = Simulator(processes=1)
    service = GameService(sealer=sealer, simulator=simulator)
    checked: defaultdict[str, int] = defaultdict(int)
    try:
        for p, state in enumerate(positions(game, players, values, seed=players + 10)):
            seats = seats_of(rules, state)
            for seat, holds in enumerate(holders(rules, state, seats)):
                if not holds:
                    continue
                view = rules.view(state, seat)
                variants = [state, *rules.determinize(view, VARIANTS, seed=p * 10 + seat)]
                assert all(rules.view(v, seat) == view for v in variants)
                replies: defaultdict[str, set[Any]] = defaultdict(set)
                after: defaultdict[tuple[int, bytes], set[bytes]] = defaultdict(set)
                sizes: defaultdict[tuple[int, bytes], int] = defaultdict(int)
                search = p == 0
                for variant in variants:
                    to_act, moves = decision(rules, variant)
                    token = sealer.seal(
                        codec.state_bytes(variant, to_act), MATCH_ID, 9, seat, seats
                    )
                    mine = {"sealed_state": token, "seat": seat}
                    replies["GetView"].add(
                        await asked(service.GetView(gs.GetViewRequest(**mine), None))
                    )
                    replies["LegalMoves"].add(
                        await asked(service.LegalMoves(gs.LegalMovesRequest(**mine), None))
                    )
                    if search:
                        replies["Determinize"].add(
                            await asked(
                                service.Determinize(
                                    gs.DeterminizeRequest(**mine, count=2, seed=3), None
                                )
                            )
                        )
                        replies["Simulate"].add(
                            await asked(
                                service.Simulate(
                                    gs.SimulateRequest(**mine, playouts=2, seed=3), None
                                )
                            )
                        )
                    if rules.finished(variant) or rules.controller(variant, to_act) != seat:
                        continue
                    for i, move in enumerate(moves[:MOVES]):
                        wire = game_pb2.Move()
                        codec.move_to_wire(move, wire)
                        request = gs.ApplyMoveRequest(**mine, move=wire)
                        reply = gs.ApplyMoveResponse.FromString(
                            await service.apply_move_bytes(request.SerializeToString(), None)  # type: ignore[arg-type]
                        )
                        next_view = await service.GetView(
                            gs.GetViewRequest(sealed_state=reply.sealed_states[seat], seat=seat),
                            None,
                        )
                        assert len(reply.sealed_states) == seats
                        reply.ClearField("sealed_states")
                        key = (i, answer(next_view))
                        after[key].add(answer(reply))
                        sizes[key] += 1
                for rpc, seen in replies.items():
                    checked[rpc] += len(variants)
                    assert len(seen) == 1, (
                        f"{rpc} with seat {seat}'s token changes with cards it cannot see "
                        f"(position {p}): {len(seen)} answers"
                    )
                for key, seen in after.items():
                    checked["ApplyMove"] += sizes[key]
                    checked["ApplyMove groups of 2 or more"] += sizes[key] > 1
                    assert len(seen) == 1, (
                        f"ApplyMove of seat {seat}'s move {key[0]} answers differently for the "
                        f"same view after it (position {p})"
                    )
    finally:
        simulator.close()
    assert checked["GetView"] and checked["LegalMoves"]
    assert checked["ApplyMove groups of 2 or more"], "no move compared across variants"
    assert checked["Determinize"] and checked["Simulate"]
    print(f"\n{game} {players} {values}: {dict(checked)}")
