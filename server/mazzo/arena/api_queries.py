"""What the arena's API asks of the database beyond ``Store``: new tokens, a bot by
name, the ladders' sizes and fault rates, and a bot's page (its games, its rating
over time, its faults).

Kept beside ``Store`` rather than in it: these are the API's reads, each one
transaction through the store's engine, and like the store's every value is a bound
parameter (SQLAlchemy expressions only).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update

from mazzo.arena.models import Bot, Match, MatchSeat, Owner, RatingUpdate
from mazzo.arena.store import BotInfo, Store, _bot_info
from mazzo.gateway.tokens import TokenBook

#: The most faults a bot's page lists (newest first).
MAX_FAULTS = 200


@dataclass(frozen=True)
class Game:
    """One of a bot's matches, as its page lists it."""

    match_id: str
    set_id: str
    set_index: int
    status: str
    finished_at: datetime | None
    #: The seats' bots, in seat order.
    seats: tuple[str, ...]
    own_seats: tuple[int, ...]
    won: bool
    totals: tuple[int, ...]
    #: mu - 3 sigma before and after (0 for a match not finished).
    rating_before: float
    rating_after: float
    faults: int
    voided_reason: str | None


@dataclass(frozen=True)
class Point:
    """A bot's rating after one of its finished matches."""

    match_id: str
    at: datetime
    mu: float
    sigma: float


@dataclass(frozen=True)
class Fault:
    """One fault a bot made, from its match's record."""

    match_id: str
    at: datetime | None
    ply: int
    seat: int
    kind: str
    detail: str


def new_owner_token(store: Store, owner: str) -> str | None:
    """A new token for ``owner`` (its old one stops working); None for no such owner."""
    book = TokenBook()
    token = book.new(owner)
    with store._transaction() as s:
        done = s.execute(
            update(Owner).where(Owner.name == owner).values(token_hash=book.hashes[owner])
        )
        return token if getattr(done, "rowcount", 0) == 1 else None


def new_bot_token(store: Store, bot: str) -> str | None:
    """A new token for ``bot`` (its old one stops working); None for no such bot."""
    book = TokenBook()
    token = book.new(bot)
    with store._transaction() as s:
        done = s.execute(update(Bot).where(Bot.name == bot).values(token_hash=book.hashes[bot]))
        return token if getattr(done, "rowcount", 0) == 1 else None


def owner_exists(store: Store, owner: str) -> bool:
    with store._transaction() as s:
        return s.scalar(select(Owner.id).where(Owner.name == owner)) is not None


def bot_named(store: Store, name: str) -> BotInfo | None:
    with store._transaction() as s:
        row = s.execute(
            select(Bot, Owner.name).join(Owner, Bot.owner_id == Owner.id).where(Bot.name == name)
        ).first()
        return _bot_info(row[0], row[1]) if row is not None else None


def ladder_sizes(store: Store) -> dict[int, int]:
    """Per ladder, how many bots it holds."""
    with store._transaction() as s:
        rows = s.execute(select(Bot.ladder_id, func.count()).group_by(Bot.ladder_id))
        return {int(ladder): int(count) for ladder, count in rows}


def faulty_games(store: Store, ladder_id: int) -> dict[str, int]:
    """Per bot of the ladder, in how many of its finished matches it made a fault."""
    with store._transaction() as s:
        rows = s.execute(
            select(Bot.name, func.count())
            .join(RatingUpdate, RatingUpdate.bot_id == Bot.id)
            .where(Bot.ladder_id == ladder_id, RatingUpdate.faults > 0)
            .group_by(Bot.name)
        )
        return {str(name): int(count) for name, count in rows}


def games(store: Store, bot: str, opponent: str = "", limit: int = 50) -> list[Game]:
    """``bot``'s matches, newest first; with ``opponent``, those where that bot sat too."""
    with store._transaction() as s:
        bot_id = s.scalar(select(Bot.id).where(Bot.name == bot))
        if bot_id is None:
            return []
        sat = select(MatchSeat.match_id).where(MatchSeat.bot_id == bot_id)
        query = select(Match).where(Match.id.in_(sat))  # once, however many seats it had
        if opponent:
            other = (
                select(MatchSeat.match_id)
                .join(Bot, Bot.id == MatchSeat.bot_id)
                .where(Bot.name == opponent)
            )
            query = query.where(Match.id.in_(other))
        query = query.order_by(Match.created_at.desc(), Match.id.desc()).limit(limit)
        matches = list(s.scalars(query))
        ids = [m.id for m in matches]
        seats: dict[str, list[tuple[int, str, int]]] = {}
        for match_id, seat, name, seat_bot in s.execute(
            select(MatchSeat.match_id, MatchSeat.seat, Bot.name, Bot.id)
            .join(Bot, Bot.id == MatchSeat.bot_id)
            .where(MatchSeat.match_id.in_(ids))
            .order_by(MatchSeat.match_id, MatchSeat.seat)
        ):
            seats.setdefault(match_id, []).append((seat, name, seat_bot))
        updates = {
            u.match_id: u
            for u in s.scalars(
                select(RatingUpdate).where(
                    RatingUpdate.bot_id == bot_id, RatingUpdate.match_id.in_(ids)
                )
            )
        }
        found = []
        for m in matches:
            table = seats.get(m.id, [])
            own = tuple(seat for seat, _name, seat_bot in table if seat_bot == bot_id)
            update_ = updates.get(m.id)
            won, totals = _outcome(m.record, own)
            found.append(
                Game(
                    m.id,
                    m.set_id,
                    m.set_index,
                    m.status,
                    m.finished_at,
                    tuple(name for _seat, name, _id in table),
                    own,
                    won,
                    totals,
                    update_.before.mu - 3 * update_.before.sigma if update_ else 0.0,
                    update_.after.mu - 3 * update_.after.sigma if update_ else 0.0,
                    update_.faults if update_ else 0,
                    m.voided_reason,
                )
            )
        return found


def _outcome(record: dict[str, Any] | None, own: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    """Whether the side of ``own`` seats won, and the sides' match totals."""
    if not record:
        return False, ()
    result = record.get("result") or {}
    winners = set(result.get("winners") or [])
    sides = record.get("sides") or []
    mine = {i for i, side in enumerate(sides) if set(side.get("seats") or []) & set(own)}
    totals = tuple(int(t) for t in result.get("match_totals") or [])
    return bool(mine & winners), totals


def history(store: Store, bot: str) -> list[Point]:
    """``bot``'s rating after each of its finished matches, oldest first."""
    with store._transaction() as s:
        rows = s.execute(
            select(RatingUpdate)
            .join(Bot, Bot.id == RatingUpdate.bot_id)
            .where(Bot.name == bot)
            .order_by(RatingUpdate.id)
        ).scalars()
        return [Point(u.match_id, u.created_at, u.after.mu, u.after.sigma) for u in rows]


def faults(store: Store, bot: str, limit: int = MAX_FAULTS) -> list[Fault]:
    """``bot``'s faults, newest first: those of the seats it decided for, read from the
    records of its matches with faults."""
    with store._transaction() as s:
        bot_id = s.scalar(select(Bot.id).where(Bot.name == bot))
        if bot_id is None:
            return []
        rows = s.execute(
            select(Match, RatingUpdate.id)
            .join(RatingUpdate, RatingUpdate.match_id == Match.id)
            .where(RatingUpdate.bot_id == bot_id, RatingUpdate.faults > 0)
            .order_by(RatingUpdate.id.desc())
            .limit(limit)
        ).all()
        own: dict[str, set[int]] = {}
        for match_id, seat in s.execute(
            select(MatchSeat.match_id, MatchSeat.seat).where(
                MatchSeat.bot_id == bot_id, MatchSeat.match_id.in_([m.id for m, _ in rows])
            )
        ):
            own.setdefault(match_id, set()).add(seat)
        found: list[Fault] = []
        for match, _update in rows:
            made = [
                f
                for f in (match.record or {}).get("faults") or []
                if int(f.get("seat", -1)) in own.get(match.id, set())
            ]
            for f in reversed(made):
                found.append(
                    Fault(
                        match.id,
                        match.finished_at,
                        int(f.get("ply", 0)),
                        int(f.get("seat", 0)),
                        str(f.get("class", "")),
                        str(f.get("detail", "")),
                    )
                )
        return found[:limit]
