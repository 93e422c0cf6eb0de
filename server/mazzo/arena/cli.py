"""``mazzo arena VERB``: the arena from the command line (docs/arena.md).

``migrate`` makes or updates the schema; ``add-owner``, ``add-ladder`` and ``add-bot``
enter what the arena plays (a token is printed once: only its hash is kept);
``person`` marks a dial-in bot as played by a person (or, ``--off``, by a program);
``pause``/``resume`` take a bot out of the schedule and back; ``run`` schedules and
plays until told to stop; ``serve`` does too, with the arena's API (``serve.py``);
``standings`` prints a ladder. Every verb takes ``--db URL``
(or ``MAZZO_ARENA_DB``; default ``sqlite:///arena.db``).

A database error is one line naming the database without its password, never a
traceback with SQL in it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mazzo.gateway.origins import origin_argument

if TYPE_CHECKING:  # the verbs import the database's modules when they run, not before
    from mazzo.arena.run import Settings, Summary
    from mazzo.arena.store import LadderInfo, Standing, Store

#: A person's clock by default: ``run.PERSON_CLOCK``'s (run imports the database's
#: modules, so not before a verb runs; a test holds the two equal).
PERSON_MOVE, PERSON_BANK = 300.0, 1800.0

#: The subparsers' container ``mazzo.cli`` hands in (``argparse._SubParsersAction``).
Verbs = Any


def add_arguments(verbs: Verbs) -> None:
    """The arena's verbs, added to ``mazzo arena``'s subparsers."""
    migrate = verbs.add_parser(
        "migrate", help="make or update the arena's schema (nothing to do: says so)"
    )
    _db(migrate)
    owner = verbs.add_parser("add-owner", help="enter an owner; prints its token (once)")
    owner.add_argument("name")
    _db(owner)
    ladder = verbs.add_parser(
        "add-ladder", help="make a ladder (game, players, options); prints its id"
    )
    ladder.add_argument("game")
    ladder.add_argument("--players", type=int, default=0, help="default: the game's")
    ladder.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, as for mazzo match (repeatable), e.g. target=41",
    )
    _db(ladder)
    bot = verbs.add_parser("add-bot", help="enter an owner's bot on a ladder; prints its token")
    bot.add_argument("owner")
    bot.add_argument("name")
    bot.add_argument("--ladder", type=int, required=True, metavar="ID")
    bot.add_argument(
        "--target",
        default="",
        metavar="SPEC",
        help="builtin:NAME or grpc://HOST:PORT; none: a dial-in bot (it connects to "
        "mazzo arena serve's gateway with the token printed)",
    )
    bot.add_argument(
        "--person",
        action="store_true",
        help="a person plays it (a dial-in bot, on the arena's /play/ page): its seats get "
        "the person's clock (serve --person-move-time, --person-bank), its tables unpaired deals",
    )
    _db(bot)
    person = verbs.add_parser(
        "person", help="mark a dial-in bot as played by a person (--off: by a program)"
    )
    person.add_argument("bot")
    person.add_argument("--off", action="store_true", help="a program plays it again")
    _db(person)
    for verb, what in (("pause", "take a bot out of the schedule"), ("resume", "put it back")):
        one = verbs.add_parser(verb, help=what)
        one.add_argument("bot")
        if verb == "pause":
            one.add_argument("--reason", default="paused by hand")
        _db(one)
    run = verbs.add_parser(
        "run", help="schedule and play builtin bots' matches until N are finished or Ctrl-C"
    )
    run.add_argument("--workers", type=_positive, default=1, help="matches at once (default 1)")
    run.add_argument(
        "--matches", type=_positive, default=None, help="stop once N matches are finished"
    )
    run.add_argument("--seed", type=int, default=None, help="seeds matchmaking's draws")
    run.add_argument(
        "--queue",
        type=_positive,
        default=None,
        help="matches scheduled or in play per ladder (default: twice the workers, at least 4)",
    )
    run.add_argument(
        "--wait",
        action="store_true",
        help="keep waiting when nothing can be played (default: stop, saying why)",
    )
    _db(run)
    serve = verbs.add_parser(
        "serve", help="serve the arena's API (gRPC and HTTP/JSON) and play its matches"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=50061, help="gRPC port (0: a free one)")
    serve.add_argument("--http-port", type=int, default=8061, help="HTTP/JSON port (0: a free one)")
    serve.add_argument(
        "--gateway-port",
        type=int,
        default=50062,
        help="the dial-in gateway's port, where dial-in bots connect with their token "
        "(0: a free one)",
    )
    serve.add_argument(
        "--grace",
        type=float,
        default=10.0,
        help="seconds a dropped dial-in bot may take to come back (default 10)",
    )
    serve.add_argument(
        "--admin-token-file",
        metavar="PATH",
        help="a file holding the admin token (CreateOwner's); env MAZZO_ARENA_ADMIN_TOKEN; "
        "default: a new one, printed once at start",
    )
    serve.add_argument(
        "--workers", type=int, default=1, help="matches played at once (0: serve only)"
    )
    serve.add_argument(
        "--move-time",
        type=float,
        default=1.0,  # the referee's TimeControl, as mazzo match's
        help="seconds per move of a bot (default 1)",
    )
    serve.add_argument(
        "--bank",
        type=float,
        default=10.0,
        help="time bank per seat and match of a bot (default 10)",
    )
    serve.add_argument(
        "--person-move-time",
        type=float,
        default=PERSON_MOVE,
        help=f"seconds per move of a bot played by a person (add-bot --person; the bots "
        f"at its table keep --move-time; default {PERSON_MOVE:g})",
    )
    serve.add_argument(
        "--person-bank",
        type=float,
        default=PERSON_BANK,
        help=f"time bank per match of a bot played by a person (default {PERSON_BANK:g})",
    )
    serve.add_argument(
        "--web-url",
        metavar="URL",
        default=os.environ.get("MAZZO_ARENA_WEB_URL") or None,
        help="where the other arena processes on this database reach this one's pages, "
        "to show its live tables (env MAZZO_ARENA_WEB_URL; default: http://HOST:HTTP_PORT, "
        "with this host's own address when --host listens on all)",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        type=origin_argument,
        metavar="ORIGIN",
        help="a web page's origin that may call the gateway's HTTP door on the HTTP port "
        "(/v1/tables:join and :answer; scheme://host[:port], or * for any; repeat for more): "
        "a dial-in bot written as a page on another site",
    )
    serve.add_argument("--rate", type=_positive, default=120, help="calls a minute per token")
    serve.add_argument("--seed", type=int, default=None, help="seeds matchmaking's draws")
    _db(serve)
    standings = verbs.add_parser("standings", help="a ladder's standings (mu - 3 sigma)")
    standings.add_argument("--ladder", type=int, required=True, metavar="ID")
    _db(standings)


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database: sqlite:///FILE or postgresql+psycopg://USER@HOST:PORT/DB "
        "(env MAZZO_ARENA_DB; default sqlite:///arena.db)",
    )


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of 1 or more")
    return int(text)


@contextlib.contextmanager
def _database(url: str) -> Iterator[None]:
    """Database errors as one line: the driver's message (its first line: no SQL, no
    parameters) and the URL after its credentials."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        yield
    except (ArgumentError, SQLAlchemyError) as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise ValueError(f"arena database {url.split('@')[-1]}: {reason}") from None


def main(args: argparse.Namespace) -> int:
    """Run ``mazzo arena VERB``; its errors are ``ValueError`` (``mazzo: ...``, exit 2)."""
    from mazzo.arena import schema

    url = args.db or os.environ.get("MAZZO_ARENA_DB") or schema.DEFAULT_URL
    with _database(url):
        if args.verb == "migrate":
            return _migrate(url)
        from mazzo.arena.store import Store

        with Store(url) as store:
            return _VERBS[args.verb](store, args)


def _migrate(url: str) -> int:
    from sqlalchemy import make_url

    from mazzo.arena import schema

    shown = make_url(url).render_as_string(hide_password=True)
    engine = schema.make_engine(url)
    try:
        before = schema.current(engine)
        schema.upgrade(engine=engine)
        after = schema.current(engine)
    finally:
        engine.dispose()
    done = "up to date" if before == after else f"migrated from {before or 'nothing'}"
    print(f"{shown}: at revision {after}, {done}")
    return 0


def _add_owner(store: Store, args: argparse.Namespace) -> int:
    made = store.add_owner(args.name)
    print(f"owner {made.name}; token (shown once, only its hash is kept): {made.token}")
    return 0


def _add_ladder(store: Store, args: argparse.Namespace) -> int:
    from mazzo.arena.scheduler import ladder_sides
    from mazzo.arena.store import LadderInfo
    from mazzo.games.registry import GAMES
    from mazzo.referee.engine import players_for

    if args.game not in GAMES:
        raise ValueError(f"unknown game {args.game!r}: one of {', '.join(sorted(GAMES))}")
    players = players_for(args.game, args.players)
    options: dict[str, Any] = {}
    for setting in args.option:
        name, sep, text = setting.partition("=")
        if not sep or not name:
            raise ValueError(f"{setting!r}: an option is NAME=VALUE")
        options[name] = _value(text)
    # The rules refuse bad options, and the arena a form it cannot seat, now.
    sides = ladder_sides(LadderInfo(0, args.game, players, options))
    ladder = store.add_ladder(args.game, players, options)
    print(f"{ladder_line(LadderInfo(ladder, args.game, players, options))}; sides {sides}")
    return 0


def _value(text: str) -> Any:
    """A setting's value as ``options_json`` reads it: JSON when it parses, else text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _add_bot(store: Store, args: argparse.Namespace) -> int:
    from mazzo.arena.models import BUILTIN, DIAL_IN, GRPC
    from mazzo.referee.bots import BotSpec

    target = args.target
    kind = DIAL_IN if not target else BUILTIN if target.startswith("builtin:") else GRPC
    if kind == BUILTIN:
        BotSpec.parse(target)  # an unknown builtin: refused now, not at its first match
    made = store.add_bot(args.owner, args.name, args.ladder, kind, target, args.person)
    played = ", played by a person" if args.person else ""
    print(
        f"bot {made.name} ({kind}{played}); token (shown once, only its hash is kept): {made.token}"
    )
    return 0


def _person(store: Store, args: argparse.Namespace) -> int:
    store.set_person(args.bot, not args.off)
    print(f"{args.bot}: played by {'a program' if args.off else 'a person'}")
    return 0


def _pause(store: Store, args: argparse.Namespace) -> int:
    store.pause_bot(args.bot, args.reason if args.verb == "pause" else None)
    print(f"{args.bot}: {'paused: ' + args.reason if args.verb == 'pause' else 'back in'}")
    return 0


def _standings(store: Store, args: argparse.Namespace) -> int:
    ladder = store.ladder(args.ladder)
    print(ladder_line(ladder))
    print(standings_table(store.standings(ladder.id)))
    return 0


def ladder_line(ladder: LadderInfo) -> str:
    """``ladder 1: maraffa 4p, target=41``."""
    shown = " ".join(f"{k}={json.dumps(v)}" for k, v in ladder.options.items())
    return f"ladder {ladder.id}: {ladder.game} {ladder.players}p, {shown or 'default options'}"


def standings_table(rows: Sequence[Standing]) -> str:
    """The standings as aligned text: rank, bot, owner, mu - 3 sigma, mu, sigma,
    games, faults, and why a bot is paused."""
    lines = [
        f"{'#':>3} {'bot':<20} {'owner':<12} {'rating':>7} {'mu':>6} {'sigma':>6} games faults"
    ]
    for rank, row in enumerate(rows, 1):
        line = (
            f"{rank:>3} {row.bot:<20} {row.owner:<12} {row.ordinal:>7.2f} {row.mu:>6.2f} "
            f"{row.sigma:>6.2f} {row.games:>5} {row.faults:>6}"
        )
        lines.append(line + (f"  paused: {row.paused_reason}" if row.paused_reason else ""))
    return "\n".join(lines)


def _run(store: Store, args: argparse.Namespace) -> int:
    from mazzo.arena.run import Settings

    settings = Settings(
        workers=args.workers,
        matches=args.matches,
        queue=args.queue,
        seed=args.seed,
        until_idle=not args.wait,
    )
    summary = asyncio.run(_run_until_signal(store, settings))
    print(
        f"{summary.why}: {summary.finished} finished, {summary.voided} voided, "
        f"{summary.lost} lost, {summary.stale} stale claims voided, "
        f"{len(summary.paused)} bots paused"
    )
    for ladder in store.ladders():
        print(ladder_line(ladder))
        print(standings_table(store.standings(ladder.id)))
    return 0


async def _run_until_signal(store: Store, settings: Settings) -> Summary:
    """The run, stopped by Ctrl-C or SIGTERM: the matches in play are voided, saying
    so, and the standings printed."""
    from mazzo.arena.run import run_arena

    with _stopped_by_signals() as stop:
        return await run_arena(store, settings, lambda line: print(line, flush=True), stop)


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[asyncio.Event]:
    """An event set by Ctrl-C or SIGTERM while inside (the handlers are this event
    loop's, removed on leaving); where signals cannot be taken, never set by them."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    try:
        yield stop
    finally:
        for signum in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)


def _serve(store: Store, args: argparse.Namespace) -> int:
    from mazzo.arena.api import Limits
    from mazzo.arena.run import Settings
    from mazzo.gateway.tokens import TokenBook, token_hash
    from mazzo.referee.match import TimeControl

    if args.workers < 0:
        raise ValueError(f"--workers {args.workers}: 0 (serve only) or more")
    if not args.grace >= 0:
        raise ValueError(f"--grace {args.grace}: 0 seconds or more")
    if args.web_url is not None and not _is_web_url(args.web_url):
        raise ValueError(f"--web-url {args.web_url!r}: an http:// or https:// URL of a host")
    for prefix in ("", "person_"):
        move, bank = getattr(args, f"{prefix}move_time"), getattr(args, f"{prefix}bank")
        flag = "--" + prefix.replace("_", "-")
        if not (move > 0 and bank >= 0):
            raise ValueError(f"{flag}move-time {move}, {flag}bank {bank}: above 0, 0 or more")
    token = os.environ.get("MAZZO_ARENA_ADMIN_TOKEN", "")
    if args.admin_token_file:
        with open(args.admin_token_file, encoding="utf-8") as file:
            token = file.read().strip()
        if not token:
            raise ValueError(f"{args.admin_token_file}: holds no token")
    book = TokenBook()
    if token:
        book.hashes["admin"] = token_hash(token)
    else:
        token = book.new("admin")
        print(f"admin token (shown once, only its hash is kept): {token}", flush=True)
    play = None
    if args.workers:
        play = Settings(
            workers=args.workers,
            seed=args.seed,
            until_idle=False,
            clock=TimeControl(args.move_time, args.bank),
            person_clock=TimeControl(args.person_move_time, args.person_bank),
        )
    limits = Limits(rate=args.rate)
    return asyncio.run(_serve_until_signal(store, args, book.hashes["admin"], limits, play))


def _is_web_url(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query


async def _serve_until_signal(
    store: Store, args: argparse.Namespace, admin_hash: str, limits: Any, play: Settings | None
) -> int:
    from mazzo.arena import serve
    from mazzo.gateway.server import Limits as GatewayLimits

    # The signals are ours before the ports are printed: a supervisor that stops the
    # arena as soon as it has read them gets the graceful stop too.
    with _stopped_by_signals() as stop:
        served = await serve.start(
            store,
            args.host,
            args.port,
            args.http_port,
            admin_hash,
            limits,
            (),
            play,
            lambda line: print(line, flush=True),
            args.gateway_port,
            GatewayLimits(grace=args.grace),
            pages=True,
            web_url=args.web_url,
            cors=args.cors_origin or (),
        )
        try:
            print(
                f"arena API: gRPC on {args.host}:{served.port}, "
                f"HTTP on {args.host}:{served.http_port}"
                f"{'' if play else ' (not playing: --workers 0)'}",
                flush=True,
            )
            print(f"gateway: grpc://{args.host}:{served.gateway_port}", flush=True)
            waiting: list[asyncio.Future[Any]] = [asyncio.create_task(stop.wait())]
            if served.play is not None:
                waiting.append(served.play)
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            waiting[0].cancel()
        finally:
            summary = await serve.stop(served)
    if summary is not None:
        print(f"{summary.why}: {summary.finished} finished, {summary.voided} voided", flush=True)
    return 0


_VERBS: dict[str, Callable[[Store, argparse.Namespace], int]] = {
    "add-owner": _add_owner,
    "add-ladder": _add_ladder,
    "add-bot": _add_bot,
    "person": _person,
    "pause": _pause,
    "resume": _pause,
    "run": _run,
    "serve": _serve,
    "standings": _standings,
}
