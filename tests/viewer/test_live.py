"""The live view in Python: every payload a page is pushed (the bytes the hub queues
for it) holds no hidden card while a hand runs, for every game and the forms with a
secret of their own (the dummy, Trionfo's amico, the 2-player stock); a failing
watcher never stops a match; a page that does not read is bounded and caught up with
a snapshot; ``--ui-delay`` shows positions only that many moves late; a hub that
follows another's stream (the arena's relay) holds the same present; a page its hub
closes is sent what was queued first."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from mazzo.referee.match import MatchSpec, options_json, run_match
from mazzo.viewer.live import QUEUE_MESSAGES, EventStream, LiveHub
from mazzo.viewer.watch import Watcher, common_table
from tests.viewer.live_privacy import check

H, R = "builtin:heuristic", "builtin:random"
FORMS = [
    ("maraffa-2", "maraffa", 2, ["target=11"], R),
    ("maraffa-3", "maraffa", 3, ["target=11"], R),
    ("maraffa-4", "maraffa", 4, ["target=11"], H),
    ("maraffa-5", "maraffa", 5, ["match_deals=2"], H),
    ("burraco-2", "burraco", 2, ["hands=1"], H),
    ("burraco-4", "burraco", 4, ["hands=1"], H),
    ("ramino-2", "ramino", 2, ["match_hands=2"], H),
    ("ramino-4", "ramino", 4, ["match_hands=1"], H),
]


def pushed(events: bytes) -> list[dict[str, Any]]:
    """The payloads of a stream of server-sent events."""
    out = []
    for block in events.decode().split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                out.append(json.loads(line.removeprefix("data: ")))
    return out


def watched(
    rid: str, game: str, players: int, options: list[str], bot: str, delay: int | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A match played with the hub watching, and what one page was pushed."""
    hub = LiveHub(rid, [], 1, delay)
    loop = asyncio.new_event_loop()
    page = hub.open_page(loop)
    assert page is not None
    stream: list[bytes] = [hub.take(page)]  # the snapshot a page opens with

    def send(payload: dict[str, Any]) -> None:
        hub.send(payload)
        stream.append(hub.take(page))  # the page reads as fast as it is sent to

    spec = MatchSpec(rid, game, 11, players, options_json(game, options))
    try:
        record = asyncio.run(run_match(spec, [bot] * players, watcher=Watcher(send, delay)))
    finally:
        loop.close()
    return record, pushed(b"".join(stream))


@pytest.mark.parametrize("form", FORMS, ids=[f[0] for f in FORMS])
def test_what_a_page_is_pushed_holds_no_hidden_card(form: tuple[Any, ...]) -> None:
    record, payloads = watched(*form)
    kinds = [p["type"] for p in payloads]
    assert kinds[0] == "snapshot" and kinds.count("match") == 1 and kinds[-1] == "end"
    assert kinds.count("move") == len(record["moves"])
    assert kinds.count("reveal") == len(record["hands"])  # one a hand, when it is over
    checked = check({record["id"]: record}, payloads)
    assert checked == len(record["moves"]) + 1
    for payload in payloads:  # no face-up hand while the match runs
        if payload["type"] in ("match", "move"):
            assert all(seat["hand"] is None for seat in payload["table"]["seats"])


def test_a_delay_shows_positions_that_many_moves_late() -> None:
    record, payloads = watched("maraffa-4", "maraffa", 4, ["target=11"], R, delay=5)
    ply = 0
    late = []
    for payload in payloads:
        if payload["type"] == "move":
            ply = payload["ply"]
        elif payload["type"] == "reveal" and "late" in payload["reason"]:
            assert payload["ply"] == ply - 5
            assert any(seat["hand"] for seat in payload["table"]["seats"])
            late.append(payload["ply"])
    assert len(late) > len(record["moves"]) // 2


def test_the_public_table_keeps_only_what_every_seat_sees() -> None:
    seat = {"seat": 0, "hand": ["3D"], "count": 1, "notes": ["to act"]}
    one = {
        "seats": [seat],
        "areas": [{"label": "pile", "cards": ["4C"]}],
        "facts": [["amico", "seat 2"], ["trump", "coppe"]],
    }
    two = {
        "seats": [{**seat, "hand": None}],
        "areas": [{"label": "pile", "cards": ["4C"]}],
        "facts": [["trump", "coppe"]],
    }
    table = common_table([one, two])
    assert table["seats"] == [{"seat": 0, "hand": None, "count": 1, "notes": ["to act"]}]
    assert table["facts"] == [["trump", "coppe"]]
    assert table["areas"] == [{"label": "pile", "cards": ["4C"]}]


def test_a_failing_watcher_never_stops_a_match() -> None:
    spec = MatchSpec("m", "burraco", 3, 2, options_json("burraco", ["hands=1"]))
    calls = 0

    def broken(payload: dict[str, Any]) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("a watcher's bug")

    plain = asyncio.run(run_match(spec, [H, H]))
    seen = asyncio.run(run_match(spec, [H, H], watcher=Watcher(broken)))
    assert calls == 1  # turned off at its first failure
    assert [m["move"] for m in seen["moves"]] == [m["move"] for m in plain["moves"]]
    assert seen["result"] == plain["result"]


def test_a_page_that_does_not_read_is_bounded_and_caught_up_with_a_snapshot() -> None:
    hub = LiveHub("t", ["a", "b"], 10)
    loop = asyncio.new_event_loop()
    try:
        page = hub.open_page(loop)
        assert page is not None
        hub.take(page)  # the first snapshot
        start = {"type": "match", "id": "x", "ply": 0, "table": {"seats": []}}
        hub.send(start)
        for ply in range(1, 3 * QUEUE_MESSAGES):
            hub.send({"type": "move", "id": "x", "ply": ply, "seat": 0, "move": "m", "fault": None})
            assert len(page.queue) <= QUEUE_MESSAGES
        assert page.behind
        caught_up = pushed(hub.take(page))
        assert [p["type"] for p in caught_up] == ["snapshot"]
        assert caught_up[0]["tables"][0]["last"]["ply"] == 3 * QUEUE_MESSAGES - 1
        hub.send({"type": "move", "id": "x", "ply": 9999, "seat": 0, "move": "m", "fault": None})
        assert [p["ply"] for p in pushed(hub.take(page))] == [9999]
        hub.close_page(page)
        assert hub.pages() == 0
    finally:
        loop.close()


def test_a_hub_that_follows_another_hubs_stream_holds_the_same_present() -> None:
    """A mirror (another arena process's relay, ``arena.live_relay``) fed one page's
    stream of a hub holds what that hub holds: a page opened on either is sent the
    same snapshot, from the start, after a catch-up and at the event's end."""
    hub, mirror = LiveHub("t", ["a", "b"], 1), LiveHub("", [], 1)
    loop = asyncio.new_event_loop()
    page = hub.open_page(loop)
    assert page is not None

    def relay() -> None:
        for payload in pushed(hub.take(page)):
            if payload["type"] == "snapshot":
                mirror.load(payload)
            else:
                mirror.follow(payload)

    def present(of: LiveHub) -> dict[str, Any]:
        return {k: v for k, v in of.snapshot().items() if k != "at"}

    def send(payload: dict[str, Any]) -> None:
        hub.send(payload)
        if payload.get("type") == "move" and payload["ply"] % 7 == 0:
            return  # the page reads late: two moves in one read
        relay()
        assert present(mirror) == present(hub)

    spec = MatchSpec("m", "briscola", 3, 2, options_json("briscola", ["hands_to_win=1"]))
    try:
        relay()
        assert present(mirror) == present(hub)
        record = asyncio.run(run_match(spec, [R, R], watcher=Watcher(send)))
        relay()
        page.behind = True  # it fell behind: the next read is a snapshot
        hub.recorded(record)
        relay()
        hub.finish()
        relay()
        assert present(mirror) == present(hub) and mirror.over and mirror.done == 1
        assert present(mirror)["standings"] and present(mirror)["finished"]
    finally:
        loop.close()


def test_a_page_closed_by_its_hub_is_sent_what_was_queued_first() -> None:
    """A hub that ends its pages (a server that stops, a relay whose upstream ended)
    writes each page's last events before its stream ends."""

    async def go() -> list[bytes]:
        hub = LiveHub("t", [], 1)
        page = hub.open_page(asyncio.get_running_loop())
        assert page is not None
        bodies: list[bytes] = []
        wrote = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await asyncio.Event().wait()  # the page never goes away
            return {}

        async def send(message: dict[str, Any]) -> None:
            bodies.append(message.get("body", b""))
            wrote.set()

        stream = asyncio.create_task(EventStream(hub, page)({}, receive, send))
        while not any(b"snapshot" in b for b in bodies):
            await asyncio.wait_for(wrote.wait(), 5)
            wrote.clear()
        hub.finish()
        hub.close_all()
        await asyncio.wait_for(stream, 5)
        return bodies

    bodies = asyncio.run(go())
    assert [p["type"] for p in pushed(b"".join(bodies))] == ["snapshot", "over"]
