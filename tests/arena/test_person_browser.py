"""A person at an arena's table, and a live table, in a real headless Chromium.

``mazzo arena serve`` (in this process: ``tests.arena.web.serving``) on a Briscola 2p
ladder of two bots, a builtin random bot and a dial-in bot played by a person (its
owner, in the browser; marked so: the table gets the person's clock and one match).
From the arena's index the person opens the seat page, types the bot's token (it
never appears in an address) and sits down; the scheduler seats the bot like any
dial-in bot, and the person plays the ladder's match by clicking. The
page gets that seat's view only (checked against the record played again). While the
person thinks, the match is in play: the ladder's page lists it with its live link,
and the live table opens and follows the person's next move, showing no hand.
Screenshots to ``$MAZZO_ARTIFACTS/viewer`` (``arena-person*.png``, ``arena-live.png``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.arena import queries
from mazzo.arena.models import FINISHED
from mazzo.arena.run import Settings
from mazzo.arena.store import Store
from mazzo.referee.match import TimeControl
from tests.arena.web import serving
from tests.viewer.chromium import shoot
from tests.viewer.people import press_move
from tests.viewer.test_browser import browser, errors
from tests.viewer.test_play_browser import check_privacy, choose, look, mine, ready, received

__all__ = ["browser"]  # the viewer tests' browser fixture, shared

PERSON = "me-1"
#: A person's minutes, not a bot's second: the scripted person is slow on a busy machine.
#: The person's seat only: the bot at its table keeps the bots' clock.
CLOCK = TimeControl(60.0, 600.0)
BOTS_CLOCK = Settings().clock


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[tuple[Store, str, str]]:
    """The arena serving and playing, its HTTP address, and the person's bot's token.
    Only two bots: nothing is played until the person sits down."""
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = store.add_ladder("briscola", 2)
        store.add_owner("ada")
        store.add_bot("ada", "ada-1", ladder, "builtin", "builtin:random")
        store.add_owner("me")
        token = store.add_bot("me", PERSON, ladder, person=True).token
        play = Settings(workers=1, seed=1, until_idle=False, idle=0.1, person_clock=CLOCK)
        with serving(store, play) as served:
            yield store, f"http://127.0.0.1:{served.http_port}", token


def finished(store: Store) -> list[str]:
    """The ladder's finished matches, by id."""
    [ladder] = store.ladders()
    lines = queries.newest_matches(store, ladder.id)
    return [line.id for line in lines if line.status == FINISHED]


def sit_down(driver: webdriver.Chrome, url: str, token: str) -> None:
    """From the arena's index to the seat page, by its link; the token typed in."""
    driver.get(url + "/arena/")
    driver.find_element(By.LINK_TEXT, "Take a seat yourself").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/play/"))
    driver.find_element(By.ID, "sit-token").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#sit button[type=submit]").click()
    WebDriverWait(driver, 20, 0.05).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-link") == "up"
    )
    assert token not in driver.current_url


def leave(driver: webdriver.Chrome) -> None:
    """Off the seat's page: a page left open dials its table again after the arena
    stops (quietly, for the grace), which the next test's console would show."""
    driver.get("about:blank")
    driver.get_log("browser")


def test_a_person_sits_down_with_a_bot_token_and_plays_a_ladder_match_by_clicking(
    arena: tuple[Store, str, str], browser: webdriver.Chrome
) -> None:
    store, url, token = arena
    sit_down(browser, url, token)
    played: list[str] = []
    while not finished(store):
        WebDriverWait(browser, 30, 0.02).until(lambda d: ready(look(d)) or bool(finished(store)))
        seen = look(browser)
        if seen["state"] != "deciding" or finished(store):
            continue
        index, _, words, _ = choose(seen["moves"], len(played))
        press_move(browser, index)
        played.append(words)
        WebDriverWait(browser, 10, 0.02).until(lambda d: mine(d) >= len(played))
        if len(played) == 2:
            shoot(browser, "arena-person")
    match_id = finished(store)[0]
    record = store.match(match_id).record
    assert record is not None
    # The person's table: the person's clock for the person's seat (the bot beside it
    # on the bots' clock), and one match, its deal never dealt again.
    seat = record["seat_bots"].index(f"connect:{PERSON}")
    assert record["time_control"] == {
        "move": BOTS_CLOCK.move,
        "bank": BOTS_CLOCK.bank,
        "seats": [{"seat": seat, "move": CLOCK.move, "bank": CLOCK.bank}],
    }
    assert record["arena"]["people"] == [PERSON]
    lines = queries.newest_matches(store, store.ladders()[0].id)
    [line] = [line for line in lines if line.id == match_id]
    assert line.unpaired and line.revealed  # the next table is a set of one match too
    assert all(other.unpaired for other in lines)
    moves = [m for m in record["moves"] if m["seat"] == seat]
    assert moves and len(played) >= len(moves)
    # The page got that seat's view only: no card hidden from the seat, at any move.
    decisions, feed = received(browser)
    asked = [m for m in decisions if m.get("decision", {}).get("matchId", match_id) == match_id]
    told = [f for f in feed if f.get("id") == match_id]
    check_privacy(record, asked, told, record["seat_bots"][seat])
    # The token went in bodies and headers only: no address the page asked for holds it.
    addresses = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href])"
    )
    assert addresses and not [a for a in addresses if token in a]
    assert not errors(browser)
    leave(browser)


def test_a_live_table_opens_from_the_ladder_page_while_its_match_is_in_play(
    arena: tuple[Store, str, str], browser: webdriver.Chrome
) -> None:
    _, url, token = arena
    sit_down(browser, url, token)
    WebDriverWait(browser, 30, 0.02).until(lambda d: look(d)["state"] == "deciding")
    seat_page = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(url + "/arena/")
    browser.find_element(By.PARTIAL_LINK_TEXT, "briscola 2p").click()
    browser.find_element(By.LINK_TEXT, "watch live").click()
    WebDriverWait(browser, 10).until(lambda d: "/arena/live/" in d.current_url)
    match_id = browser.current_url.rstrip("/").rsplit("/", 1)[1]
    table = f'article.live-table[data-id="{match_id}"]'
    WebDriverWait(browser, 10, 0.05).until(lambda d: d.find_elements(By.CSS_SELECTOR, table))
    assert "No hand is shown" in browser.find_element(By.ID, "privacy").text
    ply = int(browser.find_element(By.CSS_SELECTOR, table).get_attribute("data-ply") or 0)
    # The person moves: the live table follows.
    browser.switch_to.window(seat_page)
    seen = look(browser)
    index = choose(seen["moves"], 0)[0]
    press_move(browser, index)
    browser.switch_to.window(browser.window_handles[-1])

    def moved(d: webdriver.Chrome) -> bool:
        found = d.find_elements(By.CSS_SELECTOR, table)
        return bool(found) and int(found[0].get_attribute("data-ply") or 0) > ply

    WebDriverWait(browser, 10, 0.05).until(moved)
    shoot(browser, "arena-live")
    # Public information only: no hand in any table the page was sent, and no reveal.
    events = [json.loads(e) for e in browser.execute_script("return window.mazzoLive.events")]
    tables = [t["start"] for e in events if e["type"] == "snapshot" for t in e["tables"]]
    tables += [t["last"] for e in events if e["type"] == "snapshot" for t in e["tables"]]
    tables += [e for e in events if e["type"] in ("match", "move")]
    assert events and not [e for e in events if e["type"] == "reveal"]
    for payload in tables:
        if payload is not None:
            assert all(s["hand"] is None for s in payload["table"]["seats"]), payload
    assert not errors(browser)
    browser.close()
    browser.switch_to.window(seat_page)
    leave(browser)
