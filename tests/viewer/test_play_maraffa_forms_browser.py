"""Maraffa's forms as a person plays them, in a real headless Chromium: Trionfo for five
(the auction, the declaration of trumps with a called card, the secret partner), the
3-player form with a dummy (the person plays for it) and the 2-player form with a
stock. A scripted person clicks through a whole deal against builtin bots; after each
click the page shows what the service says (the seat's feed: its own ``GetView``
drawn), and nothing it received names a card hidden from its seat
(``check_privacy``, the record played again). Screenshots of each table, phone and
desktop, to ``$MAZZO_ARTIFACTS/viewer``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.referee.records import read_records
from tests.viewer.chromium import shoot
from tests.viewer.people import press_move
from tests.viewer.test_browser import browser, errors
from tests.viewer.test_play_browser import (
    check_privacy,
    choose,
    look,
    mine,
    person_at,
    ready,
    received,
)

__all__ = ["browser"]  # the module's browser fixture, shared

#: The dummy's seat in the 3-player form (the default), played by seat 0, the person.
DUMMY = 2

#: The form's panel as the page shows it: its form, each fact by its key, the speeches
#: of the auction, the suit buttons of a declaration.
PANEL = """
const box = document.getElementById('form');
const facts = {};
for (const row of box.querySelectorAll('[data-fact]')) facts[row.dataset.fact] = row.textContent;
return {
  hidden: box.hidden,
  form: box.dataset.form ?? null,
  facts,
  called: box.querySelector('.called [data-card], .called')?.dataset.card ?? null,
  speeches: [...box.querySelectorAll('.speeches li[data-seat]')].map(
    li => [Number(li.dataset.seat), li.dataset.speech]),
  suits: [...document.querySelectorAll('#moves button.suit')].map(b => b.dataset.suit),
};
"""


#: Each seat's hand on the board: the cards, or None for a hand shown face down.
HANDS = """
const out = {};
for (const seat of document.querySelectorAll('#board section.seat')) {
  const hand = seat.querySelector('.hand');
  const cards = hand ? hand.querySelectorAll('[data-card]') : null;
  out[seat.dataset.seat] = cards ? [...cards].map(c => c.dataset.card) : null;
}
return out;
"""


def hands(driver: webdriver.Chrome) -> dict[int, list[str] | None]:
    found: dict[str, list[str] | None] = driver.execute_script(HANDS)
    return {int(seat): cards for seat, cards in found.items()}


def panel(driver: webdriver.Chrome) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(PANEL)
    return found


#: The last line of the seat's feed that is a table (a deal or a move), as received.
LAST_TABLE = """
const feed = window.mazzoPlay.feed;
for (let i = feed.length - 1; i >= 0; i--) {
  const line = JSON.parse(feed[i]);
  if (line.type === 'deal' || line.type === 'move') return line.form ?? null;
}
return null;
"""


def last_form(driver: webdriver.Chrome) -> dict[str, Any] | None:
    """The form of the last table of the seat's feed: what the service said last."""
    found: dict[str, Any] | None = driver.execute_script(LAST_TABLE)
    return found


def speeches_of(record: dict[str, Any]) -> list[tuple[int, str]]:
    """The auction of the record's first deal: (seat, speech) as the page words them."""
    out = []
    for entry in record["moves"]:
        move = entry["move"]["maraffa"]
        if "bid" in move:
            contract = move["bid"]["contract"].removeprefix("MARAFFA_CONTRACT_")
            out.append((entry["seat"], contract.lower().replace("_", " ")))
        elif "passBid" in move:
            out.append((entry["seat"], "pass"))
        elif "declareTrump" in move:
            break
    return out


def click_through(
    driver: webdriver.Chrome, url: str, name: str, bid: str | None = None
) -> tuple[int, list[dict[str, Any]], int]:
    """A scripted person plays the whole match: in an auction it bids ``bid`` once when
    it may, and passes after; a declaration with a called card is made by suit, then by
    card (the first of each); cards as ``choose`` picks them. After each click the
    page's panel shows the service's form (the feed's last line) and the log the move.
    When it plays for a dummy, the page shows the dummy's hand (its moves' cards) and
    its own. The number of clicks, the panels seen after each, the dummy's turns."""
    driver.get(url)
    clicks = 0
    bid_made = False
    dummy_turns = 0
    seen_panels: list[dict[str, Any]] = []
    while True:
        WebDriverWait(driver, 30, 0.02).until(lambda d: deciding(d))
        seen = look(driver)
        if seen["state"] == "over":
            break
        if clicks == 2:
            shoot(driver, name)
        now = panel(driver)
        moves = seen["moves"]
        if "for-dummy" in now["facts"]:  # the dummy's cards to play, the person's own shown
            dummy_turns += 1
            shown = hands(driver)
            dummy, own = shown[DUMMY], shown[0]
            assert dummy is not None and own is not None, shown
            assert {m[1] for m in moves if m[1]} <= set(dummy) and not set(dummy) & set(own)
        if now["suits"]:  # trumps and a called card: the suit first, then the card
            driver.find_element(
                By.CSS_SELECTOR, f'#moves button.suit[data-suit="{now["suits"][0]}"]'
            ).click()
            WebDriverWait(driver, 5, 0.02).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, ".called-moves button.move")
            )
            if clicks < 6:
                shoot(driver, f"{name}-calling")
            moves = look(driver)["moves"]
            called = [m for m in moves if m[1] is not None]
            pick = called[0]
        else:
            speech = [m for m in moves if m[2].startswith("bids ") or m[2] == "passes"]
            if speech:
                wanted = [m for m in speech if m[2] == f"bids {bid}"]
                pick = (
                    wanted[0]
                    if wanted and not bid_made
                    else next(m for m in speech if m[2] == "passes")
                )
                bid_made = bid_made or pick[2].startswith("bids ")
            else:
                pick = choose(moves, clicks)
        press_move(driver, pick[0])
        clicks += 1
        WebDriverWait(driver, 10, 0.02).until(made(clicks))
        # The page shows what the service says: the panel is the feed's last form.
        WebDriverWait(driver, 10, 0.02).until(lambda d: agrees(panel(d), last_form(d), look(d)))
        seen_panels.append(panel(driver))
    assert "the match is over" in look(driver)["status"]
    return clicks, seen_panels, dummy_turns


def made(clicks: int) -> Callable[[webdriver.Chrome], bool]:
    """The page's log shows the person's ``clicks`` moves."""
    return lambda driver: mine(driver) == clicks


def deciding(driver: webdriver.Chrome) -> bool:
    """``ready``, or a declaration's suits to choose from (its moves come after)."""
    return ready(look(driver)) or bool(panel(driver)["suits"])


def agrees(shown: dict[str, Any], form: dict[str, Any] | None, page: dict[str, Any]) -> bool:
    """The panel says what ``form`` (the service's) says; while the person decides, the
    decision's own form is shown (the same view, a move later), so only the waiting
    page is compared."""
    if page["state"] != "waiting" or form is None:
        return True
    if form["form"] != shown["form"]:
        return False
    if form["form"] == "trionfo":
        auction = form["auction"]
        said = [[s["seat"], s["speech"]] for s in auction["speeches"]]
        if shown["speeches"] != said:
            return False
        if auction["calledCard"] != shown["called"]:
            return False
        amico = shown["facts"].get("amico", "")
        if auction["calledCard"] and (auction["amico"] is None) != ("secret" in amico):
            return False
    if form["form"] == "stock":
        return f"{form['stock']['size']} card" in shown["facts"].get("stock", "")
    if form["form"] == "dummy":
        return f"seat {form['dummy']['seat']}" in shown["facts"].get("dummy", "")
    return True


def without_calls(message: dict[str, Any]) -> dict[str, Any]:
    """A decision without the cards a CHIAMO's declaration may call: under each suit every
    card of another suit (A.4.1), the same 30 whatever was dealt, so they tell nothing
    (checked here) and are left out of the privacy check, which would take them for
    hidden cards named."""
    legal = message.get("decision", {}).get("request", {}).get("legalMoves", [])
    calls = [m["maraffa"]["declareTrump"] for m in legal if "declareTrump" in m.get("maraffa", {})]
    if not any("calledCard" in c for c in calls):
        return message
    by_suit: dict[str, set[str]] = {}
    for call in calls:
        by_suit.setdefault(call.get("suit", ""), set()).add(call["calledCard"])
    for suit, called in by_suit.items():
        assert len(called) == 30 and not any(c.endswith(suit[5]) for c in called), suit
    assert len(calls) == 120
    stripped: dict[str, Any] = json.loads(json.dumps(message))
    for move in stripped["decision"]["request"]["legalMoves"]:
        move.get("maraffa", {}).get("declareTrump", {}).pop("calledCard", None)
    return stripped


def test_a_person_bids_calls_a_partner_and_plays_a_trionfo_deal(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    started = time.monotonic()
    bots = ["builtin:heuristic"] * 4
    with person_at(tmp_path, "maraffa", bots, ["players=5", "match_deals=1"], seed=7) as (
        url,
        path,
    ):
        clicks, panels, _ = click_through(browser, url, "play-trionfo-5", bid="chiamo")
    (record,) = read_records(path)
    assert not record["faults"], record["faults"]
    own = [m for m in record["moves"] if m["seat"] == 0]
    assert len(own) == clicks
    # The auction as the record has it, on the page once it was over; the person bid.
    auction = speeches_of(record)
    assert (0, "chiamo") in auction
    final = [p for p in panels if p["form"] == "trionfo" and p["facts"].get("contract")]
    assert final and [tuple(s) for s in final[-1]["speeches"]] == auction
    # The called card: the one declared, and the partner secret, then shown.
    declared = next(
        m["move"]["maraffa"]["declareTrump"]
        for m in record["moves"]
        if "declareTrump" in m["move"]["maraffa"]
    )
    assert declared.get("calledCard"), declared
    calling = [p for p in final if p["called"] is not None]
    assert {p["called"] for p in calling} == {declared["calledCard"].removeprefix("CARD_")}
    # The service kept the partner secret from the person until the called card was
    # played (the feed: its seat's views), and the page showed it then.
    called_at = next(
        k + 1
        for k, m in enumerate(record["moves"])
        if m["move"]["maraffa"].get("playCard", {}).get("card") == declared["calledCard"]
    )
    amico = record["moves"][called_at - 1]["seat"]
    _, feed = received(browser)
    known = [
        (line["ply"], line["form"]["auction"]["amico"])
        for line in feed
        if line.get("type") == "move" and line["form"]["auction"]["calledCard"]
    ]
    assert known and all((a is None) == (ply < called_at) for ply, a in known), known
    assert {a for _, a in known if a is not None} == {amico}
    assert calling[-1]["facts"]["amico"].endswith(
        f"seat {amico}" + (" (you)" if amico == 0 else "")
    )
    decisions, feed = received(browser)
    check_privacy(record, [without_calls(d) for d in decisions], feed)
    assert not errors(browser)
    declarer = next(m["seat"] for m in record["moves"] if "declareTrump" in m["move"]["maraffa"])
    print(
        f"Trionfo, a whole deal (declarer seat {declarer}): {clicks} clicks in "
        f"{time.monotonic() - started:.1f} s"
    )


def test_a_person_plays_for_the_dummy_at_a_table_of_three(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    started = time.monotonic()
    with person_at(tmp_path, "maraffa", ["builtin:random"] * 2, ["players=3", "target=1"]) as (
        url,
        path,
    ):
        clicks, panels, dummy_turns = click_through(browser, url, "play-maraffa-3")
    (record,) = read_records(path)
    assert not record["faults"], record["faults"]
    assert record["seat_bots"][0] == record["seat_bots"][DUMMY] == "human"
    # The person played its own ten cards and the dummy's ten, each when asked.
    own = [m for m in record["moves"] if m["seat"] in (0, DUMMY)]
    assert len(own) == clicks and dummy_turns == 10
    assert all(p["form"] == "dummy" for p in panels)
    decisions, feed = received(browser)
    check_privacy(record, decisions, feed)
    assert not errors(browser)
    print(f"3 players, the dummy: {clicks} clicks in {time.monotonic() - started:.1f} s")


def test_a_person_plays_a_two_player_hand_with_the_stock(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    started = time.monotonic()
    with person_at(tmp_path, "maraffa", ["builtin:random"], ["players=2", "target=1"]) as (
        url,
        path,
    ):
        clicks, panels, _ = click_through(browser, url, "play-maraffa-2")
    (record,) = read_records(path)
    assert not record["faults"], record["faults"]
    assert len([m for m in record["moves"] if m["seat"] == 0]) == clicks
    # The stock as the page said it after each move: it only shrinks, to nothing, and
    # the cards drawn (public) were shown.
    sizes = [int(p["facts"]["stock"].split()[1]) for p in panels if "stock" in p["facts"]]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > 0 and sizes[-1] == 0, sizes
    assert any("drawn" in p["facts"] for p in panels)
    decisions, feed = received(browser)
    check_privacy(record, decisions, feed)
    assert not errors(browser)
    print(f"2 players, the stock: {clicks} clicks in {time.monotonic() - started:.1f} s")
