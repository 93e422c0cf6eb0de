"""``moves_bound`` (issue 15): over random playouts of every form, the moves actually
made from any point to the end of its hand, and to the end of the match, never
exceed the bound computed at that point; and the hand's bound is tight (exact at a
hand's start when no redeal is possible).

The random player asks for a redeal half the time it may (chains of redeals come up)
and claims rarely (a claim ends the hand and the game).
"""

from __future__ import annotations

import os
import random

import pytest

from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.determinize import moves_bound
from mazzo.games.maraffa.options import Options, Series, ThreePlayerForm
from mazzo.games.maraffa.state import Phase, State
from tests.maraffa.determinize_helpers import Form, forms, random_move

MATCHES = max(20, int(os.environ.get("MAZZO_DETERMINIZE_VIEWS", "340")) // 20)
FORMS = [
    *forms(),
    Form("4p-41", 4, Options()),
    Form(
        "3p-deck39-41-series",
        3,
        Options(three_player_form=ThreePlayerForm.DECK39, series=Series.BEST_OF_THREE),
    ),
    Form("2p-41", 2, Options()),
]


def playout(form: Form, rng: random.Random) -> tuple[list[State], list[str]]:
    """A random match: its states before each move, and how each move ended a hand:
    "scored", "claimed", or "" when it did not."""
    state, _ = rules.deal(form.options, form.players, rng.randrange(2**64))
    states, ends = [], []
    while not state.finished:
        states.append(state)
        state, events = rules.apply(state, random_move(state, rng))
        scored = any(isinstance(e, ev.HandScored) for e in events)
        claimed = any(isinstance(e, ev.Claimed) for e in events)
        ends.append("claimed" if claimed else "scored" if scored else "")
    return states, ends


@pytest.mark.parametrize("form", FORMS, ids=[f.name for f in FORMS])
def test_the_bound_is_never_exceeded(form: Form) -> None:
    rng = random.Random(f"bound/{form.name}")
    starts = []
    for _ in range(MATCHES):
        states, ends = playout(form, rng)
        total = len(states)
        left_in_hand = 0
        how = ""
        for t in range(total - 1, -1, -1):
            left_in_hand = 1 if ends[t] else left_in_hand + 1
            how = ends[t] or how
            state = states[t]
            assert moves_bound(state, False) >= left_in_hand
            if t % 5 == 0:
                assert moves_bound(state, True) >= total - t
            if state.phase is Phase.TRUMP and (t == 0 or ends[t - 1]) and how == "scored":
                starts.append((moves_bound(state, False), left_in_hand))
    # Tight for the hand: at the start of the hands played out, within 5% of their length.
    bound = sum(b for b, _ in starts)
    actual = sum(a for _, a in starts)
    assert bound <= 1.05 * actual


def test_a_finished_match_has_no_moves_left() -> None:
    rng = random.Random(3)
    state, _ = rules.deal(Options(target=5), 4, 1)
    while not state.finished:
        state, _ = rules.apply(state, random_move(state, rng))
    assert moves_bound(state, False) == moves_bound(state, True) == 0


def test_a_hand_start_without_redeal_is_exact() -> None:
    """41 moves: the trump and 40 cards (4 players); 40 with 39 cards; 41 with two."""
    for players, options, moves in (
        (4, Options(), 41),
        (3, Options(three_player_form=ThreePlayerForm.DECK39), 40),
        (2, Options(), 41),
    ):
        state, _ = rules.deal(options, players, 5)
        assert moves_bound(state, False) == moves
        assert moves_bound(state, True) > 5 * moves
