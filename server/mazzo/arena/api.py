"""The arena's API (``mazzo.v1.Arena``): one servicer for gRPC and REST alike.

Who may do what is decided here, once, for both doors: REST handlers get the same
``invocation_metadata`` and ``peer`` (``service.rest.HttpContext``) as gRPC ones.

- **Tokens** come as ``authorization: Bearer TOKEN``. The admin token (given to
  ``mazzo arena serve``, kept as its SHA-256) may create owners; an owner's token acts
  for that owner and its bots only; a bot's own token is for dialing in and acts for
  nobody here. Tokens are compared through ``gateway.tokens.TokenBook``
  (``hmac.compare_digest``) and stored hashed (``Store``).
- **Refusals:** no token or an unknown one is UNAUTHENTICATED; another owner's name
  or bot is PERMISSION_DENIED, decided before looking the name up, so a token learns
  nothing of what it may not touch; bad input is INVALID_ARGUMENT (FAILED_PRECONDITION
  for a name taken) with the field named (``core.errors``, mapped by
  ``service.errors``).
- **Rate limits** (``gateway.server.RateLimit``, a sliding window): each token has
  its own, calls without a token and the public reads share their address's; a
  refusal is ``Busy``, i.e. RESOURCE_EXHAUSTED with a ``RetryInfo`` (HTTP 429 with
  Retry-After). Failed authentications count against the address too, so guessing
  tokens is slow and costs the database nothing once the address is over its limit.
- **Reads** are the web pages' (``arena.queries``), so the API shows and withholds
  what the pages do: a fault's detail stays empty until its duplicate set is over.
"""

from __future__ import annotations

import asyncio
import base64
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from google.rpc import code_pb2

from mazzo.arena import queries
from mazzo.arena.chart import thin
from mazzo.arena.models import DIAL_IN, GRPC
from mazzo.arena.scheduler import Unplayable, ladder_sides
from mazzo.arena.store import BotInfo, LadderInfo, Refused, Store
from mazzo.core.errors import InvalidArgument, NotAllowedNow
from mazzo.gateway.server import RateLimit, peer_host
from mazzo.gateway.tokens import TokenBook, check_name, token_hash
from mazzo.service.errors import Denied
from mazzo.service.simulator import Busy
from mazzo.v1 import arena_pb2, arena_pb2_grpc

T = TypeVar("T")

#: The longest pause reason an owner may give.
MAX_REASON = 500
#: A bot page's games: 50 unless asked, at most 500; its faults, 200 a page (whole matches').
DEFAULT_GAMES, MAX_GAMES = 50, 500
#: A page token's length at most: a match id's (64 characters) in base64.
MAX_PAGE_TOKEN = 128
MAX_FAULTS = 200
#: A bot page's rating history: at most this many points, evenly spread over its games.
MAX_HISTORY = 1000
GRPC_TARGET = re.compile(r"grpc://[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}")


@dataclass(frozen=True)
class Limits:
    """Calls per token (or per address without one) in a sliding window, and failed
    authentications per address in the same window."""

    rate: int = 120
    window: float = 60.0
    failures: int = 20


DEFAULT_LIMITS = Limits()


class ArenaApi(arena_pb2_grpc.ArenaServicer):
    """``mazzo.v1.Arena`` on ``store``; ``admin_hash`` is the SHA-256 of the admin
    token (None: no admin, owners are made with ``mazzo arena add-owner`` only)."""

    def __init__(
        self, store: Store, admin_hash: str | None = None, limits: Limits = DEFAULT_LIMITS
    ) -> None:
        self.store = store
        self.admin = TokenBook({"admin": admin_hash} if admin_hash else {})
        self.limits = limits
        self.calls = RateLimit(limits.rate, limits.window)
        self.failures = RateLimit(limits.failures, limits.window)

    # Who calls ---------------------------------------------------------------------

    def _admitted(self, context: Any, public: bool = False) -> str:
        """The call's token ("" for none), once the rate limits admit the call. A
        ``public`` read checks no token, so it counts against the caller's address
        whatever token it carries: a new made-up token per call gains nothing."""
        token = _bearer(context)
        host = _host(context)
        key = f"token:{token_hash(token)}" if token and not public else f"address:{host}"
        wait = self.calls.admit(key)
        if wait > 0:
            whose = "this token" if token and not public else f"calls from {host}"
            raise Busy(
                f"rate limit: {whose} made {self.limits.rate} calls in "
                f"{self.limits.window:g} s; try again in {math.ceil(wait)} s",
                max(1, math.ceil(wait)),
            )
        return token

    def _failed(self, context: Any, why: str) -> Denied:
        """UNAUTHENTICATED, counted against the caller's address; once the address is
        over its limit of failures, RESOURCE_EXHAUSTED until the window moves on."""
        host = _host(context)
        wait = self.failures.admit(host)
        if wait > 0:
            raise self._too_many_failures(host, wait)
        return Denied(code_pb2.UNAUTHENTICATED, why)

    def _too_many_failures(self, host: str, wait: float) -> Busy:
        return Busy(
            f"rate limit: {self.limits.failures} failed authentications from {host} in "
            f"{self.limits.window:g} s; try again in {math.ceil(wait)} s",
            max(1, math.ceil(wait)),
        )

    async def _owner(self, context: Any) -> str:
        """The owner whose token the call carries."""
        token = self._admitted(context)
        if not token:
            raise self._failed(context, "this call needs an owner's token (authorization: Bearer)")
        host = _host(context)
        wait = self.failures.waiting(host)
        if wait > 0:  # refused before the database is asked
            raise self._too_many_failures(host, wait)
        owner = await _thread(self.store.find_owner, token)
        if owner is None:
            raise self._failed(context, "not an owner's token")
        return owner

    async def _acting_for(self, context: Any, owner: str) -> str:
        """The caller, who must be ``owner``: checked before ``owner`` is looked up."""
        caller = await self._owner(context)
        if caller != owner:
            raise Denied(code_pb2.PERMISSION_DENIED, f"this token does not act for {owner!r}")
        return caller

    async def _own_bot(self, context: Any, bot: str) -> queries.BotLine:
        """The caller's bot named ``bot``."""
        caller = await self._owner(context)
        _name("bot", bot)
        found = await _thread(queries.bot, self.store, bot)
        if found is None or found.owner != caller:
            # Not yours and not there are one answer: a token learns nothing of others.
            raise Denied(code_pb2.PERMISSION_DENIED, f"this token does not act for bot {bot!r}")
        return found

    # Owners and tokens ---------------------------------------------------------------

    async def CreateOwner(
        self, request: arena_pb2.CreateOwnerRequest, context: Any
    ) -> arena_pb2.CreateOwnerResponse:
        token = self._admitted(context)
        if not token or self.admin.who(token, "admin") is None:
            raise self._failed(context, "creating an owner needs the arena's admin token")
        _name("name", request.name)
        try:
            made = await _thread(self.store.add_owner, request.name)
        except Refused as e:
            raise NotAllowedNow("name", str(e)) from None
        return arena_pb2.CreateOwnerResponse(owner=made.name, token=made.token)

    async def RotateOwnerToken(
        self, request: arena_pb2.RotateOwnerTokenRequest, context: Any
    ) -> arena_pb2.RotateOwnerTokenResponse:
        owner = await self._acting_for(context, request.owner)
        token = await _thread(self.store.new_owner_token, owner)
        if token is None:  # the owner went away between the two transactions
            raise Denied(code_pb2.NOT_FOUND, f"no owner {owner!r}")
        return arena_pb2.RotateOwnerTokenResponse(owner=owner, token=token)

    async def RotateBotToken(
        self, request: arena_pb2.RotateBotTokenRequest, context: Any
    ) -> arena_pb2.RotateBotTokenResponse:
        bot = await self._own_bot(context, request.bot)
        token = await _thread(self.store.new_bot_token, bot.name)
        if token is None:
            raise Denied(code_pb2.NOT_FOUND, f"no bot {bot.name!r}")
        return arena_pb2.RotateBotTokenResponse(bot=bot.name, token=token)

    # Bots ----------------------------------------------------------------------------

    async def ListOwnerBots(
        self, request: arena_pb2.ListOwnerBotsRequest, context: Any
    ) -> arena_pb2.ListOwnerBotsResponse:
        token = _bearer(context)
        await self._acting_for(context, request.owner)
        bots = await _thread(self.store.owner_bots, token)
        return arena_pb2.ListOwnerBotsResponse(bots=[_bot(b) for b in bots])

    async def RegisterBot(
        self, request: arena_pb2.RegisterBotRequest, context: Any
    ) -> arena_pb2.RegisterBotResponse:
        owner = await self._acting_for(context, request.owner)
        _name("name", request.name)
        ladder = _ladder_of(request)
        kind = _kind(request.target)
        if request.person and kind != DIAL_IN:
            raise InvalidArgument("person", "a person plays a bot that dials in (no target)")
        try:
            ladder_id = await _thread(
                self.store.add_ladder, ladder.game, ladder.players, ladder.options
            )
            made = await _thread(
                self.store.add_bot,
                owner,
                request.name,
                ladder_id,
                kind,
                request.target,
                request.person,
            )
        except Refused as e:
            raise NotAllowedNow("name", str(e)) from None
        bot = BotInfo(made.name, owner, ladder_id, kind, request.target, None, request.person)
        return arena_pb2.RegisterBotResponse(bot=_bot(bot), token=made.token)

    async def PauseBot(
        self, request: arena_pb2.PauseBotRequest, context: Any
    ) -> arena_pb2.PauseBotResponse:
        bot = await self._own_bot(context, request.bot)
        if len(request.reason) > MAX_REASON:
            raise InvalidArgument("reason", f"at most {MAX_REASON} characters")
        reason = request.reason.strip() or "paused by its owner"
        await _thread(self.store.pause_bot, bot.name, reason)
        return arena_pb2.PauseBotResponse(bot=await self._bot_now(bot.name))

    async def SetBotPerson(
        self, request: arena_pb2.SetBotPersonRequest, context: Any
    ) -> arena_pb2.SetBotPersonResponse:
        bot = await self._own_bot(context, request.bot)
        if request.person and bot.kind != DIAL_IN:
            raise InvalidArgument("person", f"a person plays a bot that dials in, not a {bot.kind}")
        await _thread(self.store.set_person, bot.name, request.person)
        return arena_pb2.SetBotPersonResponse(bot=await self._bot_now(bot.name))

    async def ResumeBot(
        self, request: arena_pb2.ResumeBotRequest, context: Any
    ) -> arena_pb2.ResumeBotResponse:
        bot = await self._own_bot(context, request.bot)
        await _thread(self.store.pause_bot, bot.name, None)
        return arena_pb2.ResumeBotResponse(bot=await self._bot_now(bot.name))

    async def _bot_now(self, name: str) -> arena_pb2.ArenaBot:
        found = await _thread(queries.bot, self.store, name)
        if found is None:
            raise Denied(code_pb2.NOT_FOUND, f"no bot {name!r}")
        return _bot(found)

    # Reads (public) --------------------------------------------------------------------

    async def ListLadders(
        self, request: arena_pb2.ListLaddersRequest, context: Any
    ) -> arena_pb2.ListLaddersResponse:
        self._admitted(context, public=True)
        lines = await _thread(queries.ladder_lines, self.store)
        return arena_pb2.ListLaddersResponse(
            ladders=[_ladder(line.ladder, line.bots) for line in lines]
        )

    async def GetStandings(
        self, request: arena_pb2.GetStandingsRequest, context: Any
    ) -> arena_pb2.GetStandingsResponse:
        self._admitted(context, public=True)
        ladder = await self._ladder(request.ladder_id)
        lines = await _thread(queries.standings, self.store, ladder.id)
        return arena_pb2.GetStandingsResponse(
            ladder=_ladder(ladder, len(lines)),
            standings=[_standing(rank, line) for rank, line in enumerate(lines, 1)],
        )

    async def GetBot(
        self, request: arena_pb2.GetBotRequest, context: Any
    ) -> arena_pb2.GetBotResponse:
        self._admitted(context, public=True)
        _name("bot", request.bot)
        if request.opponent:
            _name("opponent", request.opponent)
        if request.limit > MAX_GAMES:
            raise InvalidArgument("limit", f"at most {MAX_GAMES} games, not {request.limit}")
        after = _page_start(request.page_token) if request.page_token else None
        faults_after = (
            _page_start(request.faults_page_token, "faults_page_token")
            if request.faults_page_token
            else None
        )
        bot = await _thread(queries.bot, self.store, request.bot)
        if bot is None:
            raise Denied(code_pb2.NOT_FOUND, f"no bot {request.bot!r}")
        lines = await _thread(queries.standings, self.store, bot.ladder_id)
        standing = next(
            _standing(rank, line)
            for rank, line in enumerate(lines, 1)
            if line.standing.bot == bot.name
        )
        limit = request.limit or DEFAULT_GAMES
        try:
            games = await _thread(
                queries.bot_matches, self.store, bot, request.opponent or None, limit, after
            )
        except queries.NoSuchPage:
            raise InvalidArgument(
                "page_token", "not a page of this bot's games (with this opponent)"
            ) from None
        points = await _thread(queries.rating_history, self.store, bot.name)
        try:
            faults = await _thread(
                queries.bot_faults, self.store, bot.name, MAX_FAULTS, faults_after
            )
        except queries.NoSuchPage:
            raise InvalidArgument("faults_page_token", "not a page of this bot's faults") from None
        rated = {p.match_id: p for p in points}
        return arena_pb2.GetBotResponse(
            bot=_bot(bot),
            standing=standing,
            games=[_game(bot.name, g, rated.get(g.id)) for g in games.lines],
            next_page_token=_page_token(games.lines[-1].id) if games.more else "",
            total_games=games.total,
            history=[
                arena_pb2.RatingPoint(
                    match_id=p.match_id,
                    at=_time(p.at),
                    mu=p.mu,
                    sigma=p.sigma,
                    rating=p.mu - 3 * p.sigma,
                )
                for p in thin(points, MAX_HISTORY)
            ],
            history_total=len(points),
            faults=[
                arena_pb2.BotFault(
                    match_id=f.match_id,
                    at=_time(f.at),
                    ply=f.ply or 0,
                    seat=f.seat or 0,
                    kind=f.fault_class,
                    detail=f.detail or "",  # withheld (None) while its set is played
                )
                for f in faults.lines
            ],
            next_faults_page_token=_page_token(faults.last) if faults.more and faults.last else "",
        )

    async def _ladder(self, ladder_id: int) -> LadderInfo:
        if ladder_id == 0:
            raise InvalidArgument("ladder_id", "a ladder's id is 1 or more")
        try:
            return await _thread(self.store.ladder, ladder_id)
        except Refused:
            raise Denied(code_pb2.NOT_FOUND, f"no ladder {ladder_id}") from None


# Helpers ------------------------------------------------------------------------------


async def _thread(call: Callable[..., T], *args: Any) -> T:
    """A store call off the event loop: a slow database holds no other call."""
    return await asyncio.to_thread(call, *args)


def _bearer(context: Any) -> str:
    for name, value in (context.invocation_metadata() or ()) if context is not None else ():
        if name == "authorization":
            scheme, _, token = str(value).partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return ""


def _host(context: Any) -> str:
    """The caller's address without its port (``gateway.server.peer_host``)."""
    return peer_host(str(context.peer()) if context is not None else "unknown")


def _name(field: str, name: str) -> None:
    try:
        check_name(name)
    except ValueError as e:
        raise InvalidArgument(field, str(e)) from None


def _ladder_of(request: arena_pb2.RegisterBotRequest) -> LadderInfo:
    """The ladder a registration names, checked by the rules (game, form, options)."""
    from mazzo.games.registry import GAMES
    from mazzo.referee.engine import players_for

    if request.game not in GAMES:
        raise InvalidArgument("game", f"unknown game {request.game!r}: one of {sorted(GAMES)}")
    try:
        players = players_for(request.game, request.players)
    except ValueError as e:
        raise InvalidArgument("players", str(e)) from None
    options = {name: _value(text) for name, text in sorted(request.options.items())}
    ladder = LadderInfo(0, request.game, players, options)
    try:
        ladder_sides(ladder)
    except Unplayable as e:
        raise InvalidArgument("options" if options else "players", str(e)) from None
    return ladder


def _value(text: str) -> Any:
    """An option's value as ``mazzo arena add-ladder --option`` reads it: JSON when it
    parses, else text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _kind(target: str) -> str:
    if not target:
        return DIAL_IN
    if GRPC_TARGET.fullmatch(target):
        return GRPC
    if target.startswith("builtin:"):
        raise InvalidArgument(
            "target", "builtin bots are entered by the arena's admin (mazzo arena add-bot)"
        )
    raise InvalidArgument(
        "target", f"empty (a bot that dials in) or grpc://HOST:PORT, not {target[:100]!r}"
    )


def _bot(bot: BotInfo | queries.BotLine) -> arena_pb2.ArenaBot:
    return arena_pb2.ArenaBot(
        name=bot.name,
        owner=bot.owner,
        ladder_id=bot.ladder_id,
        kind=bot.kind,
        paused_reason=bot.paused_reason or "",
        person=bot.person,
    )


def _ladder(ladder: LadderInfo, bots: int) -> arena_pb2.ArenaLadder:
    return arena_pb2.ArenaLadder(
        id=ladder.id,
        game=ladder.game,
        players=ladder.players,
        options={name: json.dumps(value) for name, value in ladder.options.items()},
        bots=bots,
    )


def _standing(rank: int, line: queries.StandingLine) -> arena_pb2.ArenaStanding:
    row = line.standing
    return arena_pb2.ArenaStanding(
        rank=rank,
        bot=row.bot,
        owner=row.owner,
        rating=row.ordinal,
        mu=row.mu,
        sigma=row.sigma,
        rating_low=row.mu - 3 * row.sigma,
        rating_high=row.mu + 3 * row.sigma,
        games=row.games,
        faults=row.faults,
        fault_rate=line.fault_rate,
        paused_reason=row.paused_reason or "",
        person=row.person,
    )


def _game(bot: str, game: queries.MatchLine, update: queries.Point | None) -> arena_pb2.BotGame:
    """``bot``'s view of one of its matches; ``update``: what the match did to its rating
    (None until it is finished)."""
    own = [seat for seat, name in enumerate(game.seats) if name == bot]
    return arena_pb2.BotGame(
        match_id=game.id,
        set_id=game.set_id,
        set_index=game.set_index,
        status=game.status,
        finished_at=_time(game.finished_at),
        seats=game.seats,
        own_seats=own,
        won=bool(game.winning_seats.intersection(own)),
        totals=game.totals,
        rating_before=update.before_mu - 3 * update.before_sigma if update else 0.0,
        rating_after=update.mu - 3 * update.sigma if update else 0.0,
        faults=update.faults if update else 0,
        voided_reason=game.voided_reason or "",
    )


def _page_token(match_id: str) -> str:
    """A page's token: opaque to the client (the last match of the page before it)."""
    return base64.urlsafe_b64encode(match_id.encode()).decode().rstrip("=")


def _page_start(token: str, field: str = "page_token") -> str:
    """The match a page token names; ``InvalidArgument`` (on ``field``) for one this
    arena did not make."""
    try:
        if len(token) > MAX_PAGE_TOKEN:
            raise ValueError
        padded = token + "=" * (-len(token) % 4)
        return base64.b64decode(padded, altchars=b"-_", validate=True).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        raise InvalidArgument(field, "not a page token of this arena") from None


def _time(at: datetime | None) -> str:
    return at.isoformat().replace("+00:00", "Z") if at is not None else ""
