"""The ``mazzo`` command: ``serve``, ``bench``, and the referee's ``match``, ``tournament``,
``replay``, ``verify``, ``entropy`` and ``token``.

Each command imports its own modules when it runs (inside its function, on purpose):
``mazzo --version`` or ``mazzo entropy`` should not load the service, the referee's
tournaments, the viewer or the bench.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from mazzo.core.errors import RulesError
from mazzo.gateway.origins import origin_argument
from mazzo.referee import processes

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_HTTP_PORT = 8080
#: Where ``mazzo token new`` keeps the hashes and ``--gateway`` reads them.
DEFAULT_TOKENS = "mazzo-tokens.json"
#: The bots' clock and the dial-in waits of a run; with a person at the table
#: (``--bot human``), the person's seats' clock and longer waits: a person thinks for
#: minutes, reloads a page, comes back from another tab, while the bots beside them
#: keep the bots' clock. Each applies unless its option is given (docs/play.md).
CLOCK = {"move_time": 1.0, "bank": 10.0, "grace": 10.0, "dial_in_wait": 60.0}
PERSON_CLOCK = {
    "person_move_time": 300.0,
    "person_bank": 1800.0,
    "grace": 120.0,
    "dial_in_wait": 600.0,
}
#: Seconds a person's page is given, after the match, to get its last events.
PAGE_FLUSH = 1.0


def _port(text: str) -> int:
    """A port number; argparse applies this to the environment's defaults too, so a bad
    ``MAZZO_PORT`` is a one-line usage error, not a traceback."""
    value = int(text) if text.strip().isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port (0..65535), given as the option or its environment variable"
        )
    return value


def _workers(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of processes (1 or more), given as the option or "
            "MAZZO_WORKERS"
        )
    return int(text)


def _counting(what: str) -> Callable[[str], int]:
    """An option's parser for a count of ``what``, 1 or more."""

    def count(text: str) -> int:
        if not text.strip().isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what} (1 or more)")
        return int(text)

    return count


_deals = _counting("deals")


def _version() -> str:
    """The installed version and which build runs (``mazzo 0.1.0 (pure Python)``)."""
    from importlib.metadata import PackageNotFoundError, version

    from mazzo.buildinfo import current

    try:
        installed = version("mazzo")
    except PackageNotFoundError:  # run from the sources, not installed
        installed = "(not installed)"
    return f"{installed} ({current().describe()})"


class _Version(argparse.Action):
    """``--version`` on one line, as scripts read it (argparse's own action wraps a long
    line), and worked out only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and the build")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (the usage itself is a ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


#: What ``add_subparsers`` returns: each command's ``_add_COMMAND`` adds its parser to it.
_Subparsers: TypeAlias = "argparse._SubParsersAction[_Parser]"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mazzo", description="Rules service for Italian card games")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_serve(sub)
    _add_bench(sub)
    _add_match(sub)
    _add_tournament(sub)
    _add_replay(sub)
    _add_verify(sub)
    _add_entropy(sub)
    _add_view(sub)
    _add_token(sub)
    _add_arena(sub)
    return parser


def _add_serve(sub: _Subparsers) -> None:
    """Most defaults are the ``MAZZO_*`` environment variables', read when the parser
    is built."""
    serve = sub.add_parser("serve", help="serve GameService over gRPC")
    serve.add_argument(
        "--host",
        default=os.environ.get("MAZZO_HOST", DEFAULT_HOST),
        help="address to listen on (env MAZZO_HOST; default %(default)s)",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=os.environ.get("MAZZO_PORT", str(DEFAULT_PORT)),
        help="port, 0 for any free one (env MAZZO_PORT; default %(default)s)",
    )
    serve.add_argument(
        "--http-port",
        type=_port,
        default=os.environ.get("MAZZO_HTTP_PORT", str(DEFAULT_HTTP_PORT)),
        help="HTTP/JSON port, 0 for any free one (env MAZZO_HTTP_PORT; default %(default)s)",
    )
    serve.add_argument("--no-http", action="store_true", help="serve gRPC only")
    serve.add_argument("--access-log", action="store_true", help="log every RPC (code, time, id)")
    serve.add_argument(
        "--workers",
        type=_workers,
        default=os.environ.get("MAZZO_WORKERS", "1"),
        help="server processes sharing the ports (env MAZZO_WORKERS; default %(default)s)",
    )
    serve.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the ports with other processes (set by --workers for its workers)",
    )
    _add_tls_options(serve, "gRPC and HTTP")
    serve.add_argument(
        "--seal-key-file",
        type=Path,
        default=os.environ.get("MAZZO_SEAL_KEY_FILE"),
        help="seal states with these keys: lines 'KEY_ID BASE64KEY', the last seals, all "
        "open (docs/sealing.md; env MAZZO_SEAL_KEY_FILE)",
    )
    serve.add_argument(
        "--log-format",
        choices=("json", "text"),
        default=os.environ.get("MAZZO_LOG_FORMAT", "json"),
        help="log lines as JSON objects or plain text (env MAZZO_LOG_FORMAT; default %(default)s)",
    )


def _add_tls_options(cmd: argparse.ArgumentParser, what: str, env: bool = True) -> None:
    """``--tls-cert``, ``--tls-key``, ``--tls-client-ca``: ``serve``'s, and the gateway's
    (which reads no environment: a server's settings must not turn a match's on)."""

    def default(name: str) -> str | None:
        return os.environ.get(name) if env else None

    def said(name: str) -> str:
        return f" (env {name})" if env else ""

    cmd.add_argument(
        "--tls-cert",
        type=Path,
        default=default("MAZZO_TLS_CERT"),
        help=f"serve {what} over TLS with this PEM certificate chain{said('MAZZO_TLS_CERT')}",
    )
    cmd.add_argument(
        "--tls-key",
        type=Path,
        default=default("MAZZO_TLS_KEY"),
        help=f"the certificate's PEM private key{said('MAZZO_TLS_KEY')}",
    )
    cmd.add_argument(
        "--tls-client-ca",
        type=Path,
        default=default("MAZZO_TLS_CLIENT_CA"),
        help="require client certificates signed by this PEM CA: mutual TLS"
        + said("MAZZO_TLS_CLIENT_CA"),
    )


def _add_listener(cmd: argparse.ArgumentParser, flag: str, what: str, help: str) -> None:
    """``flag`` PORT to serve ``what`` on (no server without it), and ``flag``-host, the
    address it listens at: local unless given, so that nothing is served to the network
    by surprise."""
    cmd.add_argument(flag, type=_port, metavar="PORT", help=help)
    cmd.add_argument(
        f"{flag}-host", default=DEFAULT_HOST, help=f"address of {what} (default local)"
    )


def _add_seconds(cmd: argparse.ArgumentParser, flag: str, default: float | None, help: str) -> None:
    """An option that is a number of seconds (``_seconds`` says which)."""
    cmd.add_argument(flag, type=_seconds, default=default, metavar="SECONDS", help=help)


def _add_gateway_options(cmd: argparse.ArgumentParser) -> None:
    """The dial-in gateway's options (docs/referee.md#dial-in-seats), for ``match`` and
    ``tournament``."""
    _add_listener(
        cmd,
        "--gateway",
        "the gateway",
        "open a gateway that connect:NAME bots dial in to (0: any free port; the "
        "address is printed)",
    )
    cmd.add_argument(
        "--gateway-http",
        type=_port,
        metavar="PORT",
        help="also take bots over HTTP/JSON on this port (0: any free port; the address "
        "is printed): POST /v1/tables:join and /v1/tables:answer",
    )
    cmd.add_argument(
        "--cors-origin",
        action="append",
        type=origin_argument,
        metavar="ORIGIN",
        help="a web page's origin that may call --gateway-http (scheme://host[:port], "
        "or * for any; repeat for more): a bot written as a page on another site",
    )
    cmd.add_argument(
        "--tokens",
        type=Path,
        metavar="FILE",
        help="the bots' token hashes (mazzo token new; env MAZZO_TOKENS; "
        f"default {DEFAULT_TOKENS})",
    )
    _add_seconds(
        cmd,
        "--grace",
        None,
        "how long a dropped bot may take to dial in again (default 10; 120 with a human seat)",
    )
    _add_seconds(
        cmd,
        "--dial-in-wait",
        None,
        "how long to wait for the connect: bots and human seats before the first deal "
        "(default 60; 600 with a human seat)",
    )
    _add_seconds(
        cmd,
        "--person-move-time",
        None,
        "seconds per move of a human seat (default 300); the bots at its table keep theirs",
    )
    _add_seconds(cmd, "--person-bank", None, "time bank of a human seat (default 1800)")
    _add_tls_options(cmd, "the gateway", env=False)


def _add_token(sub: _Subparsers) -> None:
    token = sub.add_parser("token", help="tokens of the bots that dial in to a gateway")
    verbs = token.add_subparsers(dest="verb", required=True)
    new = verbs.add_parser("new", help="print a new token for NAME; the file keeps its hash")
    new.add_argument("name", help="the bot's name, as connect:NAME seats it")
    new.add_argument(
        "--tokens",
        type=Path,
        metavar="FILE",
        help=f"the tokens file (env MAZZO_TOKENS; default {DEFAULT_TOKENS}; made with mode 0600)",
    )


def _tokens_path(args: argparse.Namespace) -> Path:
    return Path(args.tokens or os.environ.get("MAZZO_TOKENS") or DEFAULT_TOKENS)


def _token(args: argparse.Namespace) -> int:
    from mazzo.gateway.tokens import TokenBook

    path = _tokens_path(args)
    book = TokenBook.load(path)
    replaced = args.name in book.hashes
    token = book.new(args.name)
    book.save(path)
    print(token)
    note = "; its old token no longer works" if replaced else ""
    print(f"{args.name}: token hash kept in {path}{note}", file=sys.stderr)
    return 0


def _clock_defaults(args: argparse.Namespace, people: bool) -> None:
    """Fill the clock and dial-in options not given: the bots' (``CLOCK``), and when a
    human sits at the table the person's seats' clock and waits (``PERSON_CLOCK``)."""
    for name, value in ({**CLOCK, **PERSON_CLOCK} if people else CLOCK).items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)


def _person_clocks(specs: Iterable[str], args: argparse.Namespace) -> dict[str, Any]:
    """The ``human`` seats among ``specs``, each on the person's clock (``own_clocks``)."""
    from mazzo.referee.bots import BotSpec
    from mazzo.referee.match import TimeControl

    people = [spec for spec in dict.fromkeys(specs) if BotSpec.parse(spec).kind == "human"]
    if not people:
        return {}
    return dict.fromkeys(people, TimeControl(args.person_move_time, args.person_bank))


@contextlib.asynccontextmanager
async def _gateway(
    args: argparse.Namespace, feeds: dict[str, Any] | None = None
) -> AsyncIterator[Any]:
    """With ``--gateway``: the run's gateway, listening for the block (its address
    printed); else None. Each person of ``feeds`` (a human seat's name, and its page's
    feed) gets a token made here, in memory only, and the page's address with it
    (printed); the page is served by the HTTP door."""
    people = list(feeds or {})
    if args.gateway is None:
        given = (args.tokens, args.tls_cert, args.tls_key, args.tls_client_ca, args.gateway_http)
        if any(x is not None for x in given):
            raise ValueError("--tokens, --gateway-http and --tls-* are for --gateway PORT")
    if args.cors_origin and args.gateway_http is None:
        raise ValueError("--cors-origin is for the HTTP door: give --gateway-http PORT too")
    if args.gateway is None:
        yield None
        return
    from mazzo.gateway.server import Gateway, Limits
    from mazzo.gateway.tokens import TokenBook

    tls = _tls(args)
    path = _tokens_path(args)
    book = TokenBook.load(path)
    tokens = {}
    for name in people:
        if name in book.hashes:
            raise ValueError(
                f"human:{name}: {name} is a bot's name in {path}; give the person another "
                f"(--bot human:NAME)"
            )
        tokens[name] = book.new(name)  # never saved: the token lives as long as the run
    gateway = Gateway(book, Limits(grace=args.grace))
    bound = await gateway.start(
        args.gateway_host, args.gateway, None if tls is None else tls.grpc_credentials()
    )
    scheme = "grpc" if tls is None else "grpcs"
    print(f"gateway: {scheme}://{args.gateway_host}:{bound}", flush=True)
    door = None
    try:
        if args.gateway_http is not None:
            from mazzo.gateway.http import HttpDoor, HttpOptions

            routes = []
            if feeds:
                from mazzo.viewer.play import play_routes

                routes = play_routes(feeds, book.who)
            door = HttpDoor(gateway, HttpOptions(cors=tuple(args.cors_origin or ())), routes)
            files = () if tls is None else (tls.cert, tls.key, tls.client_ca)
            port = await door.start(
                args.gateway_host, args.gateway_http, *(f and str(f) for f in files)
            )
            scheme = "http" if tls is None else "https"
            print(f"gateway: {scheme}://{args.gateway_host}:{port}", flush=True)
            for name, token in tokens.items():
                from mazzo.viewer.play import play_url

                url = play_url(args.gateway_host, port, token, secure=tls is not None)
                print(f"play as {name}: {url}", flush=True)
        yield gateway
    finally:
        await gateway.stop()
        if door is not None:
            await door.stop()


def _check_tokens(args: argparse.Namespace, specs: Sequence[str]) -> None:
    """Every ``connect:NAME`` has a token in the file, before anything starts."""
    from mazzo.gateway.tokens import TokenBook
    from mazzo.referee.bots import dial_in_names

    names = dial_in_names(specs, ("connect",))
    if not names or args.gateway is None:
        return
    path = _tokens_path(args)
    book = TokenBook.load(path)
    for name in names:
        if name not in book.hashes:
            raise ValueError(
                f"connect:{name} has no token in {path}: mazzo token new {name} --tokens {path}"
            )


def _add_arena(sub: _Subparsers) -> None:
    from mazzo.arena.cli import add_arguments

    arena = sub.add_parser("arena", help="the arena: a standing, rated competition (docs/arena.md)")
    add_arguments(arena.add_subparsers(dest="verb", required=True))


def _arena(args: argparse.Namespace) -> int:
    from mazzo.arena.cli import main

    return main(args)


def _add_bench(sub: _Subparsers) -> None:
    bench = sub.add_parser("bench", help="measure speed; prints JSON")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.add_argument(
        "--only", action="append", default=None, help="run only these measurements (repeatable)"
    )
    bench.add_argument(
        "--closure-hands",
        type=int,
        default=2000,
        help="Ramino hands for the closure check and the agreement with the spec's loop",
    )
    bench.add_argument(
        "--anchors",
        action="store_true",
        help="also our engines against OpenSpiel's and RLCard's (pip install 'mazzo[anchors]')",
    )
    bench.add_argument(
        "--builds",
        action="store_true",
        help="also the compiled build against pure Python, in child processes (make compiled)",
    )
    bench.add_argument(
        "--builds-rounds",
        type=_counting("rounds"),
        default=3,
        help="alternating rounds of --builds, each figure's ratio their median (default 3)",
    )
    bench.add_argument(
        "--gateway-tables",
        type=int,
        default=250,
        help="four-player tables of --only gateway (4 bots each; default 250)",
    )


def _add_tournament(sub: _Subparsers) -> None:
    tour = sub.add_parser("tournament", help="play a tournament described by a TOML file")
    tour.add_argument("config", type=Path, help="the tournament's TOML file (docs/referee.md)")
    tour.add_argument("--records", type=Path, help="records file (default: the config's)")
    tour.add_argument("--resume", action="store_true", help="play only what is not recorded")
    tour.add_argument("--summary", type=Path, help="JSON summary (default: RECORDS.summary.json)")
    tour.add_argument("--concurrency", type=int, help="matches in parallel (default: the config's)")
    tour.add_argument(
        "--deals",
        type=_deals,
        help="deals per pairing (default: the config's): a small run first, same seeds",
    )
    tour.add_argument("--service", metavar="HOST:PORT", help="play through this GameService")
    tour.add_argument(
        "--seal",
        action="store_true",
        help="play through --service's sealed tokens (default: the config's seal)",
    )
    tour.add_argument(
        "--sprt",
        nargs=4,
        type=float,
        metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
        help="stop a two-entrant run once the sequential test decides",
    )
    tour.add_argument("--no-progress", action="store_true", help="no progress output")
    _add_bot_options(tour)
    tour.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where matches run: this process, or Ray tasks (needs mazzo[ray]; default local)",
    )
    tour.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="join this Ray cluster (auto, HOST:6379, ray://HOST:10001; default env "
        "RAY_ADDRESS, else a local Ray of --concurrency CPUs)",
    )
    tour.add_argument(
        "--ray-temp-dir", type=Path, metavar="DIR", help="a local Ray's session folder"
    )

    _add_ui_options(tour)
    _add_gateway_options(tour)
    tour.add_argument(
        "--entropy",
        type=Path,
        metavar="JSON",
        help="the entrants' revealed entropy secrets, {NAME: HEX}, for a config with "
        "[entropy] commitments (docs/fair-deals.md)",
    )


def _add_replay(sub: _Subparsers) -> None:
    replay = sub.add_parser("replay", help="re-check every move of a records file")
    replay.add_argument("records", type=Path, help="a JSON-lines file of match records")
    replay.add_argument("--id", help="only this match")
    replay.add_argument("--hand", type=int, help="print hand K (from 1) of the match --id")


def _add_verify(sub: _Subparsers) -> None:
    verify = sub.add_parser(
        "verify",
        help="prove a records file's deals fair and its moves legal (exit 0 proven, "
        "1 a record fails, 2 unreadable, 3 older records with no commitment)",
    )
    verify.add_argument("records", type=Path, help="a JSON-lines file of match records")
    verify.add_argument(
        "--commitments",
        type=Path,
        help="the commitments published before each match's first move (default: "
        "RECORDS' .commitments file beside it, when there is one): each record's must match",
    )


def _add_entropy(sub: _Subparsers) -> None:
    entropy = sub.add_parser(
        "entropy", help="a new entropy secret for a tournament, and the commitment to publish"
    )
    entropy.add_argument(
        "--secret", metavar="HEX", help="print the commitment of this secret instead"
    )


def _add_view(sub: _Subparsers) -> None:
    view = sub.add_parser("view", help="watch the matches of a records file in the browser")
    view.add_argument("records", type=Path, help="a JSON-lines file of match records")
    view.add_argument("--host", default="127.0.0.1", help="address to listen on (default local)")
    view.add_argument("--port", type=_port, default=8089, help="HTTP port (0: any; default 8089)")


def _moves(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of moves (0 or more)")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 86400:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more)")
    return value


def _add_ui_options(cmd: argparse.ArgumentParser) -> None:
    """The live view's options (docs/viewer.md#live), for ``match`` and ``tournament``."""
    _add_listener(
        cmd,
        "--ui",
        "the live page",
        "serve a live page of the event on this port (0: any free one; the URL is printed)",
    )
    cmd.add_argument(
        "--ui-delay",
        type=_moves,
        metavar="MOVES",
        help="show every hand on the live page this many moves late (default: only once the "
        "hand is over; 0 shows them at once: only when no bot's operator is watching)",
    )
    _add_seconds(
        cmd,
        "--ui-pace",
        0.0,
        "wait this long after each move, to follow the play by eye (default 0)",
    )
    _add_seconds(
        cmd,
        "--ui-linger",
        None,
        "keep the live page up this long after the event (default: until Ctrl-C)",
    )


@contextlib.contextmanager
def _live_view(
    args: argparse.Namespace, title: str, entrants: list[str], total: int
) -> Iterator[Any]:
    """With ``--ui``: the live page's hub, served on its own thread for the block and
    lingering after it; else None."""
    if args.ui is None:
        if args.ui_delay is not None or args.ui_pace or args.ui_linger is not None:
            raise ValueError("--ui-delay, --ui-pace and --ui-linger are for --ui")
        yield None
        return
    from mazzo.viewer.live import LiveHub, LiveServer, linger

    hub = LiveHub(title, entrants, total, args.ui_delay)
    server = LiveServer(hub, args.ui_host, args.ui)
    print(f"live view: {server.start()}", flush=True)
    try:
        yield hub
        if hub.over:  # not after a Ctrl-C
            linger(args.ui_linger, lambda line: print(line, flush=True))
    finally:
        server.stop()


def _watcher(args: argparse.Namespace, hub: Any) -> Any:
    from mazzo.viewer.watch import Watcher

    return None if hub is None else Watcher(hub.send, args.ui_delay, args.ui_pace)


def _add_bot_options(cmd: argparse.ArgumentParser) -> None:
    """Where the bots' stderr goes, and the CA their grpcs:// addresses are checked
    against: for ``match`` and ``tournament``."""
    cmd.add_argument("--bot-logs", type=Path, help="folder for the bots' stderr")
    cmd.add_argument(
        "--ca",
        type=Path,
        metavar="PEM",
        help="check grpcs:// bots and a grpcs:// --service against this CA (default: system roots)",
    )


def _add_referee_options(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "--service",
        metavar="HOST:PORT",
        help="play through this GameService, grpcs://HOST:PORT for TLS (default: in-process)",
    )
    cmd.add_argument(
        "--seal",
        action="store_true",
        help="play through --service's sealed tokens (a server with --seal-key-file): each "
        "bot is sent its own seat's token and no other (docs/sealing.md)",
    )
    cmd.add_argument(
        "--move-time",
        type=float,
        default=None,
        help="seconds per move of a bot (default 1; a human seat: --person-move-time)",
    )
    cmd.add_argument(
        "--bank",
        type=float,
        default=None,
        help="time bank per bot seat (default 10 s; a human seat: --person-bank)",
    )
    cmd.add_argument(
        "--on-fault",
        choices=("random", "forfeit"),
        default="random",
        help="a fault forfeits the match, or a random legal move is played (default)",
    )
    cmd.add_argument(
        "--disqualify-after", type=int, default=0, metavar="K", help="faults that disqualify"
    )
    _add_bot_options(cmd)


def _add_match(sub: _Subparsers) -> None:
    match = sub.add_parser("match", help="play one match between bots")
    match.add_argument("--game", required=True, help="game id, e.g. maraffa")
    match.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="SPEC",
        help="grpc://HOST:PORT, grpcs://HOST:PORT, exec:COMMAND, builtin:NAME[?k=v&...], "
        "connect:NAME (with --gateway) or human[:NAME] (a person, in the browser: the "
        "page's address is printed); one per seat or per side",
    )
    match.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the deal's seed (default: 1; with --seal, drawn from the system's randomness)",
    )
    match.add_argument("--players", type=int, default=0, help="0: the game's default")
    match.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    match.add_argument("--id", default=None, help="the match id in the record")
    match.add_argument("--records", type=Path, help="append the record (one JSON line) here")
    _add_referee_options(match)
    _add_ui_options(match)
    _add_gateway_options(match)


def _clock_and_rules(args: argparse.Namespace) -> tuple[Any, Any]:
    from mazzo.referee.match import FaultRules, OnFault, TimeControl

    return TimeControl(args.move_time, args.bank), FaultRules(
        OnFault(args.on_fault), args.disqualify_after
    )


def _tls(args: argparse.Namespace) -> Any:
    """The server's TLS settings from ``--tls-*``, the files checked readable now."""
    from mazzo.service.server import Tls

    if args.tls_cert is None and args.tls_key is None:
        if args.tls_client_ca is not None:
            raise ValueError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise ValueError("TLS needs both --tls-cert and --tls-key")
    for path in (args.tls_cert, args.tls_key, args.tls_client_ca):
        if path is not None and not Path(path).is_file():
            raise ValueError(f"{path}: no such file")
    return Tls(
        Path(args.tls_cert), Path(args.tls_key), args.tls_client_ca and Path(args.tls_client_ca)
    )


def _sealer(path: Path | None) -> Any:
    """The server's sealer from ``--seal-key-file``, the file checked now: a bad one
    stops the start with one line (``KeyFileError``), before any port is taken."""
    if path is None:
        return None
    from mazzo.service.sealing import Sealer

    return Sealer.from_file(Path(path))


@contextlib.contextmanager
def _reaping_bots(local: bool = True) -> Iterator[None]:
    """Bots' processes go with the run: this process adopts what a bot leaves behind
    (a subreaper), and whatever is still below it at the end is killed and reaped.
    Not with Ray, whose own processes are below this one."""
    adopted = local and processes.become_subreaper()
    try:
        yield
    finally:
        if adopted:
            processes.kill_orphans()


def _match(args: argparse.Namespace) -> int:
    from mazzo.referee.bots import human_names
    from mazzo.referee.match import MatchSpec, options_json, run_match, summary_line
    from mazzo.referee.records import RecordWriter

    people = human_names(args.bot)
    _clock_defaults(args, bool(people))
    if people:
        if args.ui_delay is not None:
            raise ValueError("--ui-delay would show the person every hand: not with a human seat")
        # A person needs the gateway's HTTP door: opened on free ports unless given.
        args.gateway = 0 if args.gateway is None else args.gateway
        args.gateway_http = 0 if args.gateway_http is None else args.gateway_http

    seed, default_id = args.seed, f"{args.game}-{args.seed}"
    if seed is None and args.seal:  # a known seed would show every sealed hand
        seed, default_id = secrets.randbits(64) or 1, f"{args.game}-{secrets.token_hex(4)}"
    elif seed is None:
        seed, default_id = 1, f"{args.game}-1"
    spec = MatchSpec(
        id=args.id or default_id,
        game=args.game,
        seed=seed,
        players=args.players,
        options=options_json(args.game, args.option),
    )
    clock, rules = _clock_and_rules(args)

    def published(header: dict[str, Any]) -> None:
        print(f"{header['id']}: deal commitment {header['deal_commitment']}", flush=True)

    if args.bot_logs:
        args.bot_logs.mkdir(parents=True, exist_ok=True)
    _check_tokens(args, args.bot)
    written: list[str] = []

    def write(record: dict[str, Any]) -> None:
        """The record, written before the dial-in bots are told the match ended."""
        if args.records is not None:
            with RecordWriter(args.records) as out:
                out.write(record)
            written.append(record["id"])

    async def play(watcher: Any, feeds: dict[str, Any]) -> dict[str, Any]:
        # SIGTERM stops the match as Ctrl-C does: the bots are closed on the way out.
        task = asyncio.current_task()
        assert task is not None
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        async with _gateway(args, feeds) as gateway:
            try:
                record = await run_match(
                    spec,
                    args.bot,
                    args.service,
                    clock,
                    rules,
                    args.bot_logs,
                    published,
                    args.ca,
                    args.seal,
                    watcher,
                    gateway,
                    args.dial_in_wait,
                    write,
                    _person_clocks(args.bot, args),
                )
            finally:  # stopped too: a feed never ends on its own, and the door waits for it
                _close_feeds(feeds)
            if feeds:  # the page's last messages (the hand's end, the match's) leave first
                await asyncio.sleep(PAGE_FLUSH)
            return record

    with _live_view(args, f"match {spec.id}", [], 1) as hub:
        watcher, feeds = _watcher(args, hub), {}
        if people:  # each person's page follows its own seat
            from mazzo.viewer.play import PlayWatcher, SeatFeed

            feeds = {name: SeatFeed() for name in people}
            watcher = PlayWatcher(feeds, watcher)
        try:
            with _reaping_bots():
                record = asyncio.run(play(watcher, feeds))
        except (KeyboardInterrupt, asyncio.CancelledError):
            kept = f"its record written to {args.records}" if written else "no record written"
            print(f"{spec.id}: stopped before the end; {kept}", file=sys.stderr)
            return 130
        print(summary_line(record), flush=True)
        if hub is not None:
            hub.entrants = [side["entrant"] for side in record["sides"]]
            hub.recorded(record)
            hub.finish()
    return 0


def _tournament(args: argparse.Namespace) -> int:
    import dataclasses

    from mazzo.referee.bots import human_names
    from mazzo.referee.sprt import Sprt
    from mazzo.referee.tournament import Config, run_tournament

    config = Config.load(args.config)
    people = human_names(bot for entrant in config.entrants for bot in entrant.bots)
    _clock_defaults(args, bool(people))
    if args.concurrency:
        config = dataclasses.replace(config, concurrency=max(1, args.concurrency))
    if args.deals:
        config = dataclasses.replace(config, deals=args.deals)
    if args.service:
        config = dataclasses.replace(config, service=args.service)
    if args.seal:
        config = dataclasses.replace(config, seal=True)
    if config.seal and not config.service:
        raise ValueError("--seal plays through a keyed GameService: give --service too")
    if people:
        config = _people_in(config, args)
    if args.entropy is not None:
        try:
            reveals = json.loads(args.entropy.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ValueError(f"--entropy {args.entropy}: not JSON ({e.msg})") from None
        if not isinstance(reveals, dict):
            raise ValueError(f"--entropy {args.entropy}: a JSON object {{NAME: HEX}}")
        config = config.with_reveals(reveals)
    records = args.records or config.records
    if records is None:
        raise ValueError("no records file: give --records or `records` in the config")
    config = config.sealed_seed(records)
    sprt = Sprt(*args.sprt) if args.sprt else None
    if args.bot_logs:
        args.bot_logs.mkdir(parents=True, exist_ok=True)
    backend = None
    if args.backend == "ray":
        from mazzo.referee.ray_backend import RayBackend

        backend = RayBackend(args.ray_address, args.ray_temp_dir, args.bot_logs, args.ca)
    elif args.ray_address or args.ray_temp_dir:
        raise ValueError("--ray-address and --ray-temp-dir are for --backend ray")
    names = [e.name for e in config.entrants]
    with _live_view(args, config.name, names, len(config.jobs())) as hub:
        if hub is not None:
            if args.resume:
                from mazzo.referee.records import read_records

                hub.preload(read_records(records))
            if backend is not None:
                print("live view: matches on Ray are not shown as they are played", flush=True)
        _check_tokens(args, [bot for entrant in config.entrants for bot in entrant.bots])

        watcher, feeds = _watcher(args, hub), {}
        if people:  # each person's page follows its seat, match after match
            from mazzo.viewer.play import PlayWatcher, SeatFeed

            feeds = {name: SeatFeed() for name in people}
            watcher = PlayWatcher(feeds, watcher)

        async def play() -> Any:
            async with _gateway(args, feeds) as gateway:
                try:
                    outcome = await run_tournament(
                        config,
                        records,
                        args.resume,
                        sprt,
                        not args.no_progress,
                        logs=args.bot_logs,
                        on_record=None if hub is None else hub.recorded,
                        backend=backend,
                        ca=args.ca,
                        watcher=watcher,
                        gateway=gateway,
                        dial_in_wait=args.dial_in_wait,
                    )
                finally:  # as for a match: stopped too
                    _close_feeds(feeds)
                if feeds:  # the pages' last messages leave before the door closes
                    await asyncio.sleep(PAGE_FLUSH)
                return outcome

        with _reaping_bots(backend is None):
            outcome = asyncio.run(play())
        if hub is not None and not outcome.interrupted:
            hub.finish(outcome.summary)
        _print_outcome(args, records, outcome)
    return 130 if outcome.interrupted else 0


def _close_feeds(feeds: dict[str, Any]) -> None:
    """End each person's feed (``viewer.play.SeatFeed``): the run is over or stopped."""
    for feed in feeds.values():
        feed.close()


def _people_in(config: Any, args: argparse.Namespace) -> Any:
    """A tournament with people at it (``human[:NAME]`` among the entrants' bots, as in
    ``mazzo match``): one match at a time (a person's page plays one table), in this
    process, with the gateway's HTTP door on free ports unless given (each person's
    page address is printed once: the same page plays every match of that person),
    and the person's seats on the person's clock (``--person-move-time``,
    ``--person-bank``), the bots on the config's ``[time]``."""
    import dataclasses

    if args.ui_delay is not None:
        raise ValueError("--ui-delay would show the person every hand: not with a human seat")
    if args.backend != "local":
        raise ValueError("human seats play in this process: not with --backend ray")
    args.gateway = 0 if args.gateway is None else args.gateway
    args.gateway_http = 0 if args.gateway_http is None else args.gateway_http
    specs = [bot for entrant in config.entrants for bot in entrant.bots]
    return dataclasses.replace(config, concurrency=1, own_clocks=_person_clocks(specs, args))


def _print_outcome(args: argparse.Namespace, records: Path, outcome: Any) -> None:
    from mazzo.referee.tournament import render

    summary_path = args.summary or records.with_name(records.name + ".summary.json")
    summary_path.write_text(json.dumps(outcome.summary, indent=2) + "\n")
    print(render(outcome.summary), end="")
    print(f"summary: {summary_path}", flush=True)
    if outcome.interrupted:
        print(
            f"stopped: {outcome.summary['matches']} of {outcome.summary['scheduled']} matches "
            "recorded; --resume continues",
            file=sys.stderr,
        )


def _replay(args: argparse.Namespace) -> int:
    from mazzo.referee.records import read_whole_records
    from mazzo.referee.replay import check_all, replay, show_hand
    from mazzo.referee.shapes import check_record

    records = read_whole_records(args.records)
    for i, record in enumerate(records):  # a file that is not records: one line, exit 2
        check_record(record, f"{args.records}: record {i + 1}")
    if args.id is not None:
        records = [r for r in records if r["id"] == args.id]
        if not records:
            raise ValueError(f"no match {args.id!r} in {args.records}")
    if args.hand is not None:
        if args.id is None:
            raise ValueError("--hand needs --id")
        done = replay(records[0])
        print(show_hand(done, args.hand))
        return 1 if done.divergence else 0
    count, moves, divergence = check_all(records)
    if divergence is not None:
        print(f"divergence: {divergence}")
        return 1
    print(f"{count} records, {moves} moves re-checked: every move agrees with the rules")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from mazzo.referee.coherence import is_tournament
    from mazzo.referee.records import commitments_path, read_commitments, read_whole_records
    from mazzo.referee.shapes import Malformed
    from mazzo.referee.verify import report, verify

    published = None
    path = args.commitments or commitments_path(args.records)
    if args.commitments is not None or path.is_file():
        published = read_commitments(path)
        print(f"{args.records}: checked against the commitments published in {path}")
    records = read_whole_records(args.records)
    try:
        verdict = verify(records, published)
    except Malformed as e:
        raise ValueError(f"{args.records}: {e}") from None
    if published is None and is_tournament(records, None):
        print(
            f"{args.records}: no commitments file ({path.name}): whether each match's "
            "commitment was published before its first move is not checked"
        )
    print(report(verdict, str(args.records)))
    return verdict.code


def _entropy(args: argparse.Namespace) -> int:
    from mazzo.core import fair

    if args.secret is not None:
        secret = fair.from_hex(args.secret, "--secret")
    else:
        secret = secrets.token_bytes(32)
    commitment = fair.entropy_commitment(secret).hex()
    print(json.dumps({"secret": secret.hex(), "commitment": commitment}))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from mazzo.service import logs
    from mazzo.service.server import PortInUseError, serve
    from mazzo.viewer.web import service_routes

    logs.configure(args.log_format)
    http_port = None if args.no_http else args.http_port
    try:
        tls = _tls(args)
        sealer = _sealer(args.seal_key_file)
    except ValueError as e:  # also a refused key file: KeyFileError, one line
        print(f"mazzo: {e}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("mazzo: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1:
        from mazzo.service.workers import run_workers

        return run_workers(args.workers, args.host, args.port, http_port, _worker_flags(args))
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                http_port,
                args.access_log,
                args.reuse_port,
                tls,
                sealer,
                service_routes(),  # the replay viewer beside the API (docs/viewer.md)
            )
        )
    except PortInUseError as e:
        print(f"mazzo: {e}", file=sys.stderr)
        return 1
    return 0


def _worker_flags(args: argparse.Namespace) -> list[str]:
    """The ``serve`` options each worker of ``--workers`` is started with, beside the
    host and ports."""
    extra = ["--log-format", args.log_format] + (["--access-log"] if args.access_log else [])
    for flag, path in (
        ("--tls-cert", args.tls_cert),
        ("--tls-key", args.tls_key),
        ("--tls-client-ca", args.tls_client_ca),
        ("--seal-key-file", args.seal_key_file),
    ):
        extra += [flag, str(path)] if path is not None else []
    return extra


def _view(args: argparse.Namespace) -> int:
    from mazzo.viewer.web import serve_view

    try:
        serve_view(args.records, args.host, args.port, lambda line: print(line, flush=True))
    except (ValueError, OSError) as e:
        print(f"mazzo: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def _bench(args: argparse.Namespace) -> int:
    from mazzo.bench.runner import run_all

    try:
        only = args.only
        if only is not None:
            only = [*only, *(name for name in ("anchors", "builds") if vars(args)[name])]
        report = run_all(
            args.seconds,
            only,
            args.closure_hands,
            anchors=args.anchors,
            builds=args.builds,
            builds_rounds=args.builds_rounds,
            gateway_tables=args.gateway_tables,
        )
    except ValueError as e:
        print(f"mazzo: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


#: Each command's function, and the errors it ends with as one line (``mazzo: ...``,
#: exit 2). ``serve``, ``view`` and ``bench`` catch their own: around less than the
#: whole command, and not always with exit 2.
_COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], tuple[type[Exception], ...]]] = {
    "serve": (_serve, ()),
    "match": (_match, (ValueError, RulesError, OSError)),
    "tournament": (_tournament, (ValueError, KeyError, RulesError, OSError, ImportError)),
    "replay": (_replay, (ValueError, RulesError, OSError)),
    "verify": (_verify, (ValueError, OSError)),
    "entropy": (_entropy, (ValueError,)),
    "view": (_view, ()),
    "bench": (_bench, ()),
    "token": (_token, (ValueError, OSError)),
    "arena": (_arena, (ValueError, RulesError, OSError, ImportError)),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command not in _COMMANDS:
        return 2
    run, reported = _COMMANDS[args.command]
    try:
        return run(args)
    except reported as e:
        print(f"mazzo: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
