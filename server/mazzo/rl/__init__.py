"""Mazzo for reinforcement learning: a PettingZoo environment for every game and form
(``pip install 'mazzo[rl]'``; docs/rl.md).

    from mazzo.rl import env
    e = env(game="maraffa", players=4)
    e.reset(seed=7)
"""

from mazzo.rl.pettingzoo_env import MazzoEnv, env, raw_env

__all__ = ["MazzoEnv", "env", "raw_env"]
