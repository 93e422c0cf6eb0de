"""``make arena-scale``: matches per second of one arena process against two on one
PostgreSQL (issue 34, item 5: two should give at least 1.8x), in one run.

Starts a temporary PostgreSQL cluster (``--pg-bin``, like the tests' fixture) unless
given ``--db URL``, then on a fresh database each time: one ``mazzo arena run`` to
finish ``--matches`` matches, and two at once to finish as many between them (half
each); each with ``--workers`` workers, on a Briscola 2p ladder of builtin random bots
(``--game``, ``--players``, ``--bot``: ``builtin:heuristic`` plays longer matches;
``--bots``, one owner each). A rate is the matches finished per second from the
first claim to the last finish (the processes' start-up left out). Both runs are
audited (``mazzo.arena.multi``: each match played once, no bot at two tables at once).
Prints JSON: the two rates, their ratio, the cores the runs' processes got and the
temporary cluster's (the database shares the machine), the load average before and
after (a busy machine shares its cores, and says so) and any problem; exits 1 on a
problem. The ratio is measured, never asserted: it depends on the machine's free
cores (builtin bots play in the arena's process, one core each) and on the
database's share of a match, larger the shorter the match.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mazzo.arena.crash import LadderForm, environment
from mazzo.arena.multi import audit, enter_house, rate, run_processes
from mazzo.arena.store import Store
from mazzo.arena.throwaway_postgres import PG_BIN, admin_url, cluster, cpu_seconds, fresh

#: The ladder by default: two players, quick builtin random bots.
HOUSE: LadderForm = ("briscola", 2, {})


def measure(
    admin: str, processes: int, args: argparse.Namespace, folder: Path | None = None
) -> dict[str, Any]:
    url = fresh(admin, f"arena_scale_{processes}")
    with Store(url, migrate=False) as store:
        enter_house(store, (args.game, args.players, {}), args.bots, args.bot)
        each = args.matches // processes
        # Room in the queue for a set per worker of both runs alike: a set's matches
        # seat the same bots, so they are played one after another.
        queue = args.players * args.workers * 2
        used, database = _children_cpu(), _database_cpu(folder)
        started = time.monotonic()
        ran = run_processes(url, processes, each, args.workers, environment(), args.seed, queue)
        wall = time.monotonic() - started
        used = _children_cpu() - used
        database = _database_cpu(folder) - database
        finished, seconds = rate(store)
        problems = audit(store, ran)
    return {
        "processes": processes,
        "ladder": f"{args.game} {args.players}p, {args.bot}",
        "workers_each": args.workers,
        "queue": queue,
        "finished": finished,
        "seconds": round(seconds, 3),
        "matches_per_second": round(finished / seconds, 3) if seconds else 0.0,
        # The CPU the runs got, in cores (start-up included): on a busy machine two
        # processes get little more than one, and the ratio shows the machine.
        "cores_used": round(used / wall, 2) if wall else 0.0,
        # The database's, on the same machine (None: a server given by --db).
        "database_cores": round(database / wall, 2) if folder is not None and wall else None,
        "problems": problems,
    }


def _database_cpu(folder: Path | None) -> float:
    return cpu_seconds(folder) if folder is not None else 0.0


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None, help="a PostgreSQL URL to make databases beside")
    parser.add_argument("--pg-bin", type=Path, default=PG_BIN)
    parser.add_argument("--game", default=HOUSE[0], help="the ladder's game (default options)")
    parser.add_argument("--players", type=int, default=HOUSE[1])
    parser.add_argument("--matches", type=int, default=400, help="per measurement (even)")
    parser.add_argument("--workers", type=int, default=4, help="per process")
    parser.add_argument("--bots", type=int, default=48, help="enough for 2 processes' workers")
    parser.add_argument(
        "--bot", default="builtin:random", help="the bots (builtin:random: the shortest matches)"
    )
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    before = os.getloadavg()
    with database(args.db, args.pg_bin) as (admin, folder):
        one = measure(admin, 1, args, folder)
        two = measure(admin, 2, args, folder)
    after = os.getloadavg()
    ratio = (
        two["matches_per_second"] / one["matches_per_second"] if one["matches_per_second"] else 0.0
    )
    report = {
        "one": one,
        "two": two,
        "ratio": round(ratio, 3),
        "wanted": 1.8,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in before],
        "load_average_after": [round(x, 2) for x in after],
    }
    print(json.dumps(report, indent=2))
    return 1 if one["problems"] or two["problems"] else 0


@contextmanager
def database(url: str | None, pg_bin: Path) -> Iterator[tuple[str, Path | None]]:
    """``url`` when given, else a temporary cluster's ``postgres`` database; with the
    cluster's folder (None for ``url``)."""
    if url is not None:
        yield url, None
        return
    with cluster(pg_bin) as (folder, port):
        yield admin_url(port), folder


if __name__ == "__main__":
    sys.exit(main())
