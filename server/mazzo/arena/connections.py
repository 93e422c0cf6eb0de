"""Where the dial-in bots are connected, when several arena processes share one
database (issue 34: "past one machine").

A dial-in bot holds its stream to one process's gateway, and only that process can
seat it: a match of it claimed by another process would wait out the grace for a bot
that was connected all along, and record a ``crash``. So each gateway says in the
database which bots it holds (the ``connections`` table, one row per bot: the process,
since when, its last beat, when the bot dropped), and:

- **a claim** (``Store.claim``'s ``process``) takes a match with dial-in seats only
  when every one of those bots is connected, now, to the claiming process
  (``here``); a process without a gateway claims none;
- **a scheduler** seats a dial-in bot only when it is connected to its own process
  (``Store.connected_bots``), so a table's dial-in bots are all on one process;
- **a match whose dial-in bot is connected nowhere** for longer than the grace (or
  never dialed in), or whose dial-in bots are on different processes for that long, is
  voided with the reason by any process's scheduler (``away``): its queued matches do
  not wait for it for ever, and no run hangs on them. A bot back within the grace, to
  any process, plays them there;
- **a process that dies** (``kill -9``) stops beating: its rows older than ``STALE``
  count as dropped at their last beat (a process of this host that is certainly gone:
  dropped as that is noticed, ``liveness``), so its bots' matches are voided a grace
  later unless the bots dial in elsewhere.

A bot connected to two processes at once (two copies of it) belongs to the newer
connection, as within one gateway: the older process is told (``record``'s return)
and closes its stream.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from mazzo.arena.models import DIAL_IN, SCHEDULED, VOIDED, Bot, Connection, Match, MatchSeat

#: Seconds between a gateway's beats (it writes at once, besides, when a bot comes or
#: goes).
BEAT = 2.0
#: A process silent this long has lost its bots (it died, or lost the database).
STALE = timedelta(seconds=15)


def live(cutoff: datetime) -> ColumnElement[bool]:
    """A connection row that holds now: not dropped, and beaten since ``cutoff``."""
    return (Connection.dropped_at.is_(None)) & (Connection.seen_at >= cutoff)


def here(
    s: Session, process: str | None, cutoff: datetime, held: Collection[str] | None = None
) -> set[int]:
    """The dial-in bots (by id) connected to ``process`` now (None: a process without a
    gateway: none): a claim by ``process`` takes no match that seats another dial-in
    bot. As many as its gateway holds connections. With ``held`` (the names its
    gateway holds as it asks), only those: a row is written just after a bot comes or
    goes, and a bot that has just dropped must not be seated in the meantime."""
    if process is None:
        return set()
    rows = s.execute(
        select(Connection.bot_id, Bot.name)
        .join(Bot, Bot.id == Connection.bot_id)
        .where(Connection.process == process, live(cutoff))
    )
    return {bot_id for bot_id, name in rows if held is None or name in held}


def record(s: Session, process: str, connected: Mapping[str, datetime], now: datetime) -> set[str]:
    """Write what ``process``'s gateway holds: each bot of ``connected`` (by name, with
    when its stream came) is connected there as of ``now``; its other rows are dropped
    now. Returns the bots a newer connection to another live process has taken: the
    caller closes its own stream of each."""
    ids = dict(
        s.execute(
            select(Bot.name, Bot.id).where(Bot.name.in_(set(connected)), Bot.kind == DIAL_IN)
        ).all()
    )
    rows = {
        row.bot_id: row
        for row in s.scalars(
            select(Connection)
            .where(
                or_(
                    Connection.bot_id.in_(set(ids.values())),
                    (Connection.process == process) & Connection.dropped_at.is_(None),
                )
            )
            .order_by(Connection.bot_id)  # one lock order for every process
            .with_for_update()
        )
    }
    taken: set[str] = set()
    for name, since in connected.items():
        bot_id = ids.get(name)
        if bot_id is None:
            continue  # gone from the store meanwhile
        row = rows.get(bot_id)
        if row is None:
            s.add(Connection(bot_id=bot_id, process=process, connected_at=since, seen_at=now))
            continue
        theirs = row.process != process and row.dropped_at is None
        if theirs and row.seen_at >= now - STALE and row.connected_at > since:
            taken.add(name)  # a newer stream of it, at another live process
            continue
        if row.process != process or row.dropped_at is not None or row.connected_at != since:
            row.process, row.connected_at, row.dropped_at = process, since, None
        row.seen_at = now
    held = set(ids.values()) - {ids[name] for name in taken}
    for bot_id, row in rows.items():
        if row.process == process and row.dropped_at is None and bot_id not in held:
            row.dropped_at = now
    return taken


def connected_bots(s: Session, now: datetime) -> dict[str, str]:
    """Every dial-in bot connected now, by name, with the process that has it."""
    rows = s.execute(
        select(Bot.name, Connection.process)
        .join(Connection, Connection.bot_id == Bot.id)
        .where(live(now - STALE))
    )
    return {name: process for name, process in rows}


def processes(s: Session, now: datetime) -> list[str]:
    """The processes holding bots now, by name: whose liveness the arena can check."""
    rows = s.scalars(select(Connection.process).where(live(now - STALE)).distinct())
    return sorted(rows)


def drop_process(s: Session, process: str, now: datetime) -> int:
    """``process`` is gone (``liveness``): its bots dropped ``now``, as it is noticed
    (each gets the whole grace to dial in to another process). How many."""
    rows = s.scalars(
        select(Connection)
        .where(Connection.process == process, Connection.dropped_at.is_(None))
        .order_by(Connection.bot_id)
        .with_for_update()
    ).all()
    for row in rows:
        row.dropped_at = now
    return len(rows)


@dataclass(frozen=True)
class _Seen:
    """A dial-in bot of a scheduled match, as its connection row says."""

    bot: str
    process: str | None  # where it is connected now; None: nowhere
    since: datetime | None  # connected there since, or away since; None: never dialed in


def away(s: Session, now: datetime, grace: timedelta) -> dict[str, str]:
    """Void the scheduled matches that wait in vain (module docstring): a dial-in bot of
    theirs never dialed in, or is connected nowhere for more than ``grace``, or their
    dial-in bots are on different processes for that long. Their ids, with the reason
    stored."""
    cutoff = now - STALE
    rows = s.execute(
        select(
            Match.id,
            Bot.name,
            Connection.process,
            Connection.connected_at,
            Connection.seen_at,
            Connection.dropped_at,
        )
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(Bot, Bot.id == MatchSeat.bot_id)
        .outerjoin(Connection, Connection.bot_id == Bot.id)
        .where(Match.status == SCHEDULED, Bot.kind == DIAL_IN)
        .order_by(Match.id, MatchSeat.seat)
    ).all()
    seen: dict[str, list[_Seen]] = defaultdict(list)
    for match_id, bot, process, connected_at, seen_at, dropped_at in rows:
        if process is None:
            seen[match_id].append(_Seen(bot, None, None))
        elif dropped_at is None and seen_at >= cutoff:
            seen[match_id].append(_Seen(bot, process, connected_at))
        else:
            seen[match_id].append(_Seen(bot, None, dropped_at or seen_at))
    reasons = {
        match_id: why
        for match_id, bots in seen.items()
        if (why := _why_away(bots, now, grace)) is not None
    }
    voided: dict[str, str] = {}
    for match in s.scalars(
        select(Match)
        .where(Match.id.in_(sorted(reasons)), Match.status == SCHEDULED)
        .order_by(Match.id)
        .with_for_update(skip_locked=True)
    ):
        match.status, match.finished_at = VOIDED, now
        match.voided_reason = voided[match.id] = reasons[match.id]
    return voided


def _why_away(bots: list[_Seen], now: datetime, grace: timedelta) -> str | None:
    """Why a match of these dial-in bots cannot be played, or None while it may be."""
    for b in bots:
        if b.process is None and b.since is None:
            return f"{b.bot} has not dialed in to any arena process"
        if b.process is None and b.since is not None and b.since < now - grace:
            return (
                f"{b.bot} is connected to no arena process since "
                f"{b.since.isoformat(timespec='seconds')} (more than the grace of "
                f"{grace.total_seconds():g} s)"
            )
    where = {b.process for b in bots if b.process is not None}
    latest = max((b.since for b in bots if b.process is not None and b.since), default=None)
    if len(where) > 1 and latest is not None and latest < now - grace:
        places = ", ".join(f"{b.bot} to {b.process}" for b in bots)
        return f"its dial-in bots are connected to different arena processes ({places})"
    return None
