"""Crash safety (issue 34, item 4): ``kill -9`` of ``mazzo arena run`` at any moment
loses no finished match and counts none twice; a match in play at the crash is voided,
saying its worker crashed, as soon as the next run starts; after a restart the ladders
go on. The drill itself is ``mazzo.arena.crash`` (what it checks is its docstring)."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from mazzo.arena import liveness
from mazzo.arena.crash import drill, enter_bots, environment
from mazzo.arena.run import worker_names
from mazzo.arena.store import Store
from tests.arena.test_worker import play

STARTER = Path(__file__).resolve().parents[2] / "clients" / "python" / "src"
#: Two quick ladders: builtin random bots finish a match of either in well under a second.
QUICK = (("briscola", 2, {}), ("maraffa", 4, {"target": 1}))


def _dead_worker() -> str:
    """The worker name of a process that ran, and is gone (reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    start = liveness.start_time(process.pid)
    assert start is not None
    name = liveness.Instance(liveness.this_process().host, process.pid, start, "dead00").worker(0)
    process.kill()
    process.wait()
    return name


def test_a_worker_name_tells_whether_its_process_is_gone() -> None:
    (mine,) = worker_names(1)
    assert liveness.gone(mine) is None  # this process
    dead = _dead_worker()
    assert (
        liveness.gone(dead) == f"its process {dead.split('/')[1]} on {dead.split('/')[0]} is gone"
    )
    me = liveness.parse(mine)
    assert me is not None
    reused = liveness.Instance(me.host, me.pid, me.start + 1, "feed00").worker(0)
    assert liveness.gone(reused) == (
        f"its process {me.pid} on {me.host} is gone (the pid is another process's now)"
    )
    # Another host's worker, or a name of another form: left to the heartbeat silence.
    assert liveness.gone(liveness.Instance("elsewhere", 1, 1, "ab").worker(0)) is None
    assert liveness.gone("killed-worker") is None


def test_a_run_voids_at_once_the_matches_a_killed_run_left_in_play(url: str) -> None:
    with Store(url) as store:
        enter_bots(store, QUICK)
        ladder = store.ladders()[0].id
        store.schedule_set(ladder, ["ada-briscola", "bob-briscola"])
        dead = _dead_worker()
        claim = store.claim(dead)
        assert claim is not None and store.claimants() == [dead]
        assert store.void_stale(timedelta(seconds=60)) == []  # its heartbeat is fresh
        summary, lines = play(store, workers=1, matches=2, stale_after=60.0)
        assert summary.stale == 1 and summary.finished == 2
        assert lines[0] == f"voided {claim.match_id}: its worker's process is gone"
        voided = store.match(claim.match_id)
        assert voided.status == "voided" and voided.voided_reason == (
            f"stale claim: {dead} crashed while playing it ({liveness.gone(dead)})"
        )
        assert store.claimants() == []


#: Kills per database: each run's start-up (about a second) costs the same on both,
#: so PostgreSQL's half, whose claims and finishes the store tests cover already, is
#: killed less often.
KILLS = {"sqlite": 4, "postgresql": 2}


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_nothing_and_counts_nothing_twice(
    url: str, tmp_path: Path
) -> None:
    kills = KILLS["sqlite" if url.startswith("sqlite") else "postgresql"]
    report = drill(url, kills, seed=34, folder=tmp_path, last=4, env=environment(), ladders=QUICK)
    assert report.problems == [], report.json()
    assert len(report.kills) == kills
    finished = [kill.finished for kill in report.kills] + [report.finished]
    assert finished == sorted(finished) and report.finished >= 4
    # The kills hit matches in play, and each was voided as crashed (the audit).
    assert report.crashed >= 1, report.json()
    assert report.voided >= report.crashed


@pytest.mark.slow
def test_dial_in_bots_ride_out_the_kills_and_their_logs_agree_with_the_arena(
    tmp_path: Path, sqlite_template: Path
) -> None:
    # Two dial-in bots (the Python starter, a process each through the whole drill)
    # beside builtin bots: each kill drops their streams, they dial again, and every
    # match a bot logged as finished is stored once as finished, with a record that
    # verifies (the audit); a bot is told of a match only once its record is stored.
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    report = drill(
        f"sqlite:///{tmp_path / 'arena.db'}",
        2,
        seed=34,
        folder=tmp_path,
        last=4,
        env=environment(),
        ladders=QUICK[:1],
        bots=5,
        dial_in=2,
        starter=STARTER,
    )
    assert report.problems == [], report.json()
    assert (report.bots, report.dial_in, len(report.kills)) == (5, 2, 2)
    assert report.logged >= 2 and report.lost == report.counted_twice == 0, report.json()
    assert report.verified == report.finished >= 4
