"""The migrations make exactly the models' schema, on both databases."""

from __future__ import annotations

from pathlib import Path

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
