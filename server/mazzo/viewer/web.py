"""The viewer over HTTP: the page, its files, and frames of a posted match record.

The same routes serve ``mazzo serve``'s REST port (a record opened in the page is
posted one match at a time, within the body limit) and ``mazzo view RECORDS.jsonl``,
which adds the file's list of matches. Frames are built in the viewer's own process
pool (``viewer.pool``), never on the event loop the rules calls share. Everything is
served from the package as committed: the page's scripts are plain ES modules (typed
with JSDoc, type-checked by ``make lint``), so nothing is built and an install without
Node has the whole viewer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path

import uvicorn
from google.protobuf import any_pb2, json_format
from google.rpc import code_pb2, error_details_pb2, status_pb2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from mazzo.core.errors import InvalidArgument, RulesError
from mazzo.referee.records import Json, read_records
from mazzo.service.errors import status_of
from mazzo.service.rest import read_body, status_response
from mazzo.viewer import pool

JSON = "application/json"
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
_NAME = re.compile(r"^[a-z0-9_-]+\.(?:html|js|css)$")
log = logging.getLogger("mazzo.viewer")
_INTERNAL = b'{"code": 13, "message": "internal error"}'

Refuse = Callable[[RulesError], Response]
ReadBody = Callable[[Request], Awaitable[bytes | Response]]


def static_file(name: str) -> bytes | None:
    """A file of the page (``static/NAME``), or None for a name that is not one."""
    if not _NAME.match(name):
        return None
    path = resources.files("mazzo.viewer").joinpath("static", name)
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


#: The viewer's pages (``static/NAME``: the page's body) with their title and module
#: script: every page has the same head (``page_html``), written once.
PAGES = {
    "index.html": ("Mazzo viewer", "main.js"),
    "live.html": ("Mazzo live", "live.js"),
    "play.html": ("Mazzo: your seat", "play.js"),
}
_HEAD = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/viewer/static/viewer.css">
{script}</head>
"""


def head_html(title: str, script: str | None = None) -> str:
    """The head every page of ours shares (the viewer's, the arena's): one style
    sheet, and the page's script module if it has one. ``title`` is HTML already."""
    tag = f'<script type="module" src="/viewer/static/{script}"></script>\n' if script else ""
    return _HEAD.format(title=title, script=tag)


def page_html(name: str) -> str:
    """A page of the viewer (one of ``PAGES``): the shared head, then its body, shipped
    in the package, so always there."""
    title, script = PAGES[name]
    body = static_file(name)
    if body is None:  # only a package with files deleted by hand
        raise FileNotFoundError(f"the viewer's {name} is not in the package")
    return head_html(title, script) + body.decode()


def page_response(name: str) -> Response:
    return Response(page_html(name), media_type="text/html")


def static_response(request: Request, refuse: Refuse) -> Response:
    """The page's script or style sheet the path names (``static/{name}``), or
    ``refuse``'s answer; the pages themselves are served whole (``page_response``)."""
    name = str(request.path_params["name"])
    body = None if name in PAGES else static_file(name)
    if body is None:
        return refuse(InvalidArgument("name", f"no viewer file {name[:40]!r}"))
    kind = _TYPES[name[name.rindex(".") :]]
    return Response(body, media_type=kind, headers={"cache-control": "no-cache"})


def busy() -> Response:
    """429 with Retry-After, and the API's RESOURCE_EXHAUSTED status with a
    ``google.rpc.RetryInfo``: the frames pool is full, and a client retries later."""
    info = error_details_pb2.RetryInfo()
    info.retry_delay.seconds = pool.RETRY_SECONDS
    detail = any_pb2.Any()
    detail.Pack(info)
    status = status_pb2.Status(
        code=code_pb2.RESOURCE_EXHAUSTED,
        message=(
            f"the viewer is building frames for {pool.FRAMES.capacity} requests already; "
            f"retry in {pool.RETRY_SECONDS} s"
        ),
        details=[detail],
    )
    body = json_format.MessageToJson(status, indent=None)
    return Response(body, 429, media_type=JSON, headers={"retry-after": str(pool.RETRY_SECONDS)})


async def frames_response(request: Request, record: bytes | Json, refuse: Refuse) -> Response:
    """The frames of ``record`` (a posted body, or a record already read) as JSON,
    gzipped for a client that takes it (frames repeat themselves: a whole Burraco
    match's 2.7 MB are about a fiftieth of that), built in the viewer's pool; or the
    refusal: 400 for a record that is not one or past the bounds, 429 when the pool is
    full."""
    gzipped = "gzip" in request.headers.get("accept-encoding", "")
    with_views = request.query_params.get("views") == "1"
    try:
        body = await pool.FRAMES.build(record, with_views, gzipped)
    except pool.Busy:
        return busy()
    except RulesError as e:
        return refuse(e)
    except Exception:  # a bug, or a pool process that died: the API's INTERNAL, logged
        log.exception("frames of a record failed")
        return Response(_INTERNAL, 500, media_type=JSON)
    headers = {"content-encoding": "gzip", "vary": "accept-encoding"} if gzipped else None
    return Response(body, media_type=JSON, headers=headers)


Endpoint = Callable[[Request], Awaitable[Response]]


async def _no_file(request: Request) -> Response:
    """The service has no records file: the page then offers to open one."""
    return Response(b'{"file": null, "records": []}', media_type=JSON)


def viewer_routes(read_body: ReadBody, refuse: Refuse, records: Endpoint = _no_file) -> list[Route]:
    """``GET /viewer/`` (the page), ``GET /viewer/static/NAME``, ``POST /viewer/frames``
    (a record in, its frames out) and ``GET /viewer/records`` (the served file's
    matches: none for the service). ``read_body`` is the REST API's bounded body
    reader and ``refuse`` its error answer, so the refusals are the API's."""

    async def page(request: Request) -> Response:
        return page_response("index.html")

    async def redirect(request: Request) -> Response:
        return RedirectResponse("/viewer/")

    async def static(request: Request) -> Response:
        return static_response(request, refuse)

    async def frames(request: Request) -> Response:
        raw = await read_body(request)
        if isinstance(raw, Response):
            return raw
        return await frames_response(request, raw, refuse)  # read as JSON in the pool

    return [
        Route("/viewer", redirect, methods=["GET"]),
        Route("/viewer/", page, methods=["GET"]),
        Route("/viewer/static/{name}", static, methods=["GET"]),
        Route("/viewer/frames", frames, methods=["POST"]),
        Route("/viewer/records", records, methods=["GET"]),
    ]


# --------------------------------------------------------------------------- mazzo view


def summary(index: int, record: Json) -> Json:
    """A line of the file's list of matches."""
    result = record.get("result", {}) if isinstance(record.get("result"), dict) else {}
    return {
        "index": index,
        "id": str(record.get("id", index)),
        "game": str(record.get("game", "?")),
        "players": record.get("players"),
        "moves": len(record.get("moves", [])) if isinstance(record.get("moves"), list) else 0,
        "winners": result.get("winners", []),
        "forfeit": result.get("forfeit"),
    }


def refuse(e: RulesError) -> Response:
    """A refusal as the REST API writes it (the same JSON Status and HTTP code)."""
    return status_response(status_of(e))


def service_routes() -> list[Route]:
    """The viewer's routes on the service's HTTP port (``mazzo serve``): frames of a
    posted record, and the page."""
    return viewer_routes(read_body, refuse)


def records_routes(load: Callable[[], tuple[str, list[Json]]]) -> list[Route]:
    """The viewer's routes over a list of records: ``GET /viewer/records`` (their
    summaries) and ``GET /viewer/records/{index}`` (one match's frames). ``load`` gives
    the list's name and records, asked again at each request."""

    async def records(request: Request) -> Response:
        name, found = load()
        listed = [summary(k, r) for k, r in enumerate(found)]
        return Response(json.dumps({"file": name, "records": listed}), media_type=JSON)

    async def one(request: Request) -> Response:
        _, found = load()
        index = int(request.path_params["index"])
        if not 0 <= index < len(found):
            return refuse(InvalidArgument("index", f"the file has matches 0..{len(found) - 1}"))
        return await frames_response(request, found[index], refuse)

    routes = viewer_routes(read_body, refuse, records)
    routes.append(Route("/viewer/records/{index:int}", one, methods=["GET"]))
    return routes


def view_app(path: Path) -> Starlette:
    """``mazzo view``: the viewer, plus ``GET /viewer/records`` (the file's matches,
    read again at each request, so a file still being written shows its new matches)
    and ``GET /viewer/records/{index}`` (one match's frames)."""

    async def home(request: Request) -> Response:
        return RedirectResponse("/viewer/")

    routes = records_routes(lambda: (path.name, read_records(path)))
    routes.append(Route("/", home, methods=["GET"]))
    return Starlette(routes=routes)


def view_config(path: Path) -> uvicorn.Config:
    """uvicorn's settings for ``mazzo view``: the service's bounds on connections
    (a request head within 10 s, 512 connections, a JSON 503 past them)."""
    from mazzo.service.http_connections import HttpLimits, bounded_protocol

    limits = HttpLimits()
    return uvicorn.Config(
        view_app(path),
        log_level="warning",
        lifespan="off",
        http=bounded_protocol(limits),
        timeout_keep_alive=limits.idle_seconds,
    )


def serve_view(path: Path, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve ``view_app(path)`` until interrupted; ``announce`` gets the page's URL
    (with the port the system chose for port 0)."""

    read_records(path)  # a file that is not records fails here, before serving
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the backlog until uvicorn takes them
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{bound}/viewer/")
    config = view_config(path)
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))
