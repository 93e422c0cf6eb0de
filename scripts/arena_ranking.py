"""``make arena-ranking``: issue 34's duplicate sets measured. Eight bots of a known
order on one ladder; the games until the ladder's order stays at Kendall's tau >= 0.9
with the known order, with duplicate sets and with unpaired deals; prints JSON.

The bots (``mazzo.arena.ranking_drill``): the game's heuristic playing a uniformly
random legal move instead with probability epsilon = 0, 1/7, ..., 1 (1 is
``builtin:random``, 0 the heuristic). Their order is known by construction and checked
first: each bot against the next weaker one on ``--reference-deals`` deals (every deal
played from both seats), its score with a 95% Wilson interval (``known_order``:
``verified`` when every lower bound is above one half). The issue suggested
``builtin:pimc`` at several time budgets: it takes seconds a game (hundreds of
thousands of games are played here), and the order of two close budgets is not
certain; so the ladder's span is the heuristic's over random play.

The game: Briscola 2p, one hand: a game of a few milliseconds where the cards weigh
a lot (the heuristic beats random play about 85% of the time).

Each run (``--runs``, seeds ``--seed``, ``--seed`` + 1, ...) is one ladder of
``--games`` matches as ``mazzo arena run`` plays it with its defaults (one worker, a
queue of 4), the arena's matchmaking, duplicate set rotation and OpenSkill update, the
games played in this process (``ranking_drill``'s docstring); after each match, tau
between the standings (mu - 3 sigma) and the known order. A run's figure is the
number of games after which tau stays >= 0.9 to the run's end (a run that never gets
there counts as ``--games``, and is counted in ``unsettled``). Run ``r`` is played
once with duplicate sets and once with unpaired deals (every match a fresh deal, the
same sets and seating otherwise), on the same seed: the same names and matchmaking
draws. ``reduction``: 1 - duplicate / unpaired, of the means and of the medians
(wanted: at least 0.3). The figure is measured, never asserted in a test.

The arena's ratings never stop moving (OpenSkill's ``tau`` adds to every sigma
before each update: its sigma floors near 1.5), so an order that has settled can
still dip below 0.9 now and then, and "to the run's end" then depends on the run's
length. Two more figures say how settled the order is: ``held``, the games until
tau >= 0.9 first holds ``--hold`` games in a row, and ``second_half_share``, the
share of a run's second half at tau >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from mazzo.arena.ranking_drill import experiment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="briscola")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--runs", type=int, default=24, help="0: the known order only")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hold", type=int, default=500)
    parser.add_argument("--reference-deals", type=int, default=1000)
    parser.add_argument(
        "--per-match-too",
        action="store_true",
        help="also rate each match alone (the arena before it rated sets whole)",
    )
    args = parser.parse_args()
    epsilons = [k / (args.bots - 1) for k in range(args.bots)]
    load = os.getloadavg()
    start = time.monotonic()
    report = experiment(
        args.game,
        args.players,
        epsilons,
        args.runs,
        args.games,
        args.seed,
        args.reference_deals,
        args.hold,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
        per_match_too=args.per_match_too,
    )
    report["machine"] = {
        "cores": os.cpu_count(),
        "load_before": [round(x, 2) for x in load],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.monotonic() - start, 1),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
