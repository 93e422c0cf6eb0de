"""The arena's first schema: owners, ladders, bots, matches and their seats, ratings
and the ratings' audit trail (models.py says what each holds).

Revision ID: 0001
Revises:
Create Date: 2026-12-06
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def when(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "owners",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_owners"),
        sa.UniqueConstraint("name", name="uq_owners_name"),
        sa.UniqueConstraint("token_hash", name="uq_owners_token_hash"),
    )
    op.create_table(
        "ladders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_ladders"),
        sa.UniqueConstraint("game", "players", "options", name="uq_ladders_game_players_options"),
    )
    op.create_table(
        "bots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("ladder_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("paused_reason", sa.Text(), nullable=True),
        when("paused_at", nullable=True),
        when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_bots"),
        sa.ForeignKeyConstraint(["owner_id"], ["owners.id"], name="fk_bots_owner_id_owners"),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], name="fk_bots_ladder_id_ladders"),
        sa.UniqueConstraint("name", name="uq_bots_name"),
        sa.UniqueConstraint("token_hash", name="uq_bots_token_hash"),
    )
    op.create_index("ix_bots_owner_id", "bots", ["owner_id"])
    op.create_index("ix_bots_ladder_id", "bots", ["ladder_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("ladder_id", sa.Integer(), nullable=False),
        sa.Column("set_id", sa.String(64), nullable=False),
        sa.Column("set_index", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claimed_by", sa.String(128), nullable=True),
        when("claimed_at", nullable=True),
        when("heartbeat_at", nullable=True),
        sa.Column("deal_commitment", sa.Text(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("voided_reason", sa.Text(), nullable=True),
        when("created_at"),
        when("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.ForeignKeyConstraint(["ladder_id"], ["ladders.id"], name="fk_matches_ladder_id_ladders"),
        sa.UniqueConstraint("set_id", "set_index", name="uq_matches_set_id_set_index"),
    )
    op.create_index("ix_matches_ladder_id", "matches", ["ladder_id"])
    op.create_index("ix_matches_status_created_at", "matches", ["status", "created_at"])
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_match_seats_match_id_matches"
        ),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name="fk_match_seats_bot_id_bots"),
    )
    op.create_index("ix_match_seats_bot_id", "match_seats", ["bot_id"])
    op.create_table(
        "ratings",
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("faults", sa.Integer(), nullable=False),
        when("updated_at"),
        sa.PrimaryKeyConstraint("bot_id", name="pk_ratings"),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name="fk_ratings_bot_id_bots"),
    )
    op.create_table(
        "rating_updates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_updates"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_rating_updates_match_id_matches"
        ),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name="fk_rating_updates_bot_id_bots"),
        sa.UniqueConstraint("match_id", "bot_id", name="uq_rating_updates_match_id_bot_id"),
    )
    op.create_index("ix_rating_updates_bot_id", "rating_updates", ["bot_id"])


def downgrade() -> None:
    for index, table in (
        ("ix_rating_updates_bot_id", "rating_updates"),
        ("ix_match_seats_bot_id", "match_seats"),
        ("ix_matches_status_created_at", "matches"),
        ("ix_matches_ladder_id", "matches"),
        ("ix_bots_ladder_id", "bots"),
        ("ix_bots_owner_id", "bots"),
    ):
        op.drop_index(index, table_name=table)
    for table in ("rating_updates", "ratings", "match_seats", "matches", "bots", "ladders"):
        op.drop_table(table)
    op.drop_table("owners")
