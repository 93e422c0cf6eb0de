"""Where the dial-in bots are connected decides who plays their matches (several arena
processes on one database, ``arena.connections``): a match with dial-in seats is
claimed only by the process whose gateway holds those bots; the matches of a bot
connected nowhere wait the grace for it, then any process voids them, saying why; a
process that stopped beating (``kill -9``) holds no bot. On both databases, the times
given, not waited for."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import grpc
import pytest

from mazzo.arena import connections, liveness, serve
from mazzo.arena.models import utcnow
from mazzo.arena.run import Settings
from mazzo.arena.store import Store
from tests.arena.test_dial_in import until
from tests.gateway.conftest import Client

P, Q = "hostp/1/1/aaaaaa", "hostq/2/2/bbbbbb"
GRACE = timedelta(seconds=10)


def ladder_of(store: Store, dial_in: list[str], builtin: list[str]) -> int:
    """A Briscola 2p ladder: each bot its own owner's (any two may meet)."""
    ladder = store.add_ladder("briscola", 2)
    for name in dial_in + builtin:
        store.add_owner(name)
        kind, target = ("dial-in", "") if name in dial_in else ("builtin", "builtin:random")
        store.add_bot(name, name, ladder, kind, target)
    return ladder


def test_a_dial_in_match_is_claimed_only_by_the_process_holding_its_bot(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    now = utcnow()
    assert store.record_connections(P, {"cy": now}, now) == set()
    assert store.connected_bots() == {"cy": P}
    first, second = store.schedule_set(ladder, ["ada", "cy"])
    assert store.claim("q-w0", process=Q) is None  # cy is at P's gateway
    assert store.claim("run-w0") is None  # a process with no gateway
    claim = store.claim("p-w0", process=P)
    assert claim is not None and claim.match_id == first
    store.void(first, "a test")
    # cy dials in to Q (P's stream of it dropped): its queued match goes with it.
    store.record_connections(P, {})
    store.record_connections(Q, {"cy": utcnow()})
    assert store.connected_bots() == {"cy": Q}
    assert store.claim("p-w0", process=P) is None
    moved = store.claim("q-w0", process=Q)
    assert moved is not None and moved.match_id == second


def test_builtin_matches_are_claimed_by_any_process(store: Store) -> None:
    ladder = ladder_of(store, [], ["ada", "bob"])
    store.schedule_set(ladder, ["ada", "bob"], rotations=1)
    assert store.claim("q-w0", process=Q) is not None


def test_the_newer_stream_of_a_bot_at_two_processes_holds_it(store: Store) -> None:
    ladder_of(store, ["cy"], [])
    then = utcnow()
    store.record_connections(P, {"cy": then}, then)
    store.record_connections(Q, {"cy": then + timedelta(seconds=1)}, then)
    # P's beat finds its stream replaced: told, so that it closes it; the row stays Q's.
    assert store.record_connections(P, {"cy": then}, then) == {"cy"}
    assert store.connected_bots(then) == {"cy": Q}


def test_queued_matches_wait_the_grace_for_a_dropped_bot_then_are_voided(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    dropped = utcnow()
    store.record_connections(P, {"cy": dropped - timedelta(minutes=1)}, dropped)
    first, second = store.schedule_set(ladder, ["ada", "cy"])
    store.record_connections(P, {}, dropped)  # cy's stream ended
    assert store.connected_bots(dropped) == {}
    assert store.claim("p-w0", process=P) is None  # not while it is away
    assert store.void_away(GRACE, dropped + GRACE / 2) == {}  # within the grace: waits
    reason = (
        f"cy is connected to no arena process since {dropped.isoformat(timespec='seconds')} "
        "(more than the grace of 10 s)"
    )
    later = dropped + GRACE + timedelta(seconds=1)
    assert store.void_away(GRACE, later) == {first: reason, second: reason}
    assert store.match(first).status == "voided" and store.match(first).voided_reason == reason
    assert store.queued(ladder) == 0 and store.void_away(GRACE, later) == {}


def test_a_bot_back_within_the_grace_keeps_its_queued_matches(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    start = utcnow()
    store.record_connections(P, {"cy": start}, start)
    store.schedule_set(ladder, ["ada", "cy"])
    store.record_connections(P, {}, start)
    back = start + GRACE / 2
    store.record_connections(Q, {"cy": back}, back)  # back, at another process
    later = back + GRACE * 2
    store.record_connections(Q, {"cy": back}, later)  # Q's beat
    assert store.void_away(GRACE, later) == {}
    assert store.queued(ladder) == 2


def test_a_bot_that_never_dialed_in_has_its_matches_voided_at_once(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    first, second = store.schedule_set(ladder, ["ada", "cy"])  # by hand
    reason = "cy has not dialed in to any arena process"
    assert store.void_away(GRACE) == {first: reason, second: reason}


def test_partners_on_two_processes_are_voided_after_the_grace(store: Store) -> None:
    ladder = store.add_ladder("briscola", 4)
    for name in ("ada", "bob"):
        store.add_owner(name)
    for name in ("ada-1", "bob-1"):
        store.add_bot(name[:3], name, ladder)  # dial-in
    for name in ("ada-2", "bob-2"):
        store.add_bot(name[:3], name, ladder, "builtin", "builtin:random")
    now = utcnow()
    store.record_connections(P, {"ada-1": now}, now)
    store.record_connections(Q, {"bob-1": now}, now)
    [match] = store.schedule_set(ladder, ["ada-1", "bob-1", "ada-2", "bob-2"], rotations=1)
    assert store.claim("p-w0", process=P) is None and store.claim("q-w0", process=Q) is None
    assert store.void_away(GRACE, now + GRACE / 2) == {}
    later = now + GRACE * 2
    store.record_connections(P, {"ada-1": now}, later)  # both beat: both alive
    store.record_connections(Q, {"bob-1": now}, later)
    assert store.void_away(GRACE, later) == {
        match: "its dial-in bots are connected to different arena processes "
        f"(ada-1 to {P}, bob-1 to {Q})"
    }


def test_a_process_that_stopped_beating_holds_no_bot(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    last: datetime = utcnow() - connections.STALE - timedelta(seconds=1)
    store.record_connections(P, {"cy": last}, last)  # P's last beat; then kill -9
    assert store.connected_bots() == {} and store.connection_processes() == []
    store.schedule_set(ladder, ["ada", "cy"])
    assert store.claim("p-w0", process=P) is None
    voided = store.void_away(GRACE)
    assert len(voided) == 2
    assert all(f"since {last.isoformat(timespec='seconds')}" in why for why in voided.values())


def test_a_gone_process_of_this_host_drops_its_bots_as_that_is_noticed(store: Store) -> None:
    ladder = ladder_of(store, ["cy"], ["ada"])
    dead = subprocess.Popen(["true"])
    dead.wait()  # its pid runs no more
    name = liveness.Instance(liveness.this_process().host, dead.pid, 0, "dead00").name
    beat = utcnow()
    store.record_connections(name, {"cy": beat}, beat)
    first, second = store.schedule_set(ladder, ["ada", "cy"])
    assert store.connection_processes() == [name]
    assert liveness.process_gone(name) is not None
    noticed = beat + timedelta(seconds=1)
    assert store.drop_process(name, noticed) == 1
    assert store.connected_bots() == {} and store.connection_processes() == []
    # cy has the whole grace, from then, to dial in to another process.
    assert store.void_away(GRACE, noticed + GRACE / 2) == {}
    assert set(store.void_away(GRACE, noticed + GRACE * 1.5)) == {first, second}


async def test_a_bot_that_dials_in_to_a_second_process_leaves_the_first(
    tmp_path: Path, sqlite_template: Path
) -> None:
    shutil.copy(sqlite_template, tmp_path / "arena.db")
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = ladder_of(store, [], [])
        store.add_owner("cy")
        token = store.add_bot("cy", "cy", ladder).token
        play = Settings(workers=1, until_idle=False, idle=0.1)
        lines: list[str] = []
        a = await serve.start(store, play=play, report=lines.append, gateway_port=0)
        b = await serve.start(store, play=play, gateway_port=0)
        assert a.gateway is not None and b.gateway is not None
        first, second = (Client(f"127.0.0.1:{s.gateway_port}") for s in (a, b))
        try:
            await first.join(token)
            at_a = {"cy": a.gateway.process}
            await until(lambda: store.connected_bots() == at_a, 10, "cy at a")
            await second.join(token)  # a second copy of it, at b: the newer stream
            at_b = {"cy": b.gateway.process}
            await until(lambda: store.connected_bots() == at_b, 10, "cy at b")
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                while True:  # a's next beat finds its stream replaced, and closes it
                    await asyncio.wait_for(first.read(), 10)
            assert ended.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert ended.value.details() == (
                "cy dialed in again at another arena process: this older connection is replaced"
            )
            assert store.connected_bots() == at_b
            note = "from 1 bots: 0 free, 1 dial-in at another arena process"
            await until(lambda: any(note in line for line in lines), 10, f"a says: {lines}")
        finally:
            await first.close()
            await second.close()
            await serve.stop(a, grace=0.5)
            await serve.stop(b, grace=0.5)
