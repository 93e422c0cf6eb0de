"""Maraffa matches through the referee, with builtin and ``exec:`` bots: hands per
second and the referee's own time per move.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from mazzo.bench.common import (
    Report,
)
from mazzo.games.registry import GAMES
from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match


async def _referee_matches(bots: tuple[str, str, str, str], seconds: float) -> Report:
    lineup = [Entrant("a", (bots[0], bots[2])), Entrant("b", (bots[1], bots[3]))]
    engine, pools = LocalEngine(), Pools()
    hand_dealt = GAMES["maraffa"].hooks.hand_dealt
    matches = hands = moves = 0
    bot_seconds = 0.0
    try:
        # One match first, so that starting bot processes is not counted.
        await play_match(MatchSpec("warm-up", "maraffa", 0), lineup, engine, pools)
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            matches += 1
            record = await play_match(
                MatchSpec(f"m{matches}", "maraffa", matches), lineup, engine, pools
            )
            moves += len(record["moves"])
            hands += 1 + sum(hand_dealt(m["events"]) for m in record["moves"])
            bot_seconds += sum(record["time_used_ms"].values()) / 1000
        elapsed = time.perf_counter() - start
    finally:
        await pools.close()
    return {
        "bots": list(bots),
        "matches": matches,
        "hands": hands,
        "moves": moves,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1),
        "us_per_move": round(elapsed / moves * 1e6, 2),
        "bot_us_per_move": round(bot_seconds / moves * 1e6, 2),
        "referee_overhead_us_per_move": round((elapsed - bot_seconds) / moves * 1e6, 2),
    }


def referee_builtin(seconds: float) -> Report:
    """Maraffa through the referee, in-process rules and builtin bots (heuristic v random):
    hands per second, and the referee's time per move beside the bots' own (the bots'
    time is what the referee's clock charges them)."""
    bots = ("builtin:heuristic", "builtin:random", "builtin:heuristic", "builtin:random")
    return asyncio.run(_referee_matches(bots, seconds))


def referee_exec(seconds: float) -> Report:
    """The same with four ``exec:`` bots (the example Python bot): the bots' time
    includes writing, reading and parsing the JSON lines on both sides."""
    example = Path(__file__).resolve().parents[3] / "examples" / "bots" / "random_bot.py"
    if not example.exists():
        return {"skipped": f"{example} not found (a source checkout is needed)"}
    bots = tuple(f"exec:{sys.executable} {example} {i}" for i in range(4))
    return asyncio.run(_referee_matches((bots[0], bots[1], bots[2], bots[3]), seconds))
