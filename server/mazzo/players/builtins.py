"""Builtin bots by name: ``builtin:random``, ``builtin:heuristic``, ``builtin:pimc?k=v&…``,
``builtin:policy?path=FILE`` (a saved policy: docs/rl.md).

A policy answers an ``ActRequest`` as any bot does (it sees only the view), and is
made per match from a seed, so runs repeat exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import parse_qsl

from mazzo.v1 import bot_pb2, game_pb2

Policy = Callable[[bot_pb2.ActRequest], bot_pb2.ActResponse]
#: (seed, parameters of the spec) -> the policy of one match.
Factory = Callable[[int, Mapping[str, str]], Policy]


def avoid_at_random(game: str, move: game_pb2.Move) -> bool:
    """A random player never picks these unless nothing else is legal: a Maraffa claim
    ends the game at once, so a random one would only test the claim rule."""
    return game == "maraffa" and move.maraffa.HasField("claim")


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
    """The game's heuristic player, or None for a game that has none."""
    if game == "maraffa":
        from mazzo.players.heuristic_maraffa import act as maraffa

        return maraffa
    if game == "burraco":
        from mazzo.players.heuristic_burraco import act as burraco

        return burraco
    if game == "ramino":
        from mazzo.players.heuristic_ramino import act as ramino

        return ramino
    return None


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


def _pimc(seed: int, params: Mapping[str, str]) -> Policy:
    from mazzo.players.pimc import pimc_policy

    return pimc_policy(seed, params)


def _policy(seed: int, params: Mapping[str, str]) -> Policy:
    """A saved policy (docs/rl.md): ``builtin:policy?path=FILE``; needs ``mazzo[rl]``."""
    try:
        from mazzo.rl.policy import policy_player
    except ImportError as e:
        raise ValueError(
            f"builtin:policy needs NumPy ({e.name} is missing): pip install 'mazzo[rl]'"
        ) from None
    return policy_player(seed, params)


BUILTINS: dict[str, Factory] = {
    "random": random_policy,
    "heuristic": heuristic_policy,
    "pimc": _pimc,
    "policy": _policy,
}
#: The builtins that take parameters (``builtin:NAME?key=value&…``).
WITH_PARAMS = ("pimc", "policy")


def parse_builtin(text: str) -> tuple[str, dict[str, str]]:
    """``NAME`` or ``NAME?key=value&…`` -> (name, parameters); unknown names refused.
    The parameters are checked by the player when it is made (``check_builtin``)."""
    name, _, query = text.partition("?")
    if name not in BUILTINS:
        known = ", ".join(f"builtin:{n}" for n in BUILTINS)
        raise ValueError(f"builtin:{text}: unknown builtin bot; there are {known}")
    try:
        params = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError:
        raise ValueError(f"builtin:{text}: parameters are key=value&key=value") from None
    if params and name not in WITH_PARAMS:
        raise ValueError(f"builtin:{text}: builtin:{name} takes no parameters")
    BUILTINS[name](0, params)  # refuses bad parameters now, not at the first move
    return name, params
