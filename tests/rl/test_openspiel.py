"""Every game and form as an OpenSpiel game: OpenSpiel's own checks, its actions and
chance outcomes against the engine, and a seat's information against hidden cards."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from mazzo.games.maraffa.cards import BIT, FOUR_OF_COINS
from mazzo.games.maraffa.encoding import CLAIM_ACTION
from mazzo.rl import openspiel_game  # noqa: F401  (registers the games)
from mazzo.rl.rewards import match_result
from tests.rl.forms import FORMS, Form, each_form


def load(form: Form, **options: object) -> pyspiel.Game:
    text = json.dumps({**form.options, **form.short, **options})
    return pyspiel.load_game(f"mazzo_{form.game}", {"players": form.players, "options": text})


def random_match(game: pyspiel.Game, seed: int) -> Iterator[pyspiel.State]:
    """Every state of a match, as it is reached (the same object, played on): chance by
    its probabilities, the players at random but never a Maraffa claim while anything
    else is legal (a random claim ends the match)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    maraffa = game.get_type().short_name == "mazzo_maraffa"
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            legal = state.legal_actions()
            if maraffa:
                legal = [a for a in legal if a != CLAIM_ACTION] or legal
            state.apply_action(int(rng.choice(legal)))
        yield state


def engine_of(state: pyspiel.State) -> object:
    return state._engine.value


#: Random Ramino hands run until the stock is spent twice; one form keeps its reshuffle
#: in OpenSpiel's checks (seconds each), the others play one stock through; each plays
#: one hand of its match (the checks of a hand are those of the next).
ONE_STOCK = ("ramino3", "ramino4", "ramino5", "ramino6")


@each_form()
@pytest.mark.slow
def test_openspiels_own_consistency_checks_pass(form: Form) -> None:
    faster: dict[str, int] = {}
    if form.id.startswith("ramino"):
        faster = (
            {"match_hands": 1, "max_reshuffles": 0} if form.id in ONE_STOCK else {"match_hands": 1}
        )
    game = load(form, **faster)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@each_form()
def test_actions_are_the_legal_moves_and_every_deal_is_by_chance(form: Form) -> None:
    game = load(form)
    setup = game.setup
    hands = set()
    for state in random_match(game, 1):
        if state.is_chance_node():
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        elif not state.is_terminal():
            engine = engine_of(state)
            hands.add(setup.rules.hand_key(engine))
            moves = setup.rules.legal_moves(engine)
            assert state.legal_actions() == sorted(setup.encoding.action_of(m) for m in moves)
    assert len(state.history()) <= game.max_game_length()
    result = match_result(setup.rules.score(engine_of(state)))
    assert state.returns() == [result[side] for side in setup.side_of_player]
    one_hand = 1 in (form.short.get("hands"), form.short.get("match_hands"))
    assert len(hands) > 1 or one_hand


def test_the_first_hand_is_led_by_the_holder_of_the_four_of_coins() -> None:
    game = load(FORMS[0])
    for seed in range(5):
        state = next(s for s in random_match(game, seed) if s.current_player() >= 0)
        engine = engine_of(state)
        holder = next(s for s, h in enumerate(engine.hands) if h & BIT[FOUR_OF_COINS])
        assert engine.table.battezzante == engine.to_act == holder


def test_a_ramino_reshuffle_is_dealt_by_chance() -> None:
    form = next(f for f in FORMS if f.id == "ramino2")
    game = load(form)
    for seed in range(20):
        for state in random_match(game, seed):
            if state.is_chance_node() and state._engine and engine_of(state).reshuffles:
                outcomes = state.chance_outcomes()
                left = len(engine_of(state).stock) - len(state._placed)
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert len(outcomes) <= left
                return
    pytest.fail("no reshuffle in 20 random matches")


@each_form()
def test_a_resampled_state_is_the_same_to_the_player_and_its_hidden_cards_differ(
    form: Form,
) -> None:
    game = load(form)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    sampler = np.random.default_rng(2)
    changed = decisions = 0
    for state in random_match(game, 2):
        if state.current_player() < 0:
            continue
        decisions += 1
        if decisions % 7 != 1 or decisions > 42:
            continue
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler.random)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            for observer in (info, obs):
                observer.set_from(state, player)
                before = observer.tensor.copy(), observer.string_from(state, player)
                observer.set_from(other, player)
                assert np.array_equal(observer.tensor, before[0])
                assert observer.string_from(other, player) == before[1]
            changed += engine_of(other).hands != engine_of(state).hands
    assert changed > 0


def test_openspiels_ismcts_plays_a_match_through_the_registration() -> None:
    game = pyspiel.load_game("mazzo_maraffa", {"players": 4, "options": '{"target": 11}'})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() % 2 == 0:
            state.apply_action(int(bot.step(state)))
        else:
            legal = state.legal_actions()
            state.apply_action(int(rng.choice([a for a in legal if a != CLAIM_ACTION] or legal)))
    assert sorted(state.returns()) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)
