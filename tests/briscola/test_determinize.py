"""Determinize (briscola.md §7.4): every sample gives back the view, the samples are
deterministic and keep their prefix, impossible views are refused naming the field,
and the samples are uniform over the deals the view allows (brute force and a
chi-square test)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from scipy.stats import chisquare

from mazzo.core.errors import InvalidArgument
from mazzo.games.briscola.determinize import determinize
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import NO_SEAT, State, Trick
from mazzo.games.briscola.validate import validate
from mazzo.games.briscola.view import View, view
from tests.briscola.helpers import dealt, match_positions, random_play


def positions() -> list[State]:
    out = []
    for players in (2, 3, 4):
        for seed in range(4):
            options = Options(hands_to_win=2, partners_show_hands=players == 4 and seed % 2 == 1)
            out += match_positions(players, seed, options, 8)
    return out


def test_every_sample_gives_back_the_view() -> None:
    for state in positions():
        for seat in range(state.table.players):
            v = view(state, seat)
            for sample in determinize(v, 3, 17):
                validate(sample)
                assert view(sample, seat) == v


def test_deterministic_with_the_prefix_property() -> None:
    for state in positions()[::7]:
        v = view(state, 0)
        five = determinize(v, 5, 99)
        assert determinize(v, 5, 99) == five
        assert determinize(v, 2, 99) == five[:2]
        assert determinize(v, 0, 99) == []
        if state.stock and len(state.stock) > 3:
            assert determinize(v, 5, 100) != five


def test_the_sample_knows_who_holds_the_trump_card() -> None:
    state = random_play(dealt(2, 4), 34, random.Random(4))  # the trump card just drawn
    holder = next(s for s in (0, 1) if state.trump_card in state.hands[s])
    for sample in determinize(view(state, 1 - holder), 20, 3):
        assert state.trump_card in sample.hands[holder]


def broken(v: View, **fields: object) -> View:
    return v._replace(**fields)


def test_impossible_views_are_refused_naming_the_field() -> None:
    state = random_play(dealt(4, 6), 9, random.Random(6))  # two tricks and one card
    v = view(state, 1)
    t0 = v.tricks[0]
    cases = [
        (broken(v, seat=4), "view.seat"),
        (broken(v, players=3), "view.players"),
        (broken(v, stock_size=v.stock_size - 4), "view.briscola.stock_size"),
        (
            broken(v, hand_sizes=(*v.hand_sizes[:1], 0, *v.hand_sizes[2:])),
            "view.briscola.hand_sizes[1]",
        ),
        (broken(v, hand=v.hand[1:]), "view.briscola.hand"),
        (
            broken(v, tricks=(t0._replace(winner=(t0.winner + 1) % 4), *v.tricks[1:])),
            "view.briscola.tricks[0].winner",
        ),
        (
            broken(v, tricks=(t0._replace(leader=(t0.leader + 1) % 4), *v.tricks[1:])),
            "view.briscola.tricks[0].leader",
        ),
        (
            broken(v, trick=Trick(v.trick.leader, (v.tricks[0].cards[0],))),
            "view.briscola.current_trick.cards[0]",
        ),
        (broken(v, trump_card_taker=2), "view.briscola.trump_card_taker"),
        (
            broken(v, hand=tuple(sorted((*v.hand[1:], v.trump_card)))),
            "view.briscola.trump_card",
        ),
        (broken(v, to_act=(v.to_act + 1) % 4), "view.to_act"),
        (broken(v, points=(0, 0)), "view.briscola.points"),
        (broken(v, partner_hand=v.hand), "view.briscola.partner_hand"),
        (broken(v, table=v.table._replace(dealer=9)), "view.briscola.table.dealer"),
    ]
    for bad, field in cases:
        with pytest.raises(InvalidArgument) as caught:
            determinize(bad, 1, 1)
        assert caught.value.field == field, (field, caught.value)


def _deal_key(state: State, seat: int) -> tuple[object, ...]:
    return (tuple(h for s, h in enumerate(state.hands) if s != seat), state.stock)


def test_uniform_over_every_deal_the_view_allows() -> None:
    """Two players after trick 15: the other hand (3 cards) and the stock above the
    trump card (3 cards, in order) hide six cards, 20 x 6 = 120 deals. The brute force
    lays every permutation of the hidden cards into those places and keeps those whose
    view is the given one; every sample must be one of them, and the counts of 4,800
    samples must not reject "all equally likely" at p = 0.001."""
    state = random_play(dealt(2, 21), 30, random.Random(21))
    assert len(state.stock) == 4
    seat = state.to_act
    v = view(state, seat)
    hidden = sorted({*state.hands[1 - seat], *state.stock[:-1]})
    assert len(hidden) == 6
    allowed = set()
    for perm in itertools.permutations(hidden):
        hands = list(state.hands)
        hands[1 - seat] = tuple(sorted(perm[:3]))
        other = state._replace(hands=tuple(hands), stock=(*perm[3:], state.trump_card))
        if view(other, seat) == v:
            allowed.add(_deal_key(other, seat))
    assert len(allowed) == 120
    per_deal = 40
    counts = Counter(_deal_key(s, seat) for s in determinize(v, per_deal * 120, 5))
    assert set(counts) == allowed
    assert chisquare(list(counts.values())).pvalue > 0.001


def test_uniform_with_a_hidden_trump_card_holder() -> None:
    """Four players after trick 8: seat 2 took the trump card; three hidden hands."""
    state = random_play(dealt(4, 2), 32, random.Random(2))
    assert not state.stock
    v = view(state, 0)
    taker = v.trump_card_taker
    assert taker != NO_SEAT
    counts: Counter[tuple[object, ...]] = Counter()
    for sample in determinize(v, 3000, 8):
        assert v.trump_card in sample.hands[taker] or v.trump_card in sample.played
        counts[_deal_key(sample, 0)] += 1
    # The hidden cards: 2 + 2 + 2 less the known trump card if not yet played.
    assert len(counts) in (30, 90)
    assert chisquare(list(counts.values())).pvalue > 0.001
