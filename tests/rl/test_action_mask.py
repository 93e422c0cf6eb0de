"""The action mask is exactly ``LegalMoves`` at every step of random matches.

CI plays a few short matches per form; ``make rl-check N=1000`` plays N matches per
form with the game's default options (MAZZO_RL_MATCHES).
"""

from __future__ import annotations

import numpy as np

from mazzo.games.burraco.encoding import MAX_MELDS
from mazzo.rl.pettingzoo_env import agent_name
from tests.rl.forms import FULL_RUN, Form, each_form, play, play_observed, random_chooser


@each_form()
def test_the_mask_is_the_legal_moves_and_each_action_plays_its_move(form: Form) -> None:
    env = form.env(short=not FULL_RUN)
    rules, encoding = env.rules, env.encoding
    steps = 0
    for match in range(FULL_RUN or 3):
        env.reset(seed=match)
        chooser = random_chooser(form.game, np.random.default_rng(match))
        for agent, observation in play_observed(env, chooser):
            state = env.match_state
            legal = list(rules.legal_moves(state))
            actions = [encoding.action_of(m) for m in legal]
            mask = observation["action_mask"]
            # Sorted, the actions are the mask's set indices: one action per legal move,
            # no two moves sharing one, and nothing else allowed.
            assert sorted(actions) == np.flatnonzero(mask).tolist()
            assert [encoding.move_of(a) for a in actions] == legal
            assert agent == agent_name(rules.controller(state, rules.to_act(state)))
            if form.game == "burraco":
                assert len(state.melds) <= MAX_MELDS
            steps += 1
        assert rules.finished(env.match_state)
    assert steps > 0


def test_only_the_agent_to_act_has_legal_actions() -> None:
    from tests.rl.forms import FORMS

    for form in FORMS:
        env = form.env()
        env.reset(seed=1)
        masks = {a: env.observe(a)["action_mask"] for a in env.agents}
        assert masks[env.agent_selection].any()
        assert not any(masks[a].any() for a in env.agents if a != env.agent_selection)


def test_the_dummys_controller_acts_for_the_dummy() -> None:
    from tests.rl.forms import FORMS

    form = next(f for f in FORMS if f.id == "maraffa3-dummy")
    env = form.env()
    assert env.possible_agents == ["player_0", "player_1", "player_3"]
    env.reset(seed=3)
    dummy_turns = 0
    for agent in play(env, random_chooser("maraffa", np.random.default_rng(3))):
        if env.rules.to_act(env.match_state) == 2:
            assert agent == "player_0"
            dummy_turns += 1
    assert dummy_turns > 0
