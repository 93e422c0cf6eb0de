"""A dial-in bot written as a web page (``examples/bots/dial_in.html``), in a real
headless Chromium, served from another origin than the gateway's HTTP door: it plays
a whole match when the door allows its origin (``--cors-origin``), comes back after
its connections are cut mid-match and is sent the decision it lost, and is stopped by
the browser at its first call when the door does not allow its origin."""

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


class Cutter:
    """A TCP proxy in front of the door that cuts every connection through it (a
    reset, as a network that fails) just before the ``at``-th decision would reach the
    page: the gateway has sent it, the page never sees it."""

    def __init__(self, target: int, at: int) -> None:
        self.target, self.at = target, at
        self.decisions = 0
        self.cut = asyncio.Event()
        self.pipes: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._pipe, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _pipe(self, down_r: asyncio.StreamReader, down_w: asyncio.StreamWriter) -> None:
        up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        self.pipes |= {down_w, up_w}

        async def copy(r: asyncio.StreamReader, w: asyncio.StreamWriter, watch: bool) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await r.read(65536):
                    self.decisions += data.count(b'"decision"') if watch else 0
                    if watch and self.decisions >= self.at and not self.cut.is_set():
                        self.cut.set()
                        for pipe in self.pipes:
                            pipe.transport.abort()
                        return
                    w.write(data)
                    await w.drain()
            w.close()

        await asyncio.gather(copy(down_r, up_w, False), copy(up_r, down_w, True))
        self.pipes -= {down_w, up_w}

    async def stop(self) -> None:
        self.server.close()
        for pipe in self.pipes:
            pipe.transport.abort()


def open_bot(driver: webdriver.Chrome, origin: str, h: HttpRig, door: str = "") -> None:
    door = door or h.base
    driver.get(f"{origin}/dial_in.html#door={door}&token={h.rig.tokens['alice']}")


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


async def test_a_page_whose_connections_are_cut_mid_match_comes_back_and_loses_nothing(
    browser: webdriver.Chrome, door: Callable[..., Awaitable[HttpRig]]
) -> None:
    with site() as origin:
        h = await door(cors=(origin,))
        cutter = Cutter(int(h.base.rsplit(":", 1)[1]), at=5)
        await cutter.start()
        through = f"http://127.0.0.1:{cutter.port}"
        opened = asyncio.create_task(asyncio.to_thread(open_bot, browser, origin, h, through))
        spec = MatchSpec("cut", "briscola", 4, 2, options_json("briscola", ["hands_to_win=1"]))
        try:
            record = await run_match(
                spec, ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=30
            )
            await opened
            await h.rig.gateway.stop(0.5)
            await asyncio.to_thread(
                WebDriverWait(browser, 15).until, lambda d: state(d) in ("over", "lost", "failed")
            )
            log = browser.find_element("id", "log").text
        finally:
            await cutter.stop()
    assert cutter.cut.is_set() and state(browser) == "over", log
    assert "dialing again in 0.5 s" in log and log.count("joined as alice") == 2
    # no move lost, none made for it, no fault: the lost decision came again and was played
    assert record["result"]["finished"] and record["faults"] == [], record["faults"]
    mine = [m for m in record["moves"] if m["seat"] == 0]
    assert len(mine) == 20 and not any(m.get("auto") for m in mine)
    assert verify([record]).code == 0


async def test_a_page_of_an_origin_not_allowed_is_stopped_by_the_browser(
    browser: webdriver.Chrome, door: Callable[..., Awaitable[HttpRig]]
) -> None:
    with site() as origin:
        h = await door(cors=("https://bots.example.org",))
        await asyncio.to_thread(open_bot, browser, origin, h)
        await asyncio.to_thread(
            WebDriverWait(browser, 15).until,
            lambda d: "Failed to fetch" in d.find_element("id", "log").text,
        )
        log = browser.find_element("id", "log").text
    # to the page, as a network that fails: it would dial again within the grace
    assert state(browser) == "reconnecting" and "Failed to fetch" in log, log
    assert h.rig.gateway.seats["alice"].conn is None  # it never reached the seat
