"""Observations read like the table: the viewer's cards, who played what, by seats
counted from the viewer."""

from __future__ import annotations

import numpy as np

from mazzo.games.burraco.encoding import CODES
from mazzo.games.burraco.encoding import LAYOUT as BURRACO
from mazzo.games.burraco.moves import DRAW
from mazzo.games.burraco.moves import discard as burraco_discard
from mazzo.games.maraffa.encoding import INDEX
from mazzo.games.maraffa.encoding import LAYOUT as MARAFFA
from mazzo.games.ramino.encoding import LAYOUT as RAMINO
from mazzo.rl import MazzoEnv
from mazzo.rl.layout import Layout


def block(layout: Layout, obs: np.ndarray, name: str) -> np.ndarray:
    b = layout.block(name)
    return obs[b.offset : b.offset + b.size]


def test_maraffa_shows_the_hand_and_who_played_each_card_from_the_viewers_seat() -> None:
    env = MazzoEnv(game="maraffa", players=4)
    env.reset(seed=3)
    rules = env.rules
    state = env.match_state
    state, _ = rules.apply(state, rules.legal_moves(state)[0])  # trumps
    leader = rules.to_act(state)
    lead = rules.legal_moves(state)[0]
    env.set_state(rules.apply(state, lead)[0])
    for viewer in range(4):
        obs = env.observe(f"player_{viewer}")["observation"]
        hand = rules.view(env.match_state, viewer).hand
        assert np.flatnonzero(block(MARAFFA, obs, "hand")).tolist() == sorted(
            INDEX[c] for c in hand
        )
        trick = block(MARAFFA, obs, "trick").reshape(5, 40)
        assert np.flatnonzero(trick).tolist() == [((leader - viewer) % 4) * 40 + INDEX[lead.card]]
        to_act = block(MARAFFA, obs, "to_act")
        assert np.flatnonzero(to_act).tolist() == [(leader + 1 - viewer) % 4]


def test_burraco_counts_a_discard_against_the_seat_that_made_it() -> None:
    env = MazzoEnv(game="burraco", players=2)
    env.reset(seed=4)
    rules = env.rules
    state, _ = rules.apply(env.match_state, DRAW)
    seat = rules.to_act(state)
    card = state.hands[seat][0]
    env.set_state(rules.apply(state, burraco_discard(card))[0])
    for viewer in range(2):
        obs = env.observe(f"player_{viewer}")["observation"]
        discards = block(BURRACO, obs, "discards").reshape(4, CODES)
        r = (seat - viewer) % 2
        assert discards[r, card - 1] == 1.0 / (4 if card == 53 else 2)
        assert np.count_nonzero(discards) == 1
        assert block(BURRACO, obs, "pile_top")[card - 1] == 1.0


def test_ramino_counts_copies_in_the_hand_by_halves() -> None:
    env = MazzoEnv(game="ramino", players=3)
    env.reset(seed=5)
    for viewer in range(3):
        obs = env.observe(f"player_{viewer}")["observation"]
        hand = env.rules.view(env.match_state, viewer).hand
        counts = block(RAMINO, obs, "hand") * 2
        assert counts.sum() == len(hand)
        assert all(counts[c - 1] == hand.count(c) for c in hand)
