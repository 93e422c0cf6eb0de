"""A game's encoding (``rl.layout.Encoding``, declared with the game) and its options,
by game id, for the environments and saved policies.

An ``Encoding`` maps each move of a game to one action index (the same index for the
same move in every state) and back, and turns a seat's view (``Rules.view``, exactly
what ``GetView`` returns) into a fixed-size array. Observations are computed from the
view alone, never from the state, so an agent can learn nothing its seat may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import json_format

from mazzo.games.registry import GAMES, rules_for
from mazzo.rl.layout import Encoding
from mazzo.v1 import game_pb2


def encoding_for(game: str, options: Any) -> Encoding:
    """The encoding of ``game`` played with ``options`` (the game's resolved Options):
    only Ramino's action space depends on them (its stakes)."""
    declared = GAMES.get(game)
    if declared is None:
        raise ValueError(f"no encoding for game {game!r}")
    return declared.learning.encoding(options)


def game_options(game: str, options: Any = None) -> Any:
    """The game's ``Options``: given as they are, as a mapping of option names to values
    (the names and values of ``ListGames``, as in a tournament file:
    ``{"target": 21, "signals": "none"}``), or the defaults for None. Values the rules
    refuse are refused here, naming the option."""
    rules = rules_for(game)
    if options is None:
        return rules.default_options()
    if not isinstance(options, Mapping):
        return options
    codec = GAMES[game].codec
    try:
        msg = json_format.ParseDict({codec.options_field: dict(options)}, game_pb2.GameOptions())
    except json_format.ParseError as e:
        raise ValueError(f"options for {game}: {' '.join(str(e).split())}") from None
    return codec.options(msg)
