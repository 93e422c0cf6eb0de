"""Seeded runs repeat exactly, and a seed deals what ``Deal`` deals with it."""

from __future__ import annotations

from typing import Any

import numpy as np

from mazzo.rl.encoding import game_options
from tests.rl.forms import Form, each_form, play, random_chooser


def trajectory(form: Form, seed: int) -> list[tuple[Any, ...]]:
    env = form.env()
    env.reset(seed=seed)
    out = []
    for agent in play(env, random_chooser(form.game, np.random.default_rng(seed))):
        obs = env.observe(agent)
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        out.append(tuple(sorted(env._cumulative_rewards.items())))
    return out


@each_form()
def test_the_same_seeds_give_the_same_match(form: Form) -> None:
    first = trajectory(form, 11)
    assert first == trajectory(form, 11)
    assert first != trajectory(form, 12)


@each_form()
def test_reset_with_a_seed_deals_that_seed_and_then_the_next_ones(form: Form) -> None:
    env = form.env()
    options = game_options(form.game, {**form.options, **form.short})
    env.reset(seed=41)
    assert env.match_state == env.rules.deal(options, form.players, 41)[0]
    env.reset()
    assert env.match_state == env.rules.deal(options, form.players, 42)[0]
