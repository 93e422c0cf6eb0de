"""Ramino's sampler is uniform: on small positions every deal of the hidden cards that
fits the view is enumerated by brute force, and the samples hit each about as often
(chi-square) and never anything else.

The positions are two-player hands played by a script: seat 0 (the viewer) always
draws from the stock; seat 1 always takes the pile's top card (so the cards he took
and kept are known to be in his hand) and keeps two cards of his deal. Late in the
hand few cards are unknown: his two kept cards and the last cards of the stock.

- ``before``: the deal's stock down to its last cards;
- ``after``: past the reshuffle, the new stock (a known set, the unnamed up card
  aside) down to its last cards. Seat 1 never drew from it, so he cannot hold a card
  that only that stock can have given; which of the reshuffled cards are still in the
  stock must leave the viewer's draws cards he can have drawn.

The brute force tries every assignment of the unknown cards to seat 1's two free
places and to the stock's places, and keeps those for which a hidden deal exists that
replays the hand with the engine (``histories.rebuild`` and ``replay``). After the
reshuffle, the cards of the draws from the new stock are found by a mixed-integer
program that states the replay directly (scipy's HiGHS): every draw takes one card;
the draws from the new stock and the stock left are the reshuffled cards; every
player holds a card before discarding it and never a negative number of copies; the
deal holds two of each card. It shares no code with the sampler.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import lil_matrix
from scipy.stats import chisquare

from mazzo.core.errors import RulesError
from mazzo.games.ramino import rules
from mazzo.games.ramino.cards import CODES, DECK
from mazzo.games.ramino.determinize import determinize
from mazzo.games.ramino.moves import ACCEPT, DRAW, TAKE_DISCARD, Kind, Move, open_bid
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.state import NO_CARD, Phase, Source, State
from mazzo.games.ramino.view import view
from tests.ramino.histories import rebuild, replay

VIEWER, TAKER = 0, 1
PER_DEAL = 25


def scripted(seed: int, reshuffled: int, stock_left: int) -> State:
    """The scripted hand, stopped at the viewer's turn with ``stock_left`` cards in the
    stock after ``reshuffled`` reshuffles."""
    state, _ = rules.deal(Options(first_dealer=TAKER), 2, seed)
    state, _ = rules.apply(state, open_bid(1))
    state, _ = rules.apply(state, ACCEPT)
    rnd = random.Random(seed)
    taken: Counter[int] = Counter()
    while not (
        state.to_act == VIEWER and state.reshuffles == reshuffled and len(state.stock) == stock_left
    ):
        assert state.phase is Phase.PLAY, "the script ran the hand out"
        hand = state.hands[state.to_act]
        if state.to_act == VIEWER:
            state, _ = rules.apply(state, DRAW)
            card = rnd.choice(state.hands[VIEWER])
        else:
            state, _ = rules.apply(state, TAKE_DISCARD)
            just = state.taken_card
            taken[just] += 1
            early = list((Counter(state.hands[TAKER]) - taken).elements())
            if len(early) > 2 and any(c != just for c in early):
                card = rnd.choice([c for c in early if c != just])
            else:
                card = rnd.choice([c for c in taken.elements() if c != just])
                taken[card] -= 1
        del hand
        state, _ = rules.apply(state, Move(Kind.DISCARD, card=card))
    return state


def unknown_cards(state: State) -> tuple[Counter[int], int]:
    """The cards the viewer cannot place, and the taker's hand places they fill."""
    known = Counter(state.hands[VIEWER]) + Counter(state.pile)
    kept = Counter(state.hands[TAKER]) - Counter(free_part(state))
    known += kept
    return Counter(DECK) - known, len(state.hands[TAKER]) - sum(kept.values())


def free_part(state: State) -> tuple[int, ...]:
    """The taker's cards not known from the record: his hand less the cards he took and
    did not discard since (counted code by code along his turns)."""
    balance: Counter[int] = Counter()
    low: Counter[int] = Counter()
    for turn in state.turns:
        if turn.seat == TAKER:
            balance[turn.taken] += 1
            balance[turn.discard] -= 1
            low[turn.discard] = min(low[turn.discard], balance[turn.discard])
    kept = Counter({c: balance[c] - low[c] for c in balance if balance[c] > low[c]})
    return tuple(sorted((Counter(state.hands[TAKER]) - kept).elements()))


def deals(state: State) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every assignment of the unknown cards: (the taker's free cards as a multiset,
    the stock in order)."""
    unknown, places = unknown_cards(state)
    cards = sorted(unknown.elements())
    out = set()
    for chosen in combinations(range(len(cards)), places):
        mine = tuple(cards[i] for i in chosen)
        rest = [cards[i] for i in range(len(cards)) if i not in chosen]
        for order in set(permutations(rest)):
            out.add((mine, order))
    return sorted(out)


def with_deal(state: State, mine: tuple[int, ...], order: tuple[int, ...]) -> State:
    kept = Counter(state.hands[TAKER]) - Counter(free_part(state))
    hands = list(state.hands)
    hands[TAKER] = tuple(sorted((kept + Counter(mine)).elements()))
    return state._replace(hands=tuple(hands), stock=order)


class Replays:
    """The brute force's test for one position: whether a hidden deal replays the hand
    to a candidate state (which differs from the position only in the taker's free
    cards and the stock's cards). After a reshuffle, the cards of the draws from the
    new stock come from a mixed-integer program stating the replay; its rows depend
    on the record only, its bounds on the candidate, so it is built once."""

    def __init__(self, state: State) -> None:
        self.state = state
        if state.reshuffles:
            self._build()

    def __call__(self, candidate: State) -> bool:
        drawn: dict[int, int] | None = {}
        if candidate.reshuffles:
            # quick: the stock holds only reshuffled cards, the unnamed up card aside
            if sum((Counter(candidate.stock) - self.named).values()) > 1:
                return False
            drawn = self.late_draws(candidate)
            if drawn is None:
                return False
        try:
            deal = rebuild(candidate, drawn)
            replay(candidate, deal, VIEWER)
        except (AssertionError, ValueError, RulesError):
            return False
        return True

    def _build(self) -> None:
        state = self.state
        stock = 2 * len(CODES) - 2 * state.table.options.hand_size - 1
        draws: list[tuple[int, int, int]] = []  # (turn, seat, stock number)
        pile: list[int] = [0]
        sets: list[Counter[int]] = []
        for k, turn in enumerate(state.turns):
            if turn.source is Source.PILE:
                assert pile.pop() == turn.taken
            else:
                draws.append((k, turn.seat, len(sets)))
                stock -= 1
            pile.append(turn.discard)
            if not stock:
                sets.append(Counter(pile[:-1]))
                stock, pile = len(pile) - 1, pile[-1:]
        assert len(sets) == 1 and sets[0][0] == 1, "the up card went into the new stock unnamed"
        self.named = sets[0] - Counter({0: 1})
        self.draws = draws
        n, codes = len(draws), len(CODES)
        self.x = lambda d, c: d * codes + (c - 1)
        self.w = lambda c: n * codes + (c - 1)
        x, w = self.x, self.w
        self.size = n * codes + codes
        # rows: (coefficients, kind, key) where kind says how the candidate bounds it
        rows: list[tuple[dict[int, float], str, object]] = []
        for d in range(n):  # every draw takes one card
            rows.append(({x(d, c): 1 for c in CODES}, "one", None))
        rows.append(({w(c): 1 for c in CODES}, "one", None))  # the up card is one card
        for c in CODES:  # the new stock: its draws and what is left are the reshuffled cards
            row = {x(d, c): 1.0 for d, (_, _, s) in enumerate(draws) if s == 1}
            row[w(c)] = -1.0
            rows.append((row, "reshuffled", c))
        starts: dict[tuple[int, int], dict[int, float]] = {}
        for seat in (VIEWER, TAKER):
            for c in CODES:
                # read back: the hand as dealt is the end hand + discards - takes - draws
                row = {x(d, c): -1.0 for d, (_, s, _) in enumerate(draws) if s == seat}
                starts[seat, c] = row
                rows.append((row, "dealt", (seat, c, 0)))  # never negative
                running = dict(row)
                before = 0
                for k, turn in enumerate(state.turns):
                    if turn.seat != seat:
                        continue
                    before += turn.taken == c
                    for d, (kk, s, _) in enumerate(draws):
                        if kk == k and s == seat:
                            running[x(d, c)] = running.get(x(d, c), 0) + 1
                    if turn.discard == c:  # the card is held before its discard
                        rows.append((dict(running), "held", (seat, c, before)))
                    before -= turn.discard == c
        for c in CODES:  # the deal holds two of each card: hands, the deal's stock, up card
            row: dict[int, float] = {}
            for seat in (VIEWER, TAKER):
                for v, a in starts[seat, c].items():
                    row[v] = row.get(v, 0) + a
            for d, (_, _, s) in enumerate(draws):
                if s == 0:
                    row[x(d, c)] = row.get(x(d, c), 0) + 1
            row[w(c)] = row.get(w(c), 0) + 1
            rows.append((row, "deck", c))
        matrix = lil_matrix((len(rows), self.size))
        for r, (row, _, _) in enumerate(rows):
            for v, a in row.items():
                if a:
                    matrix[r, v] = a
        self.matrix = matrix.tocsr()
        self.rows = [(kind, key) for _, kind, key in rows]

    def late_draws(self, candidate: State) -> dict[int, int] | None:
        """The cards of the draws from the new stock (by turn; -1: the up card) with
        which the hand replays to ``candidate``, or None if there are none."""
        left = Counter(candidate.stock)
        dealt: dict[tuple[int, int], int] = {}
        for seat in (VIEWER, TAKER):
            for c in CODES:
                value = candidate.hands[seat].count(c)
                for turn in candidate.turns:
                    if turn.seat == seat:
                        value += (turn.discard == c) - (turn.taken == c)
                dealt[seat, c] = value
        low, high = [], []
        for kind, key in self.rows:
            if kind == "one":
                lo = hi = 1.0
            elif kind == "reshuffled":
                assert isinstance(key, int)
                lo = hi = self.named[key] - left[key]
            elif kind == "dealt":
                assert isinstance(key, tuple)
                lo, hi = -dealt[key[0], key[1]], np.inf
            elif kind == "held":
                assert isinstance(key, tuple)
                seat, c, before = key
                lo, hi = 1 - dealt[seat, c] - before, np.inf
            else:
                assert isinstance(key, int)
                lo = hi = 2 - dealt[VIEWER, key] - dealt[TAKER, key]
            low.append(lo)
            high.append(hi)
        result = milp(
            np.zeros(self.size),
            constraints=LinearConstraint(self.matrix, low, high),
            integrality=np.ones(self.size),
            bounds=Bounds(0, 1),
        )
        if result.status != 0:
            return None
        chosen = np.rint(result.x).astype(int)
        out = {}
        for d, (k, _, s) in enumerate(self.draws):
            if s == 1:
                out[k] = next(c for c in CODES if chosen[self.x(d, c)])
        out[-1] = next(c for c in CODES if chosen[self.w(c)])
        return out


@pytest.mark.parametrize(
    ("name", "seed", "reshuffled", "stock_left"),
    [
        ("before", 7, 0, 3),
        ("before, pairs", 8, 0, 4),
        ("after", 14, 1, 3),
        ("after, pairs", 18, 1, 3),
    ],
)
@pytest.mark.slow
def test_uniform_over_every_fitting_deal(
    name: str, seed: int, reshuffled: int, stock_left: int
) -> None:
    state = scripted(seed, reshuffled, stock_left)
    assert state.turns[0].seat == VIEWER and state.turns[0].source is Source.STOCK
    replays = Replays(state)
    fitting = [d for d in deals(state) if replays(with_deal(state, *d))]
    assert (state.hands[TAKER] and free_part(state), state.stock) and fitting
    assert (free_part(state), state.stock) in fitting, "the real deal fits"
    given = view(state, VIEWER)
    samples = determinize(given, PER_DEAL * len(fitting), 1_000 + seed)
    seen = Counter((free_part(s), s.stock) for s in samples)
    assert set(seen) <= set(fitting), "every sample is a deal that fits"
    counts = [seen[d] for d in fitting]
    assert chisquare(counts).pvalue > 0.001, (name, len(fitting), counts)
    assert NO_CARD not in given.pile
