"""``make arena-crash``: the arena's ``kill -9`` drill, longer than the test's.

Starts ``mazzo arena run`` on a database (a new SQLite file in a temporary folder by
default, or ``--db URL``, PostgreSQL included), SIGKILLs it ``--kills`` times at random
moments (``--seed``), restarting it each time, lets a last run finish ``--last``
matches and stop, and audits the database (``mazzo.arena.crash``: no finished match
lost, none counted twice, none left in play, every voided match with its reason, every
record verifies). Prints the report as JSON; exits 1 when the audit found a problem.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from mazzo.arena.crash import drill, environment


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--last", type=int, default=8, help="matches of the last, clean run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default=None, help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mazzo-arena-crash-") as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'arena.db'}"
        report = drill(
            url,
            args.kills,
            args.seed,
            Path(folder),
            last=args.last,
            workers=args.workers,
            env=environment(),
        )
    print(report.json())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
