"""A live table another arena process plays, shown on this process's pages by relaying
that table's event stream (issue 34: live tables with several arena processes).

A table's live hub is in the process whose worker plays the match (``arena.live``).
Each playing process says where its pages answer (``web_addresses``); this process
asks the match's process for ``/arena/live/{match}/events`` **once per table**, however
many of its pages follow it, and mirrors that stream in a ``LiveHub`` of its own
(``LiveHub.load``, ``LiveHub.follow``): every event is passed on to its pages
unchanged, already made public by the process that plays (no hand, no record:
``arena.live``), so nothing is added or dropped here; a page that opens mid-match is
sent the mirror's snapshot, as the playing process would send it. So a table watched
from many replicas takes one of the playing process's pages per replica, not one per
viewer.

Everything is bounded, as a page's own stream is (``viewer.live``): at most
``STREAMS`` tables mirrored at once (another: 503) and ``MAX_PAGES`` pages on each,
``CONNECT_SECONDS`` to reach the other process (else 502, saying so),
``SNAPSHOT_SECONDS`` for its first snapshot, ``READ_SECONDS`` of silence from it (it
sends a keep-alive every ``KEEPALIVE``) before the mirror ends, ``EVENT_BYTES`` for
one event (an event too large or not a JSON object ends the mirror too),
``WRITE_TIMEOUT`` for each write to a page that stopped reading. The last page to go
away closes the upstream stream at once, which frees its place in the other process's
hub; a mirror no page opens on closes after ``LINGER``. A relayed request carries
``HOP``: the process asked answers from its own tables only, so two stale addresses
never relay a stream in a circle.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import ssl
from collections.abc import Callable
from urllib.parse import quote

import httpx
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from mazzo.viewer.live import KEEPALIVE, QUEUE_BYTES, WRITE_TIMEOUT, EventStream, LiveHub, Page

log = logging.getLogger("mazzo.arena.live_relay")

#: The header of a relayed request: answered from the asked process's own tables.
HOP = "x-mazzo-live-relayed"
#: Tables one process mirrors at once (each one upstream stream).
STREAMS = 64
#: The largest event a mirror takes (a page's whole queue may hold no more).
EVENT_BYTES = QUEUE_BYTES
#: Seconds a mirror stays open with no page on it.
LINGER = 2.0
#: Seconds from asking to the stream's first snapshot (keep-alives alone do not count).
SNAPSHOT_SECONDS = 10.0
#: What reading a malformed stream raises: not JSON (``ValueError``), not an object,
#: or a snapshot of the wrong shape (``LiveHub.load``).
BAD_STREAM = (ValueError, TypeError, KeyError, AttributeError)
CONNECT_SECONDS = 3.0
READ_SECONDS = 2 * KEEPALIVE + 5.0
#: The most of another process's refusal (a 404, a 503) passed on.
REFUSAL_BYTES = 4096


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS settings of every relay (an ``https`` page address), made once: a client
    making its own reads the system's certificates, about 20 ms of the event loop."""
    return ssl.create_default_context()


def events_url(web_url: str, match_id: str) -> str:
    """The event stream of ``match_id``'s live table at the pages of ``web_url``."""
    return f"{web_url.rstrip('/')}/arena/live/{quote(match_id, safe='')}/events"


class LiveRelay:
    """The tables this process mirrors, by upstream address, and the bound."""

    def __init__(self, streams: int | None = None) -> None:
        self.streams = STREAMS if streams is None else streams
        self.mirrors: dict[str, Mirror] = {}

    def events(self, web_url: str, match_id: str) -> Response:
        """The response that relays ``match_id``'s events from the pages at ``web_url``."""
        return _Relayed(self, events_url(web_url, match_id))

    def mirror(self, url: str) -> Mirror | None:
        """The mirror of the stream at ``url``: the one open, else a new one (None: the
        bound is reached)."""
        found = self.mirrors.get(url)
        if found is not None and not found.ended:
            return found
        if len(self.mirrors) >= self.streams:
            return None
        made = Mirror(url, lambda: self._forget(url, made))
        self.mirrors[url] = made
        return made

    def _forget(self, url: str, mirror: Mirror) -> None:
        if self.mirrors.get(url) is mirror:
            del self.mirrors[url]


async def _send_text(send: Send, status: int, text: bytes) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await asyncio.wait_for(
        send({"type": "http.response.start", "status": status, "headers": headers}),
        WRITE_TIMEOUT,
    )
    await asyncio.wait_for(send({"type": "http.response.body", "body": text}), WRITE_TIMEOUT)


class _MirrorHub(LiveHub):
    """A hub fed by another hub's stream; says when its last page closes."""

    def __init__(self, emptied: asyncio.Event) -> None:
        super().__init__("", [], 1)
        self.emptied = emptied

    def close_page(self, page: Page) -> None:
        super().close_page(page)
        if self.pages() == 0:
            self.emptied.set()


class Mirror:
    """One table's upstream stream, and the hub its pages here follow."""

    def __init__(self, url: str, forget: Callable[[], None]) -> None:
        self.url = url
        self.emptied = asyncio.Event()
        self.hub = _MirrorHub(self.emptied)
        #: None once the first snapshot is in; else the refusal to pass on.
        self.ready: asyncio.Future[tuple[int, bytes] | None]
        self.ready = asyncio.get_running_loop().create_future()
        self.ended = False
        self._forget = forget
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        timeout = httpx.Timeout(READ_SECONDS, connect=CONNECT_SECONDS, write=WRITE_TIMEOUT)
        try:
            async with (
                httpx.AsyncClient(timeout=timeout, trust_env=False, verify=_tls()) as client,
                client.stream("GET", self.url, headers={HOP: "1"}) as upstream,
            ):
                if upstream.status_code != 200:
                    self._refuse(upstream.status_code, await _refusal(upstream))
                    return
                copy = asyncio.create_task(self._follow(upstream))
                idle = asyncio.create_task(self._until_unwatched())
                try:
                    await asyncio.wait({copy, idle}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    idle.cancel()
                    copy.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await idle
                    with contextlib.suppress(asyncio.CancelledError):
                        await copy  # its error, if it failed, ends the mirror below
        except (httpx.HTTPError, TimeoutError, OSError) as e:
            why = f"the arena process that plays this table does not answer: {type(e).__name__}"
            self._refuse(502, why.encode())
        except BAD_STREAM as e:  # a bad stream ends its mirror only, never the server
            log.warning("a bad live stream from %s: %r", self.url, e)
            self._refuse(502, b"the arena process that plays this table sent a bad stream")
        finally:
            self._refuse(502, b"the arena process that plays this table ended its stream")
            self.ended = True
            self._forget()
            self.hub.close_all()  # its pages end; they dial again (``retry``)

    def _refuse(self, status: int, text: bytes) -> None:
        if not self.ready.done():
            self.ready.set_result((status, text[:REFUSAL_BYTES]))

    async def _follow(self, upstream: httpx.Response) -> None:
        """The upstream's events into the hub, as they come; ends with the upstream,
        its silence past ``READ_SECONDS``, or an event past ``EVENT_BYTES``."""
        buffer = b""
        async for chunk in upstream.aiter_raw():
            buffer += chunk.replace(b"\r\n", b"\n")
            *events, buffer = buffer.split(b"\n\n")
            for event in events:
                data = [
                    line[5:].lstrip(b" ") for line in event.split(b"\n") if line[:5] == b"data:"
                ]
                if data:
                    self._take(json.loads(b"\n".join(data)))
            if len(buffer) > EVENT_BYTES:
                raise ValueError(f"an event of over {EVENT_BYTES} bytes")

    def _take(self, payload: object) -> None:
        if not isinstance(payload, dict):
            raise ValueError("an event that is not an object")
        if payload.get("type") == "snapshot":
            self.hub.load(payload)
            if not self.ready.done():
                self.ready.set_result(None)
        elif self.ready.done():
            self.hub.follow(payload)

    async def _until_unwatched(self) -> None:
        """Returns once no page follows the mirror: at the last page's close, or
        ``LINGER`` after the last check found none."""
        try:
            await asyncio.wait_for(asyncio.shield(self.ready), SNAPSHOT_SECONDS)
        except TimeoutError:
            why = f"the arena process that plays this table sent no table in {SNAPSHOT_SECONDS:g} s"
            self._refuse(502, why.encode())
            return
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.emptied.wait(), LINGER)
            self.emptied.clear()
            if self.hub.pages() == 0:
                return


async def _refusal(upstream: httpx.Response) -> bytes:
    text = b""
    async for chunk in upstream.aiter_raw():
        text += chunk
        if len(text) >= REFUSAL_BYTES:
            break
    return text[:REFUSAL_BYTES]


class _Relayed(Response):
    """One page's relayed stream: a page of the table's mirror (made at the first
    page), or the upstream's refusal passed on."""

    def __init__(self, relay: LiveRelay, url: str) -> None:
        super().__init__(media_type="text/event-stream")
        self.relay, self.url = relay, url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        for _ in range(2):  # a mirror that ended as this page came: one new one
            mirror = self.relay.mirror(self.url)
            if mirror is None:
                await _send_text(send, 503, b"too many live tables relayed by this process")
                return
            refused = await asyncio.shield(mirror.ready)
            if refused is not None:
                await _send_text(send, *refused)
                return
            if mirror.ended:
                continue
            page = mirror.hub.open_page(asyncio.get_running_loop())
            if page is None:
                await _send_text(send, 503, b"too many pages open")
                return
            await EventStream(mirror.hub, page)(scope, receive, send)
            return
        await _send_text(send, 502, b"the arena process that plays this table ended its stream")
