"""A table where a person sits: a bot marked as played by a person gets the person's
clock (minutes a move), while tables of bots keep the bots' clock; and it is dealt
unpaired, a set of one match, since a person remembers a deal that comes back with the
seats rotated. The duplicate sets of bot tables stay as they were; the pages say which
matches were unpaired, and show a person's table's record once its one match is over."""

from __future__ import annotations

import random
from collections import deque
from datetime import UTC, datetime

import pytest
from alembic import command
from sqlalchemy import text

from mazzo.arena import api, pages, queries, schema
from mazzo.arena.cli import PERSON_BANK, PERSON_MOVE
from mazzo.arena.models import utcnow
from mazzo.arena.run import PERSON_CLOCK, Settings
from mazzo.arena.scheduler import Scheduler
from mazzo.arena.store import BotInfo, Refused, Store
from mazzo.arena.worker import Worker
from mazzo.referee.match import TimeControl
from tests.arena.sets import finish_next, record

#: The arena process whose gateway holds the person's bot (``connections``).
HERE = "hostp/1/1/aaaaaa"


def maraffa(store: Store, *bots: str, people: tuple[str, ...] = ()) -> int:
    """A Maraffa 4p ladder with one owner per bot; ``people``'s bots are dial-in bots
    played by a person, the others builtin."""
    ladder = store.add_ladder("maraffa", 4, {"target": 41})
    for name in (*bots, *people):
        store.add_owner(name)
        if name in people:
            store.add_bot(name, name, ladder, person=True)
        else:
            store.add_bot(name, name, ladder, "builtin", "builtin:random")
    return ladder


def test_a_persons_table_is_one_match_and_a_table_of_bots_a_duplicate_set(store: Store) -> None:
    ladder = maraffa(store, "a", "b", "c", "d", "e", "f", "g", people=("me",))
    bots_only = store.schedule_set(ladder, ["a", "b", "c", "d"])
    assert len(bots_only) == 4  # one match per seat, rotated
    with_me = store.schedule_set(ladder, ["me", "e", "f", "g"])
    assert len(with_me) == 1 and with_me[0].endswith("-0")
    assert store.seats(with_me[0]) == ["me", "e", "f", "g"]
    with pytest.raises(Refused, match="me is played by a person: a set of one match, not 4"):
        store.schedule_set(ladder, ["me", "a", "b", "c"], rotations=4)


def test_the_scheduler_deals_a_persons_table_unpaired_and_the_bots_tables_in_sets(
    store: Store,
) -> None:
    ladder = maraffa(store, "a", "b", "c", "d", "e", "f", "g", people=("me",))
    store.record_connections(HERE, {"me": utcnow()})
    scheduler = Scheduler(
        store, random.Random(3), queue=8, connected={"me"}.__contains__, here=HERE
    )
    done = scheduler.round()
    # Eight bots fill two tables: the person's is one match, the other a set of four.
    sets = sorted((len(ids), "me" in store.seats(ids[0])) for ids in done.scheduled)
    assert sets == [(1, True), (4, False)]
    assert store.queued(ladder) == done.queued == 5


def test_only_a_dial_in_bot_is_played_by_a_person(store: Store) -> None:
    ladder = maraffa(store, "a")
    with pytest.raises(Refused, match="a person plays a dial-in bot"):
        store.add_bot("a", "a-2", ladder, "builtin", "builtin:random", person=True)
    with pytest.raises(Refused, match="not a builtin one"):
        store.set_person("a", True)
    store.add_bot("a", "a-me", ladder)
    store.set_person("a-me", True)
    assert {b.name: b.person for b in store.ladder_bots(ladder)} == {"a": False, "a-me": True}
    line = queries.bot(store, "a-me")
    assert line is not None and line.person
    store.set_person("a-me", False)
    assert not store.ladder_bots(ladder)[1].person
    with pytest.raises(Refused, match="no bot named"):
        store.set_person("nobody", True)


def bot(name: str, person: bool = False) -> BotInfo:
    return BotInfo(name, name, 1, "dial-in" if person else "builtin", "", None, person)


def test_a_persons_seats_get_the_persons_clock_and_the_bots_keep_theirs(store: Store) -> None:
    bots_clock, persons = TimeControl(1.0, 10.0), TimeControl(120.0, 900.0)
    worker = Worker(store, "w", clock=bots_clock, person_clock=persons)
    assert worker.clock == bots_clock  # every table's, a person's too
    assert worker.own_clocks([bot("a"), bot("b")]) == {}
    assert worker.own_clocks([bot("a"), bot("me", person=True)]) == {"connect:me": persons}
    # A worker given no person's clock plays every seat on its one clock.
    assert Worker(store, "w", clock=bots_clock).own_clocks([bot("me", person=True)]) == {}
    # The arena's default: minutes for a person, the referee's second for bots.
    assert Settings().clock == TimeControl() and Settings().person_clock == PERSON_CLOCK
    assert (PERSON_CLOCK.move, PERSON_CLOCK.bank) == (300.0, 1800.0) == (PERSON_MOVE, PERSON_BANK)


def test_an_unpaired_match_is_shown_as_such_and_revealed_once_it_is_over(store: Store) -> None:
    ladder = maraffa(store, "a", "b", "c", people=("me",))
    [alone] = store.schedule_set(ladder, ["me", "a", "b", "c"])
    [line] = queries.newest_matches(store, ladder)
    assert line.unpaired and line.set_size == 1 and not line.revealed
    # Claimed by the process whose gateway holds the person's bot, and finished.
    store.record_connections(HERE, {"me": utcnow()})
    claim = store.claim("w1", process=HERE)
    assert claim is not None and claim.match_id == alone
    store.finish(alone, "w1", record(alone, claim.seed, [0], []))
    [line] = queries.newest_matches(store, ladder)
    assert line.revealed  # its set (the one match) is over: no other match shares its deal
    body = bytes(pages.ladder_page(store, ladder).body).decode()
    assert pages.UNPAIRED in body
    # The standings say who is a person (its results keep the cards' luck): the page
    # under its name, the API's ``person``.
    assert body.count(pages.PERSON) == 1
    lines = queries.standings(store, ladder)
    marked = {line.standing.bot: api._standing(1, line).person for line in lines}
    assert marked == {"me": True, "a": False, "b": False, "c": False}
    page = bytes(pages.bot_page(store, "me", None).body).decode()
    assert pages.PLAYED_BY[True] in page
    # A duplicate set's match is not unpaired, and is withheld while its set is open.
    store.pause_bot("me", "gone")
    store.add_owner("d")
    store.add_bot("d", "d", ladder, "builtin", "builtin:random")
    paired = store.schedule_set(ladder, ["a", "b", "c", "d"])
    finish_next(store, [0])
    lines = {line.id: line for line in queries.newest_matches(store, ladder)}
    assert not lines[paired[0]].unpaired and lines[paired[0]].set_size == 4
    assert not lines[paired[0]].revealed
    assert pages.PLAYED_BY[False] in bytes(pages.bot_page(store, "a", None).body).decode()


def test_the_migration_marks_every_bot_entered_before_it_as_a_program(empty_url: str) -> None:
    schema.upgrade(empty_url, "0003")  # the revision before it
    engine = schema.make_engine(empty_url)
    now = datetime(2026, 12, 6, tzinfo=UTC)
    try:
        with engine.begin() as c:
            c.execute(
                text("INSERT INTO owners (name, token_hash, created_at) VALUES ('o', 'h0', :t)"),
                {"t": now},
            )
            c.execute(
                text(
                    "INSERT INTO ladders (game, players, options, created_at) "
                    "VALUES ('briscola', 2, '{}', :t)"
                ),
                {"t": now},
            )
            c.execute(
                text(
                    "INSERT INTO bots (owner_id, name, ladder_id, kind, target, token_hash, "
                    "created_at) VALUES (1, 'old', 1, 'dial-in', '', 'h1', :t)"
                ),
                {"t": now},
            )
            c.execute(
                text(
                    "INSERT INTO ratings (bot_id, mu, sigma, games, faults, updated_at) "
                    "VALUES (1, 25, 8, 0, 0, :t)"
                ),
                {"t": now},
            )
        schema.upgrade(empty_url)
        assert schema.current(engine) == schema.head() == "0006"
    finally:
        engine.dispose()
    with Store(empty_url, migrate=False) as store:
        store.add_owner("p")
        store.add_bot("p", "new", 1, person=True)
        assert [(b.name, b.person) for b in store.ladder_bots(1)] == [
            ("new", True),
            ("old", False),
        ]
    # And back down, then up again: the bots stay, the marks go with the column.
    engine = schema.make_engine(empty_url)
    try:
        with engine.begin() as c:
            config = schema.alembic_config()
            config.attributes["connection"] = c
            command.downgrade(config, "0003")
        assert schema.current(engine) == "0003"
        schema.upgrade(empty_url)
        with engine.connect() as c:
            rows = c.execute(text("SELECT name, person FROM bots ORDER BY name")).all()
        assert [(name, bool(person)) for name, person in rows] == [("new", False), ("old", False)]
    finally:
        engine.dispose()


async def test_the_pages_feeds_are_those_of_the_bots_pages_follow() -> None:
    """A feed is made for a dial-in bot a page asks for; once no page has read it for
    FEED_LINGER it is dropped, what it kept with it, when its bot moves again (the
    watch's ``in``) or when a page asks for another bot: an arena whose owners each
    watched a bot once does not keep a feed for each."""
    from mazzo.arena.person import PageFeeds
    from mazzo.viewer.play import FEED_LINGER

    now = [0.0]
    feeds = PageFeeds(lambda name: name in {"cy-1", "di-1", "ed-1"}, clock=lambda: now[0])
    with pytest.raises(KeyError):
        feeds["not-a-dial-in-bot"]
    assert "cy-1" not in feeds  # looking does not make one
    for name in ("cy-1", "di-1"):
        page = feeds[name].lines()
        feeds[name].push({"type": "deal"})
        assert await anext(page) == b'{"type":"deal"}\n'
        await page.aclose()
    now[0] = FEED_LINGER - 1
    assert "cy-1" in feeds and len(feeds) == 2  # a reload may come
    now[0] = FEED_LINGER + 1
    assert "cy-1" not in feeds and len(feeds) == 1  # its bot moved: dropped
    assert feeds["ed-1"].kept == deque() and sorted(feeds) == ["ed-1"]  # di-1's too
