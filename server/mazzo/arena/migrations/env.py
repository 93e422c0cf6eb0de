"""Alembic's environment: always online, on the connection ``schema.upgrade`` opened
(in ``config.attributes``), so the engine's settings (SQLite's pragmas and its
``BEGIN IMMEDIATE``) hold for the migrations too."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from mazzo.arena.models import Base

connection = context.config.attributes["connection"]
assert isinstance(connection, Connection), "run the arena's migrations with schema.upgrade"
# render_as_batch: SQLite alters a table by copying it, Alembic's batch mode does that.
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
