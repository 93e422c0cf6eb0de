"""Briscola's encoding (docs/rl.md, "Briscola"): one action per card and back, the
legal moves of any position as distinct actions, observations within their bounds,
read like the table, and a function of the seat's view alone."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from mazzo.core.cards import card
from mazzo.games.briscola import rules
from mazzo.games.briscola.cards import DECK, TOTAL_POINTS
from mazzo.games.briscola.determinize import determinize
from mazzo.games.briscola.encoding import ACTIONS, BRISCOLA, INDEX, LAYOUT
from mazzo.games.briscola.moves import PlayCard, parse
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import State
from mazzo.games.briscola.view import view
from tests.briscola.helpers import dealt, lay, match_positions, play_first, random_play

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def positions() -> list[State]:
    """Positions of whole random matches (two hands to win), every form and option
    that changes what a seat sees, the finished match included."""
    out = []
    for players in (2, 3, 4):
        for seed in range(3):
            options = Options(
                hands_to_win=2,
                removed_two=card("2H") if players == 3 and seed == 1 else card("2C"),
                partners_show_hands=players == 4 and seed != 1,
            )
            out += match_positions(players, seed, options, 5)
    return out


POSITIONS = positions()


def block(obs: np.ndarray, name: str) -> np.ndarray:
    b = LAYOUT.block(name)
    return obs[b.offset : b.offset + b.size]


def test_every_action_names_a_move_that_names_it_back() -> None:
    moves = [BRISCOLA.move_of(a) for a in range(ACTIONS)]
    assert ACTIONS == len(DECK) == 40
    assert [BRISCOLA.action_of(m) for m in moves] == list(range(ACTIONS))
    assert [m.card for m in moves] == list(DECK)
    assert BRISCOLA.action_of(parse("play AS")) == 0
    assert BRISCOLA.action_of(parse("play KC")) == 39
    for outside in (-1, ACTIONS):
        with pytest.raises(ValueError, match=r"0\.\.39"):
            BRISCOLA.move_of(outside)
    assert BRISCOLA.action_of(PlayCard(card("7D"))) == INDEX[card("7D")]  # not interned
    for foreign in (None, "play AS", PlayCard(card("8S"))):  # 8S: not in the pack
        with pytest.raises(ValueError, match="not a Briscola move"):
            BRISCOLA.action_of(foreign)


def test_the_legal_moves_of_any_position_are_distinct_actions_and_back() -> None:
    counts = {2: 0, 3: 0, 4: 0}
    for state in POSITIONS:
        legal = rules.legal_moves(state)
        actions = [BRISCOLA.action_of(m) for m in legal]
        assert len(set(actions)) == len(actions)
        assert all(0 <= a < ACTIONS for a in actions)
        assert all(BRISCOLA.move_of(a) is m for a, m in zip(actions, legal, strict=True))
        assert sorted(actions) == sorted(INDEX[c] for c in state.hands[state.to_act]) or (
            state.finished and actions == []
        )
        counts[state.players] += len(legal) > 0
    assert min(counts.values()) > 30, counts


def test_observations_are_within_the_layouts_bounds() -> None:
    low, high = LAYOUT.bounds()
    assert low.shape == high.shape == (LAYOUT.size,)
    for state in POSITIONS:
        for seat in range(state.players):
            obs = BRISCOLA.observe(view(state, seat))
            assert obs.dtype == np.float32 and obs.shape == (LAYOUT.size,)
            assert np.all(low <= obs) and np.all(obs <= high), (state, seat)


def test_the_observation_does_not_change_when_the_hidden_cards_do() -> None:
    """Determinize deals the cards a seat cannot see anew, keeping its view: the
    observation must stay the same, number for number."""
    changed = 0
    for i, state in enumerate(POSITIONS[::3]):
        for seat in range(state.players):
            v = view(state, seat)
            obs = BRISCOLA.observe(v)
            for sample in determinize(v, 2, i):
                assert view(sample, seat) == v
                assert np.array_equal(BRISCOLA.observe(view(sample, seat)), obs)
                changed += (sample.hands, sample.stock) != (state.hands, state.stock)
    assert changed > 100, "the samples hardly differed from the states: the test saw little"


def test_the_observation_reads_like_the_table() -> None:
    """Three players, dealer 0: seat 1 leads; two cards of trick 1 played."""
    state = lay(3, "AS 2S 3S 4H 5H 6H 7D JD QD KC")
    state = play_first(state, 2)  # seat 1 plays AS, seat 2 plays 4H
    for seat in range(3):
        obs = BRISCOLA.observe(view(state, seat))
        hand = np.flatnonzero(block(obs, "hand")).tolist()
        assert hand == sorted(INDEX[c] for c in state.hands[seat])
        trick = block(obs, "trick").reshape(4, 40)
        assert np.flatnonzero(trick).tolist() == sorted(
            [((1 - seat) % 3) * 40 + INDEX[card("AS")], ((2 - seat) % 3) * 40 + INDEX[card("4H")]]
        )
        assert np.flatnonzero(block(obs, "trump_card")).tolist() == [INDEX[card("KC")]]
        assert np.flatnonzero(block(obs, "trump")).tolist() == [3]
        assert np.flatnonzero(block(obs, "to_act")).tolist() == [(0 - seat) % 3]
        assert np.flatnonzero(block(obs, "leader")).tolist() == [(1 - seat) % 3]
        assert np.flatnonzero(block(obs, "players")).tolist() == [1]
        assert np.flatnonzero(block(obs, "removed_two")).tolist() == [3]  # 2C
        assert block(obs, "hand_sizes")[:3].tolist() == pytest.approx(
            [len(state.hands[(seat + r) % 3]) / 3 for r in range(3)]
        )
        assert block(obs, "stock_size")[0] == pytest.approx(30 / 34)
        assert not block(obs, "tricks").any() and not block(obs, "trump_card_taker").any()


def test_points_tricks_and_the_trump_card_taker_by_relative_seat() -> None:
    """Four players: a side's numbers stand at both of its seats' slots."""
    state = random_play(dealt(4, 2), 32, random.Random(2))  # the stock is empty
    assert not state.stock
    v0 = view(state, 0)
    for seat in range(4):
        v = view(state, seat)
        obs = BRISCOLA.observe(v)
        taker = np.flatnonzero(block(obs, "trump_card_taker")).tolist()
        assert taker == [(v0.trump_card_taker - seat) % 4]
        points = block(obs, "points")
        for r in range(4):
            assert points[r] == pytest.approx(v.points[(seat + r) % 2] / TOTAL_POINTS)
        assert points[0] == points[2] and points[1] == points[3]
        assert block(obs, "tricks_won").sum() == pytest.approx(2 * 8 / 10)
        assert block(obs, "progress")[0] == pytest.approx(8 / 10)
        assert block(obs, "tricks").sum() == 32


def test_a_shown_partner_hand_is_observed() -> None:
    options = Options(partners_show_hands=True)
    state = random_play(dealt(4, 3, options), 28, random.Random(3))
    assert not state.stock and state.hands[2]
    obs = BRISCOLA.observe(view(state, 0))
    partner = np.flatnonzero(block(obs, "partner_hand")).tolist()
    assert partner == sorted(INDEX[c] for c in state.hands[2])
    assert block(obs, "shows_hands")[0] == 1.0


def test_the_finished_match_has_nobody_to_act() -> None:
    state = POSITIONS[-1]
    assert state.finished
    obs = BRISCOLA.observe(view(state, 0))
    assert block(obs, "over")[0] == 1.0 and not block(obs, "to_act").any()
    assert block(obs, "hands_won").max() == 1.0  # the winner's side has its two hands


def test_the_page_shows_the_layout_of_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"### Briscola: {LAYOUT.size:,} numbers" in text
    assert LAYOUT.markdown() in text
    assert f"### Briscola: {ACTIONS} actions" in text
