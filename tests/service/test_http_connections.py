"""Issue 36, item 4: HTTP connections that never send a whole request are closed in a
documented time, and a connection past the cap gets the API's JSON Status, not a
plain-text 503 (some 512 silent connections used to lock every client out).

The server here has small limits, so the test waits fractions of a second; the
production values are checked against the docs at the end.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from mazzo.service.http_connections import HttpLimits, listening_socket, start_uvicorn
from mazzo.service.server import HTTP_LIMITS, start_server, stop_server

LIMITS = HttpLimits(head_seconds=0.6, connections=4, idle_seconds=2, over_cap_head_seconds=0.6)
GET_GAMES = b"GET /v1/games HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest_asyncio.fixture
async def http_port() -> AsyncIterator[int]:
    running, _ = await start_server("127.0.0.1", 0, http_port=0, http_limits=LIMITS)
    assert running.http_port is not None
    yield running.http_port
    await stop_server(running, grace=0.5, quiet=0)


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def _answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer: status, headers (lower-case names), body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 5)
    return status, headers, body


async def _closed_within(reader: asyncio.StreamReader, seconds: float) -> float:
    """How long until the server closes the connection (fails past ``seconds``)."""
    start = time.monotonic()
    rest = await asyncio.wait_for(reader.read(), seconds)
    assert rest == b""
    return time.monotonic() - start


async def test_a_connection_that_sends_nothing_is_closed_after_the_head_deadline(
    http_port: int,
) -> None:
    reader, writer = await _connect(http_port)
    took = await _closed_within(reader, 3)
    assert 0.5 < took < 2
    writer.close()


async def test_a_half_sent_head_gets_a_json_408_and_is_closed(http_port: int) -> None:
    reader, writer = await _connect(http_port)
    writer.write(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")  # the head never ends
    status, headers, body = await _answer(reader)
    assert status == 408 and headers["content-type"] == "application/json"
    assert b'"code": 4' in body and b"did not arrive within 0.6 s" in body
    assert await reader.read() == b""
    writer.close()


async def test_a_head_sent_a_byte_at_a_time_does_not_push_its_deadline_back(
    http_port: int,
) -> None:
    reader, writer = await _connect(http_port)
    start = time.monotonic()

    async def trickle() -> None:
        for byte in GET_GAMES[:-2]:
            writer.write(bytes([byte]))
            await asyncio.sleep(0.05)

    task = asyncio.create_task(trickle())
    status, _, _ = await _answer(reader)
    assert status == 408 and time.monotonic() - start < 1.5
    task.cancel()
    writer.close()


async def test_answered_connections_are_kept_for_the_next_request_then_closed_when_idle(
    http_port: int,
) -> None:
    reader, writer = await _connect(http_port)
    for _ in range(2):  # longer than the head deadline between requests: still served
        writer.write(GET_GAMES)
        status, _, _ = await _answer(reader)
        assert status == 200
        await asyncio.sleep(0.8)
    took = await _closed_within(reader, 4)
    assert took < 2.5
    writer.close()


async def test_a_body_still_arriving_after_the_answer_is_given_the_head_deadline(
    http_port: int,
) -> None:
    reader, writer = await _connect(http_port)
    head = b"GET /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
    writer.write(head + b"12345")  # the route reads no body; 95 bytes never come
    status, _, _ = await _answer(reader)
    assert status == 200
    assert 0.4 < await _closed_within(reader, 2) < 1.5
    writer.close()


async def test_past_the_cap_a_request_gets_the_apis_json_503_with_retry_after(
    http_port: int,
) -> None:
    silent = [await _connect(http_port) for _ in range(LIMITS.connections)]
    reader, writer = await _connect(http_port)
    writer.write(GET_GAMES)
    status, headers, body = await _answer(reader)
    assert status == 503 and headers["content-type"] == "application/json"
    assert headers["retry-after"] == "1" and headers["connection"] == "close"
    assert b'"code": 14' in body and b"4 HTTP connections at once" in body
    assert await reader.read() == b""
    writer.close()
    # The silent ones are closed at their deadline: the server serves again.
    for r, w in silent:
        await _closed_within(r, 3)
        w.close()
    reader, writer = await _connect(http_port)
    writer.write(GET_GAMES)
    status, _, _ = await _answer(reader)
    assert status == 200
    writer.close()


def test_the_production_limits_are_the_documented_ones() -> None:
    assert HTTP_LIMITS.head_seconds == 10 and HTTP_LIMITS.connections == 512
    assert HTTP_LIMITS.idle_seconds == 65  # outlives client pools (5 s) and balancers (60 s)


def test_mazzo_view_and_the_live_view_have_the_same_connection_bounds(tmp_path: Path) -> None:
    from mazzo.service.http_connections import BoundedH11Protocol
    from mazzo.viewer.live import LiveHub, LiveServer
    from mazzo.viewer.web import view_config

    live = LiveServer(LiveHub("t", ["a", "b"], 1))
    for config in (view_config(tmp_path / "r.jsonl"), live._server.config):
        assert isinstance(config.http, type) and issubclass(config.http, BoundedH11Protocol)
        assert config.http.limits == HTTP_LIMITS
        assert config.timeout_keep_alive == HTTP_LIMITS.idle_seconds
    live._sock.close()


async def test_answers_on_a_kept_alive_connection_are_not_held_back_by_nagle() -> None:
    """Every accepted HTTP connection has Nagle's algorithm off: with it on, an answer
    written in two segments (head, then body) waited for the client's delayed ACK, some
    40 ms per request on a kept-alive connection."""
    running, _ = await start_server("127.0.0.1", 0, http_port=0, http_limits=LIMITS)
    assert running.http is not None and running.http_port is not None
    try:
        reader, writer = await _connect(running.http_port)
        writer.write(GET_GAMES)
        status, _, _ = await _answer(reader)
        assert status == 200
        accepted = [
            c.transport.get_extra_info("socket") for c in running.http.server_state.connections
        ]
        assert accepted, "the server holds the connection"
        assert all(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in accepted)
        writer.close()
    finally:
        await stop_server(running, grace=0.5, quiet=0)


async def test_a_stopping_server_ends_within_its_bound_a_request_that_never_ends() -> None:
    """uvicorn waits for the requests in flight without end unless told: a request
    whose handler never returns (a stream no one ends, a client that never reads) would
    keep the process from ending. Ours cancel them after ``shutdown_seconds``."""
    entered = asyncio.Event()

    async def never_ends(scope: dict[str, object], receive: object, send: object) -> None:
        entered.set()
        await asyncio.Event().wait()

    limits = HttpLimits(shutdown_seconds=1)
    sock = listening_socket("127.0.0.1", 0)
    server = await start_uvicorn(never_ends, sock, limits)
    serving = asyncio.create_task(server.main_loop())
    _reader, writer = await _connect(sock.getsockname()[1])
    writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
    await writer.drain()
    await asyncio.wait_for(entered.wait(), 5)
    server.should_exit = True
    await serving
    started = time.monotonic()
    await asyncio.wait_for(server.shutdown(), 10)
    assert time.monotonic() - started < 5
    writer.close()
