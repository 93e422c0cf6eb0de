"""Rewards: +1 to the winners and -1 to the others at the end of the match, or, per
hand, what the hand added to the agent's side's match total."""

from __future__ import annotations

import numpy as np

from mazzo.rl import MazzoEnv
from mazzo.rl.pettingzoo_env import seat_of
from tests.rl.forms import Form, each_form, play, random_chooser


def totals_by_agent(env: MazzoEnv) -> dict[str, int]:
    report = env.rules.score(env.match_state)
    return {
        a: next(s.match_total for s in report.sides if seat_of(a) in s.seats)
        for a in env.possible_agents
    }


def played_rewards(env: MazzoEnv, seed: int, game: str) -> dict[str, float]:
    """Every agent's rewards over the match, as ``last`` hands them out."""
    got = dict.fromkeys(env.possible_agents, 0.0)
    choose = random_chooser(game, np.random.default_rng(seed))
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        got[agent] += reward
        env.step(None if terminated or truncated else choose(obs["action_mask"]))
    return got


@each_form()
def test_the_match_reward_is_one_for_the_winners(form: Form) -> None:
    env = form.env()
    env.reset(seed=2)
    got = played_rewards(env, 2, form.game)
    report = env.rules.score(env.match_state)
    winners = {seat for s in report.sides if s.side in report.winners for seat in s.seats}
    if not winners or len(report.winners) == len(report.sides):
        assert set(got.values()) == {0.0}
    else:
        assert got == {a: 1.0 if seat_of(a) in winners else -1.0 for a in env.possible_agents}


@each_form()
def test_hand_rewards_add_up_to_the_match_totals(form: Form) -> None:
    env = form.env(reward="hand")
    for seed in range(3, 13):  # a match whose hands are all void moves no chips
        env.reset(seed=seed)
        start = totals_by_agent(env)
        got = played_rewards(env, seed, form.game)
        end = totals_by_agent(env)
        assert got == {a: end[a] - start[a] for a in env.possible_agents}
        if any(got.values()):
            break
    assert any(got.values())


def test_a_maraffa_series_pays_each_hand_though_each_game_starts_from_zero() -> None:
    form = Form(
        "maraffa4-series", "maraffa", 4, {"series": "MARAFFA_SERIES_BEST_OF_THREE", "target": 11}
    )
    env = form.env(reward="hand")
    env.reset(seed=4)
    games = set()
    for _ in play(env, random_chooser("maraffa", np.random.default_rng(4))):
        games.add(env.match_state.table.game_number)
        assert all(r >= 0 for r in env.rewards.values())
    assert len(games) > 1
