"""Mazzo for reinforcement learning: a PettingZoo environment for every game and form
(``pip install 'mazzo[rl]'``; docs/rl.md).

    from mazzo.rl import env
    e = env(game="maraffa", players=4)
    e.reset(seed=7)

The environment is imported on first use, so ``mazzo.rl.policy`` (the referee's
``builtin:policy``) needs NumPy only, not PettingZoo.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MazzoEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from mazzo.rl import pettingzoo_env

        return getattr(pettingzoo_env, name)
    raise AttributeError(f"module 'mazzo.rl' has no attribute {name!r}")
