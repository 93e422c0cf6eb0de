"""Briscola's builtin players through the referee: ``builtin:pimc`` samples the hidden
cards with the engine's ``determinize`` and plays a match to the end; the heuristic
plays every table size and beats random play."""

from __future__ import annotations

from typing import Any

import pytest

from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match


async def _match(
    seed: int, players: int, options: dict[str, Any], lineup: list[Entrant]
) -> dict[str, Any]:
    spec = MatchSpec(f"briscola-{seed}", "briscola", seed, players, {"briscola": options})
    pools = Pools()
    try:
        record: dict[str, Any] = await play_match(spec, lineup, LocalEngine(), pools)
    finally:
        await pools.close()
    return record


async def test_pimc_plays_a_briscola_match_to_the_end() -> None:
    record = await _match(
        7,
        2,
        {},
        [
            Entrant("pimc", ("builtin:pimc?samples=4&playouts=1",)),
            Entrant("R", ("builtin:random",)),
        ],
    )
    assert record["result"]["finished"] and not record["faults"]
    assert len(record["moves"]) == 40


@pytest.mark.parametrize(
    ("players", "options"), [(3, {}), (4, {"partnersShowHands": True})], ids=["3", "4"]
)
async def test_pimc_and_the_heuristic_play_every_table_size(
    players: int, options: dict[str, Any]
) -> None:
    lineup = [
        Entrant("pimc", ("builtin:pimc?samples=2&playouts=1",)),
        Entrant("H", ("builtin:heuristic",)),
        Entrant("R", ("builtin:random",)),
    ]
    record = await _match(3, players, options, lineup[: 2 if players == 4 else 3])
    assert record["result"]["finished"] and not record["faults"]


async def test_the_heuristic_beats_random_play() -> None:
    """100 two-player matches, seats alternating: the heuristic wins well over half
    (about 90 % over 200 such matches; one hand of Briscola holds much luck)."""
    wins = 0
    for seed in range(100):
        lineup = [Entrant("H", ("builtin:heuristic",)), Entrant("R", ("builtin:random",))]
        record = await _match(seed, 2, {}, lineup if seed % 2 else lineup[::-1])
        winner = record["result"]["winners"]
        heuristic_seat = 0 if seed % 2 else 1
        wins += winner == [heuristic_seat]
    assert wins >= 80, wins
