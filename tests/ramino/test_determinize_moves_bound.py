"""Ramino's ``moves_bound``: never exceeded, and close enough to be useful.

Seeded random matches of every form (``histories.FORMS``) are played to their end; at
every state the bound to the end of the hand and to the end of the match is compared
with the moves that were actually left (a hand ends at the move whose events hold
``HandEnded``). At the first turn of play of each hand the bound is also compared with
the moves the hand took: the median ratio must stay small (it is 3 to 7 here; the
bound allows the worst case, ``3p`` turns from the pile before every draw).
"""

from __future__ import annotations

import random
import statistics

import pytest

from mazzo.games.ramino import events as ev
from mazzo.games.ramino import rules
from mazzo.games.ramino.determinize import moves_bound
from mazzo.games.ramino.state import Phase, State
from tests.ramino.histories import FORMS, Form


def match(form: Form, seed: int) -> tuple[list[State], list[int]]:
    """The states of a random match, and for each the index of the move that ended its
    hand (the last move for the states of a finished match)."""
    rnd = random.Random(seed)
    state, _ = rules.deal(form.options, form.players, rnd.getrandbits(64))
    states: list[State] = []
    ends: list[int] = []
    open_from = 0
    while not state.finished:
        states.append(state)
        moves = rules.legal_moves(state)
        state, events = rules.apply(state, moves[rnd.randrange(len(moves))])
        if any(isinstance(e, ev.HandEnded) for e in events):
            ends += [len(states)] * (len(states) - open_from)
            open_from = len(states)
    states.append(state)
    ends += [len(states)] * (len(states) - open_from)
    return states, ends


@pytest.mark.parametrize("form", FORMS, ids=[f.name for f in FORMS])
def test_bound_is_never_exceeded(form: Form) -> None:
    ratios = []
    for seed in range(3):
        states, ends = match(form, seed)
        last = len(states) - 1
        for i, state in enumerate(states):
            hand = moves_bound(state, False)
            whole = moves_bound(state, True)
            assert ends[i] - i <= hand or state.finished, (form.name, i)
            assert last - i <= whole, (form.name, i)
            if state.finished:
                assert hand == whole == 0
            started = state.phase is Phase.PLAY and not state.turns and i
            if started and states[i - 1].phase is not Phase.PLAY:  # play begins
                ratios.append(hand / (ends[i] - i))
    if ratios:
        print(form.name, "bound / moves of the hand, at the first turn:", sorted(ratios))
        # the worst case lets 3p turns from the pile come before each draw; random
        # players take from it about one turn in two
        assert statistics.median(ratios) < 8, form.name


def test_match_bound_follows_the_match_hands() -> None:
    """With one decided hand to go and no void hand before, the match bound is this
    hand's bound plus at most ``match_hands - 1`` whole hands (the voids that may come
    before the next decided one)."""
    form = FORMS[0]
    state, _ = rules.deal(form.options, form.players, 1)
    assert state.phase is Phase.BIDDING
    m = form.options.match_hands
    assert m is not None
    hand = moves_bound(state, False)
    whole = moves_bound(state, True)
    assert hand < whole <= hand + (m + (m - 1) * m) * hand
