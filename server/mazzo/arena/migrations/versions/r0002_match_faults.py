"""Each rating update keeps the faults its bot made in that match, so the scheduler can
pause a bot that faults in match after match (the total in ``ratings`` cannot tell
a bot that faulted long ago from one that faults now).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_updates") as batch:
        batch.add_column(sa.Column("faults", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("rating_updates") as batch:
        batch.drop_column("faults")
