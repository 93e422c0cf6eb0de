"""A person plays Burraco and Ramino in headless Chromium by picking cards
(``rummy.js``): ``mazzo match --bot human`` against a ``builtin:heuristic`` bot,
a whole hand each, short and fixed by its seed.

The scripted person plays what ``builtin:heuristic`` would play from the same decision
(the page's own stream), so the match runs as a known one: in Burraco it picks the
cards of its melds and lay-offs in the hand, chooses the meld to lay off onto, draws
and picks up the discard pile; in Ramino it bets and closes. After every card picked
the page offers exactly the service's legal moves that use the cards picked (worked
out here from the decision, by ``viewer.picks``); after every move the page shows what
the service says: the move in the log in its words, and the hand drawn from the seat's
view with the cards put down gone (or the pile taken in). Privacy as for the other
games (``test_play_browser.check_privacy``). Screenshots, phone and desktop, of cards
picked with their moves offered.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import pytest
from google.protobuf import json_format
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.players.builtins import heuristic_for
from mazzo.referee.records import read_records, to_json
from mazzo.v1 import bot_pb2
from mazzo.viewer.picks import move_parts
from mazzo.viewer.texts import move_text
from tests.viewer.chromium import shoot
from tests.viewer.people import press_move
from tests.viewer.test_browser import errors
from tests.viewer.test_play_browser import browser, check_privacy, person_at, received

__all__ = ["browser"]  # the shared browser fixture

#: What the picking page shows, read in one call: the hand to pick from (position,
#: card, picked, enabled), the moves offered (index, words, meld or None, key or
#: None), the melds (id, cards), the hint, the log, the board's hand.
LOOK = """
const mine = document.querySelector('#board .seat.viewer .hand');
const key = b => (b.getAttribute('aria-label').match(/^(\\d): /) ?? [null, null])[1];
return {
  state: document.body.dataset.state,
  picking: !!document.querySelector('#moves .picking'),
  picks: [...document.querySelectorAll('#moves .pick')].map(b => [
    Number(b.dataset.pos), b.dataset.card, b.getAttribute('aria-pressed') === 'true',
    b.getAttribute('aria-disabled') !== 'true']),
  moves: [...document.querySelectorAll('#moves button.move')].map(b => [
    Number(b.dataset.index), b.title, b.dataset.meld === undefined ? null : Number(b.dataset.meld),
    key(b)]),
  melds: [...document.querySelectorAll('#moves .pick-melds [data-meld]')].map(m => [
    Number(m.dataset.meld), [...m.querySelectorAll('[data-card]')].map(c => c.dataset.card)]),
  hint: document.querySelector('#moves .pick-hint')?.textContent ?? '',
  notes: document.querySelector('#moves .pick-notes')?.textContent ?? '',
  hand: mine ? [...mine.querySelectorAll('[data-card]')].map(c => c.dataset.card) : null,
  viewer: mine ? Number(mine.closest('.seat').dataset.seat) : null,
  log: [...document.querySelectorAll('#log li')].map(li => li.textContent),
  decisions: window.mazzoPlay.decisions.filter(d => d.includes('"decision"')).length,
};
"""


def look(driver: webdriver.Chrome) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(LOOK)
    return found


def _cards(field: list[str] | None) -> list[str]:
    return [c.removeprefix("CARD_") for c in field or []]


class Person:
    """The scripted person at ``seat``, on the page ``driver`` shows: each decision
    answered as ``builtin:heuristic`` would answer it, by picking and clicking."""

    def __init__(self, driver: webdriver.Chrome, game: str, name: str, shots: bool = True) -> None:
        self.driver, self.game, self.name = driver, game, name
        self.shots = shots  # screenshots of the first meld, lay-off and close
        self.asked = 0  # decisions the page had when the person last moved
        self.played: list[str] = []  # the moves made, in the service's words
        self.kinds: Counter[str] = Counter()
        self.keyed = 0
        self.shot: set[str] = set()
        self.pozzetti: list[int] = []  # the hand's size after each pozzetto taken

    def decision(self) -> bot_pb2.ActRequest:
        """The page's last decision, as the service sent it."""
        lines = self.driver.execute_script("return window.mazzoPlay.decisions")
        last = json.loads(next(x for x in reversed(lines) if '"decision"' in x))
        return json_format.ParseDict(last["decision"]["request"], bot_pb2.ActRequest())

    def wait_for_turn(self) -> dict[str, Any]:
        def ready(d: webdriver.Chrome) -> dict[str, Any] | Literal[False]:
            seen = look(d)
            deciding = seen["state"] == "deciding" and seen["decisions"] > self.asked
            return seen if seen["state"] == "over" or deciding else False

        found: dict[str, Any] = WebDriverWait(self.driver, 30, 0.02).until(ready)
        return found

    def offered(self, request: bot_pb2.ActRequest, picked: list[str]) -> set[int]:
        """The service's legal moves the page should offer with ``picked``: those that
        use exactly those cards, and those that use none."""
        out = set()
        for index, legal in enumerate(request.legal_moves):
            uses = move_parts(to_json(legal), self.game)["uses"]
            if not uses or Counter(uses) == Counter(picked):
                out.add(index)
        return out

    def shown(self, seen: dict[str, Any]) -> set[int]:
        return {m[0] for m in seen["moves"]}

    def move(self, turn: int) -> None:
        """One decision: the heuristic's move, made on the page, then checked."""
        seen = self.wait_for_turn()
        request = self.decision()
        self.asked = seen["decisions"]
        view = to_json(request.view)[self.game]
        hand = _cards(view.get("hand"))
        # The hand to pick from and the board are the seat's view (a hand not to be seen
        # yet: neither shows a card); nothing is picked.
        assert [p[1] for p in seen["picks"]] == hand and (seen["hand"] or []) == hand, seen
        assert not any(p[2] for p in seen["picks"])
        melds = [[int(m.get("id", 0)), _cards(m.get("cards"))] for m in view.get("melds", [])]
        assert seen["melds"] == melds
        assert self.shown(seen) == self.offered(request, [])
        # Burraco's pozzetti, as the view has them.
        for k, pozzetto in enumerate(view.get("pozzetti", [])):
            taken = pozzetto.get("takenBy")
            said = f"taken by seat {taken}" if taken is not None else f"{pozzetto['size']} cards"
            assert f"pozzetto {k + 1}: {said}" in seen["notes"], (pozzetto, seen["notes"])
        policy = heuristic_for(self.game)
        assert policy is not None
        index = policy(request).index
        wire = to_json(request.legal_moves[index])
        parts = move_parts(wire, self.game)
        # Pick the move's cards, one by one (every third by the keyboard's space bar).
        picked: list[str] = []
        for code in parts["uses"]:
            pos = next(p[0] for p in seen["picks"] if p[1] == code and not p[2])
            assert next(p for p in seen["picks"] if p[0] == pos)[3], (code, "disabled")
            if len(picked) % 3 == 2:
                self.key_to(pos)
            else:
                self.driver.find_element(By.CSS_SELECTOR, f'#moves .pick[data-pos="{pos}"]').click()
            picked.append(code)
            seen = look(self.driver)
            assert sorted(p[1] for p in seen["picks"] if p[2]) == sorted(picked)
            assert self.shown(seen) == self.offered(request, picked), (picked, seen["moves"])
        kind = parts["kind"]
        if self.shots and kind in ("meld", "layOff", "close") and kind not in self.shot:
            self.shot.add(kind)
            shoot(self.driver, f"{self.name}-{kind}")
        offer = next(m for m in seen["moves"] if m[0] == index)
        words = offer[1]
        assert words == move_text(wire)  # the service's words for the move
        if kind == "layOff":  # chosen on its meld
            assert offer[2] == parts["onto"]
        if turn % 3 == 1 and offer[3] is not None:
            self.driver.find_element(By.TAG_NAME, "body").send_keys(offer[3])
            self.keyed += 1
        else:
            press_move(self.driver, index, "#moves ")
        self.played.append(words)
        self.kinds[kind] += 1
        self.check_after(request.seat, words, kind, hand, parts["uses"], view)

    def key_to(self, pos: int) -> None:
        """Pick the card at ``pos`` by the keyboard: the arrows to it, then Enter."""
        keys = ActionChains(self.driver)
        for _ in range(80):
            at = self.driver.execute_script("return document.activeElement.dataset.pos ?? null")
            if at == str(pos):
                break
            back = at is not None and int(at) > pos
            keys.send_keys(Keys.ARROW_LEFT if back else Keys.ARROW_RIGHT).perform()
        else:
            raise AssertionError(f"the arrows never reach the card at {pos}")
        keys.send_keys(Keys.ENTER).perform()
        self.keyed += 1

    def check_after(
        self,
        seat: int,
        words: str,
        kind: str,
        hand: list[str],
        uses: list[str],
        view: dict[str, Any],
    ) -> None:
        """The move is in the log in the service's words; the hand drawn from the
        seat's view lost the cards put down, or gained the pile, or a card drawn."""

        def logged(d: webdriver.Chrome) -> dict[str, Any] | Literal[False]:
            seen = look(d)
            own = [line for line in seen["log"] if line.startswith("you ")]
            return seen if len(own) == len(self.played) else False

        seen: dict[str, Any] = WebDriverWait(self.driver, 10, 0.02).until(logged)
        own = [line for line in seen["log"] if line.startswith("you ")]
        assert own[-1].startswith(f"you (seat {seat}) {words}"), (own[-1], words)
        if seen["state"] == "over" or "closes" in own[-1] or seen["viewer"] != seat:
            return  # the hand's cards are all shown, or the board is the other seat's
        if "takes pozzetto" in own[-1]:  # the hand emptied: the pozzetto is the hand now
            self.pozzetti.append(len(seen["hand"]))
            return
        now = Counter(seen["hand"])
        before = Counter(hand)
        if kind == "draw":
            assert not before - now and sum(now.values()) == len(hand) + 1
        elif kind in ("pickUp", "takeDiscard"):
            pile = _cards(view.get("discardPile") or view.get("pile"))
            taken = pile if kind == "pickUp" else pile[-1:]
            assert now == before + Counter(taken), (now, before, taken)
        elif uses:
            assert now == before - Counter(uses), (now, before, uses)

    def play_through(self, url: str) -> None:
        self.driver.get(url)
        turn = 0
        while self.wait_for_turn()["state"] != "over":
            self.move(turn)
            turn += 1
        assert "the match is over" in self.driver.find_element(By.ID, "status").text


def _check_record(records_path: Path, person: Person) -> dict[str, Any]:
    """The record: the person's moves as made on the page, no fault; the privacy of
    everything the page received."""
    WebDriverWait(person.driver, 30, 0.1).until(
        lambda d: records_path.exists() and read_records(records_path)
    )
    (record,) = read_records(records_path)
    assert not record["faults"], record["faults"]
    seats = [s for s, bot in enumerate(record["seat_bots"]) if bot == "human"]
    own = [m for m in record["moves"] if m["seat"] in seats]
    assert len(own) == len(person.played)
    kinds = Counter(next(iter(m["move"][person.game])) for m in own)
    assert kinds == person.kinds
    decisions, feed = received(person.driver)
    check_privacy(record, decisions, feed)
    assert not errors(person.driver)
    return record


#: Burraco's forms, each a seed of a short hand in which the heuristic, at seat 0 (the
#: person, the others bots), picks up the pile, opens melds and lays off; for two,
#: it also empties its hand and takes its pozzetto, and closes. "4-side": the person
#: plays both seats of side 0 (one --bot a side), a bot both of side 1.
BURRACO = [(2, 228, "2"), (3, 130, "3"), (4, 64, "4"), (4, 38, "4-side")]


@pytest.mark.parametrize(
    ("players", "seed", "form"), BURRACO, ids=[f"burraco-{f}" for *_, f in BURRACO]
)
def test_a_person_melds_lays_off_and_picks_up_the_pile_in_burraco(
    browser: webdriver.Chrome, tmp_path: Path, players: int, seed: int, form: str
) -> None:
    options = [f"players={players}", "hands=1"]
    bots = ["builtin:heuristic"] * (1 if form == "4-side" else players - 1)
    started = time.monotonic()
    with person_at(tmp_path, "burraco", bots, options, seed=seed) as found:
        url, records_path = found
        person = Person(browser, "burraco", f"play-burraco-{form}", shots=form in ("2", "4"))
        person.play_through(url)
    record = _check_record(records_path, person)
    assert person.kinds["meld"] >= 1 and person.kinds["pickUp"] >= 1, person.kinds
    assert person.kinds["layOff"] >= 1 and person.keyed >= 2, person.kinds
    if players == 2:  # the pozzetto (eleven cards) became the hand; seat 0 closed
        assert person.pozzetti == [11], person.pozzetti
        assert record["moves"][-1]["seat"] == 0
    seconds = time.monotonic() - started
    print(f"Burraco {form} by picking: {len(person.played)} moves in {seconds:.1f} s")


def test_a_person_bets_and_closes_in_ramino(browser: webdriver.Chrome, tmp_path: Path) -> None:
    # Seed 109: seat 0 opens the betting and closes within a few turns.
    options = ["players=2", "match_hands=1"]
    started = time.monotonic()
    with person_at(tmp_path, "ramino", ["builtin:heuristic"], options, seed=109) as found:
        url, records_path = found
        person = Person(browser, "ramino", "play-ramino-2")
        person.play_through(url)
    record = _check_record(records_path, person)
    assert person.kinds["openBid"] == 1 and person.kinds["close"] == 1, person.kinds
    assert record["moves"][-1]["seat"] == 0 and "close" in record["moves"][-1]["move"]["ramino"]
    print(f"Ramino by picking: {len(person.played)} moves in {time.monotonic() - started:.1f} s")
