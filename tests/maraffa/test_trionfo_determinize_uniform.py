"""Determinize for Trionfo is uniform: every deal the view allows is equally likely.

Late in a deal few cards are unseen, so every way of giving them to the other four
hands (of the right sizes) can be tried: each is replayed from the start of the hand
through the hand's public moves (``trionfo_replay``, which shares no code with the
sampler), and those that make every move legal and give the view back are the deals
the view allows. The sampler must draw only those, each about equally often: with at
least 25 samples per deal (hundreds of deals per position), a chi-square test must
not reject uniformity at p = 0.001.

The positions (found in seeded random play) are chosen for the constraints they
exercise: a seat that showed a void, the called card whose holder is hidden, deal 1's
first speaker's card, and ``trionfo_stop_when_decided`` ruling partners out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations
from math import factorial

import pytest
from scipy.stats import chisquare

from mazzo.games.maraffa.cards import DECK, SUIT
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.trionfo.state import NO_SEAT, SEATS, TPhase, TrionfoState
from mazzo.games.maraffa.trionfo.view import TrionfoView, view
from tests.maraffa.trionfo_replay import random_states, replay_agrees

PER_DEAL = 25
MAX_ASSIGNMENTS = 6000

Hands = tuple[int, ...]


def _plays(v: TrionfoView) -> list[tuple[int, int]]:
    return [
        ((t.leader + i) % SEATS, c) for t in (*v.tricks, v.trick) for i, c in enumerate(t.cards)
    ]


def unseen_cards(v: TrionfoView) -> list[int]:
    seen = set(v.hand) | {c for _, c in _plays(v)}
    return [c for c in DECK if c not in seen]


def assignments(v: TrionfoView) -> int:
    """Ways to give the unseen cards to the other hands, ignoring every constraint."""
    ways = factorial(len(unseen_cards(v)))
    for s in range(SEATS):
        if s != v.seat:
            ways //= factorial(v.hand_sizes[s])
    return ways


def every_assignment(v: TrionfoView) -> Iterator[TrionfoState]:
    """Every placement of the unseen cards in the other hands, as a whole state."""
    others = [s for s in range(SEATS) if s != v.seat]
    played = tuple(c for t in (*v.tricks, v.trick) for c in t.cards)
    signals = tuple(x for t in (*v.tricks, v.trick) for x in t.signals)

    def place(i: int, left: list[int], hands: list[int]) -> Iterator[list[int]]:
        if i == len(others):
            yield hands
            return
        for chosen in combinations(left, v.hand_sizes[others[i]]):
            mask = sum(1 << DECK.index(c) for c in chosen)
            rest = [c for c in left if c not in chosen]
            yield from place(i + 1, rest, [*hands[: others[i]], mask, *hands[others[i] + 1 :]])

    own = sum(1 << DECK.index(c) for c in v.hand)
    start = [own if s == v.seat else 0 for s in range(SEATS)]
    for hands in place(0, unseen_cards(v), start):
        yield TrionfoState(
            table=v.table._replace(seed=1, counter=v.table.deal_number + 1),
            phase=v.phase,
            to_act=v.to_act,
            hands=tuple(hands),
            bids=tuple(level for _, level in v.speeches),
            trump=v.trump,
            called_card=v.called_card,
            played=played,
            signals=signals,
        )


def allowed_deals(v: TrionfoView) -> tuple[set[Hands], int]:
    """The deals the view allows (by brute force and replay), and how many were tried."""
    allowed = set()
    tried = 0
    for state in every_assignment(v):
        tried += 1
        if replay_agrees(state, v) is None:
            allowed.add(state.hands)
    return allowed, tried


def voids(v: TrionfoView) -> set[tuple[int, int]]:
    """(seat, suit) for every seat that did not follow a suit led."""
    out = set()
    for t in (*v.tricks, v.trick):
        for i, c in enumerate(t.cards):
            if SUIT[c] != SUIT[t.cards[0]]:
                out.add(((t.leader + i) % SEATS, SUIT[t.cards[0]]))
    return out


def a_void_bites(v: TrionfoView) -> bool:
    """Another seat showed a void in a suit of which some cards are unseen."""
    suits = {SUIT[c] for c in unseen_cards(v)}
    return any(s != v.seat and suit in suits for s, suit in voids(v))


def amico_hidden(v: TrionfoView) -> bool:
    return v.contract == Contract.CHIAMO and v.amico == NO_SEAT


def first_card_unseen(v: TrionfoView) -> bool:
    return (
        v.table.deal_number == 1
        and v.table.options.trionfo_first_speaker_card in unseen_cards(v)
        and v.table.first_speaker != v.seat
    )


def small(v: TrionfoView) -> bool:
    return v.phase is TPhase.PLAY and 500 <= assignments(v) <= MAX_ASSIGNMENTS


POSITIONS: dict[str, tuple[int, Callable[[TrionfoView], bool]]] = {
    "a void shown, the amico hidden": (1, lambda v: a_void_bites(v) and amico_hidden(v)),
    "deal 1's first speaker's card unseen, a void shown": (
        2,
        lambda v: first_card_unseen(v) and a_void_bites(v),
    ),
    "stop_when_decided, the amico hidden": (
        3,
        lambda v: v.table.options.trionfo_stop_when_decided and amico_hidden(v),
    ),
}


def find(seed: int, wanted: Callable[[TrionfoView], bool]) -> TrionfoView:
    for state in random_states(seed):
        for seat in range(SEATS):
            v = view(state, seat)
            if small(v) and wanted(v):
                return v
    raise AssertionError("unreachable")


def check_uniform(v: TrionfoView, allowed: set[Hands], seed: int) -> None:
    deals = sorted(allowed)
    assert len(deals) > 1
    samples = RULES.determinize(v, PER_DEAL * len(deals), seed)
    counts = Counter(s.hands for s in samples)
    assert set(counts) <= allowed, "a sample is a deal the view does not allow"
    result = chisquare([counts[d] for d in deals])
    assert result.pvalue > 0.001, (len(deals), result)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_allowed_deal_is_equally_likely(name: str) -> None:
    seed, wanted = POSITIONS[name]
    v = find(seed, wanted)
    allowed, tried = allowed_deals(v)
    # The constraints bite: some placements are not allowed.
    assert len(allowed) < tried
    check_uniform(v, allowed, seed)


def test_stop_when_decided_position_rules_a_partner_out() -> None:
    """A late position where, with ``trionfo_stop_when_decided``, the deal still being
    played tells that some seat (not void in the called card's suit) is not the amico;
    the same position without the option allows it."""

    def excluded(v: TrionfoView, allowed: set[Hands]) -> set[int]:
        bit = 1 << DECK.index(v.called_card)
        holders = {s for hands in allowed for s in range(SEATS) if hands[s] & bit}
        void = {s for s, suit in voids(v) if suit == SUIT[v.called_card]}
        return set(range(SEATS)) - {v.seat} - void - holders

    def wanted(v: TrionfoView) -> bool:
        return (
            v.table.options.trionfo_stop_when_decided
            and amico_hidden(v)
            and v.called_card in unseen_cards(v)
            and assignments(v) <= 1000
        )

    for state in random_states(9):
        for seat in range(SEATS):
            v = view(state, seat)
            if not (small(v) and wanted(v)):
                continue
            allowed, _ = allowed_deals(v)
            out = excluded(v, allowed)
            if out:
                check_uniform(v, allowed, 9)
                options = replace(v.table.options, trionfo_stop_when_decided=False)
                loose, _ = allowed_deals(v._replace(table=v.table._replace(options=options)))
                assert allowed < loose
                assert not out & excluded(v, loose)
                return
    raise AssertionError("unreachable")
