"""Every arena test runs on both databases: an SQLite file of its own, and a database
of its own in a PostgreSQL 15 cluster that this session starts on a free port in a
temporary folder (and stops at the end). ``url`` is migrated already (a copy of a file,
or a database made from a template, each migrated once per session); ``empty_url`` is
empty, for the migrations' own test.

PostgreSQL's server binaries are not on PATH (``/usr/lib/postgresql/15/bin``, or
``MAZZO_PG_BIN``), and the server refuses to run as root: as root the cluster is the
``postgres`` user's. Without the binaries the PostgreSQL half is skipped on a
developer's machine, and fails in CI (``CI=true``): a CI that quietly tested SQLite
alone would prove nothing about several workers on one PostgreSQL.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

from mazzo.arena import schema
from mazzo.arena.models import Base
from mazzo.arena.store import Store

PG_BIN = Path(os.environ.get("MAZZO_PG_BIN", "/usr/lib/postgresql/15/bin"))
_databases = count()


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unavailable(why: str) -> None:
    message = f"PostgreSQL for the arena's tests: {why}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI must test PostgreSQL too)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[tuple[Path, int]]:
    """A fresh cluster (its socket folder, its port), user ``mazzo``, no password."""
    if not (PG_BIN / "initdb").exists() or not (PG_BIN / "pg_ctl").exists():
        _unavailable(f"no initdb and pg_ctl in {PG_BIN} (apt-get install postgresql-15)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        _unavailable("running as root and no runuser to run it as postgres")
    folder = Path(tempfile.mkdtemp(prefix="mazzo-pg-"))
    folder.chmod(0o755)  # the postgres user must reach its files
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", _free_port()
    pg_ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data)]
    started = False
    try:
        run = subprocess.run(
            _as_postgres(
                [str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "mazzo", "-N"]
            ),
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            _unavailable(f"initdb failed: {run.stderr.strip()}")
        # Durability off: a test cluster that dies is thrown away anyway.
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        run = subprocess.run(
            _as_postgres([*pg_ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"]),
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
            _unavailable(f"pg_ctl start failed: {run.stderr.strip()} {log[-2000:]}")
        started = True
        yield folder, port
    finally:
        if started:
            subprocess.run(
                _as_postgres([*pg_ctl, "-m", "immediate", "-w", "stop"]), capture_output=True
            )
        shutil.rmtree(folder, ignore_errors=True)


def _create_database(port: int, name: str, template: str = "template1") -> str:
    import psycopg
    from psycopg import sql

    admin = f"host=127.0.0.1 port={port} user=mazzo dbname=postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    return f"postgresql+psycopg://mazzo@127.0.0.1:{port}/{name}"


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
