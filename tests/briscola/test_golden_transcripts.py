"""Golden transcripts: whole Briscola matches that pin the engine's behaviour across releases.

Each file in ``golden/`` holds one match: how it was dealt (players, seed, options),
the deterministic chooser that played it, and for every move the seat, the move text
(``str(move)``) and the events it caused (with the hands, stock and trump card after
each deal), then the hands won. The test plays the same match again and must get
exactly the stored transcript.

A second test re-checks every stored transcript against briscola.md, independently of
the engine: each deal from the seed by §3.1, each trick's winner by the spec's own
``trick_winner`` (§3.3), its points (§1.3), the draws (§3.4) and each hand's result
(§4.1).

The test never writes the files (tests/golden.py plays and records them); after an
intended change of behaviour, regenerate them with
``.venv/bin/python -m tests.briscola.test_golden_transcripts --regenerate`` and review
the diff.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from mazzo.core.cards import card, code
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.briscola import rules
from mazzo.games.briscola.cards import DECK
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import State
from tests.golden import Golden, Params

#: name -> (players, seed, chooser seed, options as in the JSON file)
MATCHES: dict[str, Params] = {
    # Two players, best of three: draws, the trump card taken, hands dealt again.
    "two_players_best_of_three": (2, 7, 7, {"hands_to_win": 2}),
    # Three players, 39 cards without the two of cups.
    "three_players_removed_2h": (3, 12, 12, {"removed_two": card("2H")}),
    # Four players in partnerships, partners seeing each other's cards at the end.
    "four_players_partners_show": (4, 31, 31, {"partners_show_hands": True}),
}

CHOOSER = "random.Random(chooser_seed).randrange over the legal moves, one call per decision"


def options_from_json(data: dict[str, Any]) -> Options:
    return Options(**data)


def _value(name: str, value: Any) -> Any:
    """One event field as plain JSON: cards as codes, records as dicts."""
    if name in ("card", "trump_card"):
        return code(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: _value(k, v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, tuple):
        return [_value(name, v) for v in value]
    return value


def _layout(state: State) -> dict[str, Any]:
    return {
        "hands": [[code(c) for c in h] for h in state.hands],
        "stock": [code(c) for c in state.stock],
    }


def choose(state: State, moves: Sequence[Any], rnd: random.Random) -> Any:
    return moves[rnd.randrange(len(moves))]


def final(state: State) -> dict[str, Any]:
    return {"hands_won": list(state.table.hands_won), "winner": rules.match_winner(state)}


GOLDEN = Golden(
    __file__, MATCHES, CHOOSER, rules, options_from_json, choose, _value, _layout, final
)
load = GOLDEN.load

test_replay_matches_golden_transcript, test_golden_file_is_small = GOLDEN.tests(200_000)


def test_golden_files_cover_the_forms_and_events() -> None:
    assert GOLDEN.players() == {2, 3, 4}
    kinds = {event["type"] for event in GOLDEN.events()}
    assert kinds == {
        "CardPlayed",
        "TrickWon",
        "Drew",
        "TrumpCardTaken",
        "HandScored",
        "HandDealt",
        "MatchWon",
    }, kinds
    hands = [load(name)["final"]["hands_won"] for name in MATCHES]
    assert any(sum(h) > 1 for h in hands), "a match of more than one hand"


# ------------------------------------------------------------------------ the rules, independently

STRENGTH = {"A": 10, "3": 9, "K": 8, "Q": 7, "J": 6, "7": 5, "6": 4, "5": 3, "4": 2, "2": 1}
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """briscola.md §3.3, as the spec writes it."""
    led = plays[0][1][1]
    trumps = [p for p in plays if p[1][1] == trump]
    pool = trumps if trumps else [p for p in plays if p[1][1] == led]
    return max(pool, key=lambda p: STRENGTH[p[1][0]])[0]


class Referee:
    """Follows a transcript and checks it against briscola.md, without the engine."""

    def __init__(self, t: dict[str, Any]) -> None:
        self.t = t
        self.n = t["players"]
        self.options = options_from_json(t["options"])
        self.sides = 2 if self.n == 4 else self.n
        self.won = [0] * self.sides
        self.counter = 1
        first = self.options.first_dealer
        self.dealer = draw_below(t["seed"], 0, self.n) if first is None else first

    def deal(self, event: dict[str, Any], layout: dict[str, Any]) -> None:
        """§3.1: three cards to each seat from the dealer's right, then the trump card
        under the stock."""
        n = self.n
        assert event["dealer"] == self.dealer and event["leader"] == (self.dealer + 1) % n
        deck = [code(c) for c in DECK if n != 3 or c != self.options.removed_two]
        d = shuffled(deck, self.t["seed"], self.counter)
        self.counter += 1
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            assert layout["hands"][seat] == sorted(d[3 * i : 3 * i + 3], key=card)
        assert event["trump_card"] == d[3 * n]
        assert layout["stock"] == [*d[3 * n + 1 :], d[3 * n]]
        self.trump = d[3 * n]
        self.stock = list(layout["stock"])
        self.leader = event["leader"]
        self.trick: list[tuple[int, str]] = []
        self.points = [0] * self.sides
        self.tricks = 0

    def side(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def follow(self, seat: int, events: list[dict[str, Any]]) -> None:
        kinds = [e["type"] for e in events]
        play = events[0]
        assert play["type"] == "CardPlayed" and play["seat"] == seat
        assert seat == (self.leader + len(self.trick)) % self.n
        self.trick.append((seat, play["card"]))
        if len(self.trick) < self.n:
            assert kinds == ["CardPlayed"]
            return
        winner = trick_winner(self.trick, self.trump[1])
        points = sum(POINTS[c[0]] for _, c in self.trick)
        self.tricks += 1
        won = events[1]
        assert won == {"type": "TrickWon", "trick": self.tricks, "seat": winner, "points": points}
        self.points[self.side(winner)] += points
        draws = [e for e in events if e["type"] in ("Drew", "TrumpCardTaken")]
        if self.stock:
            assert [e["seat"] for e in draws] == [(winner + i) % self.n for i in range(self.n)]
            taken = self.stock[: self.n]
            self.stock = self.stock[self.n :]
            if not self.stock:
                assert draws[-1] == {
                    "type": "TrumpCardTaken",
                    "seat": draws[-1]["seat"],
                    "card": taken[-1],
                }
                assert taken[-1] == self.trump
        else:
            assert draws == []
        self.trick, self.leader = [], winner
        if self.tricks == (40 if self.n != 3 else 39) // self.n:
            self.hand_scored(next(e for e in events if e["type"] == "HandScored"))

    def hand_scored(self, event: dict[str, Any]) -> None:
        """§4.1, §4.2: the most points (61 with two sides) wins; a draw deals again."""
        assert sum(self.points) == 120
        assert [s["points"] for s in event["scores"]] == self.points
        best = max(self.points)
        winner = self.points.index(best) if self.points.count(best) == 1 else -1
        assert event["winner"] == winner
        if winner >= 0:
            self.won[winner] += 1
            self.dealer = (self.dealer + 1) % self.n
        assert event["hands_won"] == self.won


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_transcripts_follow_the_rules(name: str) -> None:
    t = load(name)
    referee = Referee(t)
    referee.deal(t["deal"]["events"][0], t["deal"])
    for entry in t["moves"]:
        referee.follow(entry["seat"], entry["events"])
        dealt = [e for e in entry["events"] if e["type"] == "HandDealt"]
        if dealt:
            referee.deal(dealt[0], entry)
    assert t["final"]["hands_won"] == referee.won
    assert max(referee.won) == referee.options.hands_to_win
    assert t["final"]["winner"] == referee.won.index(max(referee.won))


if __name__ == "__main__":
    GOLDEN.main()
