"""A person's seat: ``mazzo match --bot human``'s page, served beside the gateway's
HTTP door (``gateway.http.HttpDoor``'s ``routes``), so the page speaks the dial-in
protocol (``POST /v1/tables:join``, ``/v1/tables:answer``) from its own origin.

The person is just another dial-in seat to the referee: the page gets the decisions
of its seat (each the ``ActRequest`` a bot gets: the seat's ``GetView`` and its legal
moves) and answers with a move's index. Nothing of any game's rules is in the
browser: the page posts a decision it holds to ``POST /play/draw`` and draws what
comes back, the seat's table as the viewer draws tables (``viewer.tables``) and each
legal move in words (``viewer.texts``), with its card when the move is only a card.
The answer holds nothing the page did not send, so it is exactly as private as the
decision.

While the others move, the page follows its seat's feed (``POST /play/feed`` with the
seat's token, a line of JSON a message): after the deal and after every move, the
seat's table drawn from its own ``GetView`` (``PlayWatcher``, a watch of the referee's
contract, ``referee.watch``) with the move and its events in the words the live view
pushes to everyone (``viewer.texts``), and the score; at the end, the winners and the
table of the last position, every hand shown (the record is public then). A page
opened late, or reloaded, is sent the feed so far first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from google.protobuf import json_format
from google.rpc import code_pb2, status_pb2
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from mazzo.codec import GameCodec
from mazzo.core.errors import InvalidArgument
from mazzo.core.rules import AnyRules
from mazzo.games.declaration import GameHooks
from mazzo.games.registry import GAMES
from mazzo.referee.bots import BotSpec
from mazzo.referee.records import Json, to_json
from mazzo.referee.watch import MatchWatch, Watcher
from mazzo.service.rest import read_body, status_response
from mazzo.v1 import bot_pb2
from mazzo.viewer.picks import melds_of, move_parts, notes_of, picking
from mazzo.viewer.tables import table_of
from mazzo.viewer.texts import event_text, move_text
from mazzo.viewer.watch import full_table, view_json
from mazzo.viewer.web import page_response, refuse, static_response

log = logging.getLogger("mazzo.viewer.play")

PLAY_PATH = "/play/"
#: What a feed keeps for a page opened late (a Maraffa match to 41 is some 250 moves).
FEED_KEPT = 2000
#: Messages waiting for one page; a page that falls further behind is dropped (it
#: reloads, and is sent the feed so far).
FEED_QUEUE = 4096
#: Seconds of quiet before a ``{}`` line: a page that is gone fails the write.
HEARTBEAT = 5.0
#: Seconds a feed is still drawn after its last page left: a page that reloads or
#: dials again gets its match's moves from what the feed kept.
FEED_LINGER = 60.0


def _card_only(move: Json, game: str) -> str | None:
    """The card of a move that is a card and nothing else (``{"playCard": {"card":
    "CARD_3D"}}``), as the tables write cards; None for any other move (a signal with
    the card, a bid, a meld): the page shows those as buttons with their words. Read
    from the move's shape alone, no rule of any game."""
    detail = move.get(game, {})
    if len(detail) != 1:
        return None
    (fields,) = detail.values()
    if not isinstance(fields, dict) or set(fields) != {"card"}:
        return None
    name = str(fields["card"])
    return name.removeprefix("CARD_") if name.startswith("CARD_") else None


def draw(request: bot_pb2.ActRequest) -> Json:
    """What the page shows of one decision: the seat's table (from its ``GetView``
    alone), the legal moves in words (with the card of a card-only move), the match
    score, the seat, the time left. For the rummy games (``picks.picking``), each move
    also says which cards of the hand it uses and onto which meld, and the melds on
    the table are listed with their ids: the page offers the moves that use exactly
    the cards the person picked."""
    game = request.view.WhichOneof("detail")
    if game is None or game not in GAMES:
        raise InvalidArgument("view", "the decision's view names no game this service has")
    view = to_json(request.view)
    # Beyond the table: the form (Maraffa's auction, dummy, stock) and each move's label
    # to group it by, as the game declares them (``Presentation.page_parts``).
    parts = GAMES[game].presentation.page_parts
    moves = []
    for move in request.legal_moves:
        wire = to_json(move)
        part = parts.move_part(wire)
        moves.append({"text": move_text(wire), "card": _card_only(wire, game), "part": part})
        if picking(game):  # what the page filters by: the cards picked (viewer.picks)
            moves[-1].update(move_parts(wire, game))
    return {
        "game": game,
        "seat": request.seat,
        "players": int(view.get("players", 0)),
        "deck": GAMES[game].presentation.deck,
        "table": table_of(game, [view], None),
        "matchScore": [int(x) for x in view.get("matchScore", [])],
        "moves": moves,
        "form": parts.form(view),
        "timeLeft": request.time_left.ToTimedelta().total_seconds(),
        "picking": picking(game),
        "melds": melds_of(game, view),
        "notes": notes_of(game, view),
    }


class SeatFeed:
    """What one person's page is sent besides its decisions: the feed so far (bounded)
    and the pages reading it. Told on the referee's event loop, which also serves the
    gateway's HTTP door: nothing here waits."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.kept: deque[Json] = deque(maxlen=FEED_KEPT)
        self.pages: set[asyncio.Queue[Json | None]] = set()
        self.closed = False
        self.clock = clock
        #: Some page has read it; when its last page left.
        self.read, self.left = False, clock()

    def wanted(self) -> bool:
        """Whether the referee draws for it: a page reads it, none has yet (``mazzo
        match`` made it for a person whose page is coming), or its last page left less
        than ``FEED_LINGER`` ago. An owner's page that watched a bot once does not
        cost a drawing at every move of the bot's matches after it."""
        return bool(self.pages) or not self.read or self.clock() - self.left < FEED_LINGER

    def close(self) -> None:
        """The run is over: each page is sent what waits for it, and its feed ends (so
        the server can stop: a feed never ends on its own)."""
        self.closed = True
        for page in list(self.pages):
            try:
                page.put_nowait(None)
            except asyncio.QueueFull:
                self.pages.discard(page)

    def push(self, message: Json) -> None:
        self.kept.append(message)
        for page in list(self.pages):
            try:
                page.put_nowait(message)
            except asyncio.QueueFull:  # not reading: it gets the feed again on reload
                self.pages.discard(page)

    async def lines(self) -> AsyncIterator[bytes]:
        """The feed so far, then each message as it comes, a JSON object a line."""
        page: asyncio.Queue[Json | None] = asyncio.Queue(FEED_QUEUE + FEED_KEPT + 1)
        if not self.wanted():
            self.kept.clear()  # not drawn for a while: what it kept has gaps
        self.read = True
        for kept in self.kept:
            page.put_nowait(kept)
        if self.closed:
            page.put_nowait(None)
        self.pages.add(page)
        try:
            while page in self.pages:
                try:
                    async with asyncio.timeout(HEARTBEAT):
                        message = await page.get()
                except TimeoutError:
                    yield b"{}\n"
                    continue
                if message is None:
                    break
                yield json.dumps(message, separators=(",", ":")).encode() + b"\n"
        finally:
            self.pages.discard(page)
            if not self.pages:
                self.left = self.clock()


def human_seats(header: Json, kinds: tuple[str, ...] = ("human",)) -> dict[int, str]:
    """Seat -> the person's name, for the ``human`` seats of a record's header (or the
    seats of ``kinds``: the arena's people sit in its ``connect`` seats)."""
    out = {}
    for seat, text in enumerate(header["seat_bots"]):
        spec = BotSpec.parse(str(text))
        if spec.kind in kinds:
            out[seat] = spec.target
    return out


class PlayWatcher:
    """The referee's watcher (``referee.watch``) of a match with people at it: each
    person's feed gets its own seat's table after every move, from that seat's
    ``GetView`` only; ``inner`` (the live view's watcher, with ``--ui``) is told
    everything too."""

    def __init__(
        self,
        feeds: Mapping[str, SeatFeed],
        inner: Watcher | None = None,
        kinds: tuple[str, ...] = ("human",),
        reveal_end: bool = True,
    ) -> None:
        self.feeds = feeds
        self.inner = inner
        #: The seats a person may sit in (``human_seats``), by their spec's kind.
        self.kinds = kinds
        #: At the end, every hand shown (the record is public then); False: the seat's
        #: own table only (the arena's duplicate sets deal the same cards again).
        self.reveal_end = reveal_end

    @property
    def pace(self) -> float:
        return 0.0 if self.inner is None else self.inner.pace

    def watch(
        self, header: Json, rules: AnyRules, codec: GameCodec, hooks: GameHooks
    ) -> MatchWatch:
        inner = None if self.inner is None else self.inner.watch(header, rules, codec, hooks)
        return PlayWatch(self.feeds, header, rules, codec, inner, self.kinds, self.reveal_end)


class PlayWatch:
    """One match watched for its people (and, through ``inner``, for the live view)."""

    def __init__(
        self,
        feeds: Mapping[str, SeatFeed],
        header: Json,
        rules: AnyRules,
        codec: GameCodec,
        inner: MatchWatch | None,
        kinds: tuple[str, ...] = ("human",),
        reveal_end: bool = True,
    ) -> None:
        self.id, self.game = str(header["id"]), str(header["game"])
        self.rules, self.codec, self.inner = rules, codec, inner
        self.feeds = feeds
        #: Seat -> name, for the seats a person (or a watching owner) may follow.
        self.seated = human_seats(header, kinds)
        self.reveal_end = reveal_end
        self.names = [f"seat {s}: {name}" for s, name in enumerate(header["seat_bots"])]
        self.sides = [{"entrant": d["entrant"], "seats": d["seats"]} for d in header["sides"]]
        self.mine = False  # broken: the people's part failed
        self.deck = GAMES[self.game].presentation.deck

    @property
    def broken(self) -> bool:
        return self.mine and (self.inner is None or self.inner.broken)

    def _tell(self, what: str, ply: int, state: Any, said: Json) -> None:
        if self.mine:
            return
        try:
            people = self.people
            for feed, seats in self._seats_of(state, people).items():
                seat = seats[0]
                view = view_json(self.rules, self.codec, state, seat, self.game)
                feed.push(
                    {
                        "type": what,
                        "id": self.id,
                        "ply": ply,
                        "seat": seat,
                        "seats": seats,
                        # Every seat the person moves for, a dummy's too (3 players).
                        "plays": sorted(s for s, f in people.items() if f is feed),
                        "names": self.names,
                        "sides": self.sides,
                        "deck": self.deck,
                        "finished": bool(view.get("finished")),
                        "matchScore": [int(x) for x in view.get("matchScore", [])],
                        "table": table_of(self.game, [view], None),
                        "form": GAMES[self.game].presentation.page_parts.form(view),
                        "at": time.time(),
                        **said,
                    }
                )
        except Exception:
            log.exception("the people's view of match %s failed at move %d", self.id, ply)
            self.mine = True

    @property
    def people(self) -> dict[int, SeatFeed]:
        """Seat -> its feed, looked up at each move: a page that starts following a
        seat mid-match (an owner watching its bot) is fed from the next move on; a
        feed no page wants (``SeatFeed.wanted``) is not drawn."""
        feeds = self.feeds
        return {s: feeds[n] for s, n in self.seated.items() if n in feeds and feeds[n].wanted()}

    def _seats_of(self, state: Any, people: dict[int, SeatFeed]) -> dict[SeatFeed, list[int]]:
        """Each person's deciding seats, the one to act first: a person playing both
        seats of a side is shown the seat about to act, one message a move."""
        rules = self.rules
        to_act = None if rules.finished(state) else rules.to_act(state)
        out: dict[SeatFeed, list[int]] = {}
        for seat, feed in people.items():
            if rules.controller(state, seat) == seat:  # a dummy sees nothing of its own
                out.setdefault(feed, []).append(seat)
        for seats in out.values():
            seats.sort(key=lambda s: s != to_act)
        return out

    def dealt(self, state: Any) -> None:
        self._tell("deal", 0, state, {})
        if self.inner is not None and not self.inner.broken:
            self.inner.dealt(state)

    def moved(self, ply: int, entry: Json, before: Any, state: Any, at: float) -> None:
        said = {
            "by": entry["seat"],
            "move": move_text(entry["move"]),
            "fault": entry.get("fault"),
            "events": [event_text(e) for e in entry["events"]],
        }
        self._tell("move", ply, state, said)
        if self.inner is not None and not self.inner.broken:
            self.inner.moved(ply, entry, before, state, at)

    def ended(self, record: Json, state: Any) -> None:
        if not self.mine:
            with contextlib.suppress(Exception):
                result = record["result"]
                end = {
                    "type": "end",
                    "id": self.id,
                    "winners": result["winners"],
                    "totals": result["match_totals"],
                    "forfeit": result["forfeit"],
                    "names": self.names,
                    "sides": self.sides,
                    "deck": self.deck,
                    # The match is over and its record public: every hand shown.
                    "table": full_table(self.game, self.rules, self.codec, state),
                }
                for feed, seats in self._seats_of(state, self.people).items():
                    if not self.reveal_end:  # the record is not public yet: its own table
                        view = view_json(self.rules, self.codec, state, seats[0], self.game)
                        end = {**end, "table": table_of(self.game, [view], None)}
                    feed.push(end)
        if self.inner is not None and not self.inner.broken:
            self.inner.ended(record, state)


def play_routes(feeds: Mapping[str, SeatFeed], who: Callable[[str], str | None]) -> list[Route]:
    """The page (``GET /play/``), its files (``/viewer/static/NAME``, as the viewer
    serves them), ``POST /play/draw`` (a decision in, what to show of it out) and
    ``POST /play/feed`` (the seat's feed); both for a person's page only
    (``Authorization: Bearer TOKEN``: ``who`` names the token's holder)."""

    async def page(request: Request) -> Response:
        return page_response("play.html")

    async def home(request: Request) -> Response:
        return RedirectResponse(PLAY_PATH)

    async def static(request: Request) -> Response:
        return static_response(request, refuse)

    def holder(request: Request) -> SeatFeed | Response:
        """The feed of the person whose token the request carries, or the refusal."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        name = who(token.strip()) if scheme.lower() == "bearer" else None
        found = None if name is None else feeds.get(name)
        if found is None:
            why = "send a person's token as 'Authorization: Bearer TOKEN'; this one is unknown"
            status = status_pb2.Status(code=code_pb2.UNAUTHENTICATED, message=why)
            return status_response(status, 401)
        return found

    async def drawn(request: Request) -> Response:
        # Only a person's page: drawing runs on the referee's loop.
        allowed = holder(request)
        if isinstance(allowed, Response):
            return allowed
        raw = await read_body(request)
        if isinstance(raw, Response):
            return raw
        decision = bot_pb2.ActRequest()
        try:
            json_format.Parse(raw, decision)
            body = json.dumps(draw(decision))
        except (json_format.ParseError, ValueError) as e:  # ValueError: not UTF-8
            return refuse(InvalidArgument("body", f"not an ActRequest in JSON: {e}"))
        except InvalidArgument as e:
            return refuse(e)
        return Response(body, media_type="application/json")

    async def feed(request: Request) -> Response:
        found = holder(request)
        if isinstance(found, Response):
            return found
        return StreamingResponse(
            found.lines(), media_type="application/x-ndjson", headers={"cache-control": "no-store"}
        )

    return [
        Route("/", home, methods=["GET"]),
        Route("/play", home, methods=["GET"]),
        Route(PLAY_PATH, page, methods=["GET"]),
        Route("/viewer/static/{name}", static, methods=["GET"]),
        Route("/play/draw", drawn, methods=["POST"]),
        Route("/play/feed", feed, methods=["POST"]),
    ]


def play_url(host: str, port: int, token: str, secure: bool = False) -> str:
    """The page's address for a seat: the token in the fragment, which the browser
    never sends, so no server's log ever holds it."""
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if secure else "http"
    return f"{scheme}://{shown}:{port}{PLAY_PATH}#token={token}"
