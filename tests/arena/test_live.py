"""The arena's live tables (``arena.live``): public information only and less, since a
duplicate set deals the same cards again (no hand ever, no record, no forfeit's
reason); a table drawn only while a page follows it; the ladder's and the bot's pages
listing the tables in play, linked live only when this process plays them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from mazzo.arena.live import LiveTables
from mazzo.arena.pages import live_url
from mazzo.arena.run import Settings, run_arena
from mazzo.arena.store import Store
from mazzo.viewer.live import LiveHub, Page
from tests.arena.web import fetch, serve
from tests.viewer.live_privacy import check

Json = dict[str, Any]


def events(data: bytes) -> list[Json]:
    """The server-sent events of a page, as JSON."""
    return [json.loads(line[6:]) for line in data.decode().split("\n") if line.startswith("data: ")]


def table(seats: int = 2) -> Json:
    return {"seats": [{"seat": s, "hand": None, "count": 3, "notes": []} for s in range(seats)]}


def test_a_live_table_drops_every_hand_and_of_its_end_the_record_and_the_forfeits_reason() -> None:
    live = LiveTables()
    start = {"type": "match", "id": "m-0", "game": "g", "entrants": ["a", "b"], "table": table()}
    live.send(start)
    hub = live.hub("m-0")
    assert hub is not None and live.playing() == {"m-0"}
    loop = asyncio.new_event_loop()
    try:
        page = hub.open_page(loop)
        assert page is not None
        assert events(hub.take(page))[0]["privacy"].startswith("This table shows public")
        live.send({"type": "move", "id": "m-0", "ply": 1, "seat": 0, "move": "x", "table": table()})
        hands = {"seats": [{"seat": 0, "hand": ["AS", "2S"]}]}
        live.send({"type": "reveal", "id": "m-0", "ply": 1, "dealt": [["AS"]], "table": hands})
        forfeit = {"entrant": "a", "reason": "illegal: played CARD_AS, not in hand"}
        end = {"type": "end", "id": "m-0", "winners": ["b"], "totals": [0, 1], "moves": 1}
        live.send({**end, "forfeit": forfeit, "faults": 1, "table": hands, "record": {"seed": 7}})
        sent = events(hub.take(page))
    finally:
        loop.close()
    assert [e["type"] for e in sent] == ["move", "end", "over"]
    assert sent[1]["forfeit"] == {"entrant": "a"} and "record" not in sent[1]
    assert "table" not in sent[1] and "AS" not in json.dumps(sent)
    assert live.hub("m-0") is None and live.playing() == set()


class Following(LiveTables):
    """Live tables where a page opens on each table as it starts (``follow``), or none;
    every payload the watch sent, and each page's events."""

    def __init__(self, follow: bool) -> None:
        super().__init__()
        self.follow = follow
        self.sent: list[Json] = []
        self.pages: list[tuple[LiveHub, Page, list[Json]]] = []

    def send(self, payload: Json) -> None:
        self.sent.append(dict(payload))
        super().send(payload)
        hub = self.hub(str(payload["id"]))
        if payload["type"] == "match" and self.follow and hub is not None:
            page = hub.open_page(asyncio.get_running_loop())
            assert page is not None
            self.pages.append((hub, page, events(hub.take(page))))

    def seen(self) -> list[Json]:
        """What every page was sent, its snapshot first."""
        return [e for hub, page, first in self.pages for e in [*first, *events(hub.take(page))]]


def play(store: Store, live: LiveTables, matches: int = 2) -> None:
    ladder = store.add_ladder("briscola", 2)
    for name in ("ada-1", "bob-1"):
        store.add_owner(name[:3])
        store.add_bot(name[:3], name, ladder, "builtin", "builtin:random")
    summary = asyncio.run(run_arena(store, Settings(matches=matches, seed=2), live=live))
    assert summary.finished == matches


def test_a_table_nobody_follows_is_not_drawn_past_its_deal(tmp_path: Path) -> None:
    live = Following(follow=False)
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        play(store, live)
    assert [p["type"] for p in live.sent] == ["match", "end"] * 2
    ends = [p for p in live.sent if p["type"] == "end"]
    assert not [p for p in ends if "record" in p or "table" in p]
    assert live.playing() == set()


def test_a_followed_table_shows_every_move_and_no_hidden_card(tmp_path: Path) -> None:
    live = Following(follow=True)
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        play(store, live)
        ids = [p["id"] for p in live.sent if p["type"] == "match"]
        records = {i: store.match(i).record for i in ids}
    assert {p["type"] for p in live.sent} == {"match", "move", "end"}  # no reveal made
    seen = live.seen()
    moves = [e for e in seen if e["type"] == "move"]
    assert len(moves) == sum(len(r["moves"]) for r in records.values() if r is not None)
    assert check({i: r for i, r in records.items() if r is not None}, seen) > len(moves)
    assert [e["type"] for e in seen].count("over") == 2


def test_the_pages_list_the_tables_in_play_and_link_those_this_process_plays(
    store: Store,
) -> None:
    ladder = store.add_ladder("briscola", 2)
    for owner in ("ada", "bob", "cy", "di"):
        store.add_owner(owner)
        store.add_bot(owner, f"{owner}-1", ladder, "builtin", "builtin:random")
    here, there = (
        store.schedule_set(ladder, ["ada-1", "bob-1"], rotations=1, seed=1)[0],
        (store.schedule_set(ladder, ["cy-1", "di-1"], rotations=1, seed=2)[0]),
    )
    assert store.claim("w-here") is not None and store.claim("w-there") is not None
    live = LiveTables()
    live.send({"type": "match", "id": here, "game": "briscola", "entrants": ["ada-1", "bob-1"]})
    with serve(store, live) as url:
        page = fetch(f"{url}/arena/ladders/{ladder}")[2]
        assert "Tables in play (2)" in page
        assert f'href="{live_url(here)}"' in page and live_url(there) not in page
        assert "played by an arena process without pages" in page
        mine = fetch(f"{url}/arena/bots/ada-1")[2]
        assert f'href="{live_url(here)}"' in mine and "Tables in play (1)" in mine
        theirs = fetch(f"{url}/arena/bots/cy-1")[2]
        assert "played by an arena process without pages" in theirs
        assert live_url(here) not in theirs
        assert fetch(url + live_url(here))[0] == 200
        status, _, elsewhere = fetch(url + live_url(there))
        assert status == 404 and "an arena process that serves no pages" in elsewhere
        assert fetch(url + live_url(there) + "events")[0] == 404
        status, headers, _ = fetch(f"{url}/viewer/?match={here}")
        assert status in (302, 307) and "/arena/replay/" in headers["location"]
