"""Determinize is uniform: on small positions late in a hand, every deal of the hidden
cards to the hidden places (hands, then the 2-player stock's order) is enumerated by
brute force, each kept only if it passes the replay test (the hand's public moves
all legal from that deal, and the view given back): no code of the sampler is used.
Then 20 samples per consistent deal are drawn, every sample must be one of them,
and a chi-square test on the counts must not reject "all equally likely" at
p = 0.001.

The positions are found in seeded random play, each chosen for a constraint it
exercises: a void shown (every form), cards the 2-player form showed on drawing,
a checked signal's truth condition, the marafona declared or (declaring being
automatic) not declared, and 4D with the battezzante in hand 1.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from scipy.stats import chisquare

from mazzo.core.cards import card, code
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import MARAFONA, SUIT, cards_of
from mazzo.games.maraffa.determinize import determinize
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import MarafonaRule, Options, SignalSet, ThreePlayerForm
from mazzo.games.maraffa.state import NO_SEAT, Phase
from mazzo.games.maraffa.view import View, view
from tests.maraffa.determinize_helpers import (
    all_deals,
    consistent,
    hidden_places,
    public_plays,
    random_move,
)

PER_DEAL = 20
#: Brute force: at most this many assignments of the hidden cards per position.
MOST = 1500


def raw_deals(v: View) -> int:
    """How many assignments the brute force will try (hands as sets, stock in order)."""
    _, sizes, cards, _ = hidden_places(v)
    n = len(cards)
    ways = math.factorial(n)
    for size in sizes[:-1] if v.table.seats == 2 else sizes:
        ways //= math.factorial(size)
    return ways


def hidden_seats(v: View) -> set[int]:
    return {s for s in hidden_places(v)[0] if s >= 0}


def shows_void(v: View) -> bool:
    """A hidden seat did not follow the led suit."""
    seats = v.table.seats
    for trick in (*v.tricks, v.trick):
        for i, c in enumerate(trick.cards):
            if (
                i
                and SUIT[c] != SUIT[trick.cards[0]]
                and (trick.leader + i) % seats in hidden_seats(v)
            ):
                return True
    return False


def holds_drawn(v: View) -> bool:
    return bool(hidden_places(v)[3]) and v.stock_size >= 2 and shows_void(v)


def checked_signal(v: View) -> bool:
    """A hidden seat led with a checked STRISCIO or RISTRISCIO (§3.5) that the cards it
    played since do not make true: the truth lies in its hidden cards."""
    hidden = hidden_seats(v)
    cards = hidden_places(v)[2]
    plays = public_plays(v)
    for k, (seat, led, signal, trick) in enumerate(plays):
        if signal not in (Signal.STRISCIO, Signal.RISTRISCIO) or seat not in hidden:
            continue
        if k and plays[k - 1][3] == trick:
            continue  # not a lead
        later = [p[1] for p in plays[k + 1 :] if p[0] == seat and SUIT[p[1]] == SUIT[led]]
        low = "KQJ7654" if signal == Signal.STRISCIO else "A234567JQK"
        later = [c for c in later if code(c)[0] in low]
        need = 1 if signal == Signal.STRISCIO else 2
        pool = [c for c in cards if SUIT[c] == SUIT[led] and code(c)[0] in low]
        if len(later) < need and len(pool) > need - len(later):
            return True
    return False


def tops_hidden(v: View) -> list[int]:
    cards = hidden_places(v)[2]
    return [c for c in cards_of(MARAFONA[v.trump]) if c in cards] if v.trump >= 0 else []


def not_declared(v: View) -> bool:
    """Declaring is automatic, nobody declared, and a hidden seat that played to trick 1
    could have held all three top trumps as far as the cards shown go."""
    if v.marafona_seat != NO_SEAT or not tops_hidden(v):
        return False
    plays = public_plays(v)
    for s in hidden_seats(v):
        if any(p[0] == s and p[3] == 0 for p in plays):
            tops = set(cards_of(MARAFONA[v.trump]))
            shown = [p for p in plays if p[1] in tops]
            if all(p[0] == s for p in shown) and not tops & set(v.hand):
                return True
    return False


def declared(v: View) -> bool:
    """A hidden seat declared the marafona, a top trump is still hidden, and another
    hidden seat shows no void in trumps: only the declaration places that card."""
    hidden = hidden_seats(v)
    if v.marafona_seat not in hidden or not tops_hidden(v):
        return False
    seats = v.table.seats
    void = set()
    for trick in (*v.tricks, v.trick):
        for i, c in enumerate(trick.cards):
            if i and SUIT[trick.cards[0]] == v.trump and SUIT[c] != v.trump:
                void.add((trick.leader + i) % seats)
    return any(s != v.marafona_seat and s not in void for s in hidden)


def four_of_coins(v: View) -> bool:
    four = card("4D")
    return (
        v.table.hand_number == 1
        and four in hidden_places(v)[2]
        and v.table.battezzante in hidden_seats(v)
        and len(hidden_seats(v)) >= 2
    )


CASES: list[tuple[str, int, Options, Callable[[View], bool]]] = [
    ("4p-void", 4, Options(), shows_void),
    ("4p-4D-hand-1", 4, Options(), four_of_coins),
    ("3p-dummy-void", 3, Options(dummy_seat=1), shows_void),
    ("3p-deck39-void", 3, Options(three_player_form=ThreePlayerForm.DECK39), shows_void),
    ("2p-drawn-void", 2, Options(), holds_drawn),
    (
        "4p-checked-signal",
        4,
        Options(signals=SignalSet.EXTENDED, signals_checked=True),
        checked_signal,
    ),
    ("4p-marafona-declared", 4, Options(), declared),
    (
        "4p-auto-not-declared",
        4,
        Options(marafona_auto_declare=True, marafona_rule=MarafonaRule.ANY_HOLDER_FIRST_TRICK),
        not_declared,
    ),
]


@cache
def find_position(
    name: str, players: int, options: Options, wanted: Callable[[View], bool]
) -> tuple[View, int, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """The first view of seeded random play that shows ``wanted``, has at most ``MOST``
    assignments, and whose consistent deals are between 3 and 150, fewer than all."""
    rng = random.Random(f"uniform/{name}")
    for _ in range(4000):
        state, _ = rules.deal(options, players, rng.randrange(2**64))
        while not state.finished and state.table.hand_number == 1:
            if state.phase is Phase.PLAY:
                for seat in range(state.table.seats):
                    v = view(state, seat)
                    if not wanted(v) or not 3 <= raw_deals(v) <= MOST:
                        continue
                    deals = [d for d in all_deals(v) if consistent(v, seat, *d)]
                    if 3 <= len(deals) <= 150 and len(deals) < raw_deals(v):
                        return v, seat, deals
            state, _ = rules.apply(state, random_move(state, rng))
    raise AssertionError(f"no position found for {name}")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_consistent_deal_is_equally_likely(
    case: tuple[str, int, Options, Callable[[View], bool]],
) -> None:
    name, players, options, wanted = case
    v, _, deals = find_position(name, players, options, wanted)
    draws = PER_DEAL * len(deals)
    counts: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    seed = 0
    while draws:
        batch = min(draws, 1024)
        for sample in determinize(v, batch, seed):
            counts[sample.hands, sample.stock] += 1
        draws -= batch
        seed += 1
    assert set(counts) <= set(deals), "a sample is not a consistent deal"
    _, p = chisquare([counts[d] for d in deals])
    assert p > 0.001, (name, len(deals), p)


def test_the_positions_are_constrained() -> None:
    """The brute force's filter is not idle: in each position some assignments are
    refused (that is what the positions were chosen for)."""
    for case in CASES:
        v, _, deals = find_position(*case)
        assert len(deals) < raw_deals(v)
        sizes = [h.bit_count() for h in deals[0][0]]
        assert sizes == list(v.hand_sizes)
