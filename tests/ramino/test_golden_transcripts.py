"""Golden transcripts: whole Ramino matches that pin the engine's behaviour across releases.

Each file in ``golden/`` holds one match: how it was dealt (players, seed, options),
the deterministic chooser that played it, and for every move the seat, the move text
(``str(move)``) and the events it caused (with the hands after each deal), then the
final balances. The test plays the same match again and must get exactly the stored
transcript: same cards (the seeded generator), same legal moves in the same order
(ramino.md §3.6, through the chooser), same payouts (§4).

A second test re-checks every stored transcript against the rules, independently of
the engine: each deal from the seed by the formula of §2.4, each closure by the spec's
own loop (``reference.best_closure``), and the chips through every event (§3.1, §4).

The test never writes the files (tests/golden.py plays and records them); after an
intended change of behaviour, regenerate them with
``.venv/bin/python -m tests.ramino.test_golden_transcripts --regenerate`` and review the diff.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

import pytest

from mazzo.core.cards import card, code
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.ramino import reference, rules
from mazzo.games.ramino.cards import DECK
from mazzo.games.ramino.moves import Kind
from mazzo.games.ramino.options import BuioSeat, Options
from mazzo.games.ramino.state import State
from tests.golden import Golden, Params

#: name -> (players, seed, chooser seed, options as in the JSON file)
MATCHES: dict[str, Params] = {
    # Defaults but a short match: bidding, play, reshuffles, closures.
    "two_players_defaults": (2, 21, 21, {"match_hands": 2}),
    # The dealer's tax and the buio (§3.2): blind openings, a stand, raises after one.
    "four_players_buio": (4, 8, 8, {"dealer_tax": 1, "max_stake": 6, "match_hands": 3}),
    # No credit (§4.3): small stacks, a void hand, sitting out, the end for lack of
    # players.
    "three_players_no_credit": (
        3,
        15,
        15,
        {
            "allow_credit": False,
            "starting_chips": 6,
            "dealer_tax": 1,
            "buio": False,
            "min_open": 2,
            "max_stake": 3,
            "match_hands": 6,
        },
    ),
    # Nine-card tables, sets with repeated suits, re-discards, no reshuffle, 6 players.
    "six_players_nine_cards": (
        6,
        61,
        61,
        {
            "hand_size": 9,
            "set_duplicate_suits": True,
            "rediscard_taken_card": True,
            "max_reshuffles": 0,
            "buio_seat": "dealer_left",
            "dealer_tax": 1,
            "match_hands": 2,
        },
    ),
}

CHOOSER = (
    "random.Random(chooser_seed).randrange over the legal moves, one call per decision; "
    "the first CLOSE listed is played instead whenever there is one"
)


def options_from_json(data: dict[str, Any]) -> Options:
    values = {k: BuioSeat[v.upper()] if k == "buio_seat" else v for k, v in data.items()}
    return Options(**values)


# --------------------------------------------------------------------------------------- recording


def _value(name: str, value: Any) -> Any:
    """One event field as plain JSON: cards as codes, enums by name, records as dicts."""
    if isinstance(value, Enum):
        return value.name
    if name in ("card", "discard", "joker", "stands_for", "taken"):
        return code(value) if value else None
    if name == "cards":
        return [code(c) for c in value]
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: _value(k, v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, tuple):
        return [_value(name, v) for v in value]
    return value


def _layout(state: State) -> dict[str, Any]:
    return {
        "hands": [[code(c) for c in h] for h in state.hands],
        "pile": [code(c) for c in state.pile],
    }


def choose(state: State, moves: tuple[Any, ...], rnd: random.Random) -> Any:
    pick = moves[rnd.randrange(len(moves))]
    closes = [m for m in moves if m.kind is Kind.CLOSE]
    return closes[0] if closes else pick


def final(state: State) -> dict[str, Any]:
    return {
        "balances": list(state.bets.balances),
        "winners": list(rules.winners(state)),
        "end": state.table.end.name,
    }


GOLDEN = Golden(
    __file__, MATCHES, CHOOSER, rules, options_from_json, choose, _value, _layout, final
)
load = GOLDEN.load


# --------------------------------------------------------------------------------- the golden test


test_replay_matches_golden_transcript, test_golden_file_is_small = GOLDEN.tests(400_000)


def test_golden_files_cover_the_forms_and_events() -> None:
    assert GOLDEN.players() == {2, 3, 4, 6}
    kinds = {event["type"] for event in GOLDEN.events()}
    outcomes = {e["result"]["outcome"] for e in GOLDEN.events() if e["type"] == "HandEnded"}
    assert outcomes >= {"CLOSED", "UNCONTESTED", "VOID", "EXHAUSTED"}, outcomes
    bids = {e["bid"]["action"] for e in GOLDEN.events() if e["type"] == "BidMade"}
    assert bids == {"BUIO", "NO_BUIO", "PASS", "OPEN", "ACCEPT", "RAISE", "STAND"}
    ends = {load(name)["final"]["end"] for name in MATCHES}
    assert ends == {"DECIDED_HANDS", "VOID_HANDS", "NO_PLAYERS"}
    assert kinds >= {
        "HandDealt",
        "TaxPaid",
        "BidMade",
        "PlayStarted",
        "CardDrawn",
        "DiscardTaken",
        "CardDiscarded",
        "StockReshuffled",
        "HandClosed",
        "HandEnded",
        "PotRefunded",
        "MatchEnded",
    }, kinds


# ------------------------------------------------------------------------ the rules, independently


class Referee:
    """Follows a transcript and checks it against ramino.md, without the engine."""

    def __init__(self, t: dict[str, Any]) -> None:
        self.t = t
        self.players = t["players"]
        self.options = options_from_json(t["options"])
        self.total = self.players * self.options.starting_chips
        self.balances = [self.options.starting_chips] * self.players
        self.pot = 0
        self.counter = 1  # draw 0 chose the first dealer; each deal and reshuffle: next
        first = self.options.first_dealer
        self.first_dealer = draw_below(t["seed"], 0, self.players) if first is None else first

    def deal(self, event: dict[str, Any], layout: dict[str, Any]) -> None:
        """§2.4, §2.5: d[j] to next^((j mod n)+1)(dealer); the up-card d[n·h]."""
        n, h = self.players, self.options.hand_size
        d = shuffled([code(c) for c in DECK], self.t["seed"], self.counter)
        self.counter += 1
        hands: list[list[str]] = [[] for _ in range(n)]
        for j in range(n * h):
            hands[(event["dealer"] + 1 + j % n) % n].append(d[j])
        assert [sorted(x, key=card) for x in hands] == layout["hands"]
        assert layout["pile"] == [d[n * h]]

    def follow(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "TaxPaid":
            self.balances[event["seat"]] -= event["amount"]
            self.pot += event["amount"]
        elif kind == "BidMade":
            self.balances[event["bid"]["seat"]] -= event["paid"]
            self.pot += event["paid"]
            assert event["pot"] == self.pot
        elif kind == "StockReshuffled":
            self.counter += 1
        elif kind == "HandClosed":
            closure = event["closure"]
            ten = tuple(sorted(card(c) for c in closure["cards"]))
            k, joker, stands_for = reference.best_closure(
                ten, self.options.imaginary_jokers, self.options.set_duplicate_suits
            )
            shown = (closure["joker"], closure["stands_for"])
            assert (
                k
                == {"SIMPLE": 1, "DOUBLE": 2, "TRIPLE": 3, "ROYAL": 5, "SEXTUPLE": 6}[
                    closure["kind"]
                ]
            )
            assert shown == ((code(joker), code(stands_for)) if joker else (None, None))
        elif kind == "HandEnded":
            self.hand_ended(event)
        elif kind == "PotRefunded":
            for seat, chips in enumerate(event["refunds"]):
                self.balances[seat] += chips
                self.pot -= chips
        elif kind == "MatchEnded":
            assert event["balances"] == self.balances and self.pot == 0
        assert sum(self.balances) + self.pot == self.total

    def hand_ended(self, event: dict[str, Any]) -> None:
        """§4.1, §4.2: the closer takes the pot and (k - 1) x S from each other
        participant (less without credit); the uncontested player takes the pot; a void
        hand leaves it."""
        result = event["result"]
        outcome = result["outcome"]
        assert result["pot"] == self.pot
        if outcome == "CLOSED":
            k = {"SIMPLE": 1, "DOUBLE": 2, "TRIPLE": 3, "ROYAL": 5, "SEXTUPLE": 6}[
                result["closure"]["kind"]
            ]
            gain = self.pot
            for seat in result["participants"]:
                if seat != result["winner"]:
                    due = (k - 1) * result["posta"]
                    if not self.options.allow_credit:
                        due = min(due, max(self.balances[seat], 0))
                    assert result["extra_paid"][seat] == due
                    self.balances[seat] -= due
                    gain += due
            self.balances[result["winner"]] += gain
            self.pot = 0
        elif outcome == "UNCONTESTED":
            self.balances[result["winner"]] += self.pot
            self.pot = 0
        assert event["balances"] == self.balances


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_transcripts_follow_the_rules(name: str) -> None:
    t = load(name)
    referee = Referee(t)
    dealt = t["deal"]
    assert dealt["events"][0]["dealer"] == referee.first_dealer
    referee.deal(dealt["events"][0], dealt)
    for event in dealt["events"]:
        referee.follow(event)
    for entry in t["moves"]:
        for event in entry["events"]:
            if event["type"] == "HandDealt":
                referee.deal(event, entry)
            referee.follow(event)
    assert t["final"]["balances"] == referee.balances
    top = max(referee.balances)
    assert t["final"]["winners"] == [s for s, b in enumerate(referee.balances) if b == top]


if __name__ == "__main__":
    GOLDEN.main()
