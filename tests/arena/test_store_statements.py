"""What a match costs the database, in statements, on SQLite and PostgreSQL alike.
Each statement is a round trip and the database's parse and plan: the database is
shared by every arena process (docs/arena.md, "What a match costs the database"),
so its work per match bounds how far more processes go. Counted with SQLAlchemy's
cursor events; a bound here that breaks means a change made matches dearer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from mazzo.arena.store import Store
from tests.arena.test_store import record

BOTS = ("a", "b", "c", "d")


@contextmanager
def counted(store: Store) -> Iterator[list[str]]:
    """The statements ``store`` sends meanwhile; an ``executemany`` (one statement
    sent once per row) is marked ``MANY``."""
    sent: list[str] = []

    def note(_c: Any, _cur: Any, statement: str, _params: Any, _ctx: Any, many: bool) -> None:
        sent.append(f"MANY {statement}" if many else statement)

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", note)


def four_bots(store: Store) -> int:
    ladder = store.add_ladder("maraffa", 4)
    for name in BOTS:
        store.add_owner(f"owner-{name}")
        store.add_bot(f"owner-{name}", name, ladder, "builtin", "builtin:random")
    return ladder


def of(sent: list[str], start: str) -> int:
    return sum(s.lstrip().upper().startswith(start) for s in sent)


def test_a_set_of_four_matches_is_stored_in_two_inserts(store: Store) -> None:
    ladder = four_bots(store)
    with counted(store) as sent:
        ids = store.schedule_set(ladder, list(BOTS), free_only=True)
    assert len(ids) == 4  # four matches of four seats: 20 rows
    assert of(sent, "INSERT") == 2
    assert len(sent) <= 8  # with the checks: the ladder, the bots, their locks, their seats


def test_a_claim_and_a_finish_take_a_bounded_number_of_statements(store: Store) -> None:
    ladder = four_bots(store)
    store.schedule_set(ladder, list(BOTS))
    with counted(store) as claiming:
        claim = store.claim("w1")
    assert claim is not None
    with counted(store) as publishing:
        store.publish_commitment(claim.match_id, "w1", "c0")
    done = record(claim.match_id, claim.seed, [0], [[0, 2], [1, 3]])
    with counted(store) as finishing:
        store.finish(claim.match_id, "w1", done)
    # Every seated bot's game counted at once, whatever the seats.
    assert of(finishing, "UPDATE RATINGS") == 1
    assert len(claiming) <= 11  # SQLite's BEGIN IMMEDIATE counted
    assert len(publishing) <= 2  # one UPDATE that checks the claim, and BEGIN
    assert len(finishing) <= 12  # SQLite writes the four rating updates one by one
    assert {s.bot: s.games for s in store.standings(ladder)} == dict.fromkeys(BOTS, 1)
