"""A live table another arena process plays, shown on this process's pages by relaying
that table's event stream (issue 34: live tables with several arena processes).

A table's live hub is in the process whose worker plays the match (``arena.live``).
Each playing process says where its pages answer (``web_addresses``); a page here asks
the match's process for ``/arena/live/{match}/events`` and passes the stream on byte
for byte: the same server-sent events, already made public by the process that plays
(no hand, no record: ``arena.live``), so nothing is added or dropped here.

Everything is bounded, as a page's own stream is (``viewer.live``): at most
``STREAMS`` relayed at once (more: 503), ``CONNECT_SECONDS`` to reach the other
process (else 502, saying so), ``READ_SECONDS`` of silence from it (it sends a
keep-alive every ``KEEPALIVE``) before the stream ends, ``WRITE_TIMEOUT`` for each
write to a page that stopped reading. A page that goes away closes the upstream
stream at once, which frees its place in the other process's hub. A relayed request
carries ``HOP``: the process asked answers from its own tables only, so two stale
addresses never relay a stream in a circle.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ssl
from urllib.parse import quote

import httpx
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from mazzo.viewer.live import KEEPALIVE, SSE_HEADERS, WRITE_TIMEOUT, watch_disconnect

#: The header of a relayed request: answered from the asked process's own tables.
HOP = "x-mazzo-live-relayed"
#: Streams one process relays at once.
STREAMS = 64
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
    """The streams this process relays: how many are open, and the bound."""

    def __init__(self, streams: int | None = None) -> None:
        self.streams = STREAMS if streams is None else streams
        self.open = 0

    def events(self, web_url: str, match_id: str) -> Response:
        """The response that relays ``match_id``'s events from the pages at ``web_url``."""
        return _Relayed(self, events_url(web_url, match_id))


async def _send_text(send: Send, status: int, text: bytes) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await asyncio.wait_for(
        send({"type": "http.response.start", "status": status, "headers": headers}),
        WRITE_TIMEOUT,
    )
    await asyncio.wait_for(send({"type": "http.response.body", "body": text}), WRITE_TIMEOUT)


class _Relayed(Response):
    """One page's relayed stream, written by hand (as ``viewer.live.EventStream``) so
    that every write has a deadline and a page's disconnect ends it at once."""

    def __init__(self, relay: LiveRelay, url: str) -> None:
        super().__init__(media_type="text/event-stream")
        self.relay, self.url = relay, url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        relay = self.relay
        if relay.open >= relay.streams:
            await _send_text(send, 503, b"too many live tables relayed by this process")
            return
        relay.open += 1
        try:
            await self._relay(receive, send)
        finally:
            relay.open -= 1

    async def _relay(self, receive: Receive, send: Send) -> None:
        gone, listener = watch_disconnect(receive)
        started = False
        timeout = httpx.Timeout(READ_SECONDS, connect=CONNECT_SECONDS, write=WRITE_TIMEOUT)
        try:
            async with (
                httpx.AsyncClient(timeout=timeout, trust_env=False, verify=_tls()) as client,
                client.stream("GET", self.url, headers={HOP: "1"}) as upstream,
            ):
                if upstream.status_code != 200:
                    text = b""
                    async for chunk in upstream.aiter_raw():
                        text += chunk
                        if len(text) >= REFUSAL_BYTES:
                            break
                    await _send_text(send, upstream.status_code, text[:REFUSAL_BYTES])
                    return
                start = {"type": "http.response.start", "status": 200, "headers": SSE_HEADERS}
                await asyncio.wait_for(send(start), WRITE_TIMEOUT)
                started = True
                copy = asyncio.create_task(_copy(upstream, send))
                stop = asyncio.create_task(gone.wait())
                try:
                    await asyncio.wait({copy, stop}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    copy.cancel()
                    stop.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await copy
        except (httpx.HTTPError, TimeoutError, OSError) as e:
            if not started:
                why = f"the arena process that plays this table does not answer: {type(e).__name__}"
                with contextlib.suppress(TimeoutError, OSError):
                    await _send_text(send, 502, why.encode())
                return
        finally:
            listener.cancel()
        if started:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    send({"type": "http.response.body", "body": b"", "more_body": False}), 1.0
                )


async def _copy(upstream: httpx.Response, send: Send) -> None:
    """The upstream's bytes to the page, as they come; ends with the upstream, its
    silence past ``READ_SECONDS`` or a write past ``WRITE_TIMEOUT``."""
    async for chunk in upstream.aiter_raw():
        message = {"type": "http.response.body", "body": chunk, "more_body": True}
        await asyncio.wait_for(send(message), WRITE_TIMEOUT)
