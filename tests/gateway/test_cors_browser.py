"""A dial-in bot written as a web page (``examples/bots/dial_in.html``), in a real
headless Chromium, served from another origin than the gateway's HTTP door: it plays
a whole match when the door allows its origin (``--cors-origin``), and the browser
stops it at its first call when the door does not."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Awaitable, Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.referee.match import MatchSpec, options_json, run_match
from mazzo.referee.verify import verify
from tests.gateway.test_http import HttpRig, door
from tests.viewer.test_browser import browser

__all__ = ["browser", "door"]  # the fixtures, shared

BOTS = Path(__file__).resolve().parents[2] / "examples" / "bots"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def site() -> Iterator[str]:
    """``examples/bots`` served on a port of its own: the page's origin, not the door's."""
    handler = functools.partial(_Quiet, directory=str(BOTS))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def open_bot(driver: webdriver.Chrome, origin: str, h: HttpRig) -> None:
    driver.get(f"{origin}/dial_in.html#door={h.base}&token={h.rig.tokens['alice']}")


def state(driver: webdriver.Chrome) -> str:
    return str(driver.execute_script("return document.body.dataset.state"))


async def test_a_page_of_an_allowed_origin_plays_a_whole_match(
    browser: webdriver.Chrome, door: Callable[..., Awaitable[HttpRig]]
) -> None:
    with site() as origin:
        h = await door(cors=(origin,))
        opened = asyncio.create_task(asyncio.to_thread(open_bot, browser, origin, h))
        spec = MatchSpec("page", "briscola", 3, 2, options_json("briscola", ["hands_to_win=1"]))
        record = await run_match(
            spec, ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=30
        )
        await opened
        await h.rig.gateway.stop(0.5)  # the run's end ends the page's stream
        await asyncio.to_thread(
            WebDriverWait(browser, 15).until, lambda d: state(d) in ("over", "failed")
        )
        log = browser.find_element("id", "log").text
    assert state(browser) == "over", log
    assert "match page started" in log and "match page ended" in log
    assert record["result"]["finished"] and record["faults"] == []
    mine = [m for m in record["moves"] if m["seat"] == 0]
    assert len(mine) == 20 and not any(m.get("auto") for m in mine)  # every card its own
    assert verify([record]).code == 0


async def test_a_page_of_an_origin_not_allowed_is_stopped_by_the_browser(
    browser: webdriver.Chrome, door: Callable[..., Awaitable[HttpRig]]
) -> None:
    with site() as origin:
        h = await door(cors=("https://bots.example.org",))
        await asyncio.to_thread(open_bot, browser, origin, h)
        await asyncio.to_thread(
            WebDriverWait(browser, 15).until, lambda d: state(d) in ("failed", "refused", "over")
        )
        log = browser.find_element("id", "log").text
    assert state(browser) == "failed" and "Failed to fetch" in log
    assert h.rig.gateway.seats["alice"].conn is None  # it never reached the seat
