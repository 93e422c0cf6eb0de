"""What the arena shows: the read-only queries of its web pages (``arena.pages``) and
of its API (``arena.api``), one set for both, so both show the same and withhold the
same.

Kept apart from ``store.py``, whose operations change the arena and are each one
transaction that the crash-safety argument rests on; these only read, each in one
transaction of its own, through SQLAlchemy's expressions (every value a bound
parameter).

**What may be shown** (issue 34: an owner or a spectator sees the hidden cards of a
hand only once it is over). A match's record holds every card and its seed; the matches
of a duplicate set share that seed, so the record of a finished match tells the cards
of every other match of its set. So a record, and what is read from it beyond the
result (the faults' details), is shown only once its whole **set is over** (no match
of it scheduled or in play): ``MatchLine.revealed``. Of a match in play nothing is
shown but who sits at it and since when, less than the live view's spectator sees.
The result of a finished match (who won, the totals, the ratings it moved) is shown at
once: the standings are made of it. A table where a person sat is a set of one match
(unpaired: ``MatchLine.unpaired``), so its record is shown once that match is over.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from mazzo.arena.models import (
    FINISHED,
    PLAYING,
    SCHEDULED,
    Bot,
    Json,
    Ladder,
    Match,
    MatchSeat,
    Owner,
    Rating,
    RatingUpdate,
)
from mazzo.arena.scheduler import Unplayable, ladder_sides
from mazzo.arena.store import LadderInfo, Standing, Store

#: Matches listed on a ladder's page, and on a bot's page.
NEWEST = 20
BOT_GAMES = 100
#: Faults listed on a bot's page (its newest).
BOT_FAULTS = 50
OPEN = (SCHEDULED, PLAYING)


@dataclass(frozen=True)
class LadderLine:
    """A line of the index of ladders."""

    ladder: LadderInfo
    bots: int
    finished: int
    playing: int


@dataclass(frozen=True)
class StandingLine:
    """A bot's line on its ladder's page: its standing, and in how many of its games
    it made a fault (the fault rate's numerator)."""

    standing: Standing
    faulty_games: int

    @property
    def fault_rate(self) -> float:
        return self.faulty_games / self.standing.games if self.standing.games else 0.0


@dataclass(frozen=True)
class MatchLine:
    """A match as the pages list it. ``result`` is one line (who won, the totals) for
    a finished match; ``revealed``: its set is over, so its record may be opened."""

    id: str
    ladder_id: int
    set_id: str
    set_index: int
    status: str
    #: The bots of its seats, in seat order.
    seats: tuple[str, ...]
    created_at: datetime
    claimed_at: datetime | None
    finished_at: datetime | None
    result: str | None
    voided_reason: str | None
    revealed: bool
    #: A finished match: the seats of its winning sides, and the sides' match totals.
    winning_seats: frozenset[int] = frozenset()
    totals: tuple[int, ...] = ()
    #: The matches of its set: one (``unpaired``) at a table where a person sat
    #: (``Store.schedule_set``), whose luck no rotated deal cancels.
    set_size: int = 0
    #: The worker that plays it or played it (its process: ``liveness``).
    claimed_by: str | None = None

    @property
    def unpaired(self) -> bool:
        return self.set_size == 1 and len(self.seats) > 1


@dataclass(frozen=True)
class BotLine:
    """A bot's page's head: who it is, its rating and why it is paused."""

    name: str
    owner: str
    ladder: LadderInfo
    kind: str
    target: str
    mu: float
    sigma: float
    games: int
    faults: int
    paused_reason: str | None
    paused_at: datetime | None
    created_at: datetime
    #: Played by a person: the person's clock, unpaired deals.
    person: bool = False

    @property
    def ladder_id(self) -> int:
        return self.ladder.id


@dataclass(frozen=True)
class Point:
    """The bot's rating after one finished match (the chart's points), what it was
    before, and how many faults the bot made in that match."""

    match_id: str
    at: datetime
    mu: float
    sigma: float
    before_mu: float
    before_sigma: float
    faults: int


@dataclass(frozen=True)
class FaultLine:
    """One fault of the bot: ``detail`` is the referee's reason, ``output`` the bot's
    own error output when the record kept any. Both are withheld (None) while the
    match's set is still being played (``revealed`` False): a detail may name a card."""

    match_id: str
    set_id: str
    #: When its match ended.
    at: datetime | None
    revealed: bool
    ply: int | None
    seat: int | None
    fault_class: str
    detail: str | None
    output: str | None


def ladder_lines(store: Store) -> list[LadderLine]:
    """Every ladder, oldest first, with its bots and its matches finished and in play."""
    with Session(store.engine) as s:
        bots = dict(s.execute(select(Bot.ladder_id, func.count()).group_by(Bot.ladder_id)).all())
        counts: dict[tuple[int, str], int] = {
            (ladder, status): n
            for ladder, status, n in s.execute(
                select(Match.ladder_id, Match.status, func.count()).group_by(
                    Match.ladder_id, Match.status
                )
            )
        }
        ladders = [
            LadderInfo(lad.id, lad.game, lad.players, _options(lad.options))
            for lad in s.scalars(select(Ladder).order_by(Ladder.id))
        ]
    return [
        LadderLine(
            lad,
            bots.get(lad.id, 0),
            counts.get((lad.id, FINISHED), 0),
            counts.get((lad.id, PLAYING), 0),
        )
        for lad in ladders
    ]


def standings(store: Store, ladder_id: int) -> list[StandingLine]:
    """The ladder's standings (``Store.standings``'s order), each with its faulty games."""
    table = store.standings(ladder_id)
    with Session(store.engine) as s:
        faulty = dict(
            s.execute(
                select(Bot.name, func.count())
                .join(RatingUpdate, RatingUpdate.bot_id == Bot.id)
                .where(Bot.ladder_id == ladder_id, RatingUpdate.faults > 0)
                .group_by(Bot.name)
            ).all()
        )
    return [StandingLine(row, faulty.get(row.bot, 0)) for row in table]


def newest_matches(store: Store, ladder_id: int, limit: int = NEWEST) -> list[MatchLine]:
    """The ladder's newest matches (any status), newest first."""
    with Session(store.engine) as s:
        matches = s.scalars(
            select(Match)
            .where(Match.ladder_id == ladder_id)
            .order_by(Match.created_at.desc(), Match.id.desc())
            .limit(limit)
        ).all()
        return _lines(s, matches)


def in_play(store: Store, ladder_id: int | None = None, bot: str | None = None) -> list[MatchLine]:
    """The matches in play (of one ladder, or seating one bot), oldest claim first: the
    tables the pages offer to watch live (``arena.live``)."""
    query = select(Match).where(Match.status == PLAYING)
    if ladder_id is not None:
        query = query.where(Match.ladder_id == ladder_id)
    if bot is not None:
        me = select(Bot.id).where(Bot.name == bot).scalar_subquery()
        seated = select(MatchSeat.match_id).where(MatchSeat.bot_id == me)
        query = query.where(Match.id.in_(seated))
    with Session(store.engine) as s:
        matches = s.scalars(query.order_by(Match.claimed_at, Match.id)).all()
        return _lines(s, matches)


def set_of(store: Store, match_id: str) -> str | None:
    """The duplicate set of a match, if there is such a match."""
    with Session(store.engine) as s:
        found: str | None = s.scalar(select(Match.set_id).where(Match.id == match_id))
        return found


def bot(store: Store, name: str) -> BotLine | None:
    with Session(store.engine) as s:
        row = s.execute(
            select(Bot, Owner.name, Rating, Ladder)
            .join(Owner, Bot.owner_id == Owner.id)
            .join(Rating, Rating.bot_id == Bot.id)
            .join(Ladder, Ladder.id == Bot.ladder_id)
            .where(Bot.name == name)
        ).first()
        if row is None:
            return None
        b, owner, r, lad = row
        return BotLine(
            b.name,
            owner,
            LadderInfo(lad.id, lad.game, lad.players, _options(lad.options)),
            b.kind,
            b.target,
            r.mu,
            r.sigma,
            r.games,
            r.faults,
            b.paused_reason,
            b.paused_at,
            b.created_at,
            b.person,
        )


def opponents(store: Store, name: str) -> list[str]:
    """Every bot that sat at a table with ``name``, by name (the filter's choices)."""
    mine, other = aliased(MatchSeat), aliased(MatchSeat)
    me = select(Bot.id).where(Bot.name == name).scalar_subquery()
    with Session(store.engine) as s:
        return list(
            s.scalars(
                select(Bot.name)
                .distinct()
                .join(other, other.bot_id == Bot.id)
                .join(mine, mine.match_id == other.match_id)
                .where(mine.bot_id == me, Bot.name != name)
                .order_by(Bot.name)
            )
        )


class NoSuchPage(ValueError):
    """A page's start (``after``) that is not one of the games listed."""


@dataclass(frozen=True)
class GamesPage:
    """A page of a bot's games: ``lines`` from the ``start``-th (0: the newest) of
    ``total``, and whether older ones follow."""

    lines: list[MatchLine]
    total: int
    start: int
    more: bool


def bot_matches(
    store: Store,
    line: BotLine,
    opponent: str | None = None,
    limit: int = BOT_GAMES,
    after: str | None = None,
) -> GamesPage:
    """The bot's matches, newest first (at most ``limit``), how many there are in all,
    and whether older ones follow: with ``opponent``, those where that bot sat on
    another side of the table (a partner is not an opponent); with ``after`` (a match
    id of the list), those older than it. A page starts after a match, not at an
    offset, so that games finished meanwhile do not shift the next page onto the last
    one's; ``NoSuchPage`` when ``after`` is not in the list."""
    side_of = _side_of(line.ladder)
    mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
    me = select(Bot.id).where(Bot.name == line.name).scalar_subquery()
    newest = (Match.created_at.desc(), Match.id.desc())
    with Session(store.engine) as s:
        if opponent is None:
            query = select(Match.id).join(mine, mine.match_id == Match.id)
            ids = list(dict.fromkeys(s.scalars(query.where(mine.bot_id == me).order_by(*newest))))
        else:
            them = select(Bot.id).where(Bot.name == opponent).scalar_subquery()
            rows = s.execute(
                select(Match.id, mine.seat, theirs.seat)
                .join(mine, mine.match_id == Match.id)
                .join(theirs, theirs.match_id == Match.id)
                .where(mine.bot_id == me, theirs.bot_id == them)
                .order_by(*newest)
            ).all()
            ids = list(
                dict.fromkeys(
                    match_id for match_id, seat, other in rows if side_of(seat) != side_of(other)
                )
            )
        start = 0
        if after is not None:
            try:
                start = ids.index(after) + 1
            except ValueError:
                raise NoSuchPage(f"{after!r} is not one of the games listed") from None
        page = ids[start : start + limit]
        chosen = s.scalars(select(Match).where(Match.id.in_(page))).all()
        order = {match_id: k for k, match_id in enumerate(page)}
        lines = _lines(s, sorted(chosen, key=lambda m: order[m.id]))
        return GamesPage(lines, len(ids), start, start + limit < len(ids))


def rating_history(store: Store, name: str) -> list[Point]:
    """The bot's rating after each of its finished matches, oldest first."""
    with Session(store.engine) as s:
        updates = s.scalars(
            select(RatingUpdate)
            .join(Bot, Bot.id == RatingUpdate.bot_id)
            .where(Bot.name == name)
            # A set's change is carried by a row stamped when the set was rated.
            .order_by(RatingUpdate.created_at, RatingUpdate.id)
        ).all()
        return [
            Point(
                u.match_id,
                u.created_at,
                u.after.mu,
                u.after.sigma,
                u.before.mu,
                u.before.sigma,
                u.faults,
            )
            for u in updates
        ]


@dataclass(frozen=True)
class FaultsPage:
    """A page of a bot's faults, newest first, whole matches' (the last match listed:
    ``last``), and whether older faulty matches follow."""

    lines: list[FaultLine]
    last: str | None
    more: bool


def bot_faults(
    store: Store, name: str, limit: int = BOT_FAULTS, after: str | None = None
) -> FaultsPage:
    """The bot's faults, newest first, read from the records of its matches with faults
    (the rating updates say which): whole matches' faults, match after match, until
    ``limit`` are listed (so at most ``limit`` plus one match's); with ``after`` (a
    match of the list), those of older matches. ``NoSuchPage`` when ``after`` is not a
    match the bot faulted in."""
    with Session(store.engine) as s:
        faulty = s.execute(
            select(RatingUpdate.match_id, Bot.id)
            .join(Bot, Bot.id == RatingUpdate.bot_id)
            .where(Bot.name == name, RatingUpdate.faults > 0)
            .order_by(RatingUpdate.id.desc())
        ).all()
        start = 0
        if after is not None:
            start = next((k + 1 for k, (m, _b) in enumerate(faulty) if m == after), -1)
            if start < 0:
                raise NoSuchPage(f"{after!r} is not one of the matches it faulted in")
        lines: list[FaultLine] = []
        last: str | None = None
        for k in range(start, len(faulty)):
            if len(lines) >= limit:
                return FaultsPage(lines, last, True)
            match_id, bot_id = faulty[k]
            last = match_id
            found = s.execute(
                select(Match.set_id, Match.finished_at, Match.record["faults"]).where(
                    Match.id == match_id
                )
            ).first()
            if found is None:
                continue
            set_id, at, faults = found
            seats = set(
                s.scalars(
                    select(MatchSeat.seat).where(
                        MatchSeat.match_id == match_id, MatchSeat.bot_id == bot_id
                    )
                )
            )
            revealed = not _open_sets(s, [set_id])
            for fault in reversed(faults) if isinstance(faults, list) else []:
                if isinstance(fault, dict) and _int(fault.get("seat")) in seats:
                    lines.append(_fault_line(match_id, set_id, at, fault, revealed))
        return FaultsPage(lines, last, False)


def set_records(store: Store, set_id: str) -> tuple[bool, list[Json]] | None:
    """A duplicate set's finished records in set order, if the set is over: (True,
    records); (False, []) while a match of it is scheduled or in play; None for no
    such set."""
    with Session(store.engine) as s:
        matches = s.scalars(
            select(Match).where(Match.set_id == set_id).order_by(Match.set_index)
        ).all()
        if not matches:
            return None
        if any(m.status in OPEN for m in matches):
            return False, []
        return True, [m.record for m in matches if m.status == FINISHED and m.record is not None]


# Helpers ------------------------------------------------------------------------------


def _options(text: str) -> Json:
    value: Json = json.loads(text)
    return value


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) else None


def _side_of(ladder: LadderInfo) -> Callable[[int], int]:
    """Seat -> side on the ladder's table (each seat its own side when the rules do
    not know the form any more)."""
    try:
        sides = ladder_sides(ladder)
    except Unplayable:
        return lambda seat: seat
    where = {seat: k for k, side in enumerate(sides) for seat in side}
    return lambda seat: where.get(seat, -1 - seat)  # a seat of no side: a side of its own


def _open_sets(s: Session, set_ids: Iterable[str]) -> set[str]:
    """Of ``set_ids``, the sets with a match scheduled or in play."""
    wanted = sorted(set(set_ids))
    if not wanted:
        return set()
    return set(
        s.scalars(
            select(Match.set_id).where(Match.set_id.in_(wanted), Match.status.in_(OPEN)).distinct()
        )
    )


def _lines(s: Session, matches: Sequence[Match]) -> list[MatchLine]:
    """The matches as lines: their seats, result and whether their set is over."""
    ids = [m.id for m in matches]
    seats: dict[str, list[str]] = defaultdict(list)
    if ids:
        for match_id, bot_name in s.execute(
            select(MatchSeat.match_id, Bot.name)
            .join(Bot, Bot.id == MatchSeat.bot_id)
            .where(MatchSeat.match_id.in_(ids))
            .order_by(MatchSeat.match_id, MatchSeat.seat)
        ):
            seats[match_id].append(bot_name)
    still_open = _open_sets(s, (m.set_id for m in matches))
    sizes = _set_sizes(s, (m.set_id for m in matches))
    finished = [m for m in matches if m.status == FINISHED]
    outcomes = _outcomes(
        s, [m.id for m in finished], {m.id for m in finished if m.set_id not in still_open}
    )
    nothing = _Outcome(None, frozenset(), ())
    return [
        MatchLine(
            m.id,
            m.ladder_id,
            m.set_id,
            m.set_index,
            m.status,
            tuple(seats[m.id]),
            m.created_at,
            m.claimed_at,
            m.finished_at,
            outcomes.get(m.id, nothing).text,
            m.voided_reason,
            m.status == FINISHED and m.set_id not in still_open,
            outcomes.get(m.id, nothing).winning_seats,
            outcomes.get(m.id, nothing).totals,
            sizes.get(m.set_id, 0),
            m.claimed_by,
        )
        for m in matches
    ]


def _set_sizes(s: Session, set_ids: Iterable[str]) -> dict[str, int]:
    """The matches of each of ``set_ids``' sets."""
    wanted = sorted(set(set_ids))
    if not wanted:
        return {}
    rows = s.execute(
        select(Match.set_id, func.count()).where(Match.set_id.in_(wanted)).group_by(Match.set_id)
    )
    return {set_id: int(count) for set_id, count in rows}


@dataclass(frozen=True)
class _Outcome:
    text: str | None
    winning_seats: frozenset[int]
    totals: tuple[int, ...]


def _outcomes(s: Session, ids: list[str], revealed: set[str]) -> dict[str, _Outcome]:
    """Per finished match, one line (who won, the totals, a forfeit: why, only for the
    ``revealed``, a forfeit's reason may name a card), the winners' seats and the
    totals; read from the record's ``result`` and ``sides`` only (not its moves: a
    record can be large)."""
    if not ids:
        return {}
    rows = s.execute(
        select(Match.id, Match.record["result"], Match.record["sides"]).where(Match.id.in_(ids))
    )
    return {
        match_id: _Outcome(
            _result_line(result, sides, match_id in revealed),
            _winning_seats(result, sides),
            _totals(result),
        )
        for match_id, result, sides in rows
    }


def _winning_seats(result: Any, sides: Any) -> frozenset[int]:
    if not isinstance(result, dict) or not isinstance(sides, list):
        return frozenset()
    winners = {w for w in result.get("winners") or [] if isinstance(w, int)}
    return frozenset(
        seat
        for k, side in enumerate(sides)
        if k in winners and isinstance(side, dict)
        for seat in side.get("seats") or []
        if isinstance(seat, int)
    )


def _totals(result: Any) -> tuple[int, ...]:
    totals = result.get("match_totals") if isinstance(result, dict) else None
    return tuple(t for t in totals if isinstance(t, int)) if isinstance(totals, list) else ()


def _result_line(result: Any, sides: Any, revealed: bool) -> str:
    if not isinstance(result, dict) or not isinstance(sides, list):
        return "finished"
    names = [str(side.get("entrant", "?")) if isinstance(side, dict) else "?" for side in sides]
    winners = [
        names[w] for w in result.get("winners") or [] if isinstance(w, int) and w < len(names)
    ]
    text = f"{', '.join(winners) or 'nobody'} won"
    totals = result.get("match_totals")
    if isinstance(totals, list):
        text += f"; totals {', '.join(str(t) for t in totals)}"
    forfeit = result.get("forfeit")
    if isinstance(forfeit, dict):
        why = f": {forfeit.get('reason', '')}" if revealed else ""
        text += f" (forfeit by {forfeit.get('entrant', '?')}{why})"
    return text


def _fault_line(
    match_id: str, set_id: str, at: datetime | None, fault: Json, revealed: bool
) -> FaultLine:
    output = fault.get("output", fault.get("stderr"))
    return FaultLine(
        match_id,
        set_id,
        at,
        revealed,
        _int(fault.get("ply")),
        _int(fault.get("seat")),
        str(fault.get("class", "?")),
        str(fault.get("detail", "")) if revealed else None,
        str(output) if revealed and output is not None else None,
    )
