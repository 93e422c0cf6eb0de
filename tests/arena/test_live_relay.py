"""A live table on any arena process's pages (``arena.live_relay``, ``web_addresses``):
each playing process says where its pages are, and a page of another process sharing
the database relays the table's event stream from there, within bounds; a process
that says nothing, or does not answer, is said so, never waited on."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from mazzo.arena import live_relay, serve
from mazzo.arena.connections import STALE
from mazzo.arena.models import utcnow
from mazzo.arena.pages import NOT_SHOWN, ladder_url, live_url
from mazzo.arena.run import Settings
from mazzo.arena.store import Store
from mazzo.arena.web_addresses import FORGET
from mazzo.referee.match import TimeControl
from tests.arena.test_dial_in import enter, until
from tests.gateway.conftest import Client, safe_index

Json = dict[str, Any]
#: A process's name as ``liveness`` makes them (host, pid, start, tag), and a worker's.
ELSEWHERE = "other-host/4242/17/beef01"


async def events_until(lines: AsyncIterator[str], kind: str, seen: list[Json]) -> None:
    """Read server-sent events into ``seen`` until one of type ``kind`` has come."""
    async for line in lines:
        if line.startswith("data: "):
            seen.append(json.loads(line[6:]))
            if seen[-1].get("type") == kind:
                return


async def test_a_table_one_process_plays_is_live_on_the_pages_of_another(url: str) -> None:
    with Store(url) as store_a, Store(url, migrate=False) as store_b:
        ladder = store_a.add_ladder("briscola", 2)
        enter(store_a, ladder, "ada-1", "builtin", "builtin:random")
        token = enter(store_a, ladder, "cy-1", "dial-in")
        # A plays (its gateway holds cy-1); B serves the pages only, no table of its own.
        clock = TimeControl(30.0, 60.0)
        play = Settings(workers=1, seed=1, until_idle=False, idle=0.1, clock=clock)
        a = await serve.start(store_a, play=play, gateway_port=0, pages=True)
        b = await serve.start(store_b, pages=True)
        client = Client(f"127.0.0.1:{a.gateway_port}")
        try:
            await client.join(token, "cy-1")
            decision = await client.next_decision()  # A's table waits for cy-1
            assert decision is not None and a.live is not None
            match_id = decision.match_id
            hub = a.live.hub(match_id)
            assert hub is not None and hub.pages() == 0
            at_b = f"http://127.0.0.1:{b.http_port}"
            async with httpx.AsyncClient(timeout=10) as http:

                async def ladder_links() -> bool:
                    page = (await http.get(at_b + ladder_url(ladder))).text
                    return f'href="{live_url(match_id)}"' in page

                for _ in range(50):  # A says where its pages are as its run starts
                    if await ladder_links():
                        break
                    await asyncio.sleep(0.1)
                assert await ladder_links(), "B's ladder page links A's table"
                page = await http.get(at_b + live_url(match_id))
                assert page.status_code == 200 and "live.js" in page.text
                once = await http.get(
                    at_b + live_url(match_id) + "events", headers={live_relay.HOP: "1"}
                )
                assert once.status_code == 404  # a relayed request is not relayed again
                seen: list[Json] = []
                also: list[Json] = []
                late: list[Json] = []
                events = at_b + live_url(match_id) + "events"
                async with (
                    http.stream("GET", events) as stream,
                    http.stream("GET", events) as second,
                ):
                    assert stream.status_code == second.status_code == 200
                    assert stream.headers["content-type"].startswith("text/event-stream")
                    lines, other = stream.aiter_lines(), second.aiter_lines()
                    await events_until(lines, "snapshot", seen)
                    await events_until(other, "snapshot", also)
                    assert hub.pages() == 1  # B's relay: one page of A's table for both
                    await client.answer(decision.sequence, safe_index(decision.request))
                    await events_until(lines, "move", seen)
                    await events_until(other, "move", also)
                    # A page opened now at B is sent B's copy of the present: the move in.
                    async with http.stream("GET", events) as third:
                        await events_until(third.aiter_lines(), "snapshot", late)
                    assert hub.pages() == 1
                # The pages went away: so did the relay's page at A.
                await until(lambda: hub.pages() == 0, 10, "A's table has no page left")
            assert [e["type"] for e in also] == [e["type"] for e in seen]
            assert also[-1] == seen[-1]  # the same move, passed on unchanged
            [table] = late[0]["tables"]  # the bots play on: that move, or one after it
            assert table["start"]["id"] == match_id and table["last"]["ply"] >= seen[-1]["ply"]
            [snapshot] = [e for e in seen if e["type"] == "snapshot"]
            assert snapshot["entrants"] and "no hand" in snapshot["privacy"].lower()
            tables = [e["table"] for e in seen if e["type"] == "move"]
            assert tables and all(s["hand"] is None for t in tables for s in t["seats"])
        finally:
            await client.close()
            await serve.stop(a, grace=0.5)
            await serve.stop(b, grace=0.5)
        assert store_b.web_addresses() == {}  # A said at its stop that its pages are gone


def claimed_elsewhere(store: Store) -> tuple[int, str]:
    """A ladder and a match of it in play, claimed by a worker of ``ELSEWHERE``."""
    ladder = store.add_ladder("briscola", 2)
    for owner in ("ada", "bob"):
        store.add_owner(owner)
        store.add_bot(owner, f"{owner}-1", ladder, "builtin", "builtin:random")
    [match_id, _] = store.schedule_set(ladder, ["ada-1", "bob-1"], seed=1)
    assert store.claim(f"{ELSEWHERE}/w0") is not None
    return ladder, match_id


async def test_a_table_whose_process_is_silent_or_away_is_said_so_not_waited_on(
    store: Store,
) -> None:
    ladder, match_id = claimed_elsewhere(store)
    b = await serve.start(store, pages=True)
    at_b = f"http://127.0.0.1:{b.http_port}"
    try:
        async with httpx.AsyncClient(timeout=20) as http:
            # Its process says nothing: listed without a link, its page says why.
            assert NOT_SHOWN in (await http.get(at_b + ladder_url(ladder))).text
            page = await http.get(at_b + live_url(match_id))
            assert page.status_code == 404 and "serves no pages" in page.text
            # It says where its pages are, but nothing answers there: 502, at once.
            store.advertise(ELSEWHERE, "http://127.0.0.1:9")
            assert (
                f'href="{live_url(match_id)}"' in (await http.get(at_b + ladder_url(ladder))).text
            )
            assert (await http.get(at_b + live_url(match_id))).status_code == 200
            events = await http.get(at_b + live_url(match_id) + "events")
            assert events.status_code == 502 and "does not answer" in events.text
            # Silent past STALE: taken for gone.
            later = utcnow() + STALE + timedelta(seconds=1)
            assert store.web_addresses(later) == {}
            assert store.live_address(match_id, later) is None
            assert store.live_address(match_id) == "http://127.0.0.1:9"
    finally:
        await serve.stop(b, grace=0.5)
    # A row left by a process killed outright is forgotten by the next beat of any.
    store.advertise("another/1/1/aa", "http://127.0.0.1:10", utcnow() + FORGET * 2)
    assert set(store.web_addresses(utcnow() + FORGET * 2)) == {"another/1/1/aa"}


async def test_a_process_relays_a_bounded_number_of_streams(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_relay, "STREAMS", 0)
    _ladder, match_id = claimed_elsewhere(store)
    store.advertise(ELSEWHERE, "http://127.0.0.1:9")
    b = await serve.start(store, pages=True)
    try:
        async with httpx.AsyncClient(timeout=20) as http:
            events = await http.get(f"http://127.0.0.1:{b.http_port}{live_url(match_id)}events")
            assert events.status_code == 503 and "too many" in events.text
    finally:
        await serve.stop(b, grace=0.5)


SNAPSHOT = b'data: {"type":"snapshot","title":"t","entrants":[],"tables":[]}\n\n'
#: What a careless or hostile process answers, after its 200, on a relayed stream: a
#: table's snapshot (or not), then what it sends once the page is open.
BAD_STREAMS = {
    "an event too large": (SNAPSHOT, b"data: " + b"x" * 5000),
    "an event not an object": (SNAPSHOT, b"data: [1]\n\n"),
    "an event not JSON": (SNAPSHOT, b"data: {\n\n"),
    "keep-alives and no table": (b": keep-alive\n\n", b": keep-alive\n\n"),
    "a table of the wrong shape": (b'data: {"type":"snapshot","tables":[1]}\n\n', b""),
}
#: Of those, the ones refused before any table is shown, and what the page is told.
REFUSED = {
    "keep-alives and no table": "sent no table in 1 s",
    "a table of the wrong shape": "sent a bad stream",
}


@pytest.mark.parametrize("url", ["sqlite"], indirect=True)  # no database work here
@pytest.mark.parametrize("bad", list(BAD_STREAMS))
async def test_a_bad_stream_from_another_process_ends_its_pages_not_the_server(
    store: Store, monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.setattr(live_relay, "EVENT_BYTES", 4096)
    monkeypatch.setattr(live_relay, "SNAPSHOT_SECONDS", 1.0)
    asked = 0
    done = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal asked
        asked += 1
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n")
        first, then = BAD_STREAMS[bad]
        for part in (first, then):
            writer.write(part)
            await writer.drain()
            await asyncio.sleep(0.3)
        with contextlib.suppress(TimeoutError):  # and then holds the stream open
            await asyncio.wait_for(done.wait(), 30)
        writer.close()

    upstream = await asyncio.start_server(answer, "127.0.0.1", 0)
    _ladder, match_id = claimed_elsewhere(store)
    store.advertise(ELSEWHERE, f"http://127.0.0.1:{upstream.sockets[0].getsockname()[1]}")
    b = await serve.start(store, pages=True)
    events = f"http://127.0.0.1:{b.http_port}{live_url(match_id)}events"
    try:
        async with httpx.AsyncClient(timeout=20) as http:
            for time in (1, 2):  # the mirror is gone: the next page asks again
                seen: list[Json] = []
                async with asyncio.timeout(8), http.stream("GET", events) as stream:
                    if bad in REFUSED:
                        assert stream.status_code == 502
                        assert REFUSED[bad] in (await stream.aread()).decode()
                    else:
                        assert stream.status_code == 200
                        async for line in stream.aiter_lines():  # to its end, within 8 s
                            if line.startswith("data: "):
                                seen.append(json.loads(line[6:]))
                        assert [e["type"] for e in seen] == ["snapshot"]
                assert asked == time
            assert (await http.get(f"http://127.0.0.1:{b.http_port}/arena/")).status_code == 200
    finally:
        done.set()
        await serve.stop(b, grace=0.5)
        upstream.close()


def test_a_process_says_the_address_it_is_reached_at_not_a_wildcard() -> None:
    assert serve.own_web_url("127.0.0.1", 8061) == "http://127.0.0.1:8061"
    assert serve.own_web_url("::1", 8061) == "http://[::1]:8061"
    for everywhere in ("0.0.0.0", "::"):
        found = serve.own_web_url(everywhere, 8061)
        assert found.startswith("http://") and found.endswith(":8061")
        assert "0.0.0.0" not in found and "[::]" not in found
