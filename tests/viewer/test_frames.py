"""The viewer's frames, from the engine: over the service's REST port (a record posted,
hostile ones refused with the API's errors) and from ``mazzo view``. What each frame
shows is checked against the rules played again here, and each seat's table against
that seat's GetView: no card the view hides."""

from __future__ import annotations

import copy
import json
import re
import time
from collections import Counter
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from mazzo.games.registry import CODECS, rules_for
from mazzo.ops.replicas import start_replica
from mazzo.referee.records import to_json
from mazzo.referee.replay import replay
from mazzo.service.rest import MAX_BODY_BYTES
from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_pb2
from mazzo.viewer import frames as frames_module
from mazzo.viewer.frames import frame_floor_bytes, frames_of
from mazzo.viewer.web import service_routes


def card_names(value: Any) -> Counter[str]:
    """Every card named anywhere in a JSON value, as codes (CARD_3D -> 3D)."""
    found: Counter[str] = Counter()
    if isinstance(value, dict):
        for v in value.values():
            found += card_names(v)
    elif isinstance(value, list):
        for v in value:
            found += card_names(v)
    elif isinstance(value, str) and value.startswith("CARD_") and value != "CARD_UNSPECIFIED":
        found[value.removeprefix("CARD_")] += 1
    return found


def shown(table: dict[str, Any]) -> Counter[str]:
    """Every card face a table shows."""
    faces: Counter[str] = Counter()
    for seat in table["seats"]:
        faces.update(seat["hand"] or [])
    for area in table["areas"]:
        faces.update(area["cards"])
    return faces


def truth(record: dict[str, Any]) -> list[dict[str, Any]]:
    """After each move, from the rules: ``hands`` (every seat's, as codes), ``views``
    (the cards in each seat's GetView), ``score`` (the match score) and ``deciding``
    (the seats that decide for themselves: not a dummy) and ``hidden`` (the seats whose
    GetView hides their own hand)."""
    game, out = record["game"], []
    codec, rules = CODECS[game], rules_for(game)

    def visit(ply: int, state: Any, move: Any, events: Any) -> None:
        wire = game_pb2.GameState()
        codec.state_to_wire(state, 0, wire)
        dealt = to_json(wire)[game]["hands"]
        hands = [[c.removeprefix("CARD_") for c in h.get("cards", [])] for h in dealt]
        views, hidden = [], []
        for seat in range(len(hands)):
            view = game_pb2.GameView()
            codec.view_to_wire(rules.view(state, seat), view)
            if game == "burraco":  # the hand's history: no card in it is needed to check
                view.burraco.ClearField("history")
            views.append(card_names(to_json(view)))
            hidden.append(getattr(getattr(view, game), "hand_hidden", False))
        deciding = [s for s in range(len(hands)) if rules.controller(state, s) == s]
        score = [int(x) for x in wire.match_score]
        out.append(
            {"hands": hands, "views": views, "hidden": hidden, "score": score, "deciding": deciding}
        )

    assert replay(record, visit).divergence is None
    return out


@pytest.mark.slow
def test_every_frame_shows_the_hands_and_each_seat_only_its_view(records: list[Any]) -> None:
    for record in records:
        frames = frames_of(record)
        expected = truth(record)
        assert len(frames["frames"]) == len(record["moves"]) + 1 == len(expected)
        # the floor that refuses long records before their replay is below every frame
        floor = frame_floor_bytes(record["game"]) * record["players"]
        for frame, now in zip(frames["frames"], expected, strict=True):
            assert len(json.dumps(frame, separators=(",", ":"))) >= floor, record["id"]
            hands, views = now["hands"], now["views"]
            assert [s["hand"] for s in frame["table"]["seats"]][: len(hands)] == hands
            assert frame["matchScore"] == now["score"]
            shown_seats = [s for s, t in enumerate(frame["seats"]) if t is not None]
            assert shown_seats == now["deciding"]
            for seat, table in enumerate(frame["seats"]):
                if table is None:
                    continue
                extra = shown(table) - views[seat]
                assert not extra, (record["id"], frame["ply"], seat, extra)
                for other in table["seats"]:
                    if other["seat"] != seat and other["hand"] is not None:
                        # only a dummy's hand, shown to its controller by GetView
                        assert Counter(other["hand"]) <= views[seat]
        # the score after each hand, and at the end the record's own
        final = [int(s.get("matchTotal", 0)) for s in record["result"]["score"]["sides"]]
        assert frames["frames"][-1]["matchScore"] == final, record["id"]
        assert frames["scores"] and frames["scores"][-1]["totals"] == final
        moved = [f["move"] for f in frames["frames"][1:]]
        assert all(moved) and frames["frames"][0]["move"] is None


@pytest_asyncio.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    running, _ = await start_server("127.0.0.1", 0, http_port=0, http_routes=service_routes())
    base = f"http://127.0.0.1:{running.http_port}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        yield client
    await stop_server(running, grace=0.5, quiet=0)


async def test_the_rest_port_serves_frames_and_the_page(
    http: httpx.AsyncClient, records: list[Any]
) -> None:
    record = next(r for r in records if r["id"] == "burraco-4")
    started = time.perf_counter()
    reply = await http.post("/viewer/frames", json=record)
    seconds = time.perf_counter() - started
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert len(body["frames"]) == len(record["moves"]) + 1 and "views" not in body["frames"][0]
    assert reply.headers["content-encoding"] == "gzip"  # httpx asks for it, and unpacks it
    assert reply.num_bytes_downloaded * 5 < len(reply.content)
    print(f"frames of {record['id']} ({len(record['moves'])} moves): {seconds:.2f} s")
    with_views = await http.post("/viewer/frames?views=1", json=records[0])
    view = with_views.json()["frames"][3]["views"][1]
    assert view["seat"] == 1 and view["game"] == "maraffa"
    listed = await http.get("/viewer/records")  # the service serves no file of its own
    assert listed.json() == {"file": None, "records": []}
    page = await http.get("/viewer/")
    assert page.status_code == 200 and "static/main.js" in page.text
    script = await http.get("/viewer/static/main.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    for name in ("..%2Fweb.py", "nothing.js", "main.ts"):
        assert (await http.get(f"/viewer/static/{name}")).status_code in (400, 404)


def _tampered(record: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["moves"][2], out["moves"][3] = out["moves"][3], out["moves"][2]
    return out


BAD: list[tuple[str, Any, str]] = [
    ("not json", b"{{", "body"),
    ("a list", b"[1, 2]", "record"),
    ("deep", b"[" * 50_000, "body"),
    ("not a record", b'{"game": "maraffa"}', "record.mazzo_record"),
    ("unknown game", b'{"mazzo_record": 1, "game": "scopa"}', "record.game"),
]


async def test_hostile_records_get_the_apis_400(
    http: httpx.AsyncClient, records: list[Any]
) -> None:
    async def post(body: bytes, kind: str = "application/json") -> httpx.Response:
        return await http.post("/viewer/frames", content=body, headers={"content-type": kind})

    for name, body, field in BAD:
        reply = await post(body)
        assert reply.status_code == 400, (name, reply.text)
        status = reply.json()
        assert status["code"] == 3
        assert status["details"][0]["fieldViolations"][0]["field"] == field, name
    record = records[2]
    shapes = {
        "players": {**record, "players": 99},
        "seed": {**record, "seed": "1"},
        "moves": {**record, "moves": {"a": 1}},
        "moves[1]": {**record, "moves": [record["moves"][0], 7]},
        "result": {**record, "result": None},
        "options": {**record, "options": []},
    }
    for field, bad in shapes.items():
        reply = await http.post("/viewer/frames", json=bad)
        assert reply.status_code == 400
        assert reply.json()["details"][0]["fieldViolations"][0]["field"] == f"record.{field}"
    reply = await http.post("/viewer/frames", json=_tampered(record))
    assert reply.status_code == 400 and "rules disagree" in reply.json()["message"]
    assert reply.json()["details"][0]["fieldViolations"][0]["field"] == "record.moves[2]"
    forged = {**record, "deal_hash": "0" * 64}
    assert (await http.post("/viewer/frames", json=forged)).status_code == 400
    assert (await post(b"{}", "text/plain")).status_code == 415
    huge = b'{"pad": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}'
    assert (await post(huge)).status_code == 413
    # too many moves: refused before any rules run
    many = {**record, "moves": [record["moves"][0]] * (frames_module.MAX_MOVES + 1)}
    started = time.perf_counter()
    reply = await http.post("/viewer/frames", json=many)
    assert reply.status_code in (400, 413) and time.perf_counter() - started < 5
    # the service still answers
    assert (await http.get("/healthz")).status_code == 200


#: A page's scripts and a script's imports (a type-only ``@import`` in a comment too).
_LOADS = re.compile(r'(?:src="(?:/viewer/)?static/|from "\./)([a-z_]+\.js)"')


async def test_every_script_the_pages_load_is_served() -> None:
    """The scripts are committed sources served as they are, not a build's output that
    may be absent: each page, every script it loads and every module those import
    answer 200 from the package, and those are all the scripts it ships."""
    from mazzo.viewer import web

    app = web.view_app(Path("nothing.jsonl"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer") as client:
        page = await client.get("/viewer/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        live, play = web.page_html("live.html"), web.page_html("play.html")  # docs/play.md
        todo = _LOADS.findall(page.text) + _LOADS.findall(live) + _LOADS.findall(play)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            script = await client.get(f"/viewer/static/{name}")
            assert script.status_code == 200, name
            todo += _LOADS.findall(script.text)
        static = resources.files("mazzo.viewer").joinpath("static").iterdir()
        assert seen == {f.name for f in static if f.name.endswith(".js")}
        listed = (await client.get("/viewer/records")).json()
        assert listed == {"file": "nothing.jsonl", "records": []}


def test_mazzo_view_lists_the_files_matches(view_server: str, records: list[Any]) -> None:
    listed = httpx.get(view_server + "records", timeout=30).json()["records"]
    assert [r["id"] for r in listed] == [r["id"] for r in records]
    reply = httpx.get(view_server + "records/4", timeout=30)
    assert reply.json()["id"] == records[4]["id"]
    assert httpx.get(view_server + "records/99", timeout=30).status_code == 400


def test_mazzo_serve_adds_the_viewer_and_the_bare_service_knows_nothing_of_it(
    records: list[Any],
) -> None:
    """The service does not import the viewer (docs/architecture.md): ``mazzo serve``
    passes its routes in, and a server started without them answers 404 there."""
    import asyncio

    server = start_replica()
    try:
        http_port = server.http_port
        reply = httpx.post(f"http://127.0.0.1:{http_port}/viewer/frames", json=records[0])
        assert reply.status_code == 200 and reply.json()["frames"]
    finally:
        server.process.terminate()
        server.process.wait(30)

    async def bare() -> int:
        running, _ = await start_server("127.0.0.1", 0, http_port=0)
        try:
            url = f"http://127.0.0.1:{running.http_port}/viewer/frames"
            async with httpx.AsyncClient() as client:
                return (await client.post(url, json=records[0])).status_code
        finally:
            await stop_server(running, grace=0.5, quiet=0)

    assert asyncio.run(bare()) == 404
