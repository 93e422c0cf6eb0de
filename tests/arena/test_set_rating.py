"""A duplicate set is rated once, as one result, when its last match ends: the team
that won more of the set's deals wins it, equal wins draw it (``arena/duplicate.py``).
However the set ends (finished, or its last matches voided), and however two arena
processes race to end it, it is rated exactly once."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from mazzo.arena import schema
from mazzo.arena.duplicate import NotOneSet, set_ranks
from mazzo.arena.models import MU, SIGMA, Match, SetRating, Skill, utcnow
from mazzo.arena.store import Store, _rate_set
from mazzo.referee.ratings import rating_model
from tests.arena.test_store import play, record, rows, two_player_ladder


def test_the_team_that_won_more_of_the_deals_wins_the_set() -> None:
    teams = [[["a"], ["b"]], [["b"], ["a"]]]  # the seats rotated
    assert set_ranks(teams, [[1.0, 0.0], [0.0, 1.0]]) == ([["a"], ["b"]], [0.0, 1.0])
    assert set_ranks(teams, [[1.0, 0.0], [1.0, 0.0]])[1] == [0.0, 0.0]  # one deal each
    assert set_ranks(teams, [[0.5, 0.5], [1.0, 0.0]])[1] == [1.0, 0.0]  # a shared win: a half


def test_more_than_two_sides_are_ranked_by_their_wins_over_the_set() -> None:
    teams = [[["a"], ["b"], ["c"]], [["c"], ["a"], ["b"]], [["b"], ["c"], ["a"]]]
    scores = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]  # a 2, b 1 (as c's seat)
    assert set_ranks(teams, scores) == ([["a"], ["b"], ["c"]], [0.0, 1.0, 2.0])
    # Shared wins in thirds: a 1/3 + 2/3 + 1/3, b 1/3 + 1/3 + 2/3, equal as sums go.
    shared = [[1 / 3, 1 / 3, 1 / 3], [0.0, 2 / 3, 1 / 3], [2 / 3, 0.0, 1 / 3]]
    assert set_ranks(teams, shared)[1] == [0.0, 0.0, 2.0]


def test_matches_that_do_not_seat_the_same_teams_are_not_one_set() -> None:
    with pytest.raises(NotOneSet):
        set_ranks([[["a", "c"], ["b", "d"]], [["a", "b"], ["c", "d"]]], [[1, 0], [1, 0]])
    with pytest.raises(NotOneSet):
        set_ranks([], [])


def test_a_set_each_team_won_once_is_a_draw(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"])
    play(store, "w", [0])  # p at seat 0 won
    play(store, "w", [0])  # q at seat 0 won: the same cards won both times
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["p"].mu == pytest.approx(MU) and table["q"].mu == pytest.approx(MU)
    assert table["p"].sigma < SIGMA and table["p"].games == 2
    assert rows(store, SetRating) == 1


def test_a_won_set_moves_the_ratings_as_one_win_does(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"])
    play(store, "w", [0])
    play(store, "w", [1])  # p won both deals
    model = rating_model()
    p, q = model.rate([[model.rating(MU, SIGMA)], [model.rating(MU, SIGMA)]], ranks=[0, 1])
    table = {s.bot: s for s in store.standings(ladder)}
    assert (table["p"].mu, table["p"].sigma) == pytest.approx((p[0].mu, p[0].sigma))
    assert (table["q"].mu, table["q"].sigma) == pytest.approx((q[0].mu, q[0].sigma))


def test_partners_win_a_set_of_four_by_three_deals_to_one(store: Store) -> None:
    ladder = store.add_ladder("maraffa", 4)
    store.add_owner("house")
    for name in ("a", "b", "c", "d"):
        store.add_bot("house", name, ladder, "builtin", "builtin:random")
    store.schedule_set(ladder, ["a", "b", "c", "d"])  # a and c partners through it
    sides = [[0, 2], [1, 3]]
    for winners in ([0], [1], [0], [0]):  # a+c at seats 0, 2; 1, 3; 0, 2; 1, 3
        before = {s.bot: s.mu for s in store.standings(ladder)}
        play(store, "w", winners, sides=sides)
    assert set(before.values()) == {MU}  # nothing moved before the last match
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["a"].mu == table["c"].mu > MU > table["b"].mu == table["d"].mu
    assert {s.games for s in table.values()} == {4}


def test_a_repeated_finish_of_the_last_match_rates_the_set_once(store: Store) -> None:
    ladder = two_player_ladder(store, "p", "q")
    store.schedule_set(ladder, ["p", "q"])
    play(store, "w", [0])
    claim = store.claim("w")
    assert claim is not None
    done = record(claim.match_id, claim.seed, [1], [[0], [1]])
    first = store.finish(claim.match_id, "w", done)
    standings = store.standings(ladder)
    again = store.finish(claim.match_id, "w", dict(done))
    assert again.repeated and again.changes == first.changes
    assert store.standings(ladder) == standings
    assert store.rate_closed_sets() == []


def test_a_set_whose_last_match_is_voided_is_rated_on_the_matches_it_finished(
    store: Store,
) -> None:
    ladder = two_player_ladder(store, "p", "q")
    ids = store.schedule_set(ladder, ["p", "q"])
    play(store, "w", [0])  # p won
    dead = store.claim("dead")
    assert dead is not None and dead.match_id == ids[1]
    with store.engine.begin() as c:
        c.execute(
            update(Match)
            .where(Match.id == dead.match_id)
            .values(heartbeat_at=utcnow() - timedelta(minutes=10))
        )
    assert store.void_stale(timedelta(minutes=1)) == [dead.match_id]
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["p"].mu > MU > table["q"].mu  # p's one win, rated with the void
    change = {c.bot: c for c in store.rating_changes(ids[0])}
    assert change["p"].before == Skill(MU, SIGMA) and change["p"].after.mu == table["p"].mu
    assert [s.games for s in table.values()] == [1, 1]


def set_over_unrated(store: Store) -> tuple[int, str]:
    """A ladder with a set of two that q won the one finished match of, its other
    match voided behind the store's back (as by another process, at once): over and
    not rated. The ladder and the set."""
    ladder = two_player_ladder(store, "p", "q")
    ids = store.schedule_set(ladder, ["p", "q"])
    play(store, "w", [1])  # q won
    with store.engine.begin() as c:
        c.execute(
            update(Match)
            .where(Match.id == ids[1])
            .values(status="voided", voided_reason="away", finished_at=utcnow())
        )
    return ladder, store.match(ids[0]).set_id


def test_a_set_no_finish_or_void_rated_is_rated_by_the_housekeeping(store: Store) -> None:
    """Two processes end a set's last two matches at once: each sees the other's open,
    neither rates it. Here the second match's end is written behind the store's back."""
    ladder, set_id = set_over_unrated(store)
    assert {s.mu for s in store.standings(ladder)} == {MU}
    assert store.rate_closed_sets(utcnow() - timedelta(minutes=1)) == [set_id]
    assert store.rate_closed_sets() == []  # once
    table = {s.bot: s for s in store.standings(ladder)}
    assert table["q"].mu > MU > table["p"].mu


def test_two_housekeepings_that_find_one_set_rate_it_once(store: Store) -> None:
    """Two processes' housekeeping find the same set over and unrated: the one that
    waited for the other's locks sees its mark fail, and leaves the set as rated."""
    ladder, set_id = set_over_unrated(store)
    with Session(store.engine) as first, first.begin():
        assert _rate_set(first, set_id, utcnow())  # not committed yet
        with ThreadPoolExecutor(1) as pool:
            second = pool.submit(store.rate_closed_sets)
            time.sleep(0.5)  # the second waits for the first's locks
            assert not second.done()
            first.commit()
            assert second.result(timeout=30) == []
    model = rating_model()
    p, q = model.rate([[model.rating(MU, SIGMA)], [model.rating(MU, SIGMA)]], ranks=[1, 0])
    table = {s.bot: s for s in store.standings(ladder)}
    assert (table["p"].mu, table["q"].mu) == pytest.approx((p[0].mu, q[0].mu))  # once
    assert rows(store, SetRating) == 1


def test_the_migration_marks_the_sets_rated_match_by_match_and_voids_their_rest(
    empty_url: str,
) -> None:
    schema.upgrade(empty_url, "0004")
    engine = schema.make_engine(empty_url)
    at = datetime(2026, 12, 6, tzinfo=UTC)
    try:
        with engine.begin() as c:
            for statement in (
                "INSERT INTO owners (name, token_hash, created_at) VALUES ('o', 'h0', :t)",
                "INSERT INTO ladders (game, players, options, created_at) "
                "VALUES ('briscola', 2, '{}', :t)",
            ):
                c.execute(text(statement), {"t": at})
            for status, match_id, set_id, index in (
                ("finished", "s1-0", "s1", 0),  # rated match by match
                ("scheduled", "s1-1", "s1", 1),  # would count s1-0 again
                ("scheduled", "s2-0", "s2", 0),  # a set not begun: rated whole later
                ("scheduled", "s2-1", "s2", 1),
            ):
                c.execute(
                    text(
                        "INSERT INTO matches (id, ladder_id, set_id, set_index, seed, status, "
                        "created_at, finished_at) VALUES (:i, 1, :s, :n, 7, :st, :t, :f)"
                    ),
                    {
                        "i": match_id,
                        "s": set_id,
                        "n": index,
                        "st": status,
                        "t": at,
                        "f": at if status == "finished" else None,
                    },
                )
        schema.upgrade(empty_url)
        assert schema.current(engine) == schema.head() == "0006"
        with engine.connect() as c:
            marks = c.execute(select(SetRating.set_id, SetRating.match_id)).all()
            status = dict(c.execute(select(Match.id, Match.status)).all())
            reason = c.scalar(select(Match.voided_reason).where(Match.id == "s1-1"))
    finally:
        engine.dispose()
    assert [tuple(m) for m in marks] == [("s1", "s1-0")]
    assert status == {
        "s1-0": "finished",
        "s1-1": "voided",
        "s2-0": "scheduled",
        "s2-1": "scheduled",
    }
    assert reason is not None and "0005" in reason
