"""The viewer in a real headless Chromium (Debian's chromium and chromium-driver, driven
by Selenium), served by ``mazzo view``: every game and form loads; one whole match of
each game is stepped through move by move with the keyboard, and the hands shown after
every move and the score after every hand are the rules' (played again here); each
seat's perspective shows no card that seat's GetView hides; no console error. One
browser for the module. Screenshots, desktop and phone, go to
``$MAZZO_ARTIFACTS/viewer`` (default ``build/artifacts/viewer``)."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from mazzo.viewer.frames import frames_of
from mazzo.viewer.web import service_routes
from tests.viewer.chromium import DESKTOP, PHONE, shoot, start_chromium
from tests.viewer.test_frames import truth

ROOT = Path(__file__).resolve().parents[2]

#: What the page shows, read in one call: the frame's index, each seat's face-up cards
#: (None: hidden), every card face on the board, and the score table's rows.
SNAPSHOT = """
const [action, value] = arguments;
if (action === 'go') window.mazzoViewer.go(value);
if (action === 'seat') window.mazzoViewer.perspective(value);
const board = document.querySelector('#board .board');
const seats = [...board.querySelectorAll('.seat')].map(s => {
  const hand = s.querySelector('.hand');
  return hand.classList.contains('hidden') ? null
    : [...hand.querySelectorAll('[data-card]')].map(c => c.dataset.card);
});
const faces = [...board.querySelectorAll('[data-card]')].map(c => c.dataset.card);
const rows = [...document.querySelectorAll('#scores tbody tr')].map(r =>
  [...r.querySelectorAll('td')].slice(1).map(td => Number(td.textContent)));
return {index: Number(document.body.dataset.index), seats, faces, rows,
        perspective: board.dataset.perspective};
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    driver = start_chromium(tmp_path_factory.mktemp("chromium"), DESKTOP)
    try:
        yield driver
    finally:
        driver.quit()


def errors(driver: webdriver.Chrome) -> list[Any]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def open_match(driver: webdriver.Chrome, url: str, records: list[Any], rid: str) -> None:
    if not driver.current_url.startswith(url):
        driver.get(url)
        WebDriverWait(driver, 30).until(
            lambda d: len(Select(d.find_element(By.ID, "match")).options) > 1
        )
    index = next(k for k, r in enumerate(records) if r["id"] == rid)
    driver.execute_script(
        "const s = document.getElementById('match'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));",
        str(index),
    )
    WebDriverWait(driver, 30).until(
        lambda d: d.find_element(By.ID, "status").text.startswith(f"{rid}:")
    )
    driver.execute_script("document.activeElement.blur()")


def snapshot(driver: webdriver.Chrome, action: str = "", value: Any = None) -> dict[str, Any]:
    """What the page shows, after ``action`` ("go" to a move, "seat" a perspective)
    when given: one round trip to the browser."""
    result: dict[str, Any] = driver.execute_script(SNAPSHOT, action, value)
    return result


@pytest.mark.slow
def test_every_game_and_form_loads(
    browser: webdriver.Chrome, view_server: str, records: list[Any]
) -> None:
    for record in records:
        open_match(browser, view_server, records, record["id"])
        ActionChains(browser).send_keys(Keys.END).perform()
        shown = snapshot(browser)
        assert shown["index"] == len(record["moves"])
        final = [int(s.get("matchTotal", 0)) for s in record["result"]["score"]["sides"]]
        assert shown["rows"][-1] == final, record["id"]  # the "now" row: the record's score
        if record["id"] in ("maraffa-4", "burraco-4", "ramino-4", "maraffa-5"):
            browser.execute_script(f"window.mazzoViewer.go({len(record['moves']) // 3})")
            shoot(browser, record["id"])
            # on a phone the page fits the width: nothing to scroll sideways
            browser.set_window_size(*PHONE)
            wide = browser.execute_script("return document.documentElement.scrollWidth")
            assert wide <= PHONE[0] + 1, (record["id"], wide)
            browser.set_window_size(*DESKTOP)
    # a Ramino closure, shown as its combinations right after the closing move
    closing = [
        (record["id"], ply)
        for record in records
        if record["game"] == "ramino"
        for ply, entry in enumerate(record["moves"], 1)
        if any("handClosed" in e.get("ramino", {}) for e in entry["events"])
    ]
    assert closing
    rid, ply = closing[0]
    open_match(browser, view_server, records, rid)
    browser.execute_script(f"window.mazzoViewer.go({ply})")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('#board .board')].map(b => b.textContent)"
    )
    assert " closes: " in "".join(labels)
    shoot(browser, "ramino-closure")
    assert not errors(browser)


#: Delays the answer for one record's URL by a second, then picks two matches in turn:
#: that one, then another.
SLOW_THEN_CHOSEN = """
const [slow, chosen] = arguments;
const plain = window.fetch;
window.mazzoPlainFetch = plain;
window.fetch = (url, init) => {
  if (!String(url).endsWith(`records/${slow}`)) return plain(url, init);
  return new Promise(r => setTimeout(r, 1000)).then(() => plain(url, init))
    .then(reply => { window.mazzoSlowAnswered = true; return reply; });
};
const picker = document.getElementById('match');
for (const index of [slow, chosen]) {
  picker.value = String(index);
  picker.dispatchEvent(new Event('change'));
}
"""


def test_a_slow_answer_for_an_earlier_choice_does_not_replace_a_later_one(
    browser: webdriver.Chrome, view_server: str, records: list[Any]
) -> None:
    open_match(browser, view_server, records, records[0]["id"])
    slow, chosen = records[1], records[2]
    try:
        browser.execute_script(SLOW_THEN_CHOSEN, 1, 2)
        WebDriverWait(browser, 30, 0.05).until(
            lambda d: d.execute_script("return window.mazzoSlowAnswered === true")
        )
        time.sleep(0.3)  # the slow answer read and handled (or dropped)
        WebDriverWait(browser, 30).until(  # a match shown
            lambda d: " players, " in d.find_element(By.ID, "status").text
        )
        status = browser.find_element(By.ID, "status").text
        assert status.startswith(f"{chosen['id']}:"), (slow["id"], status)
        assert browser.execute_script("return window.mazzoViewer.frames()") == (
            len(chosen["moves"]) + 1
        )
    finally:
        browser.execute_script("window.fetch = window.mazzoPlainFetch")
    assert not errors(browser)


#: Run before the page's own script: its first fetch of the served file's list answers
#: a second late.
SLOW_LIST = """
const plain = window.fetch;
window.fetch = (url, init) => String(url) !== 'records' ? plain(url, init)
  : new Promise(r => setTimeout(r, 1000)).then(() => plain(url, init))
      .then(reply => { window.mazzoListAnswered = true; return reply; });
"""


def test_a_file_opened_in_the_page_is_not_replaced_by_the_served_files_late_list(
    browser: webdriver.Chrome,
    view_server: str,
    records: list[Any],
    tmp_path: Path,
) -> None:
    mine = records[-2:]
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in mine), encoding="utf-8")
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_LIST})
    try:
        browser.get(view_server)
        browser.find_element(By.ID, "file").send_keys(str(path))
        WebDriverWait(browser, 30, 0.05).until(
            lambda d: d.execute_script("return window.mazzoListAnswered === true")
        )
        time.sleep(0.3)  # the late list read and handled (or dropped)
        WebDriverWait(browser, 30).until(  # a match shown
            lambda d: " players, " in d.find_element(By.ID, "status").text
        )
        assert browser.find_element(By.ID, "status").text.startswith(f"{mine[0]['id']}:")
        options = Select(browser.find_element(By.ID, "match")).options
        assert [o.text.split(":")[0] for o in options[1:]] == [r["id"] for r in mine]
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )
        browser.get("about:blank")  # the next test loads the page afresh
    assert not errors(browser)


@pytest.mark.parametrize("rid", ["maraffa-4", "burraco-2", "ramino-2"])
@pytest.mark.slow
def test_a_whole_match_step_by_step_shows_the_rules_hands_and_scores(
    browser: webdriver.Chrome, view_server: str, records: list[Any], rid: str
) -> None:
    record = next(r for r in records if r["id"] == rid)
    expected = truth(record)
    open_match(browser, view_server, records, rid)
    keys = ActionChains(browser)
    ends = {}  # ply that ended a hand -> the match score then
    for ply, now in enumerate(expected):
        if ply and any(
            "handScored" in str(e) or "handEnded" in str(e)
            for e in record["moves"][ply - 1]["events"]
        ):
            ends[ply] = now["score"]
    by_keys = record["game"] == "maraffa"  # the keyboard once; then one call a move
    for ply, now in enumerate(expected):
        hands, score = now["hands"], now["score"]
        if ply and by_keys:
            keys.send_keys(Keys.ARROW_RIGHT).perform()
        shown = snapshot(browser) if by_keys else snapshot(browser, "go", ply)
        assert shown["index"] == ply
        assert shown["seats"][: len(hands)] == hands, (rid, ply)
        assert shown["rows"][-1] == score, (rid, ply)  # the score now
        if ply in ends:
            assert shown["rows"][-2] == ends[ply], (rid, ply)  # the row of the hand just scored
    assert len(ends) >= 1
    # back by hands and by moves with the keyboard
    keys.send_keys(Keys.ARROW_UP).perform()
    assert snapshot(browser)["index"] < len(expected) - 1
    keys.send_keys(Keys.HOME).perform()
    assert snapshot(browser)["index"] == 0
    assert not errors(browser)


@pytest.mark.parametrize("rid", ["maraffa-3", "burraco-4", "ramino-3", "maraffa-5"])
def test_a_seats_perspective_shows_no_card_its_view_hides(
    browser: webdriver.Chrome, view_server: str, records: list[Any], rid: str
) -> None:
    record = next(r for r in records if r["id"] == rid)
    expected = truth(record)
    open_match(browser, view_server, records, rid)
    choices = Select(browser.find_element(By.ID, "perspective")).options
    assert [o.get_attribute("value") for o in choices] == [
        "all",
        *map(str, expected[0]["deciding"]),
    ]
    step = max(1, len(expected) // 6)
    for ply in [*range(0, len(expected), step), len(expected) - 1]:
        browser.execute_script(f"window.mazzoViewer.go({ply})")
        for seat in expected[ply]["deciding"]:
            shown = snapshot(browser, "seat", seat)
            assert shown["index"] == ply and shown["perspective"] == str(seat)
            view_cards = expected[ply]["views"][seat]
            extra = Counter(shown["faces"]) - view_cards
            assert not extra, (rid, ply, seat, extra)
            own = shown["seats"][seat]
            if expected[ply]["hidden"][seat]:  # a hand its seat may not look at yet
                assert own is None
            else:
                assert own == expected[ply]["hands"][seat]
        assert snapshot(browser, "seat", "all")["perspective"] == "all"
    assert not errors(browser)


@pytest.fixture(scope="module")
def service_http() -> Iterator[str]:
    """``mazzo serve``'s servers (gRPC and HTTP) on port 0, in a thread of their own:
    the HTTP port's base URL."""
    from mazzo.service.server import start_server, stop_server

    started: queue.Queue[str] = queue.Queue()
    done = threading.Event()

    async def run() -> None:
        running, _ = await start_server("127.0.0.1", 0, http_port=0, http_routes=service_routes())
        started.put(f"http://127.0.0.1:{running.http_port}")
        while not done.is_set():
            await asyncio.sleep(0.05)
        await stop_server(running, grace=0.5, quiet=0)

    thread = threading.Thread(target=asyncio.run, args=(run(),), daemon=True)
    thread.start()
    try:
        yield started.get(timeout=60)
    finally:
        done.set()
        thread.join(10)


def test_the_service_port_opens_a_file_from_the_users_machine(
    browser: webdriver.Chrome, service_http: str, records_file: Path, records: list[Any]
) -> None:
    browser.get(service_http + "/viewer")  # redirected to /viewer/
    browser.find_element(By.ID, "file").send_keys(str(records_file))
    first = records[0]
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "status").text.startswith(f"{first['id']}:")
    )
    assert len(Select(browser.find_element(By.ID, "match")).options) == len(records) + 1
    shown = snapshot(browser, "go", 5)
    assert shown["seats"] == truth(first)[5]["hands"]
    # a match the rules refuse is refused in words, not drawn
    browser.execute_script(
        "window.mazzoViewer.post(JSON.stringify({mazzo_record: 1, game: 'scopa'}))"
    )
    WebDriverWait(browser, 30).until(
        lambda d: "refused: record.game" in d.find_element(By.ID, "status").text
    )
    assert not [e for e in errors(browser) if "/viewer/frames" not in e["message"]]


def test_play_at_a_chosen_speed_pause_and_jump(
    browser: webdriver.Chrome, view_server: str, records: list[Any]
) -> None:
    open_match(browser, view_server, records, "maraffa-2")
    Select(browser.find_element(By.ID, "speed")).select_by_value("80")
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 20, 0.05).until(lambda d: snapshot(d)["index"] >= 4)
    browser.find_element(By.ID, "play").click()  # pause
    paused = snapshot(browser)["index"]
    assert browser.find_element(By.ID, "play").text == "Play"
    time.sleep(0.3)  # several ticks of the chosen speed
    assert snapshot(browser)["index"] == paused
    box = browser.find_element(By.ID, "move")  # jump by typing a move's number
    box.clear()
    box.send_keys("40", Keys.ENTER)
    assert snapshot(browser)["index"] == 40
    browser.find_element(By.ID, "hand-next").click()
    record = next(r for r in records if r["id"] == "maraffa-2")
    later = [k for k in frames_of(record)["handStarts"] if k > 40] or [len(record["moves"])]
    assert snapshot(browser)["index"] == later[0]
    assert not errors(browser)
