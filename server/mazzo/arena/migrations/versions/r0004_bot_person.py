"""A bot may be played by a person: its tables get the person's clock (minutes, not a
bot's second) and are dealt unpaired, a set of one match, since a person would
remember a deal that came back with the seats rotated. Every older bot is a program.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN on both databases (SQLite has it): a batch's copy of ``bots``
    # would be refused there, as the other tables' foreign keys point at it.
    op.add_column(
        "bots", sa.Column("person", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("bots", "person")
