"""Simulate: every legal move played out, from a state or from the deciding seat's view;
checked and budgeted before any work, and run off the event loop."""

from __future__ import annotations

import asyncio
import random
import time

import grpc
import pytest

from mazzo.games.registry import CODECS, rules_for
from mazzo.service.game_service import MAX_PLAYOUTS, MAX_SIMULATED_MOVES
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_helpers import field_violations

Stub = game_service_pb2_grpc.GameServiceStub


def position(game: str = "maraffa", players: int = 4, plays: int = 9, seed: int = 3) -> object:
    rules, codec = rules_for(game), CODECS[game]
    state, _ = rules.deal(codec.options(game_pb2.GameOptions()), players, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        legal = rules.legal_moves(state)
        safe = [m for m in legal if type(m).__name__ != "Claim"] or legal
        state, _ = rules.apply(state, rng.choice(safe))
    return state


def wire(game: str, state: object) -> game_pb2.GameState:
    rules = rules_for(game)
    out = game_pb2.GameState()
    CODECS[game].state_to_wire(state, rules.to_act(state), out)
    return out


def view_of(game: str, state: object) -> game_pb2.GameView:
    rules = rules_for(game)
    out = game_pb2.GameView()
    seat = rules.controller(state, rules.to_act(state))
    CODECS[game].view_to_wire(rules.view(state, seat), out)
    return out


async def refused(stub: Stub, request: gs.SimulateRequest) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Simulate(request)
    return caught.value.code(), field_violations(caught.value)[0][0]


async def test_every_legal_move_is_played_out_from_a_state(stub: Stub) -> None:
    state = position()
    request = gs.SimulateRequest(state=wire("maraffa", state), playouts=12, seed=5)
    reply = await stub.Simulate(request)
    legal = await stub.LegalMoves(gs.LegalMovesRequest(state=request.state))
    assert reply.seat == legal.seat and reply.side == legal.seat % 2
    assert [o.move for o in reply.outcomes] == list(legal.moves)
    assert reply.playouts == 12 * len(legal.moves)
    assert reply.simulated_moves > reply.playouts
    for outcome in reply.outcomes:
        assert outcome.playouts == 12
        assert [s.side for s in outcome.sides] == [0, 1]
        # A hand gives 11 points in all (10 and the last trick), floored per side, and
        # 3 more to a side with the marafona.
        total = sum(s.mean_score_change for s in outcome.sides)
        if not outcome.move.maraffa.HasField("claim"):  # a claim ends the match at once
            assert 9 <= total <= 14
        assert sum(s.win_rate for s in outcome.sides) == pytest.approx(1.0)
        assert all(s.score_change_standard_error >= 0 for s in outcome.sides)
    # Same request, same answer; another seed, other numbers.
    assert await stub.Simulate(request) == reply
    request.seed = 6
    assert await stub.Simulate(request) != reply


async def test_from_the_deciding_seats_view_it_samples_first(stub: Stub) -> None:
    state = position(plays=14)
    view = view_of("maraffa", state)
    request = gs.SimulateRequest(view=view, playouts=2, determinizations=8, seed=1)
    reply = await stub.Simulate(request)
    legal = await stub.LegalMoves(gs.LegalMovesRequest(state=wire("maraffa", state)))
    assert [o.move for o in reply.outcomes] == list(legal.moves)
    assert all(o.playouts == 16 for o in reply.outcomes)
    assert await stub.Simulate(request) == reply


async def test_the_heuristic_policy_and_the_match_horizon(stub: Stub) -> None:
    options = game_pb2.GameOptions()
    options.maraffa.target = 11
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", options=options, seed=2))
    request = gs.SimulateRequest(
        state=dealt.state,
        playouts=2,
        policy=gs.PLAYOUT_POLICY_HEURISTIC,
        horizon=gs.PLAYOUT_HORIZON_MATCH,
    )
    reply = await stub.Simulate(request)
    for outcome in reply.outcomes:
        # To the end of the match: one side won each playout.
        assert sorted(s.win_rate for s in outcome.sides) in ([0.0, 1.0], [0.5, 0.5])


async def test_bad_requests_are_refused_naming_the_field(stub: Stub) -> None:
    state = wire("maraffa", position())
    cases = [
        (gs.SimulateRequest(playouts=1), "position"),
        (gs.SimulateRequest(state=state, playouts=0), "playouts"),
        (gs.SimulateRequest(state=state, playouts=MAX_PLAYOUTS + 1), "playouts"),
        (gs.SimulateRequest(state=state, playouts=1, determinizations=2), "determinizations"),
        (gs.SimulateRequest(state=state, playouts=1, policy=7), "policy"),  # type: ignore[arg-type]
        (gs.SimulateRequest(state=state, playouts=1, horizon=9), "horizon"),  # type: ignore[arg-type]
    ]
    for request, field in cases:
        code, where = await refused(stub, request)
        assert (code, where) == (grpc.StatusCode.INVALID_ARGUMENT, field), request


async def test_a_request_over_the_budget_is_refused_before_any_work(stub: Stub) -> None:
    state = wire("maraffa", position())
    request = gs.SimulateRequest(state=state, playouts=MAX_PLAYOUTS)
    start = time.perf_counter()
    code, field = await refused(stub, request)
    assert (code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "playouts")
    assert time.perf_counter() - start < 1.0
    # The budget counts playouts by the rules' bound on their length.
    assert MAX_SIMULATED_MOVES < MAX_PLAYOUTS * 10 * 40


async def test_a_view_of_a_seat_that_does_not_decide_is_refused(stub: Stub) -> None:
    state = position(plays=14)
    rules = rules_for("maraffa")
    other = (rules.to_act(state) + 1) % 4
    view = game_pb2.GameView()
    CODECS["maraffa"].view_to_wire(rules.view(state, other), view)
    code, field = await refused(stub, gs.SimulateRequest(view=view, playouts=1))
    assert (code, field) == (grpc.StatusCode.FAILED_PRECONDITION, "view.seat")


async def test_a_finished_match_has_nothing_to_simulate(stub: Stub) -> None:
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", seed=5))
    claim = next(m for m in dealt.legal_moves if m.maraffa.HasField("claim"))
    over = await stub.ApplyMove(gs.ApplyMoveRequest(state=dealt.state, move=claim))
    assert over.state.finished
    code, field = await refused(stub, gs.SimulateRequest(state=over.state, playouts=1))
    assert (code, field) == (grpc.StatusCode.FAILED_PRECONDITION, "state")


async def test_a_long_simulation_does_not_stall_other_calls(stub: Stub) -> None:
    """The playouts run in the pool: while one takes a while, the event loop answers."""
    state = wire("maraffa", position(plays=1))
    await stub.Simulate(gs.SimulateRequest(state=state, playouts=1))  # the pool is up
    long = asyncio.ensure_future(stub.Simulate(gs.SimulateRequest(state=state, playouts=150)))
    await asyncio.sleep(0.05)
    slowest = 0.0
    while not long.done():
        start = time.perf_counter()
        await stub.ListGames(gs.ListGamesRequest())
        slowest = max(slowest, time.perf_counter() - start)
        await asyncio.sleep(0.01)
    reply = await long
    assert reply.playouts > 0
    # A loop blocked by the playouts would hold a call for all of their seconds; a
    # shared machine alone can delay one by a few tenths (0.33 s seen under load 6).
    assert slowest < 1.0, f"a ListGames call waited {slowest:.3f} s behind a simulation"


async def test_the_controller_simulates_for_the_dummy_from_the_dummys_view(stub: Stub) -> None:
    """3 players with a dummy: the referee asks the controller's bot with the dummy
    seat's view (its controller's view), and that view may simulate."""
    rules = rules_for("maraffa")
    state = next(
        s
        for k in range(3, 40)
        if rules.to_act(s := position("maraffa", 3, k)) == 2  # the default dummy
    )
    view = game_pb2.GameView()
    CODECS["maraffa"].view_to_wire(rules.view(state, 2), view)
    reply = await stub.Simulate(gs.SimulateRequest(view=view, playouts=1, determinizations=2))
    assert reply.seat == 2 and reply.side == 0 and reply.outcomes


async def test_the_last_card_of_a_hand_ends_its_playouts_at_once(stub: Stub) -> None:
    """Found by the search starters: a playout used to take its hand from the state
    after the move tried, so the hand's last card played the next hand through (and
    passed the rules' bound)."""
    rules = rules_for("maraffa")
    state = position(plays=40)  # the trump call and 39 cards
    assert len(state.played) == 39  # type: ignore[attr-defined]
    reply = await stub.Simulate(gs.SimulateRequest(state=wire("maraffa", state), playouts=3))
    plays = [o for o in reply.outcomes if not o.move.maraffa.HasField("claim")]
    assert len(plays) == 1 and reply.simulated_moves == len(reply.outcomes) * 3
    assert rules.finished(state) is False


async def test_a_false_claim_is_a_lost_match_at_the_hand_horizon_too(stub: Stub) -> None:
    state = position(plays=3)
    reply = await stub.Simulate(gs.SimulateRequest(state=wire("maraffa", state), playouts=2))
    [claim] = [o for o in reply.outcomes if o.move.maraffa.HasField("claim")]
    assert claim.sides[reply.side].win_rate == 0.0
    assert claim.sides[1 - reply.side].win_rate == 1.0
