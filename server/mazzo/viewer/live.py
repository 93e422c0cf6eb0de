"""The live view: ``mazzo match --ui PORT`` and ``mazzo tournament --ui PORT``.

The watch the referee is given (``viewer.watch``) sends public payloads to a
``LiveHub``; the hub keeps what a page opened now must see (the tables in play,
standings, faults, progress, the ratings so far, the finished matches) and pushes every
payload to each open page as a server-sent event. The page
(``static/live.js``) only draws what it gets.

Bounded everywhere: the referee's call only appends to per-page queues under a lock
and never waits; a page's queue holds at most ``QUEUE_MESSAGES`` messages and
``QUEUE_BYTES`` bytes, and a page that falls behind (a slow browser, one that stopped
reading) has its queue dropped and is sent one snapshot of the present instead, so
it catches up at once (coalescing) and never holds more. A write that does not finish
in ``WRITE_TIMEOUT`` seconds closes the page's stream; at most ``MAX_PAGES`` pages
are open at once. The web server runs on a thread of its own, so a referee busy
with its bots never keeps pages waiting, and pages never slow the referee.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from mazzo.referee.records import Json

log = logging.getLogger("mazzo.viewer.live")

#: A page's queue: beyond either bound it is dropped for a snapshot.
QUEUE_MESSAGES = 512
QUEUE_BYTES = 2 << 20
#: Seconds one write to a page may take before its stream is closed.
WRITE_TIMEOUT = 10.0
#: Seconds between keep-alive comments on an idle stream.
KEEPALIVE = 15.0
MAX_PAGES = 32
#: What the hub keeps: the last moves of each table, faults, finished matches shown,
#: points of the ratings chart.
LOG_LINES = 12
FAULTS = 100
FINISHED = 500
CHART_POINTS = 400


def _sse(payload: Json) -> bytes:
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


class Page:
    """One open page's queue of encoded events, filled by the referee's thread and
    emptied by the web server's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.wake = asyncio.Event()
        self.queue: deque[bytes] = deque()
        self.size = 0
        self.behind = False  # the queue overflowed: send a snapshot next
        self.woken = False
        self.closed = False


class LiveHub:
    """What is happening now, for pages opened at any time, and the pages to push to."""

    def __init__(
        self, title: str, entrants: Sequence[str], total: int, reveal_after: int | None = None
    ) -> None:
        self.title = title
        self.entrants = list(entrants)
        self.total = total
        self.done = 0
        self.reveal_after = reveal_after
        #: What the page says it shows, when not the referee's rule (``reveal_after``):
        #: a host that withholds more (the arena: no hand at all) says so here.
        self.privacy: str | None = None
        self._lock = threading.Lock()
        self._pages: set[Page] = set()
        self._tables: dict[str, Json] = {}
        self._faults: deque[Json] = deque(maxlen=FAULTS)
        self._finished: deque[Json] = deque(maxlen=FINISHED)
        self._records: dict[str, Json] = {}
        self._standings: list[Json] = []
        self._pairings: list[Json] = []
        self._chart: list[Json] = []
        self._recorded: list[Json] = []
        self._next_rating = 0.0
        self.over = False

    # ------------------------------------------------------------- the referee's side

    def send(self, payload: Json) -> None:
        """A ``Watcher``'s ``send``: a public payload of a match (``viewer.watch``)."""
        kind = payload.get("type")
        if kind == "end":
            record = payload.pop("record", None)
            if isinstance(record, dict):
                self._records[str(payload["id"])] = record
        with self._lock:
            self._keep(kind, payload)
        self._push(payload)

    def _keep(self, kind: Any, payload: Json) -> None:
        """What a page opened later must see of ``payload``."""
        rid = str(payload.get("id"))
        if kind == "match":
            self._tables[rid] = {"start": payload, "last": None, "log": [], "reveal": None}
            return
        table = self._tables.get(rid)
        if kind == "move" and table is not None:
            table["last"] = payload
            line = f"{payload['ply']}. seat {payload['seat']}: {payload['move']}"
            if payload.get("fault"):
                line += f" [fault: {payload['fault']}]"
                fault = {"id": rid, "ply": payload["ply"], "seat": payload["seat"]}
                self._faults.append({**fault, "class": payload["fault"]})
            table["log"] = [*table["log"][-(LOG_LINES - 1) :], line]
        elif kind == "reveal" and table is not None:
            table["reveal"] = payload
        elif kind == "end":
            self._tables.pop(rid, None)
            self._finished.append({k: v for k, v in payload.items() if k != "table"})

    def recorded(self, record: Json) -> None:
        """A tournament's ``on_record``: progress, and the standings (computed from every
        record: skipped for a record that comes sooner than four times their cost, so
        at most a fifth of the time goes to them; the final ones come with ``finish``)."""
        self._recorded.append(record)
        self.done += 1
        now = time.monotonic()
        if now >= self._next_rating or self.done >= self.total:
            self._rate()
            self._next_rating = now + 4 * (time.monotonic() - now)
        self._push(self._standings_payload())

    def preload(self, records: Sequence[Json]) -> None:
        """Records of a resumed run, already played."""
        self._recorded.extend(records)
        self.done += len(records)
        for record in records:
            self._records[str(record["id"])] = record
            self._finished.append(_finished_line(record))
        if records:
            self._rate()

    def _rate(self) -> None:
        from mazzo.referee.ratings import standings

        summary = standings(self._recorded, self.entrants)
        point = {
            "matches": len(self._recorded),
            "ratings": {
                row["name"]: [row["openskill"]["mu"], row["openskill"]["sigma"]]
                for row in summary["standings"]
            },
        }
        with self._lock:
            self._standings = summary["standings"]
            self._pairings = summary["pairings"]
            self._chart.append(point)
            if len(self._chart) > CHART_POINTS:  # every other point, the last kept
                self._chart = [*self._chart[:-1:2], self._chart[-1]]

    def finish(self, summary: Json | None = None) -> None:
        """The event is over (``summary``: the tournament's final standings)."""
        if summary is not None:
            with self._lock:
                self._standings = summary.get("standings", self._standings)
                self._pairings = summary.get("pairings", self._pairings)
        self.over = True
        self._push({**self._standings_payload(), "type": "over"})

    def _standings_payload(self) -> Json:
        with self._lock:
            return {
                "type": "standings",
                "progress": {"done": self.done, "total": self.total},
                "standings": self._standings,
                "pairings": self._pairings,
                "chart": self._chart[-1:] if self._chart else [],
                "faults": list(self._faults)[-10:],
                "at": time.time(),
            }

    def _push(self, payload: Json) -> None:
        data = _sse(payload)
        wake: list[Page] = []
        with self._lock:
            for page in self._pages:
                if page.behind:
                    continue
                if len(page.queue) >= QUEUE_MESSAGES or page.size + len(data) > QUEUE_BYTES:
                    page.queue.clear()
                    page.size = 0
                    page.behind = True
                else:
                    page.queue.append(data)
                    page.size += len(data)
                if not page.woken:
                    page.woken = True
                    wake.append(page)
        for page in wake:
            with contextlib.suppress(RuntimeError):  # its loop is gone: the server stopped
                page.loop.call_soon_threadsafe(page.wake.set)

    # ----------------------------------------------------- a mirror of another hub

    def load(self, snapshot: Json) -> None:
        """Another hub's present (its ``snapshot`` event), for a hub that mirrors it
        (``arena.live_relay``); every open page is sent it next, as a page that fell
        behind is. Raises ``TypeError``/``ValueError``/``KeyError`` on a malformed one."""
        progress = snapshot.get("progress") or {}
        tables = {str(t["start"]["id"]): dict(t) for t in snapshot.get("tables") or []}
        with self._lock:
            self.title = str(snapshot.get("title", ""))
            self.entrants = [str(e) for e in snapshot.get("entrants") or []]
            self.reveal_after = snapshot.get("revealAfter")
            self.privacy = snapshot.get("privacy")
            self.done, self.total = int(progress.get("done", 0)), int(progress.get("total", 1))
            self._standings = list(snapshot.get("standings") or [])
            self._pairings = list(snapshot.get("pairings") or [])
            self._chart = list(snapshot.get("chart") or [])[-CHART_POINTS:]
            self._faults = deque(snapshot.get("faults") or [], maxlen=FAULTS)
            self._tables = tables
            self._finished = deque(snapshot.get("finished") or [], maxlen=FINISHED)
            self.over = bool(snapshot.get("over"))
            pages = list(self._pages)
            for page in pages:
                page.behind, page.size, page.woken = True, 0, True
                page.queue.clear()
        for page in pages:
            with contextlib.suppress(RuntimeError):
                page.loop.call_soon_threadsafe(page.wake.set)

    def follow(self, payload: Json) -> None:
        """A payload of another hub's stream, for a hub that mirrors it: kept as that
        hub kept it, and pushed on to this hub's pages unchanged."""
        kind = payload.get("type")
        if kind not in ("standings", "over"):
            self.send(payload)
            return
        progress = payload.get("progress") or {}
        with self._lock:
            self.done = int(progress.get("done", self.done))
            self.total = int(progress.get("total", self.total))
            self._standings = list(payload.get("standings") or [])
            self._pairings = list(payload.get("pairings") or [])
            for point in payload.get("chart") or []:
                if not self._chart or self._chart[-1] != point:
                    self._chart = [*self._chart, point][-CHART_POINTS:]
            self.over = self.over or kind == "over"
        self._push(payload)

    # ------------------------------------------------------------- the pages' side

    def snapshot(self) -> Json:
        """The present, for a page that opens (or fell behind)."""
        with self._lock:
            return {
                "type": "snapshot",
                "title": self.title,
                "entrants": self.entrants,
                "revealAfter": self.reveal_after,
                "privacy": self.privacy,
                "progress": {"done": self.done, "total": self.total},
                "standings": self._standings,
                "pairings": self._pairings,
                "chart": list(self._chart),
                "faults": list(self._faults),
                "tables": list(self._tables.values()),
                "finished": list(self._finished),
                "over": self.over,
                "at": time.time(),
            }

    def open_page(self, loop: asyncio.AbstractEventLoop) -> Page | None:
        page = Page(loop)
        page.behind = True  # its first message is the snapshot
        page.woken = True
        page.wake.set()
        with self._lock:
            if len(self._pages) >= MAX_PAGES:
                return None
            self._pages.add(page)
        return page

    def close_page(self, page: Page) -> None:
        with self._lock:
            self._pages.discard(page)
            page.queue.clear()
            page.closed = True

    def close_all(self) -> None:
        with self._lock:
            pages = list(self._pages)
        for page in pages:
            page.closed = True
            with contextlib.suppress(RuntimeError):
                page.loop.call_soon_threadsafe(page.wake.set)

    def take(self, page: Page) -> bytes:
        """What the page is to be sent now: a snapshot if it fell behind, else its queue."""
        with self._lock:
            page.woken = False
            page.wake.clear()
            if page.behind:
                page.behind = False
                page.queue.clear()
                page.size = 0
                behind = True
            else:
                chunk = b"".join(page.queue)
                page.queue.clear()
                page.size = 0
                behind = False
        return _sse(self.snapshot()) if behind else chunk

    def records(self) -> list[Json]:
        """The finished matches' records, in the order they finished."""
        with self._lock:
            ids = [line["id"] for line in self._finished]
        return [self._records[rid] for rid in ids if rid in self._records]

    def pages(self) -> int:
        with self._lock:
            return len(self._pages)


def _finished_line(record: Json) -> Json:
    result = record["result"]
    names = [s["entrant"] for s in record["sides"]]
    return {
        "type": "end",
        "id": str(record["id"]),
        "winners": [names[w] for w in result["winners"]],
        "totals": result["match_totals"],
        "forfeit": result["forfeit"],
        "moves": len(record["moves"]),
        "faults": len(record["faults"]),
    }


#: The headers of an event stream: not cached, not buffered by a proxy.
SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


def watch_disconnect(receive: Receive) -> tuple[asyncio.Event, asyncio.Task[None]]:
    """An event set once the page goes away (``http.disconnect``), and the task that
    listens for it (cancel it when the stream ends)."""
    gone = asyncio.Event()

    async def listen() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()

    return gone, asyncio.create_task(listen())


class EventStream(Response):
    """A page's server-sent events, written by hand so every write has a deadline and
    a disconnect ends the stream at once."""

    def __init__(self, hub: LiveHub, page: Page) -> None:
        super().__init__(media_type="text/event-stream")
        self.hub, self.page = hub, page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gone, listener = watch_disconnect(receive)
        page = self.page
        try:
            await asyncio.wait_for(
                send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS}),
                WRITE_TIMEOUT,
            )
            await self._write(send, b"retry: 2000\n\n")
            while not gone.is_set() and not page.closed:
                waiting = asyncio.ensure_future(page.wake.wait())
                stop = asyncio.ensure_future(gone.wait())
                await asyncio.wait(
                    {waiting, stop}, timeout=KEEPALIVE, return_when=asyncio.FIRST_COMPLETED
                )
                waiting.cancel()
                stop.cancel()
                if gone.is_set():
                    break
                if page.wake.is_set():
                    chunk = self.hub.take(page)
                else:
                    chunk = b"" if page.closed else b": keep-alive\n\n"
                if chunk:
                    await self._write(send, chunk)
                if page.closed:  # what was queued before the close is sent first
                    break
        except (TimeoutError, OSError):
            pass  # a page that does not read, or went away: its stream ends
        finally:
            listener.cancel()
            self.hub.close_page(page)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    send({"type": "http.response.body", "body": b"", "more_body": False}), 1.0
                )

    @staticmethod
    async def _write(send: Send, body: bytes) -> None:
        message = {"type": "http.response.body", "body": body, "more_body": True}
        await asyncio.wait_for(send(message), WRITE_TIMEOUT)


def live_app(hub: LiveHub) -> Starlette:
    """The live page at ``/live/``, its events at ``/live/events``, the present as JSON
    at ``/live/state``, and the replay viewer of the finished matches at ``/viewer/``."""
    from mazzo.viewer.web import page_response, records_routes

    async def page(request: Request) -> Response:
        return page_response("live.html")

    async def events(request: Request) -> Response:
        opened = hub.open_page(asyncio.get_running_loop())
        if opened is None:
            return Response(b"too many pages open", 503, media_type="text/plain")
        return EventStream(hub, opened)

    async def state(request: Request) -> Response:
        return Response(json.dumps(hub.snapshot()), media_type="application/json")

    async def home(request: Request) -> Response:
        return RedirectResponse("/live/")

    routes = records_routes(lambda: ("live", hub.records()))
    routes += [
        Route("/", home, methods=["GET"]),
        Route("/live", home, methods=["GET"]),
        Route("/live/", page, methods=["GET"]),
        Route("/live/events", events, methods=["GET"]),
        Route("/live/state", state, methods=["GET"]),
    ]
    return Starlette(routes=routes)


class LiveServer:
    """The live page's web server, on a thread of its own with its own event loop."""

    def __init__(self, hub: LiveHub, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.hub = hub
        self._sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self._sock.listen(64)
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self._sock.getsockname()[1]}/live/"
        from mazzo.service.http_connections import HttpLimits, bounded_protocol

        limits = HttpLimits()  # the service's: heads within 10 s, 512 connections
        config = uvicorn.Config(
            live_app(hub),
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
            http=bounded_protocol(limits),
            timeout_keep_alive=limits.idle_seconds,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._server.serve(sockets=[self._sock])),
            name="mazzo-live",
            daemon=True,
        )

    def start(self) -> str:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and self._thread.is_alive():
            if time.monotonic() > deadline:
                raise OSError("the live page's server did not start in 10 s")
            time.sleep(0.01)
        return self.url

    def stop(self) -> None:
        self.hub.close_all()
        self._server.should_exit = True
        self._thread.join(5)
        self._sock.close()


def linger(seconds: float | None, announce: Callable[[str], None]) -> None:
    """Keep the page up after the event: ``seconds``, or until Ctrl-C when None."""
    if seconds is not None and seconds <= 0:
        return
    announce(
        "the event is over; the live page stays up "
        + ("until Ctrl-C" if seconds is None else f"for {seconds:g} s")
    )
    with contextlib.suppress(KeyboardInterrupt):
        if seconds is None:
            threading.Event().wait()
        else:
            time.sleep(seconds)
