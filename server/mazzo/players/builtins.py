"""The simple builtin policies (random, heuristic) and what every player shares: a
policy answers an ``ActRequest`` as any bot does (it sees only the view), and is made
per match from a seed, so runs repeat exactly.

The names bots are seated by (``builtin:random``, ``builtin:pimc?k=v&…``,
``builtin:policy?path=FILE``) are the referee's (``referee.bots``): pimc and the
playouts build on this module, and a saved policy comes from ``mazzo.rl``, above the
players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from mazzo.games.declaration import Policy
from mazzo.games.registry import GAMES
from mazzo.v1 import bot_pb2, game_pb2

__all__ = ["Factory", "Policy", "heuristic_for", "heuristic_policy", "random_policy"]
#: (seed, parameters of the spec) -> the policy of one match.
Factory = Callable[[int, Mapping[str, str]], Policy]


def avoid_at_random(game: str, move: game_pb2.Move) -> bool:
    """A random player never picks these unless nothing else is legal (the game's
    ``Strategy.avoid_at_random``: a Maraffa claim)."""
    declared = GAMES.get(game)
    return declared is not None and declared.strategy.avoid_at_random_on_wire(move)


def random_index(moves: Sequence[game_pb2.Move], game: str, rng: random.Random) -> int:
    """A uniformly random legal move, leaving out what a random player avoids unless
    nothing else is legal."""
    choices = [i for i, m in enumerate(moves) if not avoid_at_random(game, m)]
    return rng.choice(choices) if choices else rng.randrange(len(moves))


def random_policy(seed: int, params: Mapping[str, str] | None = None) -> Policy:
    rng = random.Random(seed)

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        return bot_pb2.ActResponse(index=random_index(request.legal_moves, request.view.game, rng))

    return policy


def heuristic_for(game: str) -> Policy | None:
    """The game's heuristic player, or None for a game this build does not have."""
    declared = GAMES.get(game)
    return declared.strategy.heuristic if declared is not None else None


def heuristic_policy(seed: int, params: Mapping[str, str] | None = None) -> Policy:
    """The game's own heuristic, or random play for a game that has none."""
    fallback = random_policy(seed)
    by_game: dict[str, Policy] = {}

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        game = request.view.game
        chosen = by_game.get(game)
        if chosen is None:
            chosen = by_game[game] = heuristic_for(game) or fallback
        return chosen(request)

    return policy
