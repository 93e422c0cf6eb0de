"""The live page in a real headless Chromium, following a running tournament (builtin
bots at a watchable pace for about half a minute, ``mazzo tournament --ui 0``): standings
and tables update with no reload (a marker set at load stays), no console error, and
every event the page received holds no hidden card (checked in the page's own data
against the records). Screenshots, desktop and phone, go to ``$MAZZO_ARTIFACTS/viewer``.

The latency figure (8 tables in parallel, the referee's move to the page's receipt)
is ``scripts/live_latency.py``; ``test_latency_of_eight_tables`` runs it (marked long).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.referee.records import read_records
from tests.viewer.chromium import shoot
from tests.viewer.live_privacy import check
from tests.viewer.test_browser import browser, errors

__all__ = ["browser"]  # the module's browser fixture, shared

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """
name = "live-test"
game = "{game}"
players = {players}
deals = {deals}
concurrency = {concurrency}
options = {options}
[time]
move = 5.0
bank = 60.0
[[entrants]]
name = "heuristic"
bot = "builtin:heuristic"
[[entrants]]
name = "random"
bot = "builtin:random"
"""


def start_tournament(
    folder: Path,
    pace: float,
    deals: int = 2,
    concurrency: int = 2,
    game: str = "maraffa",
    players: int = 4,
    options: str = "{ target = 11 }",
) -> tuple[subprocess.Popen[str], str, Path]:
    """``mazzo tournament --ui 0`` in a process of its own: the process, the page's URL
    and the records file."""
    config = folder / "live.toml"
    config.write_text(
        CONFIG.format(
            game=game, players=players, deals=deals, concurrency=concurrency, options=options
        )
    )
    records = folder / "live.jsonl"
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "mazzo.cli", "tournament", str(config)),
            *("--records", str(records), "--ui", "0", "--ui-pace", str(pace)),
            *("--ui-linger", "120", "--no-progress"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line.startswith("live view: http://127.0.0.1:"), line
    return process, line.removeprefix("live view: "), records


#: The tournament the page follows runs for about half a minute: four matches to 11,
#: two at a time, each move followed by a pause to watch it by (little CPU meanwhile).
PACE = 0.15
SAMPLES = 6  # times the page is seen to move on, spread over the event
#: How often the test looks at the page while the event runs.
LOOK_EVERY = 0.3


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    process, url, records = start_tournament(tmp_path, pace=PACE, options="{ target = 11 }")
    try:
        yield url, records
    finally:
        process.terminate()
        process.wait(10)


def received(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    raw: list[str] = driver.execute_script("return window.mazzoLive.events")
    return [json.loads(r) for r in raw]


def plies(driver: webdriver.Chrome) -> list[int]:
    """The move each table in play is at (read in the page: tables are redrawn)."""
    found: list[int] = driver.execute_script(
        "return [...document.querySelectorAll('#tables article.live-table')]"
        ".map(a => Number(a.dataset.ply))"
    )
    return found


def standings(driver: webdriver.Chrome) -> list[str]:
    rows: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr')].map(r => r.innerText)"
    )
    return rows


@pytest.mark.waits
def test_the_live_page_follows_a_running_tournament_with_no_reload(
    browser: webdriver.Chrome, tournament: tuple[str, Path]
) -> None:
    url, records_path = tournament
    browser.get(url)
    marker = browser.execute_script("return window.mazzoLive.loadedAt")
    WebDriverWait(browser, 60, 0.1).until(lambda d: plies(d))
    first_ply = max(plies(browser))
    assert standings(browser) == []
    WebDriverWait(browser, 60, 0.1).until(lambda d: max(plies(d), default=0) > first_ply + 5)
    shoot(browser, "live-maraffa-4")
    WebDriverWait(browser, 240, 0.1).until(
        lambda d: int(d.execute_script("return document.body.dataset.done") or 0) >= 1
    )
    after_one = standings(browser)
    counts = [r.split("\t")[2] for r in after_one]  # matches played, by entrant
    assert len(counts) == 2 and counts[0] == counts[1] and counts[0] in "123", after_one
    # The tables keep moving on the same page until the event is over.
    seen = [sum(plies(browser))]
    started = time.monotonic()
    while "the event is over" not in browser.find_element(By.ID, "progress-text").text:
        assert time.monotonic() - started < 300, "the event did not end"
        time.sleep(LOOK_EVERY)
        seen.append(sum(plies(browser)))
    moved = sum(1 for a, b in itertools.pairwise(seen) if a != b)
    assert moved >= SAMPLES, seen
    final = standings(browser)
    assert final != after_one and [r.split("\t")[2] for r in final] == ["4", "4"], final
    assert browser.execute_script("return window.mazzoLive.loadedAt") == marker  # no reload
    assert browser.execute_script("return window.mazzoLive.snapshots") == 1
    shoot(browser, "live-over")
    # the page's own data: no hidden card while a hand ran
    events = received(browser)
    kinds = {e["type"] for e in events}
    assert {"snapshot", "match", "move", "reveal", "end", "standings", "over"} <= kinds
    records = {r["id"]: r for r in read_records(records_path)}
    assert len(records) == 4
    checked = check(records, events)
    assert checked >= sum(len(r["moves"]) for r in records.values()) // 2
    # a finished match opens in the replay viewer
    link = browser.find_element(By.CSS_SELECTOR, "#finished a")
    rid = link.text
    link.click()
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "status").text.startswith(f"{rid}:")
    )
    assert not errors(browser)


@pytest.mark.long
def test_latency_of_eight_tables(tmp_path: Path) -> None:
    """The figure for the closing note: prints the median and the largest delay."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "live_latency.py"), "--tables", "8"],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    print(out.stdout)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["moves"] > 500
    assert figures["p95_ms"] < 1000
