"""Where each arena process's web pages are: a page of one process shows a live table
another process plays by relaying its event stream (``arena.live_relay``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("web_url", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_processes"),
    )
    op.create_index("ix_processes_seen_at", "processes", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_processes_seen_at", table_name="processes")
    op.drop_table("processes")
