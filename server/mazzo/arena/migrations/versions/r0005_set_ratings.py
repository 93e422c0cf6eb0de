"""A duplicate set is rated once, as one result, when its last match ends
(``arena/duplicate.py``), not match by match: ``set_ratings`` marks each set rated.

Every set with a finished match was rated match by match before this revision: it is
marked rated (by its latest finished match), and its matches not yet played are voided
with the reason, since rating them by the new rule would count its earlier matches
again. Upgrade with the arena's processes stopped (a match one of them is playing is
voided so too).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: Why the upgrade voided a match (``matches.voided_reason``).
REASON = "voided by the upgrade to ratings per duplicate set (arena migration 0005)"


def upgrade() -> None:
    op.create_table(
        "set_ratings",
        sa.Column("set_id", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("set_id", name="pk_set_ratings"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_set_ratings_match_id_matches"
        ),
    )
    op.create_index("ix_matches_finished_at", "matches", ["finished_at"])
    matches = sa.table(
        "matches",
        sa.column("id", sa.String),
        sa.column("set_id", sa.String),
        sa.column("status", sa.String),
        sa.column("voided_reason", sa.Text),
        sa.column("finished_at", sa.DateTime(timezone=True)),
    )
    bind = op.get_bind()
    latest: dict[str, str] = {}  # per set, its latest finished match (the last seen)
    for match_id, set_id in bind.execute(
        sa.select(matches.c.id, matches.c.set_id)
        .where(matches.c.status == "finished")
        .order_by(matches.c.finished_at, matches.c.id)
    ):
        latest[set_id] = match_id
    now = datetime.now(UTC)
    ratings = sa.table(
        "set_ratings",
        sa.column("set_id", sa.String),
        sa.column("match_id", sa.String),
        sa.column("rated_at", sa.DateTime(timezone=True)),
    )
    if latest:
        bind.execute(
            ratings.insert(),
            [{"set_id": k, "match_id": v, "rated_at": now} for k, v in sorted(latest.items())],
        )
        for chunk in _chunks(sorted(latest), 500):
            bind.execute(
                matches.update()
                .where(
                    matches.c.set_id.in_(chunk),
                    matches.c.status.in_(("scheduled", "playing")),
                )
                .values(status="voided", voided_reason=REASON, finished_at=now)
            )


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def downgrade() -> None:
    op.drop_index("ix_matches_finished_at", table_name="matches")
    op.drop_table("set_ratings")
