"""The arena's pages served by a real uvicorn on port 0, on a thread of its own (as
``mazzo arena serve`` will mount them), and a plain HTTP GET that follows no redirect."""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette

from mazzo.arena import serve as arena_serve
from mazzo.arena.live import LiveTables
from mazzo.arena.pages import routes
from mazzo.arena.run import Settings
from mazzo.arena.store import Store


@contextmanager
def serve(store: Store, live: LiveTables | None = None) -> Iterator[str]:
    """The pages of ``store`` (with ``live``'s tables) at the URL yielded
    (``http://127.0.0.1:PORT``)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    config = uvicorn.Config(
        Starlette(routes=routes(store, live)),
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the pages did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()


@contextmanager
def serving(store: Store, play: Settings) -> Iterator[arena_serve.Served]:
    """``mazzo arena serve`` over ``store`` on an event loop of its own thread, every
    port a free one: the API, the pages (with the live tables and the person's page),
    the gateway, and ``play``'s workers. Stopped as the CLI stops it."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(30)

    served = run(arena_serve.start(store, play=play, gateway_port=0, pages=True))
    try:
        yield served
    finally:
        run(arena_serve.stop(served, grace=0.5))
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def fetch(url: str) -> tuple[int, dict[str, str], str]:
    """GET ``url``: its status, headers (lower-case names) and body as text."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=30)
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        reply = connection.getresponse()
        headers = {k.lower(): v for k, v in reply.getheaders()}
        return reply.status, headers, reply.read().decode()
    finally:
        connection.close()
