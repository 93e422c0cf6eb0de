"""An agent's observation is a function of its seat's view alone: deal the cards it
cannot see anew (with Determinize's sampler) and nothing it observes changes, its mask
included."""

from __future__ import annotations

import numpy as np

from mazzo.rl.pettingzoo_env import seat_of
from tests.rl.forms import Form, each_form, play, random_chooser

#: Positions per match and samples per position and agent; Ramino's sampler is the
#: slowest (seconds for a six-player view after a reshuffle), so it is asked less.
POINTS = {"ramino": (3, 1)}
DEFAULT_POINTS = (6, 2)


@each_form()
def test_the_observation_does_not_change_when_the_hidden_cards_do(form: Form) -> None:
    env, twin = form.env(), form.env()
    rules = env.rules
    env.reset(seed=5)
    twin.reset(seed=5)
    seen = []
    for agent in play(env, random_chooser(form.game, np.random.default_rng(5))):
        seen.append((env.match_state, agent, {a: env.observe(a) for a in env.agents}))
    points, samples = POINTS.get(form.game, DEFAULT_POINTS)
    changed = 0
    for i in np.linspace(0, len(seen) - 1, points).astype(int):
        state, agent, observed = seen[i]
        for observer, obs in observed.items():
            view = rules.view(state, seat_of(observer))
            for sample in rules.determinize(view, samples, int(i)):
                twin.set_state(sample)
                again = twin.observe(observer)
                assert np.array_equal(again["observation"], obs["observation"])
                assert np.array_equal(again["action_mask"], obs["action_mask"])
                assert twin.agent_selection == agent
                changed += sample.hands != state.hands
    assert changed > 0, "no sample dealt the hidden cards otherwise: the test saw nothing"
