"""Two arena processes on one PostgreSQL share the work (issue 34, item 5): every match
is played exactly once, by one process, no bot sits at two tables at the same moment
(the matches' stored claim and end times say so), and no scheduler seats a bot in two
duplicate sets at once. PostgreSQL only: SQLite's one writer at a time is the
single-machine case."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import update

from mazzo.arena import queries
from mazzo.arena.crash import environment
from mazzo.arena.models import Match
from mazzo.arena.multi import audit, enter_house, overlaps, run_processes, set_overlaps
from mazzo.arena.store import Busy, Store

HOUSE = ("briscola", 2, {})
ON_POSTGRESQL = pytest.mark.parametrize("url", ["postgresql"], indirect=True)


@ON_POSTGRESQL
def test_two_processes_play_each_match_once_and_seat_no_bot_twice(url: str) -> None:
    with Store(url, migrate=False) as store:
        ladder = enter_house(store, HOUSE, bots=6)
        ran = run_processes(url, processes=2, matches=5, workers=2, env=environment(), queue=8)
        assert audit(store, ran) == []
        assert [len(r.finished()) for r in ran] == [5, 5]
        # Each run stops with none of its matches in play.
        lines = queries.newest_matches(store, ladder, limit=1000)
        assert sum(m.status == "finished" for m in lines) == 10
        assert all(m.status != "playing" for m in lines)


@ON_POSTGRESQL
def test_a_claim_skips_the_matches_whose_bots_are_at_another_table(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=4)
    first = store.schedule_set(ladder, ["bot0", "bot1"])
    second = store.schedule_set(ladder, ["bot2", "bot3"])
    a, b = store.claim("w1"), store.claim("w2")
    assert a is not None and b is not None
    assert (a.match_id, b.match_id) == (first[0], second[0])  # not first[1]: same bots
    assert store.claim("w3") is None  # every other match seats a bot in play
    store.void(a.match_id, "a test")
    c = store.claim("w3")
    assert c is not None and c.match_id == first[1]
    assert overlaps(store) == []


@ON_POSTGRESQL
def test_a_scheduler_seats_no_bot_in_two_sets_at_once(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=3)
    first = store.schedule_set(ladder, ["bot0", "bot1"], free_only=True)
    with pytest.raises(Busy, match="bot1 is seated"):
        store.schedule_set(ladder, ["bot2", "bot1"], free_only=True)
    second = store.schedule_set(ladder, ["bot2", "bot1"])  # by hand: as asked
    one, two = store.match(first[0]).set_id, store.match(second[0]).set_id
    assert set_overlaps(store) == [f"bot1 was seated in sets {one} and {two} at once"]


@ON_POSTGRESQL
def test_the_audit_sees_a_bot_at_two_tables(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=2)
    first, second = store.schedule_set(ladder, ["bot0", "bot1"])
    claim = store.claim("w1")
    assert claim is not None and claim.match_id == first
    with store.engine.begin() as connection:  # as a claim that ignored the seat would
        same = claim_time(store, first) + timedelta(microseconds=1)
        connection.execute(
            update(Match)
            .where(Match.id == second)
            .values(status="playing", claimed_by="w2", claimed_at=same, heartbeat_at=same)
        )
    assert overlaps(store) == [
        f"bot0 sat at {first} and {second} at once",
        f"bot1 sat at {first} and {second} at once",
    ]


def claim_time(store: Store, match_id: str) -> datetime:
    at = store.match(match_id).claimed_at
    assert at is not None
    return at
