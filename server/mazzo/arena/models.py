"""The arena's tables, as SQLAlchemy 2 typed declarative models.

The initial migration (``migrations/versions/r0001_initial.py``) creates exactly these;
``tests/arena/test_schema.py`` has Alembic compare the two on SQLite and PostgreSQL,
so a model changed without a migration fails there.

Constraint names come from one naming convention, so that both databases (and a later
migration that drops or alters one) see the same names. Times are stored in UTC and
read back aware on both databases (SQLite keeps no time zone: ``UTCDateTime``).
JSON that must be unique (a ladder's options) is kept as canonical text: PostgreSQL's
``json`` has no equality, and two spellings of one options object are one ladder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, composite, mapped_column
from sqlalchemy.types import TypeDecorator

Json = dict[str, Any]

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: A match's life: scheduled, claimed by a worker (playing), then finished with its
#: record or voided with a reason (its worker died, or it could not be played).
SCHEDULED, PLAYING, FINISHED, VOIDED = "scheduled", "playing", "finished", "voided"
STATUSES = (SCHEDULED, PLAYING, FINISHED, VOIDED)
#: How a bot plays: it dials in to the gateway, the arena calls its gRPC URL, or it is
#: one of the builtin players (``builtin:NAME``, referee/bots.py).
DIAL_IN, GRPC, BUILTIN = "dial-in", "grpc", "builtin"
KINDS = (DIAL_IN, GRPC, BUILTIN)
#: OpenSkill's starting rating (PlackettLuce's defaults).
MU, SIGMA = 25.0, 25.0 / 3.0


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A ``timestamp with time zone`` that is stored in UTC and always read back aware
    (SQLite hands back naive values: they were written in UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("the arena stores aware times only")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime(), Json: JSON()}


class Owner(Base):
    """Someone who enters bots; their token (hashed) acts for all their bots."""

    __tablename__ = "owners"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]


class Ladder(Base):
    """A standing competition: one game, form and options."""

    __tablename__ = "ladders"
    __table_args__ = (UniqueConstraint("game", "players", "options"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int]
    #: The game's options as canonical JSON text (``canonical_json``).
    options: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]


class Bot(Base):
    """One entrant on one ladder. ``target`` says where it plays: the gRPC URL, the
    builtin spec, or empty for a dial-in bot (it connects with its token)."""

    __tablename__ = "bots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("owners.id"), index=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    ladder_id: Mapped[int] = mapped_column(ForeignKey("ladders.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(Text)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: Played by a person (a dial-in bot whose seat a person takes on ``/play/``): its
    #: seats get the person's clock and its tables are dealt unpaired (migration 0004).
    person: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: Why the scheduler leaves it out (repeated faults, its owner's wish), and since when.
    paused_reason: Mapped[str | None] = mapped_column(Text)
    paused_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class Match(Base):
    """One match of a duplicate set: the set's matches share a seed, seats rotated."""

    __tablename__ = "matches"
    __table_args__ = (
        UniqueConstraint("set_id", "set_index"),
        # The claim's query: the oldest scheduled match (of a ladder).
        Index(None, "status", "created_at"),
        # ``Store.rate_closed_sets``: the matches ended since the last look.
        Index(None, "finished_at"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ladder_id: Mapped[int] = mapped_column(ForeignKey("ladders.id"), index=True)
    set_id: Mapped[str] = mapped_column(String(64))
    set_index: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    claimed_by: Mapped[str | None] = mapped_column(String(128))
    claimed_at: Mapped[datetime | None]
    heartbeat_at: Mapped[datetime | None]
    #: The commitment to the deal, published before the first move (fair-deals.md);
    #: the finished record must carry the same.
    deal_commitment: Mapped[str | None] = mapped_column(Text)
    #: The record, as `mazzo match` writes it (docs/referee.md#records).
    record: Mapped[Json | None]
    voided_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]


class MatchSeat(Base):
    """Which bot decides for a seat of a match (its deciding seats only)."""

    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"), index=True)


class Connection(Base):
    """Where a dial-in bot holds its stream (issue 34: several arena processes on one
    database): the arena process whose gateway has it (``liveness`` instance name,
    ``HOST/PID/START/TAG``), since when, when that process last said it still has it
    (its gateway's beat), and when it dropped (None: connected). One row per bot, kept
    after a drop: how long a bot has been away decides when its queued matches are
    voided (``connections.py``)."""

    __tablename__ = "connections"

    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"), primary_key=True)
    process: Mapped[str] = mapped_column(String(128), index=True)
    connected_at: Mapped[datetime]
    seen_at: Mapped[datetime]
    dropped_at: Mapped[datetime | None]


class Process(Base):
    """An arena process that plays, and where its web pages are (migration 0006): a
    page of another process sharing the database shows one of its live tables by
    relaying the table's event stream from ``web_url`` (``arena.live_relay``). Written
    at its start and on each beat (``seen_at``), removed at a clean stop; a process
    silent past ``connections.STALE`` is taken for gone."""

    __tablename__ = "processes"

    #: The process's instance name (``liveness``): what its workers' names start with.
    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    #: Where its pages answer, as the other processes reach it (``http://IP:PORT``).
    web_url: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime]
    seen_at: Mapped[datetime] = mapped_column(index=True)


class Rating(Base):
    """A bot's OpenSkill rating on its ladder, with its games and faults so far."""

    __tablename__ = "ratings"

    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]
    faults: Mapped[int]
    updated_at: Mapped[datetime]


@dataclass(frozen=True)
class Skill:
    """A rating as openskill keeps it: the mean and its uncertainty."""

    mu: float
    sigma: float


class SetRating(Base):
    """A duplicate set rated (``duplicate.py``: its matches as one result, once its last
    match ended): its key makes a set rated at most once, whatever the code above
    does; ``match_id``: the finished match whose rating updates carry the change
    (migration 0005: every set finished before it, rated match by match, has one)."""

    __tablename__ = "set_ratings"

    set_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    rated_at: Mapped[datetime]


class RatingUpdate(Base):
    """The audit trail: what one finished match did to one bot's rating. Unique per
    (match, bot), so a match can never be counted twice, whatever the code above does.
    A duplicate set is rated once (``SetRating``): its other matches' rows keep the
    rating as it was (``before == after``), with their faults."""

    __tablename__ = "rating_updates"
    __table_args__ = (UniqueConstraint("match_id", "bot_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"), index=True)
    before: Mapped[Skill] = composite(
        mapped_column("mu_before", Float), mapped_column("sigma_before", Float)
    )
    after: Mapped[Skill] = composite(
        mapped_column("mu_after", Float), mapped_column("sigma_after", Float)
    )
    #: The faults the bot made in this match (migration 0002: 0 for the older rows).
    faults: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[datetime]
