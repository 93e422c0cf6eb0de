"""Whole Ramino matches played through the gRPC API only, as a client would.

A random client deals, then answers every decision with a random move from the
``legal_moves`` of the last response, sending back the state it was given. After every
response: the chips on the table (balances + pot) are the players' starting chips, the
seat to act matches LegalMoves, and now and then GetView of every seat shows its own
hand and no other. At the end Score names the winners: the top balances.
"""

from __future__ import annotations

import random

import pytest

from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1 import ramino_pb2
from mazzo.v1.game_service_pb2_grpc import GameServiceStub

MAX_MOVES = 60_000


@pytest.mark.slow
# Two players in make test; three and four (20 s each) in test-long.
@pytest.mark.parametrize(
    "players", [2, pytest.param(3, marks=pytest.mark.long), pytest.param(4, marks=pytest.mark.long)]
)
async def test_a_random_match_through_grpc_conserves_chips(
    stub: GameServiceStub, players: int
) -> None:
    rnd = random.Random(players)
    dealt = await stub.Deal(gs.DealRequest(game="ramino", players=players, seed=players))
    state, moves = dealt.state, dealt.legal_moves
    total = players * 100
    hands = 0
    for n in range(MAX_MOVES):
        if state.finished:
            break
        assert moves, "a live state always has a legal move"
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=rnd.choice(moves)))
        state, moves = reply.state, reply.legal_moves
        assert sum(state.match_score) + state.ramino.bets.pot == total
        for event in reply.events:
            kind = event.ramino.WhichOneof("event")
            hands += kind == "hand_ended"
        if n % 97 == 0 and not state.finished:
            check = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
            assert check.seat == reply.seat == state.to_act
            assert list(check.moves) == list(moves)
            for seat in range(players):
                view = (await stub.GetView(gs.GetViewRequest(state=state, seat=seat))).view
                hidden = view.ramino.hand_hidden
                assert list(view.ramino.hand) == (
                    [] if hidden else list(state.ramino.hands[seat].cards)
                )
                assert view.ramino.stock_size == len(state.ramino.stock)
    assert state.finished, "the match ends"
    assert state.ramino.table.end == ramino_pb2.RAMINO_MATCH_END_DECIDED_HANDS
    assert sum(state.match_score) == total and state.ramino.bets.pot == 0
    score = await stub.Score(gs.ScoreRequest(state=state))
    top = max(state.match_score)
    assert score.finished
    assert list(score.winners) == [s for s, b in enumerate(state.match_score) if b == top]
    assert [s.match_total for s in score.sides] == list(state.match_score)
    assert hands >= 3 * players  # the decided hands, and the voids on the way
