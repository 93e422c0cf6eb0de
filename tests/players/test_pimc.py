"""builtin:pimc: parameters in the spec, a legal choice from the view alone, within its time."""

from __future__ import annotations

import time

import pytest

from mazzo.players.pimc import Settings, choose, settings_of
from mazzo.players.playout import Horizon, PolicyKind
from mazzo.referee.bots import BotSpec
from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match
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
    start = time.perf_counter()
    choose(request, Settings(samples=1024, playouts=50), 1)
    assert time.perf_counter() - start < 0.1 + 0.5  # one sample's work may overrun


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
