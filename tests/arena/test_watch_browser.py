"""An owner watches their dial-in bot's seat while its program plays, in a real
headless Chromium.

``mazzo arena serve`` (in this process: ``tests.arena.web.serving``) on a Briscola 2p
ladder: a builtin random bot, and a dial-in bot played by a program (a thread of this
test, through the gRPC door). The owner opens ``/play/``, types the bot's token and
presses "Watch its seat" mid-match: the page follows that seat's feed from the next
move and never joins, so the program keeps its seat and plays every move; the page
shows the seat's own hand as it plays, nothing its seat may not see (checked against
the record played again), and the bot's next match after it. A wrong token gets no
feed. Screenshot ``arena-watch.png``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.arena.run import Settings
from mazzo.arena.store import Store
from tests.arena.test_person_browser import finished, leave
from tests.arena.web import serving
from tests.gateway.conftest import Client, safe_index
from tests.viewer.chromium import shoot
from tests.viewer.test_browser import browser, errors
from tests.viewer.test_play_browser import check_privacy, look, received

__all__ = ["browser"]  # the viewer tests' browser fixture, shared

BOT = "cy-1"


class Program:
    """The bot's program: joins with its token and answers every decision with a
    legal move, a little after it comes (so the page has moves to follow), until
    ``stop`` (then at its next message) or its stream ends."""

    def __init__(self, target: str, token: str) -> None:
        self.target, self.token = target, token
        self.stop = threading.Event()
        self.answered = 0
        self.thread = threading.Thread(target=lambda: asyncio.run(self._play()), daemon=True)

    async def _play(self) -> None:
        client = Client(self.target)
        try:
            await client.join(self.token, BOT)
            while not self.stop.is_set():
                decision = await client.next_decision()
                if decision is None or self.stop.is_set():
                    return
                await asyncio.sleep(0.05)
                await client.answer(decision.sequence, safe_index(decision.request))
                self.answered += 1
        finally:
            await client.close()


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[tuple[Store, str, str, str]]:
    """The arena serving and playing; its HTTP address, its gateway, the bot's token."""
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = store.add_ladder("briscola", 2)
        store.add_owner("ada")
        store.add_bot("ada", "ada-1", ladder, "builtin", "builtin:random")
        store.add_owner("cy")
        token = store.add_bot("cy", BOT, ladder).token
        play = Settings(workers=1, seed=1, until_idle=False, idle=0.1)
        with serving(store, play) as served:
            url = f"http://127.0.0.1:{served.http_port}"
            yield store, url, f"127.0.0.1:{served.gateway_port}", token


def watch(driver: webdriver.Chrome, token: str) -> None:
    """The token typed into the seat page's form, and "Watch its seat" pressed."""
    driver.find_element(By.ID, "sit-token").send_keys(token)
    driver.find_element(By.ID, "watch").click()


def test_an_owner_watches_the_seat_of_a_bot_its_program_plays(
    arena: tuple[Store, str, str, str], browser: webdriver.Chrome
) -> None:
    store, url, target, token = arena
    browser.get(url + "/arena/")  # the index says where: the seat page
    assert "watch its seat" in browser.find_element(By.CLASS_NAME, "note").text
    browser.find_element(By.LINK_TEXT, "Take a seat yourself").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/play/"))
    watch(browser, "not-" + token)  # a token the arena does not know: no feed
    WebDriverWait(browser, 10, 0.05).until(lambda d: "no feed" in look(d)["status"])
    assert browser.find_element(By.ID, "sit").is_displayed()  # to type it again
    browser.get_log("browser")  # the refused feed's 401, as a browser logs it
    program = Program(target, token)
    program.thread.start()
    try:
        # The owner comes in mid-match, as an owner would: fed from the next move on.
        WebDriverWait(browser, 30, 0.02).until(lambda d: program.answered >= 3)
        watch(browser, token)
        body = browser.find_element(By.TAG_NAME, "body")
        assert body.get_attribute("data-link") == "watching"
        WebDriverWait(browser, 30, 0.05).until(lambda d: bool(look(d)["hand"] and look(d)["log"]))
        seen = look(browser)
        assert (
            seen["moves"] == []
            and "this page does not" in browser.find_element(By.ID, "moves").text
        )
        shoot(browser, "arena-watch")
        WebDriverWait(browser, 60, 0.1).until(lambda d: bool(finished(store)))
        match_id = finished(store)[0]
        record = store.match(match_id).record
        assert record is not None
        seat = record["seat_bots"].index(f"connect:{BOT}")
        # The program kept its seat: all 20 of its moves were its own, none a fault's.
        assert not [f for f in record["faults"] if f["seat"] == seat], record["faults"]
        assert len([m for m in record["moves"] if m["seat"] == seat]) == 20
        assert program.answered >= 20
        # The page joined nothing and was sent no decision; its feed followed the rest
        # of the match, every move from the one after it came in, the seat's view only.
        decisions, feed = received(browser)
        assert decisions == [] and browser.execute_script("return window.mazzoPlay.joins") == 0
        told = [f for f in feed if f.get("id") == match_id]
        plies = [f["ply"] for f in told if f["type"] == "move"]
        assert plies and plies[0] > 3 and plies == list(range(plies[0], len(record["moves"]) + 1))
        check_privacy(record, None, told, f"connect:{BOT}")
        # The end shows the seat's own table: its set's other match deals these cards.
        [end] = [f for f in told if f["type"] == "end"]
        assert [s["seat"] for s in end["table"]["seats"] if s["hand"] is not None] == [seat]
        # It follows the bot to its next match (its set's other one), with no reload.
        WebDriverWait(browser, 60, 0.1).until(
            lambda d: any(f.get("id") not in (None, match_id) for f in received(d)[1])
        )
        assert browser.execute_script("return window.mazzoPlay.joins") == 0
        assert not errors(browser)
    finally:
        program.stop.set()
        leave(browser)
