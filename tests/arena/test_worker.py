"""The arena at play: the scheduler queues duplicate sets, the workers play them with
the referee and builtin bots, and the store keeps every record (each one verifies,
its deal commitment the one published before its first move), every rating update,
and why each match that was not finished was voided."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from mazzo.arena.models import Match, RatingUpdate, utcnow
from mazzo.arena.run import Settings, Summary, run_arena
from mazzo.arena.scheduler import Scheduler
from mazzo.arena.store import Refused, Store
from mazzo.arena.worker import Worker
from mazzo.referee.match import TimeControl
from mazzo.referee.verify import OK, verify

Json = dict[str, Any]


@pytest.fixture
def sqlite_store(tmp_path: Path, sqlite_template: Path) -> Any:
    shutil.copy(sqlite_template, tmp_path / "arena.db")
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        yield store


def enter(store: Store, ladder: int, *bots: str, target: str = "builtin:random") -> None:
    """Bots named OWNER-N, entered for their owners (made when new)."""
    for name in bots:
        owner = name.split("-")[0]
        with contextlib.suppress(Refused):  # entered already
            store.add_owner(owner)
        store.add_bot(owner, name, ladder, "builtin" if target else "dial-in", target)


def play(store: Store, **settings: Any) -> tuple[Summary, list[str]]:
    lines: list[str] = []
    summary = asyncio.run(run_arena(store, Settings(seed=1, **settings), lines.append))
    return summary, lines


def matches(store: Store) -> list[Match]:
    with Session(store.engine) as session:
        return list(session.scalars(select(Match).order_by(Match.id)))


def record(match: Match) -> Json:
    assert match.record is not None, f"{match.id} has no record"
    return match.record


def test_a_run_plays_duplicate_sets_whose_records_all_verify(url: str) -> None:
    with Store(url) as store:
        maraffa = store.add_ladder("maraffa", 4, {"target": 1})
        briscola = store.add_ladder("briscola", 2)
        enter(store, maraffa, "ada-1", "ada-2", "bob-1", "cy-1", "di-1")
        enter(store, briscola, "ada-b", "bob-b", "cy-b")
        summary, lines = play(store, workers=2, matches=12)
        assert (summary.finished, summary.voided, summary.lost) == (12, 0, 0)
        assert summary.why == "12 matches finished" and len(lines) == 12
        rows = matches(store)
        finished = [m for m in rows if m.status == "finished"]
        assert len(finished) == 12 and not [m for m in rows if m.status == "playing"]

        records = [record(m) for m in finished]
        published = {
            m.id: {"mazzo_commitment": 1, "id": m.id, "deal_commitment": m.deal_commitment}
            for m in finished
        }
        verdict = verify(records, published)
        assert verdict.code == OK and verdict.records == 12, verdict.failures
        owners = {b.name: b.owner for lad in (maraffa, briscola) for b in store.ladder_bots(lad)}
        for m in finished:
            assert record(m)["arena"] == {
                "ladder": m.ladder_id,
                "set": m.set_id,
                "set_index": m.set_index,
                "people": [],
            }
            # A table of bots: the bots' clock, whatever the person's clock would be.
            assert record(m)["time_control"] == {"move": 1.0, "bank": 10.0}
            seats = store.seats(m.id)
            sides = [{owners[seats[s]] for s in side["seats"]} for side in record(m)["sides"]]
            assert not set.intersection(*sides), f"one owner on two sides of {m.id}"
        # A set's matches: one seed, the seats rotated by one each time.
        for set_id in {m.set_id for m in rows}:
            of_set = sorted((m for m in rows if m.set_id == set_id), key=lambda m: m.set_index)
            assert len({m.seed for m in of_set}) == 1
            first = store.seats(of_set[0].id)
            for m in of_set:
                n = len(first)
                assert store.seats(m.id) == [first[(s - m.set_index) % n] for s in range(n)]

        seated = sum(len(store.seats(m.id)) for m in finished)
        games = sum(s.games for lad in (maraffa, briscola) for s in store.standings(lad))
        with store.engine.connect() as connection:
            updates = connection.scalar(select(func.count()).select_from(RatingUpdate))
        assert games == seated == updates


def test_the_run_stops_when_no_table_can_be_seated_and_says_why(sqlite_store: Store) -> None:
    store = sqlite_store
    ladder = store.add_ladder("briscola", 2)
    enter(store, ladder, "ada-1", "ada-2")
    enter(store, ladder, "bob-1", target="")  # dial-in: never connected without a gateway
    summary, lines = play(store, workers=1, matches=5)
    assert summary.why == "nothing left to play" and summary.finished == 0
    assert lines == [
        f"waiting: ladder {ladder} (briscola 2p): no table of 2 bots of different owners "
        "(opponents) from 3 bots: 2 free, 1 dial-in not connected"
    ]


def test_a_match_seating_a_dial_in_bot_no_arena_process_holds_is_voided_with_the_reason(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    ladder = store.add_ladder("briscola", 2)
    enter(store, ladder, "ada-1")
    enter(store, ladder, "bob-1", target="")
    (first, second) = store.schedule_set(ladder, ["ada-1", "bob-1"])  # by hand
    summary, lines = play(store, workers=1)
    assert (summary.finished, summary.voided) == (0, 2)
    # No worker claims it (no gateway holds bob-1); the scheduler voids it.
    reason = "bob-1 has not dialed in to any arena process"
    for match_id in (first, second):
        voided = store.match(match_id)
        assert voided.status == "voided" and voided.claimed_by is None
        assert voided.voided_reason == reason
        assert f"voided {match_id}: {reason}" in lines


def test_bots_that_fault_in_match_after_match_are_paused(sqlite_store: Store) -> None:
    store = sqlite_store
    ladder = store.add_ladder("briscola", 2)
    enter(store, ladder, "ada-1", "bob-1")
    no_time = TimeControl(move=0.0, bank=0.0)  # every answer is late: a timeout
    summary, lines = play(store, workers=1, clock=no_time, pause_limit=2, pause_window=3)
    assert summary.finished == 2 and summary.why == "nothing left to play"
    assert sorted(summary.paused) == ["ada-1", "bob-1"]
    records = [record(m) for m in matches(store) if m.status == "finished"]
    assert verify(records).code == OK
    # Every move was a fault (and a random card played in its place).
    moves = Counter(
        store.seats(r["id"])[move["seat"]]
        for r in records
        for move in r["moves"]
        if "fault" in move
    )
    assert sum(moves.values()) == sum(len(r["moves"]) for r in records)
    for standing in store.standings(ladder):
        faults = moves[standing.bot]
        assert standing.games == 2 and standing.faults == faults >= 40  # 20 cards a hand
        assert standing.paused_reason is not None
        assert standing.paused_reason.startswith(f"{faults} faults in 2 of its last 2 matches")
    assert f"paused ada-1: {summary.paused['ada-1']}" in lines


@pytest.mark.parametrize(("limit", "window"), [(0, 5), (6, 5), (2, 0)])
def test_a_pause_rule_no_finish_could_apply_is_refused_before_the_run(
    limit: int, window: int
) -> None:
    with pytest.raises(ValueError, match="paused after 1 to"):
        Settings(pause_limit=limit, pause_window=window)


@pytest.mark.parametrize("how", ["stopped", "cancelled"])
async def test_a_match_in_play_sends_heartbeats_and_is_voided_when_the_arena_stops(
    sqlite_store: Store, how: str
) -> None:
    store = sqlite_store
    ladder = store.add_ladder("ramino", 4)
    enter(store, ladder, "ada-1", "bob-1", "cy-1", "di-1")
    # Seed 5 deals a match of some 12,000 moves (a second or more): still in play below.
    store.schedule_set(ladder, ["ada-1", "bob-1", "cy-1", "di-1"], rotations=1, seed=5)
    claim = store.claim("w1")
    assert claim is not None
    stop = asyncio.Event()
    playing = asyncio.create_task(Worker(store, "w1", heartbeat=0.02).play(claim, stop))
    beats = []
    for _ in range(100):  # until its first heartbeat (a second at most)
        await asyncio.sleep(0.01)
        seen = store.match(claim.match_id)
        beats = [seen.claimed_at, seen.heartbeat_at]
        if beats[0] is not None and beats[1] is not None and beats[1] > beats[0]:
            break
    else:
        pytest.fail(f"no heartbeat in a second: claimed at, last heartbeat {beats}")
    assert seen.status == "playing" and seen.deal_commitment is not None
    if how == "stopped":  # mazzo arena run's Ctrl-C
        stop.set()
        played = await playing
        assert (played.outcome, played.line) == ("voided", "the arena stopped while w1 played it")
    else:
        playing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await playing
    voided = store.match(claim.match_id)
    assert voided.status == "voided"
    assert voided.voided_reason == "the arena stopped while w1 played it"


def test_a_claim_left_by_a_dead_run_is_voided_by_the_next(sqlite_store: Store) -> None:
    store = sqlite_store
    ladder = store.add_ladder("briscola", 2)
    enter(store, ladder, "ada-1", "bob-1")
    store.schedule_set(ladder, ["ada-1", "bob-1"], rotations=1)
    dead = store.claim("killed-worker")
    assert dead is not None
    with store.engine.begin() as connection:
        connection.execute(
            update(Match)
            .where(Match.id == dead.match_id)
            .values(heartbeat_at=utcnow() - timedelta(minutes=5))
        )
    summary, lines = play(store, workers=1, matches=2, stale_after=60.0)
    assert summary.stale == 1 and summary.finished == 2
    assert f"voided {dead.match_id}: its worker went silent" in lines
    reason = store.match(dead.match_id).voided_reason
    assert reason is not None and "killed-worker" in reason
    assert Counter(m.status for m in matches(store))["finished"] == 2


def test_a_round_keeps_house_only_when_its_time_is_due(sqlite_store: Store) -> None:
    """A busy arena runs a round after every match: the voids and the reading of the
    ladders and connections are made every ``housekeeping`` seconds, the topping up
    every round."""
    store = sqlite_store
    briscola = store.add_ladder("briscola", 2)
    enter(store, briscola, *(f"o{i}-1" for i in range(4)))
    scheduler = Scheduler(store, random.Random(0), queue=2, housekeeping=3600.0)
    (first,) = scheduler.round().scheduled
    for match_id in first:
        store.void(match_id, "made room for the test")
    maraffa = store.add_ladder("maraffa", 4, {"target": 1})
    enter(store, maraffa, "p1-1", "p2-1", "p3-1", "p4-1")
    # Room on the briscola ladder again: topped up; the new ladder not seen yet.
    assert [len(ids) for ids in scheduler.round().scheduled] == [2]
    assert store.queued(maraffa) == 0
    scheduler.housekeeping = 0.0  # due
    assert [len(ids) for ids in scheduler.round().scheduled] == [4]
    assert store.queued(maraffa) == 4


def test_the_scheduler_keeps_each_ladders_queue_bounded(sqlite_store: Store) -> None:
    store = sqlite_store
    briscola = store.add_ladder("briscola", 2)
    enter(store, briscola, *(f"o{i}-1" for i in range(8)))
    scheduler = Scheduler(store, random.Random(0), queue=5)
    done = scheduler.round()
    assert [len(ids) for ids in done.scheduled] == [2, 2]  # a third set would make 6
    assert store.queued(briscola) == done.queued == 4
    assert scheduler.round().scheduled == []  # full: nothing more until matches end
    busy = [b.name for b in store.ladder_bots(briscola) if b.busy]
    assert len(busy) == 4
    # A full set always fits, whatever the bound: a ladder is never starved.
    maraffa = store.add_ladder("maraffa", 4, {"target": 1})
    enter(store, maraffa, "p1-1", "p2-1", "p3-1", "p4-1")
    assert [len(ids) for ids in Scheduler(store, random.Random(0), queue=1).round().scheduled] == [
        4
    ]
