"""The arena's pages over HTTP (Starlette's TestClient), on SQLite and PostgreSQL: the
ladders, a ladder's standings and newest matches, a bot's games (against one opponent:
a partner is none), its rating chart and its faults; every text from the database
escaped; the records of a duplicate set, and what is read from them, shown only once
the whole set is over (its matches share one deal)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape, unescape
from typing import Any

import pytest
from sqlalchemy.orm import Session

from mazzo.arena import queries
from mazzo.arena.models import MU, SIGMA, Bot, Owner, Rating, utcnow
from mazzo.arena.pages import bot_url, replay_url
from mazzo.arena.store import Store
from tests.arena.sets import finish_next
from tests.arena.web import fetch, serve

Json = dict[str, Any]
HOSTILE = '<script>alert("pwned")</script>&amp;'
HOSTILE_REASON = "<img src=x onerror=alert(1)> too many faults"
#: What the faults' reasons say: shown once the set is over, withheld before.
SHOWN_DETAIL, SECRET_DETAIL = "played <b>CARD_7C</b> out of turn", "played CARD_AS, not in hand"
BOT_OUTPUT = "Traceback: <script>boom()</script>"


@dataclass
class Arena:
    #: Where the pages are served (``http://127.0.0.1:PORT``).
    url: str
    ladder: int
    #: The first set (over: both its matches finished) and the second (one still queued).
    over: list[str]
    open: list[str]


@pytest.fixture
def arena(store: Store) -> Iterator[Arena]:
    ladder = store.add_ladder("maraffa", 4, {"target": 41})
    for owner in ("ada", "bob", "cy", "di"):
        store.add_owner(owner)
        store.add_bot(owner, f"{owner}-1", ladder, "builtin", "builtin:random")
    # ada-1 and cy-1 are partners in the first set, opponents in the second.
    over = store.schedule_set(ladder, ["ada-1", "bob-1", "cy-1", "di-1"], rotations=2, seed=5)
    still = store.schedule_set(ladder, ["ada-1", "cy-1", "bob-1", "di-1"], rotations=2, seed=6)
    shown = {"seat": 0, "ply": 3, "class": "illegal", "detail": SHOWN_DETAIL, "output": BOT_OUTPUT}
    finish_next(store, [0], [shown])
    finish_next(store, [1])
    secret = {"seat": 0, "ply": 9, "class": "illegal", "detail": SECRET_DETAIL}
    forfeit = {"entrant": "north-south", "reason": f"illegal: {SECRET_DETAIL}"}
    finish_next(store, [1], [secret], forfeit)
    with Session(store.engine) as s, s.begin():  # past the store's name check, as an attack
        owner = Owner(name=HOSTILE, token_hash="o" * 64, created_at=utcnow())
        s.add(owner)
        s.flush()
        bot = Bot(
            owner_id=owner.id,
            name=HOSTILE,
            ladder_id=ladder,
            kind="builtin",
            target="builtin:<i>random</i>",
            token_hash="b" * 64,
            created_at=utcnow(),
        )
        s.add(bot)
        s.flush()
        s.add(Rating(bot_id=bot.id, mu=MU, sigma=SIGMA, games=0, faults=0, updated_at=utcnow()))
    store.pause_bot(HOSTILE, HOSTILE_REASON)
    with serve(store) as url:
        yield Arena(url, ladder, over, still)


def get(arena: Arena, path: str, status: int = 200) -> str:
    got, _headers, body = fetch(arena.url + path)
    assert got == status, (path, got, body[:500])
    return body


def rows(html: str, caption: str) -> list[str]:
    """The rows of the table with ``caption`` (its start), as text without tags."""
    table = html.split(f"<caption>{caption}", 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [re.sub(r"<[^>]+>", " ", row) for row in body.split("<tr>")[1:]]


def last_page(arena: Arena, first: str, what: str) -> str:
    """The page that ``first``'s "Older WHAT" link opens, when it is the last: it links
    back to the newest and no further."""
    older = re.search(rf'<a href="([^"]+)" rel="next">Older {what}</a>', first)
    assert older is not None and f"Newest {what}" not in first
    second = get(arena, unescape(older.group(1)))
    assert f"Older {what}" not in second and f"Newest {what}" in second
    return second


def test_the_index_lists_each_ladder_with_its_bots_and_matches(arena: Arena) -> None:
    status, headers, _ = fetch(arena.url + "/arena")
    assert (status, headers["location"]) == (307, "/arena/")
    page = get(arena, "/arena/")
    assert f'href="/arena/ladders/{arena.ladder}"' in page
    [line] = rows(page, "Ladders")
    assert line.split() == [f"{arena.ladder}:", "maraffa", "4p", "(target=41)", "5", "3", "0"]


def test_the_ladder_shows_standings_with_intervals_games_and_fault_rates(
    arena: Arena, store: Store
) -> None:
    page = get(arena, f"/arena/ladders/{arena.ladder}")
    table = {line.split()[1]: line.split() for line in rows(page, "Standings")}
    assert set(table) == {"ada-1", "bob-1", "cy-1", "di-1", escape(HOSTILE)}
    for standing in store.standings(arena.ladder):
        if standing.bot == HOSTILE:
            continue
        line = table[standing.bot]
        low, high = standing.mu - 3 * standing.sigma, standing.mu + 3 * standing.sigma
        assert line[3] == f"{standing.ordinal:.1f}"
        assert line[4:7] == [f"{low:.1f}", "to", f"{high:.1f}"]
        assert line[7] == str(standing.games) == "3"
    # ada-1 faulted in 2 of its 3 games, the others never
    assert table["ada-1"][8:12] == ["67%", "(2", "of", "3)"]
    assert table["bob-1"][8] == "0%"
    ranks = [line.split()[1] for line in rows(page, "Standings")]
    assert ranks == [escape(s.bot) for s in store.standings(arena.ladder)]
    assert "paused: " + escape(HOSTILE_REASON) in page


def test_the_ladder_lists_its_newest_matches_with_a_replay_once_the_set_is_over(
    arena: Arena,
) -> None:
    page = get(arena, f"/arena/ladders/{arena.ladder}")
    lines = rows(page, "Newest matches")
    assert len(lines) == 4
    queued, unseen, *seen = lines[0], lines[1], *lines[2:]
    assert "scheduled" in queued and "replay" not in queued
    assert "east-west won; totals 41, 30 (forfeit by north-south)" in unseen
    assert "when its set is over" in unseen and "CARD_AS" not in page
    for match_id in arena.over:
        assert escape(replay_url(arena.over[0].split("-")[0], match_id)) in page
    for match_id in arena.open:
        assert f"match={match_id}" not in page
    assert all("replay" in line for line in seen)


def test_a_bots_games_filtered_by_opponent_leave_out_its_partners(arena: Arena) -> None:
    every = rows(get(arena, bot_url("ada-1")), "Games")
    assert len(every) == 4
    # bob-1: an opponent in the first set (both matches), a partner in the second
    against_bob = rows(get(arena, bot_url("ada-1", "bob-1")), "Games against bob-1")
    assert len(against_bob) == 2 and all(
        "north-south" in r or "east-west" in r for r in against_bob
    )
    # cy-1: a partner in the first set, an opponent in the second (one finished, one queued)
    against_cy = get(arena, bot_url("ada-1", "cy-1"))
    assert [("scheduled" in r) for r in rows(against_cy, "Games against cy-1")] == [True, False]
    assert '<option value="cy-1" selected>' in against_cy
    assert "di-1" in get(arena, bot_url("ada-1", "di-1"))  # an opponent in every match
    assert len(rows(get(arena, bot_url("ada-1", "di-1")), "Games against di-1")) == 4
    get(arena, bot_url("ada-1", "nobody"), 404)


def test_a_bots_games_come_a_page_at_a_time_each_after_the_last(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = rows(get(arena, bot_url("ada-1")), "Games (4, newest first)")
    monkeypatch.setattr(queries, "BOT_GAMES", 3)
    first = get(arena, bot_url("ada-1"))
    newest = rows(first, "Games (1 to 3 of 4, newest first)")
    second = last_page(arena, first, "games")
    oldest = rows(second, "Games (4 to 4 of 4, newest first)")
    assert [r.strip() for r in newest + oldest] == [r.strip() for r in every]
    get(arena, bot_url("ada-1", after="no-such-match"), 404)


def test_a_bots_page_charts_its_rating_after_each_game(arena: Arena, store: Store) -> None:
    page = get(arena, bot_url("ada-1"))
    assert "Rating over 3 games" in page
    svg = page.split('<svg class="rating-chart"', 1)[1].split("</svg>", 1)[0]
    rating_line = re.search(r'class="rating" points="([^"]+)"', svg)
    assert rating_line is not None and len(rating_line.group(1).split()) == 4  # start + 3 games
    [ada] = [s for s in store.standings(arena.ladder) if s.bot == "ada-1"]
    assert f"{ada.ordinal:.1f} (&mu; {ada.mu:.1f}" in page


def test_faults_show_the_reason_and_the_bots_output_only_once_their_set_is_over(
    arena: Arena,
) -> None:
    page = get(arena, bot_url("ada-1"))
    faults = rows(page, "Faults")
    assert len(faults) == 2
    assert escape(SHOWN_DETAIL) in page and escape(BOT_OUTPUT) in page
    assert "CARD_AS" not in page and "shown when its set is over" in faults[0]
    assert "<b>CARD_7C</b>" not in page and "<script>boom" not in page
    assert "No faults." in get(arena, bot_url("bob-1"))


def test_a_bots_faults_come_a_page_of_whole_matches_at_a_time(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = rows(get(arena, bot_url("ada-1")), "Faults (2, newest first)")
    monkeypatch.setattr(queries, "BOT_FAULTS", 1)  # one fault in each of two matches
    first = get(arena, bot_url("ada-1"))
    newest = rows(first, "Faults (1, newest first)")
    second = last_page(arena, first, "faults")
    oldest = rows(second, "Faults (1 older, newest first)")
    assert [r.strip() for r in newest + oldest] == [r.strip() for r in every]
    assert rows(second, "Games") == rows(first, "Games")  # the games' page stays
    get(arena, bot_url("ada-1", faults_after="no-such-match"), 404)


def test_hostile_names_and_reasons_are_escaped_everywhere(arena: Arena) -> None:
    for url in ("/arena/", f"/arena/ladders/{arena.ladder}", bot_url(HOSTILE)):
        page = get(arena, url)
        assert "<script>" not in page and "<img" not in page and "<i>" not in page, url
    ladder = get(arena, f"/arena/ladders/{arena.ladder}")
    assert escape(HOSTILE) in ladder and escape(bot_url(HOSTILE)) in ladder
    own = get(arena, bot_url(HOSTILE))
    assert f"<title>Bot {escape(HOSTILE)}</title>" in own
    assert escape(HOSTILE_REASON) in own and "Rating over 0 games" in own


def test_unknown_bots_ladders_and_sets_are_not_found(arena: Arena) -> None:
    assert "No bot named" in get(arena, bot_url("nobody"), 404)
    get(arena, "/arena/ladders/999", 404)
    get(arena, "/arena/replay/nosuchset/records", 404)
    get(arena, "/arena/replay/nosuchset/records/0", 404)


def test_a_sets_records_open_in_the_replay_viewer_only_once_the_set_is_over(
    arena: Arena,
) -> None:
    done, going = arena.over[0].rsplit("-", 1)[0], arena.open[0].rsplit("-", 1)[0]
    page = get(arena, f"/arena/replay/{done}/")
    assert '<script type="module" src="/viewer/static/main.js">' in page
    assert "text/javascript" in fetch(arena.url + "/viewer/static/main.js")[1]["content-type"]
    listed = json.loads(get(arena, f"/arena/replay/{done}/records"))
    assert [r["id"] for r in listed["records"]] == arena.over
    withheld = json.loads(get(arena, f"/arena/replay/{going}/records"))
    assert withheld["records"] == [] and "still being played" in withheld["file"]
    refused = get(arena, f"/arena/replay/{going}/records/0", 404)
    assert "still being played" in json.loads(refused)["message"]
    assert "CARD" not in refused and "seed" not in refused
