"""A person in ``mazzo tournament``: the same seat spec as ``mazzo match``
(``human[:NAME]`` among an entrant's bots), one page address printed for the whole
run, and that page's protocol (the dial-in join and answers, ``POST /play/draw``, the
seat's feed) serving each of the person's matches in turn. Spoken here as the page
speaks it, over HTTP, without a browser: a person who answers every decision with
its first legal move that is not a claim."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx

from mazzo.referee.records import read_records
from mazzo.referee.verify import verify
from tests.viewer.people import person_run

CONFIG = """
name = "a person against a bot"
game = "briscola"
players = 2
seed = 4
deals = 1
duplicate = true

[[entrants]]
name = "anna"
bots = ["human:anna"]

[[entrants]]
name = "bot"
bots = ["builtin:random"]
"""


def play_as_the_page(url: str) -> tuple[list[str], int, list[dict[str, Any]]]:
    """Join with the page's token, have each decision drawn as the page does, and answer
    it; then read the seat's feed. The matches seen, the decisions answered, the feed."""
    base, _, token = url.partition("/play/#token=")
    signed = {"authorization": f"Bearer {token}"}
    matches: list[str] = []
    answered = 0
    feed: list[dict[str, Any]] = []

    def follow() -> None:  # the seat's feed, as the page follows it, until the run ends
        with (
            httpx.Client(base_url=base, timeout=30) as own,
            own.stream("POST", "/play/feed", json={}, headers=signed) as lines,
        ):
            feed.extend(json.loads(x) for x in lines.iter_lines() if x.strip() not in ("", "{}"))

    follower = threading.Thread(target=follow)
    follower.start()
    with httpx.Client(base_url=base, timeout=30) as http:
        page = http.get("/play/")
        assert page.status_code == 200 and "play.js" in page.text
        hello = {"hello": {"token": token, "protocolVersion": 1}}
        with http.stream("POST", "/v1/tables:join", json=hello) as stream:
            for line in stream.iter_lines():
                if not line.strip() or line.strip() == "{}":
                    continue
                message = json.loads(line)
                if "matchStarted" in message:
                    matches.append(message["matchStarted"]["matchId"])
                decision = message.get("decision")
                if decision is None:
                    continue
                drawn = http.post("/play/draw", json=decision["request"], headers=signed)
                assert drawn.status_code == 200, drawn.text
                moves = drawn.json()["moves"]
                index = next(i for i, m in enumerate(moves) if not m["text"].startswith("claim"))
                answer = {
                    "answer": {
                        "sequence": decision["sequence"],
                        "matchId": decision["matchId"],
                        "response": {"index": index},
                    }
                }
                sent = http.post("/v1/tables:answer", json=answer, headers=signed)
                assert sent.status_code == 200, sent.text
                answered += 1
    follower.join(30)
    return matches, answered, feed


def test_a_person_plays_each_of_their_tournament_matches_on_one_page(tmp_path: Path) -> None:
    config = tmp_path / "people.toml"
    config.write_text(CONFIG, encoding="utf-8")
    records = tmp_path / "people.jsonl"
    args = ["tournament", str(config), "--records", str(records), "--no-progress"]
    with person_run(args, "anna") as (_process, url):
        matches, answered, feed = play_as_the_page(url)
    played = read_records(records)
    # Both deals of the duplicate pair (the seats swapped), each with the person at it,
    # each of its moves answered from the page, no fault.
    assert sorted(matches) == sorted(r["id"] for r in played) and len(played) == 2
    assert all("human:anna" in r["seat_bots"] and not r["faults"] for r in played)
    seats = [r["seat_bots"].index("human:anna") for r in played]
    assert sorted(seats) == [0, 1]
    assert answered == sum(
        1 for r, s in zip(played, seats, strict=True) for m in r["moves"] if m["seat"] == s
    )
    # The one feed followed both matches: each dealt, played and ended, in turn.
    kinds = [(line["type"], line["id"]) for line in feed if line["type"] in ("deal", "end")]
    assert kinds == [(k, m) for m in matches for k in ("deal", "end")], kinds
    # The person's seat on the person's clock wherever it sat, the bot on the bots':
    # and the run's records still one tournament's (its seat's clock is its bot's).
    for record, seat in zip(played, seats, strict=True):
        assert record["time_control"] == {
            "move": 1.0,
            "bank": 10.0,
            "seats": [{"seat": seat, "move": 300.0, "bank": 1800.0}],
        }
    verdict = verify(played)
    assert not verdict.failures, verdict.failures


def test_a_persons_match_puts_only_the_persons_seat_on_the_persons_clock(
    tmp_path: Path,
) -> None:
    records = tmp_path / "match.jsonl"
    args = ["match", "--game", "briscola", "--seed", "3", "--records", str(records)]
    args += ["--bot", "builtin:random", "--bot", "human:anna", "--person-move-time", "120"]
    with person_run(args, "anna") as (_process, url):
        play_as_the_page(url)
    [record] = read_records(records)
    assert record["seat_bots"] == ["builtin:random", "human:anna"] and not record["faults"]
    assert record["time_control"] == {
        "move": 1.0,
        "bank": 10.0,
        "seats": [{"seat": 1, "move": 120.0, "bank": 1800.0}],
    }
