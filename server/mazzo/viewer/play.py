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

While the others move, the page follows the public feed of the match
(``GET /play/events``: the live view's server-sent events, ``viewer.live``, built by
the watch from what *every* seat sees, ``viewer.watch``): the move log in words, the
table as it changes, the score.
"""

from __future__ import annotations

import asyncio
import json

from google.protobuf import json_format
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from mazzo.core.errors import InvalidArgument
from mazzo.games.registry import GAMES
from mazzo.referee.records import Json, to_json
from mazzo.service.rest import read_body
from mazzo.v1 import bot_pb2
from mazzo.viewer.live import EventStream, LiveHub
from mazzo.viewer.tables import table_of
from mazzo.viewer.texts import move_text
from mazzo.viewer.web import page_response, refuse, static_file

PLAY_PATH = "/play/"
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


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
    score, the seat, the time left."""
    game = request.view.WhichOneof("detail")
    if game is None or game not in GAMES:
        raise InvalidArgument("view", "the decision's view names no game this service has")
    view = to_json(request.view)
    moves = []
    for move in request.legal_moves:
        wire = to_json(move)
        moves.append({"text": move_text(wire), "card": _card_only(wire, game)})
    return {
        "game": game,
        "seat": request.seat,
        "players": int(view.get("players", 0)),
        "deck": GAMES[game].presentation.deck,
        "table": table_of(game, [view], None),
        "matchScore": [int(x) for x in view.get("matchScore", [])],
        "moves": moves,
        "timeLeft": request.time_left.ToTimedelta().total_seconds(),
    }


def play_routes(hub: LiveHub) -> list[Route]:
    """The page (``GET /play/``), its files (``/viewer/static/NAME``, as the viewer
    serves them), ``POST /play/draw`` (a decision in, what to show of it out) and
    ``GET /play/events`` (the match's public feed from ``hub``)."""

    async def page(request: Request) -> Response:
        return page_response("play.html")

    async def home(request: Request) -> Response:
        return RedirectResponse(PLAY_PATH)

    async def static(request: Request) -> Response:
        name = str(request.path_params["name"])
        body = static_file(name)
        if body is None:
            return refuse(InvalidArgument("name", f"no viewer file {name[:40]!r}"))
        kind = _TYPES[name[name.rindex(".") :]]
        return Response(body, media_type=kind, headers={"cache-control": "no-cache"})

    async def drawn(request: Request) -> Response:
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

    async def events(request: Request) -> Response:
        opened = hub.open_page(asyncio.get_running_loop())
        if opened is None:
            return Response(b"too many pages open", 503, media_type="text/plain")
        return EventStream(hub, opened)

    return [
        Route("/", home, methods=["GET"]),
        Route("/play", home, methods=["GET"]),
        Route(PLAY_PATH, page, methods=["GET"]),
        Route("/viewer/static/{name}", static, methods=["GET"]),
        Route("/play/draw", drawn, methods=["POST"]),
        Route("/play/events", events, methods=["GET"]),
    ]


def play_url(host: str, port: int, token: str, secure: bool = False) -> str:
    """The page's address for a seat: the token in the fragment, which the browser
    never sends, so no server's log ever holds it."""
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if secure else "http"
    return f"{scheme}://{shown}:{port}{PLAY_PATH}#token={token}"
