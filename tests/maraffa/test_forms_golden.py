"""Golden transcripts of the forms of maraffa-forms.md: whole Trionfo and 39-card
matches that pin the engines' behaviour across releases.

Each file in ``golden/`` named below holds one match: how it was dealt (players, seed,
options), the deterministic chooser that played it, every move with its seat, its
text and the events it caused (and the hands of every new deal), then the final
totals and winners. The test deals and plays the same match again and must get the
stored transcript exactly. A second test checks the replayed match against the rules
with the oracles of the property tests (written from the rules text, not from the
engine), so that a regenerated file cannot pin a rule violation.

The test never writes the files (tests/golden.py plays and records them); after an
intended change of behaviour, regenerate them with
``.venv/bin/python -m tests.maraffa.test_forms_golden --regenerate`` and review the diff.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from mazzo.core.cards import card, code
from mazzo.games.maraffa.cards import cards_of
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import CLAIM, Contract, Signal
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
    ThreePlayerForm,
    TrionfoAuction,
)
from mazzo.games.maraffa.trionfo.state import TrionfoState
from tests.golden import Golden, Params
from tests.maraffa import test_deck39_properties as deck39
from tests.maraffa import test_trionfo_properties as trionfo

#: name -> (players, seed, chooser seed, options as in the JSON file)
MATCHES: dict[str, Params] = {
    # Trionfo with every option at its default, three deals: CHIAMO (the partner
    # revealed), MASO and MASO_DEI_MASI.
    "trionfo_defaults": (5, 90, 90, {"match_deals": 3}),
    # Trionfo with the other values: one card at a time, a single round, core signals,
    # deals stopped when decided, thrown-in deals not counted, 4D picks the first speaker.
    "trionfo_options": (
        5,
        21,
        21,
        {
            "match_deals": 4,
            "trionfo_deal_batch": 1,
            "trionfo_auction": "single_round",
            "trionfo_signals": "core",
            "trionfo_stop_when_decided": True,
            "count_thrown_in": False,
            "trionfo_first_speaker_card": "4D",
            "first_dealer": 3,
        },
    ),
    # Three players with 39 cards, defaults but a short target.
    "deck39_target_21": (3, 5, 5, {"three_player_form": "deck39", "target": 21}),
    # The same with 4H out, core signals, redeals, kept thirds, best of three.
    "deck39_options": (
        3,
        13,
        13,
        {
            "three_player_form": "deck39",
            "removed_four": "4H",
            "target": 11,
            "signals": "core",
            "redeal_weak_hand": True,
            "fractions": "keep_thirds",
            "series": "best_of_three",
            "marafona_auto_declare": True,
        },
    ),
}

CHOOSER = (
    "random.Random(chooser_seed).randrange over the legal moves (without the final CLAIM "
    "where one is listed), one call per decision"
)
_ENUMS: dict[str, Any] = {
    "fractions": Fractions,
    "marafona_rule": MarafonaRule,
    "claim_rule": ClaimRule,
    "signals": SignalSet,
    "series": Series,
    "three_player_form": ThreePlayerForm,
    "trionfo_auction": TrionfoAuction,
    "trionfo_signals": SignalSet,
}
_CARDS = {"removed_four", "trionfo_first_speaker_card"}


def options_from_json(data: dict[str, Any]) -> Options:
    """Options from their JSON form: enum values by lower-case name, cards by code."""
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name in _ENUMS:
            values[name] = _ENUMS[name][value.upper()]
        elif name in _CARDS:
            values[name] = card(value)
        else:
            values[name] = value
    return Options(**values)


def _field(name: str, value: Any) -> Any:
    """One event field as plain JSON: cards as codes, suits as letters, names for enums."""
    if name in ("card", "called_card"):
        return code(value) if value else None
    if name in ("suit", "trump"):
        return "SHDC"[value] if value >= 0 else None
    if name == "signal":
        return Signal(value).name
    if name == "contract":
        return Contract(value).name if value else None
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: _field(k, v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, tuple):
        return [_field(name, v) for v in value]
    return value


def _hands(state: Any) -> dict[str, Any]:
    return {"hands": [[code(c) for c in cards_of(h)] for h in state.hands]}


def choose(state: Any, moves: Sequence[Any], rnd: random.Random) -> Any:
    """Any legal move but a final CLAIM."""
    listed = list(moves)
    if listed[-1] is CLAIM:
        listed.pop()
    return listed[rnd.randrange(len(listed))]


def final(state: Any) -> dict[str, Any]:
    return {"totals": list(state.table.totals), "winners": list(RULES.score(state).winners)}


GOLDEN = Golden(__file__, MATCHES, CHOOSER, RULES, options_from_json, choose, _field, _hands, final)


def replay(players: int, seed: int, chooser_seed: int, options: dict[str, Any]) -> list[Any]:
    """Deal and play the match with the deterministic chooser: its steps, as the
    property tests' oracles take them."""
    step = trionfo.Step if players == 5 else deck39.Step
    return [step(*s) for s in GOLDEN.steps(players, seed, chooser_seed, options)]


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_golden_match_obeys_the_rules(name: str) -> None:
    """The stored match, replayed, passes the property tests' oracles: trick winners,
    scores and payments (A.6, B.3), the auction and rotation (A.2-3, B.2), every state
    valid, and its legal moves the rule book's."""
    steps = replay(*MATCHES[name])
    if isinstance(steps[0].after, TrionfoState):
        trionfo.DealWatcher().check(steps)
        trionfo.check_rotation(steps)
        oracle = trionfo.rule_book_moves
    else:
        deck39.check_scores(steps)
        deck39.check_rotation(steps)
        oracle = deck39.rule_book_moves
    for step in steps:
        RULES.validate(step.after)
        assert tuple(RULES.legal_moves(step.after)) == oracle(step.after)


def test_golden_files_cover_the_forms_and_their_events() -> None:
    kinds = {event["type"] for event in GOLDEN.events()}
    assert kinds >= {
        "DealDealt",
        "BidMade",
        "BidPassed",
        "AuctionWon",
        "ContractDeclared",
        "PartnerRevealed",
        "DealScored",
        "TrionfoMatchOver",
        "HandDealt",
        "TrumpDeclared",
        "HandScored",
        "GameWon",
        "MatchWon",
    }
    assert GOLDEN.players() == {3, 5}


test_replay_matches_golden_transcript, test_golden_file_is_small = GOLDEN.tests(200_000)


if __name__ == "__main__":
    GOLDEN.main()
