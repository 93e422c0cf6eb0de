"""Connecting to the arena's database and bringing its schema up to date.

SQLite is the default (a file, nothing to install); PostgreSQL is chosen by URL
(``postgresql+psycopg://USER@HOST:PORT/DB``). On SQLite every connection turns on
foreign keys (off by default there) and WAL (readers never wait for the writer), and
waits up to ``BUSY_SECONDS`` for a lock instead of failing at once. Its transactions
start with ``BEGIN IMMEDIATE``: a transaction that reads and then writes (a claim, a
finish) takes the write lock before its read, so two processes can never both read a
match as scheduled; pysqlite's own ``BEGIN`` is deferred and would allow exactly that.
On PostgreSQL a pooled connection is tested before it is lent once it has been idle
(a database restarted meanwhile costs no call), not every time.
"""

from __future__ import annotations

import time
from importlib.resources import files
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, exc, make_url, text

DEFAULT_URL = "sqlite:///arena.db"
BUSY_SECONDS = 30.0
#: PostgreSQL: a pooled connection unused this long is tested before it is lent.
PING_AFTER_IDLE = 1.0
#: PostgreSQL's advisory lock taken while migrating (any number no one else uses).
LOCK_KEY = 0x6D617A7A6F  # "mazzo"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str = DEFAULT_URL) -> Engine:
    """An engine for ``url`` with the arena's settings (see the module's docstring)."""
    if not is_sqlite(url):
        return _pinging_when_idle(create_engine(url))
    engine = create_engine(url, connect_args={"timeout": BUSY_SECONDS})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # None: the driver leaves transactions to us (the "begin" listener below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _pinging_when_idle(engine: Engine) -> Engine:
    """``engine``, whose pool tests a connection before lending it only when it has sat
    unused for ``PING_AFTER_IDLE`` seconds (one that fails is replaced, as with
    ``pool_pre_ping``). A busy arena lends connections ten times a match: pinging each
    time was a third of the database's round trips. A connection that breaks while in
    steady use fails its one call, and SQLAlchemy then replaces the pool's others."""

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < PING_AFTER_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as e:
            raise exc.DisconnectionError(f"a pooled connection failed its ping: {e}") from e

    return engine


def alembic_config() -> Config:
    """Alembic's configuration for the migrations shipped in this package."""
    config = Config()
    config.set_main_option("script_location", str(files("mazzo.arena") / "migrations"))
    return config


def head() -> str:
    """The newest migration's revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(url: str = DEFAULT_URL, revision: str = "head", engine: Engine | None = None) -> None:
    """Migrate the database at ``url`` (or ``engine``'s) to ``revision``: creates the
    schema in an empty database, does nothing to an up-to-date one."""
    own = engine is None
    engine = engine or make_engine(url)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two arena processes starting at once: the second waits, then finds
                # the schema made (PostgreSQL's DDL is transactional; SQLite's
                # BEGIN IMMEDIATE serializes already).
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        if own:
            engine.dispose()
