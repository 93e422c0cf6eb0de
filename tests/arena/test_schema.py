"""The migrations make exactly the models' schema, on both databases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from mazzo.arena import schema
from mazzo.arena.models import Base


def test_the_migrated_schema_is_the_models_schema(empty_url: str) -> None:
    url = empty_url
    schema.upgrade(url)
    schema.upgrade(url)  # a second run finds nothing to do
    engine = schema.make_engine(url)
    try:
        assert schema.current(engine) == schema.head()
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
            names = set(engine.dialect.get_table_names(connection))
    finally:
        engine.dispose()
    assert {table.name for table in Base.metadata.sorted_tables} <= names


def test_sqlite_runs_with_foreign_keys_and_wal(tmp_path: Path) -> None:
    engine = schema.make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()


def test_postgresql_pings_a_connection_only_after_it_sat_idle_and_replaces_a_dead_one(
    postgres_migrated: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy arena lends its pooled connections ten times a match without a ping; one
    that sat idle past ``PING_AFTER_IDLE`` is pinged first, and one whose server end is
    gone (a restarted database, here its backend terminated) is replaced unseen."""
    monkeypatch.setattr(schema, "PING_AFTER_IDLE", 0.2)
    engine = schema.make_engine(postgres_migrated)
    pings: list[object] = []
    ping = engine.dialect.do_ping
    monkeypatch.setattr(engine.dialect, "do_ping", lambda c: pings.append(c) or ping(c))

    def backend() -> int:
        with engine.connect() as connection:
            return int(connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())

    try:
        first = backend()
        assert backend() == first and pings == []  # lent again at once: no ping
        time.sleep(0.3)
        assert backend() == first and len(pings) == 1  # idle: pinged, and alive
        other = schema.make_engine(postgres_migrated)
        try:  # the pool's connection's server end dies
            with other.connect() as connection:
                connection.exec_driver_sql(f"SELECT pg_terminate_backend({first})")
        finally:
            other.dispose()
        time.sleep(0.3)
        replaced = backend()
        assert replaced != first and len(pings) == 2
    finally:
        engine.dispose()
