"""Every arena test runs on both databases: an SQLite file of its own, and a database
of its own in a PostgreSQL 15 cluster that this session starts on a free port in a
temporary folder (and stops at the end). ``url`` is migrated already (a copy of a file,
or a database made from a template, each migrated once per session); ``empty_url`` is
empty, for the migrations' own test.

The cluster is ``mazzo.arena.throwaway_postgres``'s. Without PostgreSQL's binaries
the PostgreSQL half is skipped on a developer's machine, and fails in CI
(``CI=true``): a CI that quietly tested SQLite alone would prove nothing about several
workers on one PostgreSQL.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

from mazzo.arena import schema, throwaway_postgres
from mazzo.arena.models import Base
from mazzo.arena.store import Store

_databases = count()


def _unavailable(why: str) -> None:
    message = f"PostgreSQL for the arena's tests: {why}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI must test PostgreSQL too)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[tuple[Path, int]]:
    """A fresh cluster (its socket folder, its port), user ``mazzo``, no password;
    durability off: a test cluster that dies is thrown away anyway."""
    try:
        with throwaway_postgres.cluster(durable=False) as found:
            yield found
    except throwaway_postgres.Unavailable as e:
        _unavailable(str(e))


def _create_database(port: int, name: str, template: str = "template1") -> str:
    admin = throwaway_postgres.admin_url(port)
    return throwaway_postgres.create_database(admin, name, template)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database of this test's own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arena.db'}"
    _folder, port = request.getfixturevalue("postgres_cluster")
    return _create_database(port, f"arena_{os.getpid()}_{next(_databases)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of a migrated database holding nothing: on SQLite a file of this test's
    own, on PostgreSQL the session's database emptied (quicker than a new one)."""
    if request.param == "sqlite":
        return _sqlite_migrated(request, tmp_path)
    url: str = request.getfixturevalue("postgres_migrated")
    engine = schema.make_engine(url)
    try:
        with engine.begin() as connection:
            tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
            connection.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    finally:
        engine.dispose()
    return url


def _sqlite_migrated(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    template: Path = request.getfixturevalue("sqlite_template")
    shutil.copy(template, tmp_path / "arena.db")
    return f"sqlite:///{tmp_path / 'arena.db'}"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated once, copied for each test (a copy is quicker)."""
    path = tmp_path_factory.mktemp("arena-template") / "arena.db"
    schema.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_migrated(postgres_cluster: tuple[Path, int]) -> str:
    """A PostgreSQL database migrated once; each test empties it first."""
    _folder, port = postgres_cluster
    url = _create_database(port, f"arena_{os.getpid()}_migrated")
    schema.upgrade(url)
    return url


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    with Store(url) as opened:
        yield opened
