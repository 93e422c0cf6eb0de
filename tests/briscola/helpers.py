"""Positions for the Briscola tests: deals from a given deck, and seeded random play."""

from __future__ import annotations

import random

from mazzo.core.cards import cards
from mazzo.games.briscola import rules
from mazzo.games.briscola.cards import DECK
from mazzo.games.briscola.options import Options, sides_of
from mazzo.games.briscola.state import State, Table


def table(players: int, dealer: int = 0, options: Options | None = None) -> Table:
    return Table(options or Options(), players, 1, 1, dealer, 1, (0,) * sides_of(players))


def lay(players: int, top: str, dealer: int = 0, options: Options | None = None) -> State:
    """Hand 1 dealt from a deck whose first cards are ``top``, the rest in canonical
    order (briscola.md §6): no seed involved."""
    options = options or Options()
    first = list(cards(top))
    rest = [c for c in DECK if c not in first and not (players == 3 and c == options.removed_two)]
    return rules.lay_out(table(players, dealer, options), first + rest)[0]


def play_first(state: State, moves: int) -> State:
    """``moves`` plays, each of the first card of the hand in canonical order."""
    for _ in range(moves):
        state = rules.apply(state, rules.legal_moves(state)[0])[0]
    return state


def random_play(state: State, moves: int, rng: random.Random) -> State:
    for _ in range(moves):
        if state.finished:
            break
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))[0]
    return state


def dealt(players: int, seed: int = 11, options: Options | None = None) -> State:
    return rules.deal(options or Options(), players, seed)[0]


def match_positions(players: int, seed: int, options: Options, most: int) -> list[State]:
    """Every few moves (1 to ``most``, seeded) of a whole random match, the finished
    one included."""
    rng = random.Random(seed)
    state = dealt(players, seed, options)
    out = []
    while not state.finished:
        out.append(state)
        state = random_play(state, rng.randrange(1, most + 1), rng)
    out.append(state)
    return out
