"""builtin:pimc: parameters in the spec, a legal choice from the view alone, within its time."""

from __future__ import annotations

import random
import time

import pytest

from mazzo.games.registry import CODECS, rules_for
from mazzo.players.builtins import heuristic_for
from mazzo.players.pimc import Settings, choose, settings_of
from mazzo.players.playout import _ACT_MOVES, Horizon, PolicyKind
from mazzo.referee.bots import BotSpec
from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match
from mazzo.v1 import bot_pb2, game_pb2
from tests.referee.conftest import first_request


def test_parameters_come_from_the_spec_and_bad_ones_are_refused() -> None:
    spec = BotSpec.parse(
        "builtin:pimc?samples=8&playouts=2&policy=heuristic&horizon=match&time=0.3"
    )
    assert spec.target == "pimc"
    assert settings_of(spec.params) == Settings(8, 2, PolicyKind.HEURISTIC, Horizon.MATCH, 0.3)
    assert settings_of({}) == Settings()
    for bad in ("samples=0", "playouts=x", "policy=genius", "time=0", "depth=3", "samples=1&&"):
        with pytest.raises(ValueError):
            BotSpec.parse(f"builtin:pimc?{bad}")
    with pytest.raises(ValueError):
        BotSpec.parse("builtin:random?samples=3")


async def test_it_chooses_a_legal_move_from_the_request_alone_and_repeats_itself() -> None:
    request = await first_request(seed=4)
    request.time_left.FromSeconds(30)
    a = choose(request, Settings(samples=6, playouts=2), 11)
    assert 0 <= a < len(request.legal_moves)
    assert choose(request, Settings(samples=6, playouts=2), 11) == a


async def test_it_keeps_within_its_time_and_a_share_of_the_time_left() -> None:
    request = await first_request(seed=4)
    request.time_left.FromMilliseconds(2000)  # a twentieth: 0.1 s
    # CPU time, as below: a pause of this process by a loaded machine is not a
    # search that ran on (without the bound it runs 51,200 playouts: seconds).
    start = time.process_time()
    choose(request, Settings(samples=1024, playouts=50), 1)
    assert time.process_time() - start < 0.1 + 0.1  # one playout may overrun


async def test_it_plays_a_whole_match_through_the_referee() -> None:
    spec = MatchSpec("pimc", "maraffa", 7, 4, {"maraffa": {"target": 11}})
    lineup = [
        Entrant("pimc", ("builtin:pimc?samples=4&playouts=1",)),
        Entrant("R", ("builtin:random",)),
    ]
    pools = Pools()
    try:
        record = await play_match(spec, lineup, LocalEngine(), pools)
    finally:
        await pools.close()
    assert record["result"]["finished"] and not record["faults"]


async def test_it_never_makes_a_false_claim() -> None:
    """A false claim loses the match at once; its points look like nothing (no hand
    was scored), so pimc weighs a match ended above any points."""
    for seed in range(1, 6):
        request = await first_request(seed=seed)
        request.time_left.FromSeconds(30)
        chosen = request.legal_moves[choose(request, Settings(samples=4, playouts=2), seed)]
        assert not chosen.maraffa.HasField("claim")


async def test_it_plays_cards_plain_as_its_playouts_cannot_value_a_signal() -> None:
    from mazzo.games.maraffa.moves import PlayCard, Signal
    from mazzo.games.registry import rules_for
    from mazzo.players.pimc import candidates
    from tests.players.test_playout import position

    legal = rules_for("maraffa").legal_moves(position(plays=4))
    kept = [legal[i] for i in candidates("maraffa", legal)]
    plays = [m for m in kept if type(m) is PlayCard]
    assert plays and all(m.signal is Signal.NONE for m in plays)
    assert {m.card for m in plays} == {m.card for m in legal if type(m) is PlayCard}
    assert candidates("burraco", legal) == list(range(len(legal)))


def burraco_request(min_moves: int = 20) -> bot_pb2.ActRequest:
    """A 2-player Burraco decision with many legal moves: one sample's playouts of
    every move take longer than the time the test gives."""
    rules, codec = rules_for("burraco"), CODECS["burraco"]
    state, _ = rules.deal(codec.options(game_pb2.GameOptions()), 2, 3)
    rng = random.Random(1)
    while len(legal := rules.legal_moves(state)) < min_moves:
        state, _ = rules.apply(state, rng.choice(legal))
    seat = rules.to_act(state)
    request = bot_pb2.ActRequest(seat=seat)
    codec.view_to_wire(rules.view(state, seat), request.view)
    request.MergeFromString(codec.moves_bytes(legal, _ACT_MOVES))
    request.time_left.FromSeconds(30)
    return request


def test_it_starts_no_playout_after_its_time_even_mid_sample() -> None:
    """A Burraco decision of 20+ legal moves: a sample's playouts take about 0.3 s, so
    stopping between samples overran a 0.05 s budget sixfold (and, in a tournament
    at 1 s a move on a busy machine, the move limit)."""
    request = burraco_request()
    # CPU time: a loaded machine that pauses this process past the deadline (once 1 s
    # under make test) says nothing of whether a playout started after it.
    start = time.process_time()
    index = choose(request, Settings(samples=32, playouts=4, time=0.05), 1)
    assert time.process_time() - start < 0.05 + 0.1  # one playout may overrun
    assert 0 <= index < len(request.legal_moves)


def test_with_no_time_for_a_playout_it_answers_as_the_heuristic() -> None:
    request = burraco_request()
    request.time_left.FromMilliseconds(1)  # a twentieth: no time at all
    heuristic = heuristic_for("burraco")
    assert heuristic is not None
    assert choose(request, Settings(), 1) == heuristic(request).index
