"""The games this build serves, by id: each game's declaration (``games.declaration``),
in the order ``ListGames`` lists them. Adding a game adds its line here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mazzo.codec import GameCodec
from mazzo.core.errors import InvalidArgument
from mazzo.core.rules import AnyRules
from mazzo.games.briscola.declaration import BRISCOLA
from mazzo.games.burraco.declaration import BURRACO
from mazzo.games.declaration import Game
from mazzo.games.maraffa.declaration import MARAFFA
from mazzo.games.ramino.declaration import RAMINO

GAMES: Final[Mapping[str, Game]] = {game.id: game for game in (MARAFFA, BURRACO, RAMINO, BRISCOLA)}

#: Each game's codec, as its declaration gives it.
CODECS: Final[Mapping[str, GameCodec]] = {id: game.codec for id, game in GAMES.items()}


def game_named(game: str, field: str = "game") -> Game:
    """The declaration of a game id; an unknown id is the client's mistake."""
    try:
        return GAMES[game]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise InvalidArgument(field, f"unknown game {game!r}; this service has: {known}") from None


def rules_for(game: str, field: str = "game") -> AnyRules:
    """The rules of a game id; an unknown id is the client's mistake."""
    return game_named(game, field).rules
