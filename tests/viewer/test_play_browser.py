"""A person at the table, in a real headless Chromium: ``mazzo match --bot human`` and
three ``builtin:random`` bots play a whole 4-player Maraffa hand (the target is one
point, so one hand ends the match), the person's moves made by clicking (every third
with the keyboard) on the page whose address the command printed. After every move
the page shows what the service says: the card leaves the hand drawn from the seat's
own view, the move is in the log in the service's words, and the seat's feed showed
it on the table. Privacy: every decision and every feed line the page received holds
no card hidden from the seat (its ``GetView``) at that move, checked against the
record played again. Screenshots, desktop and phone, to ``$MAZZO_ARTIFACTS/viewer``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.games.registry import CODECS, rules_for
from mazzo.referee.records import read_records, to_json
from mazzo.referee.replay import replay
from mazzo.v1 import game_pb2
from tests.viewer.chromium import shoot
from tests.viewer.live_privacy import _mentions
from tests.viewer.people import person_run, press_move
from tests.viewer.test_browser import browser, errors

__all__ = ["browser"]  # the module's browser fixture, shared

ROOT = Path(__file__).resolve().parents[2]
_CARD = re.compile(r"CARD_([0-9A-Z]{2})")
#: The person's seat: the first --bot.
SEAT = 0
#: The Maraffa match's target: enough hands for 30 clicks and more after the reload.
TARGET = 26
#: The issue's bound on click to the bots' answers shown (loopback, builtin bots), ms,
#: on a machine not busier than its cores; on a busier one (the whole suite on two
#: cores: load average 10, p95 about 300 ms) only a loose bound is checked.
P95_MS = 150
P95_BUSY_MS = 1000

#: What the page shows, read in one call: its state, the person's hand on the board,
#: the legal moves (index, card or None, words, its key or None), the log's lines.
LOOK = """
const mine = document.querySelector('#board .seat.viewer .hand');
return {
  state: document.body.dataset.state,
  hand: mine ? [...mine.querySelectorAll('[data-card]')].map(c => c.dataset.card) : null,
  moves: [...document.querySelectorAll('#moves button.move')].map(b => [
    Number(b.dataset.index), b.dataset.card ?? null, b.title,
    (b.getAttribute('aria-label').match(/^(\\d): /) ?? [null, null])[1]]),
  log: [...document.querySelectorAll('#log li')].map(li => li.textContent),
  status: document.getElementById('status').textContent,
  answers: window.mazzoPlay.answers,
};
"""


def option_args(option: str) -> tuple[str, ...]:
    """``players=N`` is ``--players N``; any other ``NAME=VALUE`` is ``--option``."""
    name, _, value = option.partition("=")
    return ("--players", value) if name == "players" else ("--option", option)


@contextlib.contextmanager
def person_at(
    folder: Path, game: str, bots: list[str], options: list[str], seed: int = 3
) -> Iterator[tuple[str, Path]]:
    """``mazzo match --bot human`` against ``bots``: the page's address (as printed,
    the token in its fragment) and the records file."""
    records = folder / "play.jsonl"
    args = [
        *("match", "--game", game, "--bot", "human"),
        *[arg for bot in bots for arg in ("--bot", bot)],
        *[arg for option in options for arg in option_args(option)],
        *("--seed", str(seed), "--records", str(records)),
    ]
    with person_run(args, "human") as (_process, url):
        yield url, records


@pytest.fixture
def person(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A person and three random bots at a 4-player Maraffa table, to 26 points: some
    four or five hands, forty clicks and more, for the latency's 95th percentile."""
    with person_at(tmp_path, "maraffa", ["builtin:random"] * 3, [f"target={TARGET}"]) as found:
        yield found


def look(driver: webdriver.Chrome) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(LOOK)
    return found


def received(driver: webdriver.Chrome) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The decisions' stream and the feed, every line as the page got it."""
    got = driver.execute_script("return window.mazzoPlay")
    return [json.loads(x) for x in got["decisions"]], [json.loads(x) for x in got["feed"]]


def hidden_from(record: dict[str, Any], seat: int) -> list[set[str]]:
    """Per ply (0: the deal), the cards in some hand that ``seat``'s GetView does not
    show: played again from the record, apart from how the server draws tables."""
    game = record["game"]
    rules, codec = rules_for(game), CODECS[game]
    out: list[set[str]] = []

    def visit(ply: int, state: Any, move: Any, events: Any) -> None:
        wire = game_pb2.GameState()
        codec.state_to_wire(state, 0 if rules.finished(state) else rules.to_act(state), wire)
        in_hands = set(_CARD.findall(json.dumps(to_json(wire).get(game, {}).get("hands", []))))
        view = game_pb2.GameView()
        codec.view_to_wire(rules.view(state, seat), view)
        out.append(in_hands - set(_CARD.findall(json.dumps(to_json(view)))))

    done = replay(record, visit)
    assert done.divergence is None, done.divergence
    return out


def mine(driver: webdriver.Chrome) -> int:
    """How many of the person's moves the page's log shows."""
    return sum(1 for line in look(driver)["log"] if line.startswith("you "))


def ready(seen: dict[str, Any]) -> bool:
    """The person has moves to choose from, or the match is over."""
    return seen["state"] == "over" or (seen["state"] == "deciding" and bool(seen["moves"]))


def choose(moves: list[list[Any]], turn: int) -> list[Any]:
    """A card when there is one to play (turn by turn another), else the first move
    that is not a claim (a false claim ends the game)."""
    cards = [m for m in moves if m[1] is not None]
    if cards:
        return cards[turn % len(cards)]
    return next(m for m in moves if not m[2].startswith("claims"))


def play_by_clicking(
    driver: webdriver.Chrome,
    url: str,
    name: str,
    refills: bool = False,
    reload_at: int | None = None,
) -> tuple[list[str], int, list[dict[str, Any]]]:
    """A scripted person plays the whole match on the page: each move by clicking its
    card or button (every third by its digit key); after each, the page shows what the
    service says: the move in the log in its words, and a card played gone from the
    hand drawn from the seat's view (and the hand one card shorter, unless the game
    ``refills`` hands after a trick, as Briscola does). The moves made, in words, and
    how many by key, and the decisions a page had before it was reloaded (after the
    ``reload_at``-th move: the seat is taken back, the log and table come back)."""
    earlier: list[dict[str, Any]] = []
    driver.get(url)
    played: list[str] = []  # the person's moves, in words, as chosen
    turn = keyed = 0
    while True:
        WebDriverWait(driver, 30, 0.02).until(lambda d: ready(look(d)))
        seen = look(driver)
        if seen["state"] == "over":
            break
        if turn == 1:
            shoot(driver, name)
        index, card, words, key = choose(seen["moves"], turn)
        hand = seen["hand"]
        if turn % 3 == 2 and key is not None:  # the keyboard: the move's digit
            driver.find_element(By.TAG_NAME, "body").send_keys(key)
            keyed += 1
        else:
            press_move(driver, index)
        played.append(words)
        # What the service says, on the page: the move in the log, in its words...
        WebDriverWait(driver, 10, 0.02).until(lambda d: mine(d) == len(played))
        after = look(driver)
        own = [line for line in after["log"] if line.startswith("you ")]
        assert re.match(rf"you \(seat \d+\) {re.escape(words)}", own[-1]), (own[-1], words)
        # ...and a card played leaves the hand drawn from the seat's own view.
        # (Not the hand's last card: the next hand is dealt.)
        if card is not None and after["state"] == "waiting" and hand and len(hand) > 1:
            now = after["hand"]
            assert now is not None and now.count(card) == hand.count(card) - 1, (card, after)
            assert refills or len(now) == len(hand) - 1, (hand, now)
        turn += 1
        if turn == reload_at:
            earlier += received(driver)[0]
            driver.refresh()
            WebDriverWait(driver, 10, 0.02).until(lambda d: mine(d) == len(played))
    seen = look(driver)
    assert "the match is over" in seen["status"]
    assert any("the match is over" in line for line in seen["log"])
    shoot(driver, f"{name}-over")
    return played, keyed, earlier


def once(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions, each once: a page reloaded is sent a pending one again, with its
    sequence number."""
    seen: set[str] = set()
    out = []
    for message in messages:
        decision = message.get("decision")
        if decision is not None:
            if decision["sequence"] in seen:
                continue
            seen.add(decision["sequence"])
        out.append(message)
    return out


def check_privacy(
    record: dict[str, Any],
    decisions: list[dict[str, Any]] | None,
    feed: list[dict[str, Any]],
    person: str = "human",
) -> None:
    """Nothing the page received names a card hidden from its seat at that move: each
    decision (the ply of the person's k-th move, for the seat it asks), each feed
    line's table, move and events (for the seat it is drawn for). ``person``: the
    seats' spec in the record (the arena's person sits in a ``connect:NAME`` seat);
    ``decisions`` None: a page that only watched the seat (it was sent none)."""
    seats = [s for s, bot in enumerate(record["seat_bots"]) if bot == person]
    hidden = {seat: hidden_from(record, seat) for seat in seats}
    asked = [m["decision"] for m in decisions or [] if "decision" in m]
    plies = [k for k, m in enumerate(record["moves"]) if m["seat"] in seats]
    assert len(asked) == (len(plies) if decisions is not None else 0)
    for decision, ply in zip(asked, plies, strict=False):
        seat = decision["request"].get("seat", 0)
        assert seat == record["moves"][ply]["seat"]
        named = set(_CARD.findall(json.dumps(decision)))
        assert not named & hidden[seat][ply], (ply, named & hidden[seat][ply])
    for line in feed:
        if line.get("type") not in ("deal", "move"):
            continue  # the end: the match is over, its record public
        ply, seat = line["ply"], line["seat"]
        table = json.dumps(line["table"])
        said = json.dumps([line.get("move", ""), line.get("events", [])])
        assert "CARD_" not in table + said
        # The move's own card is public once played, though the next deal may put it in
        # a hand the seat cannot see: its words may name it.
        played = set(_CARD.findall(json.dumps(record["moves"][ply - 1]))) if ply else set()
        for card in hidden[seat][ply]:
            assert not _mentions(table, card), (ply, card, table[:300])
            assert card in played or not _mentions(said, card), (ply, card, said[:300])


def test_a_person_plays_a_whole_maraffa_hand_by_clicking(
    browser: webdriver.Chrome, person: tuple[str, Path]
) -> None:
    url, records_path = person
    started = time.monotonic()
    played, keyed, earlier = play_by_clicking(browser, url, "play-maraffa-4", reload_at=2)
    assert keyed >= 2 and earlier
    seconds = time.monotonic() - started

    # The record: the whole hand, the person's moves as clicked, no fault.
    WebDriverWait(browser, 30, 0.1).until(
        lambda d: records_path.exists() and read_records(records_path)
    )
    (record,) = read_records(records_path)
    cards = [m for m in record["moves"] if "playCard" in m["move"]["maraffa"]]
    assert len(cards) % 40 == 0 and not record["faults"], record["faults"]
    assert record["seat_bots"][SEAT] == "human"
    own = [m for m in record["moves"] if m["seat"] == SEAT]
    # Its ten cards a hand, and the trumps when it was the battezzante.
    assert len(own) == len(played) >= len(cards) // 4

    # The feed showed each of the person's cards on the table as the service drew it.
    decisions, feed = received(browser)
    decisions = once(earlier + decisions)
    moves = [m for m in feed if m.get("type") == "move"]
    assert [m["ply"] for m in moves] == list(range(1, len(record["moves"]) + 1))
    for line in moves:
        entry = record["moves"][line["ply"] - 1]
        if entry["seat"] != SEAT or "playCard" not in entry["move"]["maraffa"]:
            continue
        card = entry["move"]["maraffa"]["playCard"]["card"].removeprefix("CARD_")
        shown = [c for area in line["table"]["areas"] for c in area["cards"]]
        assert card in shown or line["finished"], (card, line["table"]["areas"])

    # Privacy: nothing the page received names a card hidden from its seat then.
    check_privacy(record, decisions, feed)
    assert not errors(browser)
    # Click to the bots' answers on the page: from performance.now() at the click to
    # the page's next decision drawn (the three bots' moves and the drawing request
    # between; since the reload), over every click of the match; its p95 is the issue's
    # figure, on loopback with builtin bots.
    waits = sorted(browser.execute_script("return window.mazzoPlay.latencies"))
    p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))]
    print(
        f"{len(record['moves'])} moves, {len(played)} clicks in {seconds:.1f} s; click to the "
        f"bots' answers shown: median {waits[len(waits) // 2]:.0f} ms, p95 {p95:.0f} ms "
        f"over {len(waits)} clicks"
    )
    splits = browser.execute_script("return window.mazzoPlay.splits")
    parts = [sorted(x[k] for x in splits)[len(splits) // 2] for k in range(3)]
    print(
        "  medians: to the decision {:.0f} ms, drawing it {:.0f} ms, rendering {:.0f} ms".format(
            *parts
        )
    )
    assert len(waits) >= 30, waits
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    bound = P95_MS if load < cores else P95_BUSY_MS
    print(f"  load average {load:.1f} on {cores} cores: p95 bound {bound} ms")
    assert p95 < bound, waits


#: Other games and forms, played through by the same clicking person: each decision
#: drawn and answered, a move that is not a card a button with its words. Burraco and
#: Ramino are played by picking cards: test_play_rummy_browser.py.
OTHERS: list[tuple[str, list[str], list[str]]] = [
    ("briscola", ["builtin:random"], []),
]


@pytest.mark.parametrize(("game", "bots", "options"), OTHERS, ids=[g for g, _, _ in OTHERS])
@pytest.mark.slow
def test_a_person_plays_other_games_through(
    browser: webdriver.Chrome, tmp_path: Path, game: str, bots: list[str], options: list[str]
) -> None:
    with person_at(tmp_path, game, bots, options) as (url, records_path):
        name = f"play-{game}-2"
        played, _, _ = play_by_clicking(browser, url, name, refills=game == "briscola")
    (record,) = read_records(records_path)
    assert not record["faults"], record["faults"]
    seats = [s for s, bot in enumerate(record["seat_bots"]) if bot == "human"]
    assert len([m for m in record["moves"] if m["seat"] in seats]) == len(played) > 0
    decisions, feed = received(browser)
    check_privacy(record, decisions, feed)
    assert not errors(browser)
