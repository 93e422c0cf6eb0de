"""Golden transcripts: whole Maraffa matches that pin the engine's behaviour across releases.

Each file in ``golden/`` holds one match: how it was dealt (players, seed, options),
the deterministic chooser that played it, and for every move the seat, the move text
(``str(move)``) and the events it caused, then the final scores and winner. The test
deals and plays the same match again and must get exactly the stored transcript:
same cards (the seeded generator, api.md "pinned by golden test vectors"), same legal
moves in the same order (maraffa.md §3.3), same scores (§4).

A second test re-checks every stored transcript against the rules themselves
(maraffa.md §2.3, §3.1, §3.2, §3.3, §3.7, §4), independently of the engine, so a
regenerated file cannot silently pin a rule violation.

The test never writes the files (tests/golden.py plays and records them); after an
intended change of behaviour, regenerate them with
``.venv/bin/python -m tests.maraffa.test_golden_transcripts --regenerate`` and review the diff.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mazzo.core.cards import code
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.moves import CLAIM, Move, Signal
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
)
from mazzo.games.maraffa.state import State
from tests.golden import Golden, Params

#: name -> (players, seed, chooser seed, options as in the JSON file)
MATCHES: dict[str, Params] = {
    # Every option at its default (target 41): several hands, a full game.
    "four_players_defaults": (4, 41, 41, {}),
    # Short game; this seed has a tie over the target (§4.2.2, TargetRaised).
    "four_players_target_11": (4, 2, 2, {"target": 11}),
    # The 2-player form (§2.3): 20 tricks, draws from the stock, no signals.
    "two_players_target_11": (2, 3, 3, {"target": 11}),
    # The 3-player form with a dummy in seat 2 controlled by seat 0 (§2.2).
    "three_players_dummy_target_11": (3, 5, 5, {"target": 11}),
    # Options: thirds kept, best of three with la bella, extended signals, redeals,
    # automatic marafona. This seed has a redeal, a declared marafona and a bella.
    "four_players_options": (
        4,
        175,
        175,
        {
            "target": 6,
            "bella_target": 11,
            "fractions": "keep_thirds",
            "series": "best_of_three",
            "signals": "extended",
            "redeal_weak_hand": True,
            "marafona_auto_declare": True,
        },
    ),
}

CHOOSER = (
    "random.Random(chooser_seed).randrange over the legal moves without the final CLAIM, "
    "one call per decision"
)

_ENUMS = {
    "fractions": Fractions,
    "marafona_rule": MarafonaRule,
    "claim_rule": ClaimRule,
    "signals": SignalSet,
    "series": Series,
}


def options_from_json(data: dict[str, Any]) -> Options:
    """Options from their JSON form: enum values by lower-case name (maraffa.md §5)."""
    values = {
        name: _ENUMS[name][value.upper()] if name in _ENUMS else value
        for name, value in data.items()
    }
    return Options(**values)


# --------------------------------------------------------------------------------------- recording


def _field(name: str, value: Any) -> Any:
    """One event field as plain JSON: cards as codes, suits as letters, signals by name."""
    if name == "card":
        return code(value)
    if name == "suit":
        return "SHDC"[value]
    if name == "signal":
        return Signal(value).name
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: _field(k, v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, tuple):
        return [_field(name, v) for v in value]
    return value


def _hands(state: State) -> dict[str, Any]:
    return {"hands": [[code(c) for c in cards_of(h)] for h in state.hands]}


def choose(state: State, moves: tuple[Move, ...], rnd: random.Random) -> Move:
    """Any legal move but the final CLAIM, which is always listed last."""
    assert moves[-1] is CLAIM
    return moves[rnd.randrange(len(moves) - 1)]


def final(state: State) -> dict[str, Any]:
    table = state.table
    return {
        "totals": list(table.totals),
        "games_won": list(table.games_won),
        "winner": rules.match_winner(state),
        "last_hand": [_field("score", s) for s in table.last_hand],
    }


GOLDEN = Golden(__file__, MATCHES, CHOOSER, rules, options_from_json, choose, _field, _hands, final)
play_match = GOLDEN.play
load = GOLDEN.load


# --------------------------------------------------------------------------------- the golden test


test_replay_matches_golden_transcript, test_golden_file_is_small = GOLDEN.tests(200_000)


def test_golden_files_cover_the_forms_and_events() -> None:
    """The set of files exercises each form and each kind of event at least once."""
    assert GOLDEN.players() == {2, 3, 4}
    kinds = {event["type"] for event in GOLDEN.events()}
    assert any(e["type"] == "CardPlayed" and e["declare_marafona"] for e in GOLDEN.events())
    assert kinds >= {
        "HandDealt",
        "TrumpDeclared",
        "RedealRequested",
        "CardPlayed",
        "TrickWon",
        "CardDrawn",
        "HandScored",
        "TargetRaised",
        "GameWon",
        "MatchWon",
    }


# ------------------------------------------------------------------------ the rules, independently

STRENGTH = {"3": 10, "2": 9, "A": 8, "K": 7, "Q": 6, "J": 5, "7": 4, "6": 3, "5": 2, "4": 1}
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
DECK_CODES = [code(c) for c in DECK]


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """maraffa.md §3.3, the specification's own code."""
    led = plays[0][1][1]
    trumps = [p for p in plays if p[1][1] == trump]
    pool = trumps if trumps else [p for p in plays if p[1][1] == led]
    return max(pool, key=lambda p: STRENGTH[p[1][0]])[0]


def dealt_hands(seed: int, counter: int, dealer: int, seats: int) -> tuple[list[set[str]], list]:
    """§3.1: batches of five from next(dealer); 2 seats keep d[20..39] as the stock."""
    d = shuffled(DECK_CODES, seed, counter)
    hands: list[set[str]] = [set() for _ in range(seats)]
    batches = 8 if seats == 4 else 4
    for b in range(batches):
        hands[(dealer + 1 + b) % seats].update(d[5 * b : 5 * b + 5])
    return hands, d[5 * batches :]


class Referee:
    """Follows a transcript and checks it against maraffa.md, knowing nothing of the engine."""

    def __init__(self, t: dict[str, Any]) -> None:
        self.t = t
        self.players = t["players"]
        self.seats = 2 if self.players == 2 else 4
        self.options = options_from_json(t["options"])
        self.unit = 1 if self.options.keep_thirds else 3
        self.counter = 1
        self.game = 1
        self.hand_number = 1
        self.games_won = [0, 0]
        self.totals = [0, 0]
        self.target = self.unit_target(1)
        first = self.options.first_dealer
        self.dealer = draw_below(t["seed"], 0, self.seats) if first is None else first
        self.events: list[dict] = []

    def unit_target(self, game: int) -> int:
        points = self.options.game_target(game)
        return 3 * points if self.options.keep_thirds else points

    def expect(self, event_type: str, **fields: Any) -> dict:
        assert self.events, f"missing {event_type} {fields}"
        event = self.events.pop(0)
        assert event["type"] == event_type, (event, event_type, fields)
        for k, v in fields.items():
            assert event[k] == v, (event, k, v)
        return event

    def new_hand(self, hands_json: list[list[str]]) -> None:
        """A HandDealt event: the deal of §3.1 from the next draw, the battezzante of §3.2."""
        hands, stock = dealt_hands(self.t["seed"], self.counter, self.dealer, self.seats)
        self.counter += 1
        assert [set(h) for h in hands_json] == hands
        if self.hand_number == 1:
            holders = [s for s in range(self.seats) if "4D" in hands[s]]
            battezzante = holders[0] if holders else (self.dealer + 1) % self.seats
        else:
            battezzante = (self.dealer + 1) % self.seats
        self.expect(
            "HandDealt",
            game_number=self.game,
            hand_number=self.hand_number,
            dealer=self.dealer,
            battezzante=battezzante,
        )
        self.hands = hands
        self.stock = stock
        self.battezzante = battezzante
        self.to_act = battezzante
        self.trump: str | None = None
        self.trick: list[tuple[int, str]] = []
        self.tricks = 0
        self.captured: list[list[str]] = [[], []]
        self.last_trick_team = -1
        self.marafona_team = -1

    def weak(self, seat: int) -> bool:
        return sum(THIRDS[c[0]] for c in self.hands[seat]) < 4

    def move(self, entry: dict[str, Any]) -> None:
        self.events = list(entry["events"])
        seat, text = entry["seat"], entry["move"]
        assert seat == self.to_act, entry
        words = text.split()
        if words[0] == "trump":
            assert self.trump is None
            self.expect("TrumpDeclared", seat=seat, suit=words[1])
            self.trump = words[1]
        elif words[0] == "redeal":
            assert self.trump is None and self.options.redeal_weak_hand and self.weak(seat)
            self.expect("RedealRequested", seat=seat)
            self.new_hand(entry["hands"])  # same dealer, same hand number (§3.2.4)
        else:
            assert words[0] == "play" and self.trump is not None, entry
            self.play(seat, words[1], words[2:])
        assert not self.events, f"unexpected events {self.events}"

    def play(self, seat: int, card: str, extra: list[str]) -> None:
        hand = self.hands[seat]
        assert card in hand
        if self.trick:
            led = self.trick[0][1][1]
            follow = [c for c in hand if c[1] == led]
            free = self.seats == 2 and self.stock and not self.options.two_player_must_follow
            assert not follow or card[1] == led or free, (seat, card, sorted(hand))
        marafona = "marafona" in extra
        signal = next((w.upper() for w in extra if w != "marafona"), "NONE")
        if self.seats == 2:
            assert signal == "NONE"  # §2.3.6
        top = {"3" + self.trump, "2" + self.trump, "A" + self.trump}
        may_declare = self.tricks == 0 and top <= hand
        rule = self.options.marafona_rule
        if rule is MarafonaRule.OFF:
            may_declare = False
        elif rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK:
            may_declare &= seat == self.battezzante
            if rule is MarafonaRule.BATTEZZANTE_ACE_LEAD:
                may_declare &= not self.trick and card == "A" + self.trump
        if self.options.marafona_auto_declare and may_declare:
            assert marafona, "marafona_auto_declare: only the declaring form is listed (§3.4.3)"
        assert not marafona or may_declare
        if marafona:
            self.marafona_team = seat % 2
        self.expect("CardPlayed", seat=seat, card=card, signal=signal, declare_marafona=marafona)
        hand.remove(card)
        self.trick.append((seat, card))
        self.to_act = (seat + 1) % self.seats
        if len(self.trick) == self.seats:
            self.finish_trick()

    def finish_trick(self) -> None:
        winner = trick_winner(self.trick, self.trump)
        self.tricks += 1
        last = self.tricks == (20 if self.seats == 2 else 10)
        cards = [c for _, c in self.trick]
        thirds = sum(THIRDS[c[0]] for c in cards) + (3 if last else 0)
        self.expect("TrickWon", trick=self.tricks, seat=winner, thirds=thirds)
        self.captured[winner % 2].extend(cards)
        self.trick = []
        self.to_act = winner
        if self.stock:  # §2.3.2: the winner draws first, both cards public
            for seat in (winner, 1 - winner):
                card = self.stock.pop(0)
                self.expect("CardDrawn", seat=seat, card=card)
                self.hands[seat].add(card)
        if last:
            self.last_trick_team = winner % 2
            self.score_hand()

    def score_hand(self) -> None:
        """§4.1, then the end of game of §4.2 or the next hand of §3.7."""
        event = self.expect("HandScored")
        for team in (0, 1):
            got = event["scores"][team]
            aces = sum(c[0] == "A" for c in self.captured[team])
            third_cards = sum(THIRDS[c[0]] == 1 for c in self.captured[team])
            last = int(self.last_trick_team == team)
            thirds = 3 * aces + third_cards + 3 * last
            marafona = self.marafona_team == team
            if self.options.keep_thirds:
                bonus, score = 9 * marafona, thirds + 9 * marafona
            else:
                bonus, score = 3 * marafona, thirds // 3 + 3 * marafona
            assert got == {
                "aces": aces,
                "third_cards": third_cards,
                "last_trick": last,
                "thirds": thirds,
                "card_points": thirds // 3,
                "marafona_bonus": bonus,
                "hand_score": score,
            }
            self.totals[team] += score
        assert event["totals"] == self.totals
        reached = [t for t in (0, 1) if self.totals[t] >= self.target]
        if reached and self.totals[0] != self.totals[1]:
            winner = max((0, 1), key=lambda t: self.totals[t])
            self.end_game(winner)
            return
        if reached:  # a tie at or over the target: raise it (§4.2.2, §4.2.4)
            self.target = self.totals[0] + 1
            self.expect("TargetRaised", effective_target=self.target)
        self.dealer = self.battezzante  # §3.7.2
        self.hand_number += 1
        self.new_hand(self.pending_hands)

    def end_game(self, winner: int) -> None:
        self.expect("GameWon", game_number=self.game, team=winner, totals=self.totals)
        self.games_won[winner] += 1
        needed = 2 if self.options.series is Series.BEST_OF_THREE else 1
        if self.games_won[winner] == needed:
            self.expect("MatchWon", team=winner, games_won=self.games_won)
            self.over = True
            return
        # §4.3: a new game at hand 1, dealt by next(previous game's last dealer).
        self.game += 1
        self.hand_number = 1
        self.totals = [0, 0]
        self.target = self.unit_target(self.game)
        self.dealer = (self.dealer + 1) % self.seats
        self.new_hand(self.pending_hands)

    def run(self) -> None:
        t = self.t
        self.over = False
        self.events = list(t["deal"]["events"])
        self.new_hand(t["deal"]["hands"])
        assert not self.events
        for entry in t["moves"]:
            assert not self.over
            self.pending_hands = entry.get("hands")
            self.move(entry)
        assert self.over
        final = t["final"]
        assert final["totals"] == self.totals
        assert final["games_won"] == self.games_won
        assert final["winner"] == self.games_won.index(max(self.games_won))


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_golden_transcript_obeys_the_rules(name: str) -> None:
    """Each stored match, checked by an independent referee written from maraffa.md:
    the deal (§3.1) from the documented generator, the battezzante (§3.2.1-2), follow
    suit (§3.3.3), trick winners (§3.3.4), draws (§2.3.2), hand scores (§4.1), the end
    of a game (§4.2), dealer rotation (§3.7.2) and la bella (§4.3)."""
    Referee(load(name)).run()


FRESH_OPTIONS: list[dict[str, Any]] = [
    {"target": 11},
    {"target": 6, "fractions": "keep_thirds", "series": "best_of_three", "bella_target": 9},
    {"target": 11, "signals": "extended", "redeal_weak_hand": True, "first_dealer": 1},
    {"target": 11, "marafona_rule": "battezzante_ace_lead", "marafona_auto_declare": True},
    {"target": 11, "marafona_rule": "battezzante_only", "two_player_must_follow": False},
    {"target": 11, "marafona_rule": "off", "signals": "none", "dummy_seat": 1},
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fresh_matches_obey_the_rules(players: int) -> None:
    """The same referee on matches that are not stored: 60 seeds per form, with options."""
    for seed in range(60):
        options = FRESH_OPTIONS[seed % len(FRESH_OPTIONS)]
        if players != 3:
            options = {k: v for k, v in options.items() if k != "dummy_seat"}
        Referee(play_match(players, 1000 + seed, seed, options)).run()


def test_first_dealer_of_each_transcript_is_the_seeds() -> None:
    """README §2.6: the first dealer is chosen by the seed, uniformly among the seats
    (mazzo: draw 0 of the generator, below the number of seats)."""
    for name in MATCHES:
        t = load(name)
        seats = 2 if t["players"] == 2 else 4
        assert t["deal"]["events"][0]["dealer"] == draw_below(t["seed"], 0, seats)
        assert len(t["deal"]["hands"]) == seats


if __name__ == "__main__":
    GOLDEN.main()
