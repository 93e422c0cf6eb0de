"""What every game gives a learning agent: a fixed action space and a numeric view.

An ``Encoding`` maps each move of a game to one action index (the same index for the
same move in every state) and back, and turns a seat's view (``Rules.view``, exactly
what ``GetView`` returns) into a fixed-size array. Observations are computed from the
view alone, never from the state, so an agent can learn nothing its seat may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from mazzo.rl.layout import Layout, Observation


class Encoding(Protocol):
    """One game and form, with its options: see docs/rl.md for each game's tables."""

    game: str
    #: The size of the action space: actions are ``0 .. actions - 1``.
    actions: int
    layout: Layout

    def action_of(self, move: Any) -> int:
        """The action of a move; ``ValueError`` for a move outside the action space."""
        ...

    def move_of(self, action: int) -> Any:
        """The move of an action; ``ValueError`` for an index that names none."""
        ...

    def observe(self, view: Any) -> Observation:
        """The numbers of a seat's view, laid out as ``layout``."""
        ...


def encoding_for(game: str, options: Any) -> Encoding:
    """The encoding of ``game`` played with ``options`` (the game's resolved Options):
    only Ramino's action space depends on them (its stakes)."""
    if game == "maraffa":
        from mazzo.rl.maraffa_encoding import MARAFFA

        return MARAFFA
    if game == "burraco":
        from mazzo.rl.burraco_encoding import BURRACO

        return BURRACO
    if game == "ramino":
        from mazzo.rl.ramino_encoding import ramino_encoding

        return ramino_encoding(options.max_stake)
    raise ValueError(f"no encoding for game {game!r}")


def game_options(game: str, options: Any = None) -> Any:
    """The game's ``Options``: given as they are, as a mapping of option names to values
    (the names and values of ``ListGames``, as in a tournament file:
    ``{"target": 21, "signals": "none"}``), or the defaults for None. Values the rules
    refuse are refused here, naming the option."""
    from mazzo.games.registry import rules_for

    rules = rules_for(game)
    if options is None:
        return rules.default_options()
    if not isinstance(options, Mapping):
        return options
    from google.protobuf import json_format

    from mazzo.codec import CODECS
    from mazzo.v1 import game_pb2

    codec = CODECS[game]
    try:
        msg = json_format.ParseDict({codec.options_field: dict(options)}, game_pb2.GameOptions())
    except json_format.ParseError as e:
        raise ValueError(f"options for {game}: {' '.join(str(e).split())}") from None
    return codec.options(msg)
