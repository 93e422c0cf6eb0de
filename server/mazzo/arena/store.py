"""The arena's storage: owners and their bots, ladders, the match queue and ratings.

Every operation is one transaction, so a process killed at any moment leaves each
operation done whole or not at all. The ones that matter for crash safety and for
several workers on one database:

- ``claim`` hands the oldest scheduled match to one worker only, and never a match
  seating a bot that is in play at another table (the matches of a duplicate set seat
  the same bots: they are played one after the other). PostgreSQL: the match's row is
  read ``FOR UPDATE SKIP LOCKED`` (a second worker skips the row the first holds and
  takes the next), then its bots' rows ``FOR NO KEY UPDATE SKIP LOCKED``: two claims
  of matches sharing a bot cannot both hold it, and the one that comes after the
  other's commit sees that match in play. Nothing waits, so several processes on one
  database claim side by side without deadlocks. SQLite: the transaction begins
  ``IMMEDIATE`` (schema.py), so claims run one at a time. A match with dial-in seats
  goes only to a worker of the process whose gateway holds those bots
  (``connections``): another would wait the grace for a bot connected elsewhere.
- ``finish`` stores the record, the ratings and their audit rows (values before and
  after) together. A result that arrives twice counts once: the match is already
  finished, the same record returns what was stored, a different one is refused;
  ``rating_updates`` is unique per (match, bot) besides.
- ``void_stale`` voids the matches whose worker stopped sending heartbeats (it died),
  keeping why: a match is never dropped silently. ``void_claims`` voids those of one
  worker at once, when its process is known to be gone (``liveness``).

Tokens are ``gateway.tokens``'s: 256 random bits, stored as their SHA-256 only, checked
with ``TokenBook.who`` (``hmac.compare_digest``). A token is found by its hash's
index: the lookup's time depends on the hash of what was sent, which no one can steer
towards a stored hash, so it tells nothing about a real token.

SQL goes through SQLAlchemy's expressions only: every value is a bound parameter.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Engine, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mazzo.arena import connections, schema, web_addresses
from mazzo.arena.duplicate import NotOneSet, set_ranks
from mazzo.arena.models import (
    BUILTIN,
    DIAL_IN,
    FINISHED,
    GRPC,
    KINDS,
    MU,
    PLAYING,
    SCHEDULED,
    SIGMA,
    VOIDED,
    Bot,
    Json,
    Ladder,
    Match,
    MatchSeat,
    Owner,
    Rating,
    RatingUpdate,
    SetRating,
    Skill,
    canonical_json,
    utcnow,
)
from mazzo.gateway.tokens import TokenBook, check_name, token_hash
from mazzo.referee.ratings import match_scores, rating_model

#: Seeds are kept below 2**63: a signed BIGINT on both databases.
SEED_BITS = 63
#: The scheduled matches a claim looks at (and holds) at once, oldest first.
CLAIM_CANDIDATES = 16


class Refused(ValueError):
    """An operation the arena's rules forbid (the message says which rule)."""


class Busy(Refused):
    """A bot to be seated is seated already, or being seated by another process."""


@dataclass(frozen=True)
class Credentials:
    """A new owner's or bot's name and token: the token is shown this once, only its
    hash is stored."""

    name: str
    token: str


@dataclass(frozen=True)
class BotInfo:
    name: str
    owner: str
    ladder_id: int
    kind: str
    target: str
    paused_reason: str | None
    #: Played by a person: the person's clock, unpaired deals (``schedule_set``).
    person: bool = False


@dataclass(frozen=True)
class DialIn:
    """A dial-in bot as the gateway knows it: the SHA-256 of its token, and the one
    form (game, players) it is seated in."""

    name: str
    token_hash: str
    game: str
    players: int


@dataclass(frozen=True)
class LadderInfo:
    id: int
    game: str
    players: int
    #: The game's own options, as the ladder was made with them (``{"target": 41}``).
    options: Json


@dataclass(frozen=True)
class LadderBot:
    """A bot of a ladder as the scheduler weighs it: its rating, whether it is paused,
    and whether it is ``busy`` (seated in a match scheduled or in play)."""

    name: str
    owner: str
    kind: str
    target: str
    mu: float
    sigma: float
    games: int
    faults: int
    paused_reason: str | None
    busy: bool
    person: bool = False


@dataclass(frozen=True)
class Claim:
    """A match handed to one worker: what it needs to play it."""

    match_id: str
    ladder_id: int
    set_id: str
    set_index: int
    seed: int
    #: The bot (by name) deciding for each seat, in seat order.
    seats: tuple[str, ...]
    #: The match's ladder and its seats' bots, read in the claim's own transaction (a
    #: worker needs no other to start playing; empty on a claim made by hand).
    ladder: LadderInfo | None = None
    bots: tuple[BotInfo, ...] = ()


@dataclass(frozen=True)
class RatingChange:
    """What one finished match did to one bot's rating."""

    bot: str
    before: Skill
    after: Skill


@dataclass(frozen=True)
class Finished:
    """What a finish stored; ``repeated`` when the match was already finished with the
    same record (nothing was counted again)."""

    match_id: str
    changes: tuple[RatingChange, ...]
    repeated: bool
    #: Bots this finish paused for their faults (``finish``'s ``pause``), with why.
    paused: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchInfo:
    id: str
    ladder_id: int
    set_id: str
    set_index: int
    seed: int
    status: str
    claimed_by: str | None
    claimed_at: datetime | None
    heartbeat_at: datetime | None
    deal_commitment: str | None
    record: Json | None
    voided_reason: str | None
    finished_at: datetime | None


@dataclass(frozen=True)
class Standing:
    """A bot's line on its ladder; ``ordinal`` (mu - 3 sigma) orders the ladder: a bot
    is ranked by what it has surely shown, so a new one starts at the bottom."""

    bot: str
    owner: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    faults: int
    paused_reason: str | None
    #: Played by a person (``Bot.person``): its tables are dealt unpaired.
    person: bool = False


def _plain(record: Json) -> Json:
    """The record as the database gives it back (JSON types only), for comparison."""
    plain: Json = json.loads(json.dumps(record))
    return plain


class Store(AbstractContextManager["Store"]):
    """The arena's database at ``url`` (SQLite by default, PostgreSQL by
    ``postgresql+psycopg://`` URL), migrated to the newest schema unless told not to."""

    def __init__(self, url: str = schema.DEFAULT_URL, migrate: bool = True) -> None:
        self.url = url
        self.engine: Engine = schema.make_engine(url)
        self.postgres = not schema.is_sqlite(url)
        if migrate:
            schema.upgrade(engine=self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def __exit__(self, *_exc: object) -> None:  # ``with Store(...) as store``
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    # Owners, ladders, bots --------------------------------------------------------

    def add_owner(self, name: str) -> Credentials:
        book = TokenBook()
        token = book.new(check_name(name))
        try:
            with self._transaction() as s:
                s.add(Owner(name=name, token_hash=book.hashes[name], created_at=utcnow()))
        except IntegrityError:
            raise Refused(f"an owner named {name!r} exists") from None
        return Credentials(name, token)

    def new_owner_token(self, owner: str) -> str | None:
        """A new token for ``owner`` (its old one stops working); None for no such owner."""
        book = TokenBook()
        token = book.new(owner)
        with self._transaction() as s:
            done = s.execute(
                update(Owner).where(Owner.name == owner).values(token_hash=book.hashes[owner])
            )
            return token if getattr(done, "rowcount", 0) == 1 else None

    def new_bot_token(self, bot: str) -> str | None:
        """A new token for ``bot`` (its old one stops working); None for no such bot."""
        book = TokenBook()
        token = book.new(bot)
        with self._transaction() as s:
            done = s.execute(update(Bot).where(Bot.name == bot).values(token_hash=book.hashes[bot]))
            return token if getattr(done, "rowcount", 0) == 1 else None

    def add_ladder(self, game: str, players: int, options: Json | None = None) -> int:
        """The ladder of (game, players, options), made if new: its id."""
        text = canonical_json(options or {})
        where = (Ladder.game == game, Ladder.players == players, Ladder.options == text)
        for _attempt in range(2):
            with self._transaction() as s:
                found = s.scalar(select(Ladder.id).where(*where))
                if found is not None:
                    return found
            try:
                with self._transaction() as s:
                    ladder = Ladder(game=game, players=players, options=text, created_at=utcnow())
                    s.add(ladder)
                    s.flush()
                    return ladder.id
            except IntegrityError:
                continue  # another process made it meanwhile: read it
        raise Refused(f"the ladder {game}/{players} could not be made")

    def add_bot(
        self,
        owner: str,
        name: str,
        ladder_id: int,
        kind: str = DIAL_IN,
        target: str = "",
        person: bool = False,
    ) -> Credentials:
        """A bot of ``owner``'s on a ladder: ``target`` is its gRPC URL or builtin spec,
        empty for a dial-in bot; ``person``: a person plays it (a dial-in bot only). It
        starts at OpenSkill's default rating."""
        _check_person(kind, person)
        if kind not in KINDS:
            raise Refused(f"a bot's kind is one of {', '.join(KINDS)}, not {kind!r}")
        if (kind == DIAL_IN) != (target == ""):
            raise Refused(f"a {kind} bot needs {'no target' if kind == DIAL_IN else 'a target'}")
        if kind == GRPC and not target.startswith("grpc://"):
            raise Refused(f"a gRPC bot's target is a grpc:// URL, not {target!r}")
        if kind == BUILTIN and not target.startswith("builtin:"):
            raise Refused(f"a builtin bot's target is builtin:NAME, not {target!r}")
        book = TokenBook()
        token = book.new(check_name(name))
        now = utcnow()
        try:
            with self._transaction() as s:
                owner_id = s.scalar(select(Owner.id).where(Owner.name == owner))
                if owner_id is None:
                    raise Refused(f"no owner named {owner!r}")
                if s.get(Ladder, ladder_id) is None:
                    raise Refused(f"no ladder {ladder_id}")
                bot = Bot(
                    owner_id=owner_id,
                    name=name,
                    ladder_id=ladder_id,
                    kind=kind,
                    target=target,
                    token_hash=book.hashes[name],
                    person=person,
                    created_at=now,
                )
                s.add(bot)
                s.flush()
                s.add(Rating(bot_id=bot.id, mu=MU, sigma=SIGMA, games=0, faults=0, updated_at=now))
        except IntegrityError:
            raise Refused(f"a bot named {name!r} exists") from None
        return Credentials(name, token)

    def find_bot(self, token: str) -> BotInfo | None:
        """The bot ``token`` belongs to, or None."""
        with self._transaction() as s:
            row = s.execute(
                select(Bot, Owner.name)
                .join(Owner, Bot.owner_id == Owner.id)
                .where(Bot.token_hash == token_hash(token))
            ).first()
            bot, owner = row if row is not None else (None, "")
            if not _matches(token, bot.name if bot else "", bot.token_hash if bot else None):
                return None
            assert bot is not None
            return _bot_info(bot, owner)

    def dial_in_bots(self) -> list[DialIn]:
        """Every dial-in bot with its token's hash and its ladder's form: what the
        arena's gateway admits (``arena.seats``), a paused bot too (it may connect,
        it is not seated)."""
        with self._transaction() as s:
            rows = s.execute(
                select(Bot.name, Bot.token_hash, Ladder.game, Ladder.players)
                .join(Ladder, Bot.ladder_id == Ladder.id)
                .where(Bot.kind == DIAL_IN)
                .order_by(Bot.name)
            )
            return [DialIn(name, digest, game, players) for name, digest, game, players in rows]

    def find_owner(self, token: str) -> str | None:
        """The name of the owner ``token`` belongs to, or None."""
        with self._transaction() as s:
            owner = s.scalar(select(Owner).where(Owner.token_hash == token_hash(token)))
            name = owner.name if owner else ""
            return name if _matches(token, name, owner.token_hash if owner else None) else None

    def owner_bots(self, token: str) -> list[BotInfo]:
        """The bots of the owner whose token this is (``Refused`` for any other token)."""
        owner = self.find_owner(token)
        if owner is None:
            raise Refused("not an owner's token")
        with self._transaction() as s:
            rows = s.execute(
                select(Bot)
                .join(Owner, Bot.owner_id == Owner.id)
                .where(Owner.name == owner)
                .order_by(Bot.name)
            ).scalars()
            return [_bot_info(bot, owner) for bot in rows]

    def ladders(self) -> list[LadderInfo]:
        """Every ladder, oldest first."""
        with self._transaction() as s:
            return [
                _ladder_info(ladder) for ladder in s.scalars(select(Ladder).order_by(Ladder.id))
            ]

    def ladder(self, ladder_id: int) -> LadderInfo:
        with self._transaction() as s:
            ladder = s.get(Ladder, ladder_id)
            if ladder is None:
                raise Refused(f"no ladder {ladder_id}")
            return _ladder_info(ladder)

    def ladder_bots(self, ladder_id: int) -> list[LadderBot]:
        """The ladder's bots, by name, with what the scheduler needs to seat them."""
        busy = (
            select(MatchSeat.bot_id)
            .join(Match, Match.id == MatchSeat.match_id)
            .where(Match.ladder_id == ladder_id, _status_in(SCHEDULED, PLAYING))
        )
        with self._transaction() as s:
            taken = set(s.scalars(busy))
            rows = s.execute(
                select(Bot, Owner.name, Rating)
                .join(Owner, Bot.owner_id == Owner.id)
                .join(Rating, Rating.bot_id == Bot.id)
                .where(Bot.ladder_id == ladder_id)
                .order_by(Bot.name)
            )
            return [
                LadderBot(
                    bot.name,
                    owner,
                    bot.kind,
                    bot.target,
                    r.mu,
                    r.sigma,
                    r.games,
                    r.faults,
                    bot.paused_reason,
                    bot.id in taken,
                    bot.person,
                )
                for bot, owner, r in rows
            ]

    def queued(self, ladder_id: int) -> int:
        """How many of the ladder's matches are scheduled or in play: the scheduler
        keeps this bounded."""
        with self._transaction() as s:
            count = s.scalar(
                select(func.count())
                .select_from(Match)
                .where(Match.ladder_id == ladder_id, _status_in(SCHEDULED, PLAYING))
            )
            return int(count or 0)

    def pause_faulty(self, match_id: str, limit: int, window: int) -> dict[str, str]:
        """Pause each bot of a finished match that made faults in at least ``limit`` of
        its last ``window`` finished matches (this one included), saying so: the bots
        paused now, with the reason. A bot paused already is left as it is. (``finish``
        does the same in its own transaction when given ``pause``.)"""
        _check_pause(limit, window)
        with self._transaction() as s:
            return _pause_faulty(s, match_id, limit, window)

    def pause_bot(self, name: str, reason: str | None) -> None:
        """Take a bot out of the schedule, saying why (None: back in)."""
        with self._transaction() as s:
            done = s.execute(
                update(Bot)
                .where(Bot.name == name)
                .values(paused_reason=reason, paused_at=utcnow() if reason else None)
            )
            if getattr(done, "rowcount", 0) != 1:
                raise Refused(f"no bot named {name!r}")

    def set_person(self, name: str, person: bool) -> None:
        """Mark a bot as played by a person, or by a program (``Refused`` for a bot that
        does not dial in: a person plays through the gateway's page). Its sets
        scheduled already keep their pairing; the clock is the worker's choice as each
        match starts (``Worker.own_clocks``)."""
        with self._transaction() as s:
            bot = s.scalar(select(Bot).where(Bot.name == name).with_for_update())
            if bot is None:
                raise Refused(f"no bot named {name!r}")
            _check_person(bot.kind, person)
            bot.person = person

    # The match queue ----------------------------------------------------------------

    def schedule_set(
        self,
        ladder_id: int,
        seats: Sequence[str],
        rotations: int | None = None,
        seed: int | None = None,
        free_only: bool = False,
    ) -> list[str]:
        """A duplicate set: ``rotations`` matches (by default one per seat) on one seed,
        the bots moved one seat on in each, so every bot holds every hand in turn and
        the cards' luck cancels. ``seats`` are the bots' names in seat order for the
        set's first match. Returns the matches' ids, in set order.

        A table with a bot played by a person is dealt unpaired: a set of one match
        (by default; more is ``Refused``), since a person remembers a deal that comes
        back with the seats rotated. Decided here, from the bots' rows read in the
        set's own transaction.

        ``free_only`` (the scheduler's): ``Busy`` when one of the bots is seated in a
        match scheduled or in play, or is being seated or claimed by another process
        this moment (its row locked, as in ``claim``): two schedulers on one database
        never seat a bot in two sets at once."""
        n = len(seats)
        if rotations is not None and not 1 <= rotations <= n:
            raise Refused(f"a set of {n} seats has 1 to {n} rotations, not {rotations}")
        seed = secrets.randbits(SEED_BITS) if seed is None else seed
        if not 0 <= seed < 2**SEED_BITS:
            raise Refused(f"a seed is below 2**{SEED_BITS}")
        set_id = secrets.token_hex(8)
        now = utcnow()
        with self._transaction() as s:
            ladder = s.get(Ladder, ladder_id)
            if ladder is None:
                raise Refused(f"no ladder {ladder_id}")
            if n != ladder.players:
                raise Refused(f"ladder {ladder_id} seats {ladder.players} bots, not {n}")
            bots = {bot.name: bot for bot in s.scalars(select(Bot).where(Bot.name.in_(set(seats))))}
            for name in seats:
                bot = bots.get(name)
                if bot is None or bot.ladder_id != ladder_id:
                    raise Refused(f"{name!r} is not a bot of ladder {ladder_id}")
            rotations = _rotations(n, rotations, [b.name for b in bots.values() if b.person])
            if free_only:
                _hold_free(s, {bot.id for bot in bots.values()})
            ids = [f"{set_id}-{index}" for index in range(rotations)]
            # Two statements for the whole set: rows and seats each in one INSERT.
            s.execute(
                insert(Match).values(
                    [
                        {
                            "id": match_id,
                            "ladder_id": ladder_id,
                            "set_id": set_id,
                            "set_index": index,
                            "seed": seed,
                            "status": SCHEDULED,
                            "created_at": now,
                        }
                        for index, match_id in enumerate(ids)
                    ]
                )
            )
            s.execute(
                insert(MatchSeat).values(
                    [
                        {
                            "match_id": match_id,
                            "seat": seat,
                            "bot_id": bots[seats[(seat - index) % n]].id,
                        }
                        for index, match_id in enumerate(ids)
                        for seat in range(n)
                    ]
                )
            )
            return ids

    def claim(
        self,
        worker: str,
        ladder_id: int | None = None,
        process: str | None = None,
        held: Collection[str] | None = None,
    ) -> Claim | None:
        """The oldest scheduled match (of ``ladder_id``) none of whose bots is in play
        at another table, now ``worker``'s to play; None when none waits. No two
        workers ever get the same match, nor two matches that seat one bot (module
        docstring). A match with dial-in seats only when each of those bots is
        connected now to ``process``, the worker's own (its gateway's; None: it has
        none), and, with ``held``, is one of the names its gateway holds as it asks:
        ``connections``."""
        with self._transaction() as s:
            cutoff = utcnow() - connections.STALE
            # Who may sit, read first: the bots in play, and the dial-in bots connected
            # to this process (both as many as tables and connections allow). The
            # candidates' query then joins no bot's past seats (they grow with every
            # game) and plans quickly.
            busy, here = _bots_in_play(s), connections.here(s, process, cutoff, held)
            query = select(Match).where(_status_in(SCHEDULED), ~_seats_one_kept_out(busy, here))
            if ladder_id is not None:
                query = query.where(Match.ladder_id == ladder_id)
            query = query.order_by(Match.created_at, Match.set_id, Match.set_index)
            for match_id in s.scalars(
                query.limit(CLAIM_CANDIDATES).with_only_columns(Match.id)
            ).all():
                # Each candidate locked alone (held by another claim: skipped), and read
                # again: another claim may have taken it since.
                match = s.scalar(
                    select(Match)
                    .where(Match.id == match_id, Match.status == SCHEDULED)
                    .with_for_update(skip_locked=True)
                )
                if match is None:
                    continue
                bots = set(
                    s.scalars(select(MatchSeat.bot_id).where(MatchSeat.match_id == match.id))
                )
                # A claim of another match of theirs skips the bots held here (or,
                # once this one is committed, sees this match in play).
                if not _hold(s, bots) or _in_play(s, bots):
                    continue  # one of its bots is being seated, or sits, elsewhere
                # Taken after the checks: a bot's stored times never overlap.
                match.status, match.claimed_by = PLAYING, worker
                match.claimed_at = match.heartbeat_at = utcnow()
                seated = tuple(
                    _bot_info(bot, owner)
                    for bot, owner in s.execute(
                        select(Bot, Owner.name)
                        .join(MatchSeat, MatchSeat.bot_id == Bot.id)
                        .join(Owner, Bot.owner_id == Owner.id)
                        .where(MatchSeat.match_id == match.id)
                        .order_by(MatchSeat.seat)
                    )
                )
                ladder = s.get(Ladder, match.ladder_id)
                return Claim(
                    match.id,
                    match.ladder_id,
                    match.set_id,
                    match.set_index,
                    match.seed,
                    tuple(b.name for b in seated),
                    None if ladder is None else _ladder_info(ladder),
                    seated,
                )
            return None

    def heartbeat(self, match_id: str, worker: str) -> bool:
        """``worker`` still plays ``match_id``. False: the claim is gone (voided as
        stale), and the worker should stop playing it."""
        with self._transaction() as s:
            done = s.execute(
                update(Match)
                .where(Match.id == match_id, Match.status == PLAYING, Match.claimed_by == worker)
                .values(heartbeat_at=utcnow())
            )
            return getattr(done, "rowcount", 0) == 1

    def publish_commitment(self, match_id: str, worker: str, commitment: str) -> None:
        """Keep the deal's commitment before the first move (fair-deals.md): the
        record that finishes the match must carry the same one."""
        with self._transaction() as s:
            kept = s.execute(
                update(Match)
                .where(
                    Match.id == match_id,
                    Match.status == PLAYING,
                    Match.claimed_by == worker,
                    or_(Match.deal_commitment.is_(None), Match.deal_commitment == commitment),
                )
                .values(deal_commitment=commitment)
            )
            if getattr(kept, "rowcount", 0) == 1:
                return
            match = self._lock(s, match_id)  # refused: say why
            if match.status != PLAYING or match.claimed_by != worker:
                raise Refused(f"match {match_id} is not being played by {worker!r}")
            raise Refused(f"match {match_id} has another deal commitment already")

    def finish(
        self, match_id: str, worker: str, record: Json, pause: tuple[int, int] | None = None
    ) -> Finished:
        """Store the finished match's record, count it in its bots' games and faults,
        and when it ends its duplicate set rate the set (``duplicate.py``), in one
        transaction. Again with the same record: nothing changes, the stored update is
        returned. With another record, or for a match ``worker`` does not hold:
        ``Refused``. ``pause`` (limit, window): then pause its bots that faulted in it as
        ``pause_faulty`` does, in the same transaction, so that no scheduler sees them
        free between (a bot with no fault in it cannot have reached the limit by it)."""
        if pause is not None:
            _check_pause(*pause)
        record = _plain(record)
        now = utcnow()
        with self._transaction() as s:
            match = self._lock(s, match_id)
            if match.status == FINISHED:
                if match.record != record:
                    raise Refused(f"match {match_id} is finished with another record")
                return Finished(match_id, self._changes(s, match_id), repeated=True)
            if match.status != PLAYING or match.claimed_by != worker:
                why = f"voided: {match.voided_reason}" if match.status == VOIDED else match.status
                raise Refused(f"match {match_id} is not being played by {worker!r} ({why})")
            result = record.get("result")
            if not isinstance(result, dict) or not isinstance(result.get("winners"), list):
                raise Refused("the record has no result with its winners")
            if record.get("id") != match_id or record.get("seed") != match.seed:
                raise Refused(f"the record is not of match {match_id} (its id and seed)")
            commitment = record.get("deal_commitment")
            if match.deal_commitment is not None and commitment != match.deal_commitment:
                raise Refused(
                    f"the record's deal commitment is not the one match {match_id} published"
                )
            seat_bot = {
                seat: bot_id
                for seat, bot_id in s.execute(
                    select(MatchSeat.seat, MatchSeat.bot_id).where(MatchSeat.match_id == match_id)
                )
            }
            _teams, faults = _teams_and_faults(record, seat_bot)
            seated = sorted(set(seat_bot.values()))
            ratings = _lock_ratings(s, set(seated))
            # Every seated bot's game counted in one statement (the rows are locked and
            # loaded: the session's copies are kept in step); its faults, when it made any.
            s.execute(
                update(Rating)
                .where(Rating.bot_id.in_(seated))
                .values(games=Rating.games + 1, updated_at=now)
            )
            for bot_id in seated:
                # The set is rated once, when its last match ends (``_rate_set``): till
                # then a row keeps the rating as it is, with the bot's faults here.
                rating = ratings[bot_id]
                rating.faults += faults.get(bot_id, 0)
                change = RatingUpdate(
                    match_id=match_id, bot_id=bot_id, faults=faults.get(bot_id, 0), created_at=now
                )
                change.before = change.after = Skill(rating.mu, rating.sigma)
                s.add(change)
            match.status, match.record, match.finished_at = FINISHED, record, now
            match.deal_commitment = match.deal_commitment or commitment
            s.flush()
            _rate_set(s, match.set_id, now)
            # Only a bot that faulted here can have reached the limit with this match.
            faulty = {bot for bot, count in faults.items() if count}
            paused = _pause_faulty(s, match_id, *pause, faulty) if pause and faulty else {}
            return Finished(match_id, self._changes(s, match_id), repeated=False, paused=paused)

    def void(self, match_id: str, reason: str) -> None:
        """Void a match that will not be finished (scheduled or playing), saying why."""
        with self._transaction() as s:
            match = self._lock(s, match_id)
            if match.status not in (SCHEDULED, PLAYING):
                raise Refused(f"match {match_id} is {match.status}: it cannot be voided")
            match.status, match.voided_reason, match.finished_at = VOIDED, reason, utcnow()
            _rate_sets(s, [match])

    def void_stale(self, max_silence: timedelta, now: datetime | None = None) -> list[str]:
        """Void every match in play whose worker has sent no heartbeat for
        ``max_silence`` (it died, or lost the database): their ids."""
        now = now or utcnow()
        with self._transaction() as s:
            stale = s.scalars(
                select(Match)
                .where(Match.status == PLAYING, Match.heartbeat_at < now - max_silence)
                .order_by(Match.id)
                .with_for_update(skip_locked=True)
            ).all()
            for match in stale:
                assert match.heartbeat_at is not None
                match.status, match.finished_at = VOIDED, now
                match.voided_reason = (
                    f"stale claim: {match.claimed_by} sent no heartbeat since "
                    f"{match.heartbeat_at.isoformat()} (for more than {max_silence})"
                )
            _rate_sets(s, stale)
            return [m.id for m in stale]

    def claimants(self) -> list[str]:
        """The workers holding matches in play, by name: whose process the arena can
        check (``liveness.gone``)."""
        with self._transaction() as s:
            return sorted(
                name
                for name in s.scalars(
                    select(Match.claimed_by).where(Match.status == PLAYING).distinct()
                )
                if name is not None
            )

    def void_claims(self, worker: str, reason: str) -> list[str]:
        """Void every match ``worker`` holds in play (its process is gone), with
        ``reason``: their ids. A match it finished meanwhile stays finished."""
        now = utcnow()
        with self._transaction() as s:
            held = s.scalars(
                select(Match)
                .where(Match.status == PLAYING, Match.claimed_by == worker)
                .order_by(Match.id)
                .with_for_update(skip_locked=True)
            ).all()
            for match in held:
                match.status, match.finished_at, match.voided_reason = VOIDED, now, reason
            _rate_sets(s, held)
            return [m.id for m in held]

    # Where the dial-in bots are connected (``connections``) ---------------------------

    def record_connections(
        self, process: str, connected: Mapping[str, datetime], now: datetime | None = None
    ) -> set[str]:
        """``process``'s gateway holds the bots of ``connected`` (by name, with when
        each stream came), and no other: its beat. Returns the bots a newer stream at
        another live process has taken (``connections.record``)."""
        for attempt in range(2):
            try:
                with self._transaction() as s:
                    return connections.record(s, process, connected, now or utcnow())
            except IntegrityError:  # another process made a bot's first row meanwhile
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def connected_bots(self, now: datetime | None = None) -> dict[str, str]:
        """Every dial-in bot connected now, by name, with the process that has it."""
        with self._transaction() as s:
            return connections.connected_bots(s, now or utcnow())

    def connection_processes(self, now: datetime | None = None) -> list[str]:
        """The processes whose gateways hold bots now (``liveness`` checks them)."""
        with self._transaction() as s:
            return connections.processes(s, now or utcnow())

    def drop_process(self, process: str, now: datetime | None = None) -> int:
        """``process`` is gone: its bots dropped now; how many."""
        with self._transaction() as s:
            return connections.drop_process(s, process, now or utcnow())

    def void_away(self, grace: timedelta, now: datetime | None = None) -> dict[str, str]:
        """Void the scheduled matches whose dial-in bots are connected nowhere (or on
        different processes) for more than ``grace``: their ids, with the reason."""
        with self._transaction() as s:
            away = connections.away(s, now or utcnow(), grace)
            _rate_sets(s, s.scalars(select(Match).where(Match.id.in_(sorted(away)))).all())
            return away

    # Where the playing processes' pages are (``web_addresses``) ------------------------

    def advertise(self, process: str, url: str, now: datetime | None = None) -> None:
        """``process``'s pages answer at ``url``: its start and each beat."""
        with self._transaction() as s:
            web_addresses.advertise(s, process, url, now or utcnow())

    def withdraw(self, process: str) -> None:
        """``process`` stops: its pages are no longer there."""
        with self._transaction() as s:
            web_addresses.withdraw(s, process)

    def web_addresses(self, now: datetime | None = None) -> dict[str, str]:
        """The processes whose pages answer now, by name, with the URL."""
        with self._transaction() as s:
            return web_addresses.addresses(s, now or utcnow())

    def live_address(self, match_id: str, now: datetime | None = None) -> str | None:
        """Where the pages of the process playing ``match_id`` are, if it says."""
        with self._transaction() as s:
            found = web_addresses.of_match(s, match_id, now or utcnow())
            return None if found is None else found[1]

    def rate_closed_sets(self, since: datetime | None = None) -> list[str]:
        """Rate every set that is over and not rated yet: their ids. Two transactions
        that end a set's last two matches at once (a finish, and a void of a bot away)
        each see the other's match open, and neither rates it (``_rate_set``): the
        scheduler's housekeeping calls this to rate it then. ``since``: only sets with
        a match finished or voided since then. Two processes' housekeeping can both
        find a set so: the second's mark (``SetRating``'s key) fails once the first's
        is committed, and its savepoint undoes its rating of that set."""
        with self._transaction() as s:
            query = select(Match.set_id).where(
                Match.status.in_((FINISHED, VOIDED)),
                ~select(SetRating.set_id).where(SetRating.set_id == Match.set_id).exists(),
            )
            if since is not None:
                query = query.where(Match.finished_at >= since)
            now = utcnow()
            rated: list[str] = []
            for set_id in sorted(set(s.scalars(query))):
                try:
                    with s.begin_nested():
                        if _rate_set(s, set_id, now):
                            rated.append(set_id)
                except IntegrityError:
                    continue  # rated by another process as this one rated it
            return rated

    # Reading ------------------------------------------------------------------------

    def match(self, match_id: str) -> MatchInfo:
        with self._transaction() as s:
            m = s.get(Match, match_id)
            if m is None:
                raise Refused(f"no match {match_id}")
            return MatchInfo(
                m.id,
                m.ladder_id,
                m.set_id,
                m.set_index,
                m.seed,
                m.status,
                m.claimed_by,
                m.claimed_at,
                m.heartbeat_at,
                m.deal_commitment,
                m.record,
                m.voided_reason,
                m.finished_at,
            )

    def seats(self, match_id: str) -> list[str]:
        """The bots of a match's seats, by name, in seat order."""
        with self._transaction() as s:
            return list(
                s.scalars(
                    select(Bot.name)
                    .join(MatchSeat, MatchSeat.bot_id == Bot.id)
                    .where(MatchSeat.match_id == match_id)
                    .order_by(MatchSeat.seat)
                )
            )

    def seat_bots(self, match_id: str) -> list[BotInfo]:
        """The bots of a match's seats, in seat order, with their kind and target: what
        a worker needs to start them."""
        with self._transaction() as s:
            rows = s.execute(
                select(Bot, Owner.name)
                .join(MatchSeat, MatchSeat.bot_id == Bot.id)
                .join(Owner, Bot.owner_id == Owner.id)
                .where(MatchSeat.match_id == match_id)
                .order_by(MatchSeat.seat)
            )
            return [_bot_info(bot, owner) for bot, owner in rows]

    def rating_changes(self, match_id: str) -> list[RatingChange]:
        with self._transaction() as s:
            return list(self._changes(s, match_id))

    def standings(self, ladder_id: int) -> list[Standing]:
        """The ladder, best first: by mu - 3 sigma, then by name."""
        with self._transaction() as s:
            rows = s.execute(
                select(Bot, Owner.name, Rating)
                .join(Owner, Bot.owner_id == Owner.id)
                .join(Rating, Rating.bot_id == Bot.id)
                .where(Bot.ladder_id == ladder_id)
            )
            table = [
                Standing(
                    bot.name,
                    owner,
                    r.mu,
                    r.sigma,
                    r.mu - 3 * r.sigma,
                    r.games,
                    r.faults,
                    bot.paused_reason,
                    bot.person,
                )
                for bot, owner, r in rows
            ]
        return sorted(table, key=lambda row: (-row.ordinal, row.bot))

    # Helpers ------------------------------------------------------------------------

    def _lock(self, s: Session, match_id: str) -> Match:
        match = s.scalar(select(Match).where(Match.id == match_id).with_for_update())
        if match is None:
            raise Refused(f"no match {match_id}")
        return match

    def _changes(self, s: Session, match_id: str) -> tuple[RatingChange, ...]:
        rows = s.execute(
            select(Bot.name, RatingUpdate)
            .join(Bot, Bot.id == RatingUpdate.bot_id)
            .where(RatingUpdate.match_id == match_id)
            .order_by(Bot.name)
        )
        return tuple(RatingChange(name, u.before, u.after) for name, u in rows)


def _matches(token: str, name: str, stored: str | None) -> bool:
    """``token`` is the one whose hash is ``stored``, compared in constant time by the
    gateway's token book (an absent entry is compared too, against no token's hash)."""
    book = TokenBook({name: stored} if stored is not None else {})
    return book.who(token, name or "-") is not None


def _ladder_info(ladder: Ladder) -> LadderInfo:
    return LadderInfo(ladder.id, ladder.game, ladder.players, json.loads(ladder.options))


def _bot_info(bot: Bot, owner: str) -> BotInfo:
    return BotInfo(
        bot.name, owner, bot.ladder_id, bot.kind, bot.target, bot.paused_reason, bot.person
    )


def _check_person(kind: str, person: bool) -> None:
    if person and kind != DIAL_IN:
        raise Refused(f"a person plays a dial-in bot (through the arena's page), not a {kind} one")


def _rotations(seats: int, asked: int | None, people: Sequence[str]) -> int:
    """A set's matches: one per seat (duplicate), or one for a table where a person
    sits (``schedule_set``), ``asked`` when given and allowed."""
    if not people:
        return seats if asked is None else asked
    if asked not in (None, 1):
        raise Refused(
            f"{', '.join(sorted(people))} is played by a person: a set of one match, not {asked}"
        )
    return 1


def _teams_and_faults(
    record: Json, seat_bot: dict[int, int]
) -> tuple[list[list[int]], dict[int, int]]:
    """Per side of the record, the bots deciding for its seats (partners are a team);
    and per bot, the faults of the seats it decides for. A seat no bot decides for
    (Maraffa's dummy) is its side's one bot's. ``Refused`` when the record's sides do
    not hold the match's bots, each on one side."""
    sides: list[Any] = record.get("sides") or []
    teams: list[list[int]] = []
    side_of_seat: dict[int, int] = {}
    for index, side in enumerate(sides):
        seats = [int(seat) for seat in side.get("seats") or []]
        team = sorted({seat_bot[seat] for seat in seats if seat in seat_bot})
        if not team:
            raise Refused(f"the record's side {index} has none of the match's bots")
        side_of_seat.update(dict.fromkeys(seats, index))
        teams.append(team)
    placed = [bot for team in teams for bot in team]
    if sorted(placed) != sorted(set(seat_bot.values())):
        raise Refused("the record's sides do not hold the match's bots, each on one side")
    faults: dict[int, int] = {}
    for fault in record.get("faults") or []:
        seat = int(fault["seat"])
        bot = seat_bot.get(seat)
        if bot is None:
            team = teams[side_of_seat[seat]] if seat in side_of_seat else []
            if len(team) != 1:
                raise Refused(f"a fault at seat {seat}, which no bot of the match decides for")
            bot = team[0]
        faults[bot] = faults.get(bot, 0) + 1
    return teams, faults


def _lock_ratings(s: Session, bots: set[int]) -> dict[int, Rating]:
    """``bots``' ratings, locked till the transaction ends (in one order for all)."""
    return {
        r.bot_id: r
        for r in s.scalars(
            select(Rating)
            .where(Rating.bot_id.in_(sorted(bots)))
            .order_by(Rating.bot_id)
            .with_for_update()
        )
    }


def _rate_sets(s: Session, matches: Sequence[Match]) -> None:
    """Rate the sets of ``matches`` (just voided) that this ends (``_rate_set``)."""
    s.flush()
    now = utcnow()
    for set_id in sorted({m.set_id for m in matches}):
        _rate_set(s, set_id, now)


def _rate_set(s: Session, set_id: str, now: datetime) -> bool:
    """Rate the duplicate set ``set_id`` if it is over (none of its matches scheduled
    or in play), has a finished match and is not rated yet: one OpenSkill update of its
    teams, ranked by ``duplicate.set_ranks`` over its finished matches, carried by the
    rating rows of its latest finished match (their before, after and time). A voided
    match leaves the set rated on the others. Its matches are read before its mark
    (``SetRating``), so that two transactions ending its last matches at once leave it
    to ``Store.rate_closed_sets`` rather than both rating it: neither sees it over,
    and a transaction that does see it over sees the other's mark (read committed)."""
    statuses = set(s.scalars(select(Match.status).where(Match.set_id == set_id)))
    if statuses & {SCHEDULED, PLAYING} or FINISHED not in statuses:
        return False  # a finish reads no record before its set is over
    if s.scalar(select(SetRating.set_id).where(SetRating.set_id == set_id)) is not None:
        return False
    finished = list(
        s.scalars(
            select(Match)
            .where(Match.set_id == set_id, Match.status == FINISHED)
            .order_by(Match.set_index)
        )
    )
    seat_bot: dict[str, dict[int, int]] = {m.id: {} for m in finished}
    for match_id, seat, bot_id in s.execute(
        select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.bot_id).where(
            MatchSeat.match_id.in_(sorted(seat_bot))
        )
    ):
        seat_bot[match_id][seat] = bot_id
    teams: list[list[list[int]]] = []
    scores: list[list[float]] = []
    for match in finished:
        assert match.record is not None  # a finished match has its record
        teams.append(_teams_and_faults(match.record, seat_bot[match.id])[0])
        scores.append(match_scores(match.record))
    try:
        order, ranks = set_ranks(teams, scores)
    except NotOneSet as e:
        raise Refused(f"set {set_id}: {e}") from e
    ratings = _lock_ratings(s, {bot for team in order for bot in team})
    carrier = max(finished, key=lambda m: (m.finished_at or now, m.set_index))
    rows = {
        u.bot_id: u
        for u in s.scalars(select(RatingUpdate).where(RatingUpdate.match_id == carrier.id))
    }
    model = rating_model()
    before = [[model.rating(ratings[b].mu, ratings[b].sigma, str(b)) for b in t] for t in order]
    after = model.rate(before, ranks=ranks)
    for team, olds, news in zip(order, before, after, strict=True):
        for bot_id, old, new in zip(team, olds, news, strict=True):
            rating = ratings[bot_id]
            rating.mu, rating.sigma, rating.updated_at = new.mu, new.sigma, now
            row = rows[bot_id]
            row.before, row.after = Skill(old.mu, old.sigma), Skill(new.mu, new.sigma)
            row.created_at = now
    s.add(SetRating(set_id=set_id, match_id=carrier.id, rated_at=now))
    s.flush()
    return True


def _status_in(*statuses: str) -> ColumnElement[bool]:
    """``Match.status`` is one of ``statuses`` (the code's constants, never a caller's
    value), written into the statement: PostgreSQL then plans the statement once and
    keeps the plan, where a parameter has it plan every call anew (only a status's own
    value says how few matches are in play, against all those finished)."""
    return Match.status.in_(
        bindparam("status", list(statuses), expanding=True, literal_execute=True, unique=True)
    )


def _bots_in_play(s: Session, statuses: tuple[str, ...] = (PLAYING,)) -> set[int]:
    """The bots (by id) seated at a table in play now (or in a match of ``statuses``):
    found from those matches (a few, by the status index), not from each bot's seats,
    which keep every game."""
    return set(
        s.scalars(
            select(MatchSeat.bot_id)
            .join(Match, Match.id == MatchSeat.match_id)
            .where(_status_in(*statuses))
        )
    )


def _seats_one_kept_out(busy: set[int], here: set[int]) -> ColumnElement[bool]:
    """Whether a match (``Match``, in the query around it) seats a bot of ``busy`` or a
    dial-in bot not in ``here``."""
    away = Bot.kind == DIAL_IN
    if here:
        away = away & Bot.id.not_in(sorted(here))
    kept_out = or_(MatchSeat.bot_id.in_(sorted(busy)), away) if busy else away
    return (
        select(MatchSeat.match_id)
        .join(Bot, Bot.id == MatchSeat.bot_id)
        .where(MatchSeat.match_id == Match.id, kept_out)
        .exists()
    )


def _hold(s: Session, bots: set[int]) -> bool:
    """Lock ``bots``' rows until the transaction ends, waiting for none: False when
    another transaction holds one (a claim or a set being stored). NO KEY UPDATE
    leaves the foreign keys to them free (a rating update, a match's seats)."""
    held = s.scalars(
        select(Bot.id)
        .where(Bot.id.in_(bots))
        .order_by(Bot.id)
        .with_for_update(skip_locked=True, key_share=True)
    ).all()
    return set(held) == bots


def _hold_free(s: Session, bots: set[int]) -> None:
    """Lock ``bots``' rows until the transaction ends (``Busy`` when another holds one)
    and check that none is seated in a match scheduled or in play."""
    if not _hold(s, bots):
        raise Busy("a bot of this set is being seated or claimed by another process")
    taken = bots & _bots_in_play(s, (SCHEDULED, PLAYING))
    if taken:
        seated = s.scalar(select(Bot.name).where(Bot.id == min(taken)))
        raise Busy(f"{seated} is seated in a match scheduled or in play")


def _in_play(s: Session, bots: set[int]) -> bool:
    """Whether one of ``bots`` sits at a table in play."""
    return not bots.isdisjoint(_bots_in_play(s))


def _check_pause(limit: int, window: int) -> None:
    if not 1 <= limit <= window:
        raise Refused(f"pause after 1 to {window} faulty matches of {window}, not {limit}")


def _pause_faulty(
    s: Session, match_id: str, limit: int, window: int, only: set[int] | None = None
) -> dict[str, str]:
    """``Store.pause_faulty`` in the transaction ``s``; for the bots (ids) ``only``
    when given."""
    paused: dict[str, str] = {}
    now = utcnow()
    query = (
        select(Bot)
        .join(MatchSeat, MatchSeat.bot_id == Bot.id)
        .where(MatchSeat.match_id == match_id, Bot.paused_reason.is_(None))
        .order_by(Bot.id)
        .with_for_update(of=Bot)
    )
    if only is not None:
        query = query.where(Bot.id.in_(only))
    bots = s.scalars(query).all()
    for bot in dict.fromkeys(bots):  # a bot of two seats once
        recent = s.execute(
            select(RatingUpdate.match_id, RatingUpdate.faults)
            .where(RatingUpdate.bot_id == bot.id)
            .order_by(RatingUpdate.id.desc())
            .limit(window)
        ).all()
        faulty = [(m, f) for m, f in recent if f > 0]
        if len(faulty) >= limit:
            total = sum(f for _m, f in faulty)
            bot.paused_reason = (
                f"{total} faults in {len(faulty)} of its last {len(recent)} matches "
                f"(the last in {faulty[0][0]})"
            )
            bot.paused_at = now
            paused[bot.name] = bot.paused_reason
    return paused
