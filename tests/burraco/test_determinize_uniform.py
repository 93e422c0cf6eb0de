"""Determinize for Burraco is uniform: every deal the view allows, equally often.

Small positions late in a hand, where every consistent deal can be listed by brute
force: every assignment of the cards the viewer does not see (the other hands whole,
cards taken with the pile included, then the stock in order) is built and kept if it
passes the replay test of ``determinize_support`` and gives back the view. No code of
the sampler is used for that. The sampler then draws 20 samples per consistent deal;
each must be one of them, and a chi-square test of the counts must not reject
uniformity at p = 0.001.

The positions (found by random play, pinned by their seeds) exercise the constraints:
cards known from pile pick-ups in every one; a seat to act that picked up a one-card
pile and holds two cards (not both of the forbidden code); a seat to act holding one
card after his side took its pozzetto (not a wild card, §3.5 and §8); each form.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations
from typing import NamedTuple

import pytest
from scipy.stats import chisquare

from mazzo.core.errors import InvalidState
from mazzo.games.burraco.cards import DECK
from mazzo.games.burraco.determinize import determinize
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import View, view
from tests.burraco.determinize_support import FORMS, play, replay_ok

PER_DEAL = 20


class Position(NamedTuple):
    form: int
    match: int
    hand: int
    move: int
    seat: int
    #: The seat to act holds two cards, one the forbidden discard; or one card.
    forbidden: bool = False
    single: bool = False
    #: The legal-discard rule rules out deals here (some unseen card would break it).
    bites: bool = True


POSITIONS = [
    # Cards known from pick-ups only.
    Position(0, 10, 0, 240, 1, forbidden=True, bites=False),
    # The seat to act picked up a one-card pile and holds two cards.
    Position(1, 1289, 0, 170, 0, forbidden=True),
    Position(3, 1260, 0, 192, 0, forbidden=True),
    # The seat to act holds one card (his side has its pozzetto: not a wild).
    Position(2, 983, 1, 200, 0, single=True),
    Position(1, 88, 1, 175, 2, single=True),
    Position(3, 1245, 0, 172, 0, single=True),
]


def position(p: Position) -> State:
    form = FORMS[p.form]
    rnd = random.Random(f"unif {form.players} {form.name} {p.match}")
    return play(form, rnd, 0.97)[p.hand][p.move]


Deal = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def deal_of(state: State, seat: int) -> Deal:
    return tuple(h for s, h in enumerate(state.hands) if s != seat), state.stock


def multisets(cards: list[int], size: int) -> set[tuple[int, ...]]:
    return set(combinations(sorted(cards), size))


def brute_force(v: View, template: State) -> tuple[set[Deal], Counter[str]]:
    """Every deal of the unseen cards to the other hands and the stock that gives back
    ``v``, passes the replay test and is a valid state (the pozzetti are all taken in
    these positions); and how many deals each of the last two tests turned down (a
    deal that leaves the seat to act no legal discard fails both: the move that left
    him his cards was not legal either)."""
    seen = Counter(v.hand)
    seen.update(v.pile)
    for m in v.melds:
        seen.update(m.cards)
    unseen = list((Counter(DECK) - seen).elements())
    others = [s for s in range(v.players) if s != v.seat]
    consistent: set[Deal] = set()
    refused: Counter[str] = Counter()
    rnd = random.Random(0)

    def place(i: int, left: list[int], hands: dict[int, tuple[int, ...]]) -> None:
        if i == len(others):
            for stock in set(permutations(left)):
                all_hands = tuple(hands.get(s, v.hand) for s in range(v.players))
                state = template._replace(hands=all_hands, stock=stock)
                if view(state, v.seat) != v:
                    continue
                replayed = replay_ok(state, v.seat, rnd) is None
                try:
                    validate(state)
                    valid = True
                except InvalidState:
                    valid = False
                refused["replay"] += not replayed
                refused["validate"] += not valid
                if replayed and valid:
                    consistent.add(deal_of(state, v.seat))
            return
        s = others[i]
        for hand in multisets(left, v.hand_sizes[s]):
            rest = list((Counter(left) - Counter(hand)).elements())
            place(i + 1, rest, {**hands, s: hand})

    place(0, unseen, {})
    return consistent, refused


@pytest.mark.parametrize("p", POSITIONS, ids=[f"{FORMS[p.form].name}-{p.match}" for p in POSITIONS])
def test_uniform(p: Position) -> None:
    state = position(p)
    v = view(state, p.seat)
    assert all(t >= 0 for t in state.takers), "every pozzetto taken"
    assert state.stage is Stage.MELD and state.to_act != p.seat
    assert any(type(e).__name__ == "PileTaken" for e in state.log)
    holder = state.hands[state.to_act]
    if p.forbidden:
        assert state.forbidden and len(holder) == 2 and state.forbidden in holder
    if p.single:
        assert len(holder) == 1
    deals, refused = brute_force(v, state)
    assert deal_of(state, p.seat) in deals
    # The cards known from the pile, and the legal-discard rule, do rule deals out.
    assert refused["replay"] > 0
    if p.bites:
        assert refused["validate"] > 0
    samples = determinize(v, PER_DEAL * len(deals), 20260101 + p.match)
    counts = Counter(deal_of(s, p.seat) for s in samples)
    assert set(counts) <= deals, "a sample outside the consistent deals"
    observed = [counts[d] for d in sorted(deals)]
    result = chisquare(observed)
    print(
        f"\n{FORMS[p.form].name}: {len(deals)} deals ({dict(refused)} refused), "
        f"{len(samples)} samples, "
        f"p = {result.pvalue:.3f}"
    )
    assert result.pvalue > 0.001
