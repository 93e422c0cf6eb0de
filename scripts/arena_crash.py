"""``make arena-crash`` and ``make arena-drill``: the arena's ``kill -9`` drill, longer
than the tests'.

Starts the arena on a database (a new SQLite file in a temporary folder by default,
``--db URL``, or with ``--postgres`` a PostgreSQL cluster of its own, started in a
temporary folder and stopped at the end), SIGKILLs it ``--kills`` times at random
moments (``--seed``), restarting it each time, lets a last run finish at least
``--last`` matches and stop, and audits the database (``mazzo.arena.crash``: no
finished match lost, none counted twice, none left in play, every voided match with
its reason, every record verifies). With ``--dial-in N`` the arena is ``mazzo arena
serve`` and N of the ``--bots`` are the Python starter dialing in to its gateway, each
a process of its own through the whole drill, logging the matches it was told
finished: the audit checks the bots' logs too. ``--minutes`` spreads the kills over
that long. ``--games GAME:PLAYERS,...`` picks the ladders among the games' short
example forms. Prints the report as JSON; exits 1 when the audit found a problem.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mazzo.arena.crash import LadderForm, drill, environment, example_ladders
from mazzo.arena.throwaway_postgres import PG_BIN, admin_url, cluster, fresh

ROOT = Path(__file__).resolve().parents[1]


def ladders(games: str | None) -> list[LadderForm] | None:
    """The example forms of ``GAME:PLAYERS,...`` (players as given), or None (all)."""
    if not games:
        return None
    forms = {game: options for game, _players, options in example_ladders()}
    chosen = []
    for part in games.split(","):
        game, _, players = part.partition(":")
        if game not in forms:
            raise SystemExit(f"--games: no game {game!r} (games: {', '.join(forms)})")
        chosen.append((game, int(players), forms[game]))
    return chosen


@contextmanager
def database(args: argparse.Namespace, folder: Path) -> Iterator[str]:
    if args.db:
        yield args.db
    elif args.postgres:
        with cluster(args.pg_bin) as (_folder, port):
            yield fresh(admin_url(port), "arena_drill")
    else:
        yield f"sqlite:///{folder / 'arena.db'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--last", type=int, default=8, help="matches of the last, clean run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default=None, help="a database URL (default: a new SQLite file)")
    parser.add_argument(
        "--postgres", action="store_true", help="a PostgreSQL cluster of its own (without --db)"
    )
    parser.add_argument("--pg-bin", type=Path, default=PG_BIN)
    parser.add_argument("--minutes", type=float, default=None, help="the drill's length")
    parser.add_argument("--bots", type=int, default=None, help="bots in all (default 4 a ladder)")
    parser.add_argument("--dial-in", type=int, default=0, help="how many of them dial in")
    parser.add_argument("--games", default=None, help="GAME:PLAYERS,... (default: every game)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the runs' output here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mazzo-arena-crash-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        with database(args, Path(temporary)) as url:
            report = drill(
                url,
                args.kills,
                args.seed,
                folder,
                last=args.last,
                workers=args.workers,
                env=environment(),
                ladders=ladders(args.games),
                bots=args.bots,
                dial_in=args.dial_in,
                minutes=args.minutes,
                starter=ROOT / "clients" / "python" / "src",
            )
    print(report.json())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
