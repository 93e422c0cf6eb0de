"""A person's page dials in again on its own after a drop, and never fights another
page for the seat, in a real headless Chromium (docs/play.md).

The page talks to ``mazzo match --bot human`` through a TCP proxy of the test's
(``Cutter``), which counts the joins that reach the server and cuts the join's
connection on demand: a real network drop in the middle of a decision, the same at
every run. Dropped, the page says it is reconnecting, dials again, is sent the
pending decision again with its sequence number, and the person's next click is
applied once: the match ends with no fault. Replaced by a second page of the seat,
the first says so and does not dial again: two joins reach the server, no more.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.referee.records import read_records
from tests.viewer.people import person_run, press_move
from tests.viewer.test_browser import browser
from tests.viewer.test_play_browser import (
    SEAT,
    check_privacy,
    choose,
    look,
    mine,
    once,
    person,
    ready,
    received,
)
from tests.viewer.test_play_tournament import CONFIG as TOURNAMENT

__all__ = ["browser", "person"]  # the fixtures, shared

#: How a join's request begins on the wire.
JOIN = b"POST /v1/tables:join "


class Cutter:
    """A TCP proxy on a free port in front of ``port``: counts the joins that pass
    and cuts the connections that carried one (``cut``), both ends at once."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.joins = 0
        self._lock = threading.Lock()
        self._joined: list[tuple[socket.socket, socket.socket]] = []
        self._all: list[socket.socket] = []
        #: When set, a join's connection is cut just after the server sent these bytes
        #: (``after``); what else came in that read, as cut (``cut_with``).
        self.after: bytes | None = None
        self.cut_with: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                page, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:  # the server is gone: so is the page's connection
                page.close()
                continue
            with self._lock:
                self._all += [page, server]
            pair = (page, server)
            threading.Thread(
                target=self._pump, args=(page, server, pair, True), daemon=True
            ).start()
            threading.Thread(
                target=self._pump, args=(server, page, pair, False), daemon=True
            ).start()

    def _pump(
        self,
        source: socket.socket,
        target: socket.socket,
        pair: tuple[socket.socket, socket.socket],
        from_page: bool,
    ) -> None:
        """Bytes one way; from the page, each join counted; from the server, a join's
        connection cut after ``after``'s bytes, when set."""
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if from_page and JOIN in data:
                    with self._lock:
                        self.joins += data.count(JOIN)
                        self._joined.append(pair)
                if not from_page and self.after is not None and self.after in data:
                    with self._lock:
                        joined = pair in self._joined
                    if joined:
                        # Up to the end of the chunk that carries ``after`` (a line of
                        # the join's chunked stream), not a byte of the next one.
                        start = data.index(self.after)
                        end = data.index(b"\n\r\n", start) + 3
                        target.sendall(data[:end])
                        self.cut_with.append(data[start:end])
                        self.after = None
                        self.cut()
                        return
                target.sendall(data)
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> int:
        """Cut every connection that carried a join: the page's stream breaks mid-body,
        the server sees its peer gone. How many were cut."""
        with self._lock:
            pairs, self._joined = self._joined, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
        return len(pairs)

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            ends, self._all = self._all, []
        for end in ends:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


@pytest.fixture
def proxied(person: tuple[str, Path]) -> Iterator[tuple[str, Path, Cutter]]:
    """The person's address, through a ``Cutter``; the records file; the cutter."""
    url, records = person
    found = re.match(r"http://127\.0\.0\.1:(\d+)(/.*)", url)
    assert found is not None, url
    cutter = Cutter(int(found[1]))
    try:
        yield f"http://127.0.0.1:{cutter.port}{found[2]}", records, cutter
    finally:
        cutter.close()


def link(driver: webdriver.Chrome) -> str:
    """The join's state the page shows: up, reconnecting, replaced or lost."""
    state: str = driver.execute_script("return document.body.dataset.link ?? ''")
    return state


def pending_sequence(driver: webdriver.Chrome) -> str:
    """The sequence number of the last decision the page was sent."""
    decisions, _ = received(driver)
    return str([m for m in decisions if "decision" in m][-1]["decision"]["sequence"])


def click(driver: webdriver.Chrome, played: list[str], turn: int) -> None:
    """The person chooses a move by clicking it; the log shows it, once."""
    index, _, words, _ = choose(look(driver)["moves"], turn)
    press_move(driver, index)
    played.append(words)
    WebDriverWait(driver, 10, 0.02).until(lambda d: mine(d) >= len(played))
    assert mine(driver) == len(played), look(driver)["log"]


def play_on(driver: webdriver.Chrome, played: list[str], cut_at: Cutter | None = None) -> int:
    """Click to the match's end; with ``cut_at``, the join is cut twice: at the
    person's third decision before the click, and just after the sixth click's answer
    was taken (the next decision may be on its way, or sent already). How many cuts."""
    cuts = 0
    while True:
        WebDriverWait(driver, 30, 0.02).until(lambda d: ready(look(d)))
        if look(driver)["state"] == "over":
            return cuts
        if cut_at is not None and len(played) == 2:
            before = pending_sequence(driver)
            joins = driver.execute_script("return window.mazzoPlay.joins")
            assert cut_at.cut() == 1
            cuts += 1
            # The page says so and dials again by itself; the decision comes back
            # with its number.
            WebDriverWait(driver, 5, 0.01).until(lambda d: link(d) != "up")
            assert "reconnecting" in look(driver)["status"], look(driver)["status"]
            WebDriverWait(driver, 10, 0.02).until(lambda d: link(d) == "up" and ready(look(d)))
            assert driver.execute_script("return window.mazzoPlay.joins") == joins + 1
            assert pending_sequence(driver) == before
        answers = look(driver)["answers"]
        click(driver, played, len(played))
        if cut_at is not None and len(played) == 6:
            # Answered (the answer's own request came back), then the stream is cut:
            # the answer stands, and is not asked for again.
            assert look(driver)["answers"] == answers + 1
            assert cut_at.cut() == 1
            cuts += 1
            WebDriverWait(driver, 5, 0.01).until(lambda d: link(d) != "up")
            WebDriverWait(driver, 10, 0.02).until(lambda d: link(d) == "up")


def network_only(driver: webdriver.Chrome) -> list[Any]:
    """The page's console errors, less the network's own (a connection cut)."""
    logged = driver.get_log("browser")
    return [e for e in logged if e["level"] == "SEVERE" and "net::ERR_" not in e["message"]]


def test_a_dropped_page_dials_again_and_the_next_click_counts_once(
    browser: webdriver.Chrome, proxied: tuple[str, Path, Cutter]
) -> None:
    url, records_path, cutter = proxied
    started = time.monotonic()
    browser.get(url)
    played: list[str] = []
    assert play_on(browser, played, cut_at=cutter) == 2
    assert "the match is over" in look(browser)["status"]
    assert cutter.joins == 3  # the first, and one after each drop
    seconds = time.monotonic() - started

    # The record: the whole hand, each of the person's moves applied once, no fault;
    # the page's log has each once too.
    WebDriverWait(browser, 30, 0.1).until(
        lambda d: records_path.exists() and read_records(records_path)
    )
    (record,) = read_records(records_path)
    assert not record["faults"], record["faults"]
    own = [m for m in record["moves"] if m["seat"] == SEAT]
    assert len(own) == len(played) >= 10
    assert mine(browser) == len(played)
    decisions, feed = received(browser)
    check_privacy(record, once(decisions), feed)
    assert not network_only(browser)
    print(f"a hand with a drop in {seconds:.1f} s")


def test_a_page_another_takes_the_seat_from_does_not_dial_again(
    browser: webdriver.Chrome, proxied: tuple[str, Path, Cutter]
) -> None:
    url, records_path, cutter = proxied
    first = browser.current_window_handle
    browser.get(url)
    WebDriverWait(browser, 30, 0.02).until(lambda d: ready(look(d)))
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    try:
        browser.get(url)
        WebDriverWait(browser, 30, 0.02).until(lambda d: ready(look(d)))
        # The first page says another took its seat, and stays away: past the first
        # re-dials' backoff (0.5, then 1 s) no third join has reached the server.
        browser.switch_to.window(first)
        WebDriverWait(browser, 5, 0.02).until(lambda d: link(d) == "replaced")
        status = look(browser)["status"]
        assert "another page took this seat" in status and "replaced" in status, status
        assert look(browser)["state"] == "waiting" and not look(browser)["moves"]
        time.sleep(2.0)
        assert cutter.joins == 2
        assert browser.execute_script("return window.mazzoPlay.joins") == 1
        # The second page plays the hand through; still no join of the first's.
        browser.switch_to.window(second)
        played: list[str] = []
        play_on(browser, played)
        assert cutter.joins == 2
        assert not network_only(browser)
    finally:  # the second tab closed, the first left for the module's next test
        browser.switch_to.window(second)
        browser.close()
        browser.switch_to.window(first)
    WebDriverWait(browser, 30, 0.1).until(
        lambda d: records_path.exists() and read_records(records_path)
    )
    (record,) = read_records(records_path)
    assert not record["faults"], record["faults"]
    assert len([m for m in record["moves"] if m["seat"] == SEAT]) == len(played) >= 10


def test_a_page_dropped_between_tournament_matches_dials_again_for_the_next(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    """The drop comes right after the first match's end, before the next one is
    announced: the page dials again all the same, and plays the second match."""
    config = tmp_path / "people.toml"
    config.write_text(TOURNAMENT, encoding="utf-8")
    records_path = tmp_path / "people.jsonl"
    args = ["tournament", str(config), "--records", str(records_path), "--no-progress"]
    played: list[str] = []
    with person_run(args, "anna") as (process, url):
        found = re.match(r"http://127\.0\.0\.1:(\d+)(/.*)", url)
        assert found is not None
        cutter = Cutter(int(found[1]))
        cutter.after = b"matchEnded"
        try:
            browser.get(f"http://127.0.0.1:{cutter.port}{found[2]}")
            deadline = time.monotonic() + 120
            while process.poll() is None:
                assert time.monotonic() < deadline, look(browser)
                seen = look(browser)
                if seen["state"] == "deciding" and seen["moves"]:
                    click(browser, played, len(played))
                else:
                    time.sleep(0.02)
            # Cut once, with the first match's end and nothing of the next match's;
            # dialed again once.
            assert len(cutter.cut_with) == 1 and b"matchStarted" not in cutter.cut_with[0]
            assert cutter.joins == 2
        finally:
            cutter.close()
    # Both matches of the pair with the person, each of their moves applied once and no
    # fault: the second match's seat was not lost to the drop.
    records = read_records(records_path)
    assert len(records) == 2
    assert all("human:anna" in r["seat_bots"] and not r["faults"] for r in records)
    own = [
        m for r in records for m in r["moves"] if m["seat"] == r["seat_bots"].index("human:anna")
    ]
    assert len(own) == len(played) >= 2
