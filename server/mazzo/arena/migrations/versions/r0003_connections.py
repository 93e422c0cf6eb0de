"""Where each dial-in bot is connected: the arena process whose gateway holds its
stream, so that with several processes on one database a match seating a dial-in bot
is claimed only by the process that has the bot (``connections.py``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "connections",
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("process", sa.String(128), nullable=False),
        sa.Column("connected_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dropped_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("bot_id", name="pk_connections"),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name="fk_connections_bot_id_bots"),
    )
    op.create_index("ix_connections_process", "connections", ["process"])


def downgrade() -> None:
    op.drop_index("ix_connections_process", table_name="connections")
    op.drop_table("connections")
