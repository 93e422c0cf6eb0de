"""The games this build serves, by id. Adding a game adds one line here."""

from __future__ import annotations

from typing import Any, Final

from mazzo.core.errors import InvalidArgument
from mazzo.games.burraco.game import RULES as BURRACO
from mazzo.games.maraffa.game import RULES as MARAFFA
from mazzo.games.ramino.game import RULES as RAMINO

GAMES: Final[dict[str, Any]] = {MARAFFA.id: MARAFFA, BURRACO.id: BURRACO, RAMINO.id: RAMINO}


def rules_for(game: str, field: str = "game") -> Any:
    """The rules of a game id; an unknown id is the client's mistake."""
    try:
        return GAMES[game]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise InvalidArgument(field, f"unknown game {game!r}; this service has: {known}") from None
