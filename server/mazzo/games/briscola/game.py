"""Briscola as a ``Rules`` value: the service's and referee's single entry point."""

from __future__ import annotations

from typing import Final, NamedTuple

from mazzo.core.facade import engine_rules
from mazzo.core.rules import OptionSpec, ScoreReport, SideScore
from mazzo.games.briscola import determinize, rules
from mazzo.games.briscola.options import DEFAULT_PLAYERS, PLAYER_COUNTS, Options, side_seats
from mazzo.games.briscola.state import HandScore, Phase, State
from mazzo.games.briscola.tricks import side_points, trick_leaders
from mazzo.games.briscola.validate import validate
from mazzo.games.briscola.view import view


class BriscolaSideScore(NamedTuple):
    """A side's card points and tricks in the hand being played (in the last hand,
    once the match is over), its last finished hand, and the hands it has won."""

    points: int
    tricks: int
    last_hand: HandScore | None
    hands_won: int


OPTIONS: Final = (
    OptionSpec("hands_to_win", "hands a side must win to win the match", "1", (">= 1", "2", "3")),
    OptionSpec(
        "removed_two", "3 players: the two taken out of the pack", "2C", ("2S", "2H", "2D", "2C")
    ),
    OptionSpec(
        "partners_show_hands",
        "4 players: partners see each other's cards once the stock is empty",
        "false",
        ("false", "true"),
    ),
    OptionSpec("first_dealer", "the first dealer", "from seed", ("0..players-1",)),
)


def _score(state: State) -> ScoreReport:
    table = state.table
    n = table.players
    points, tricks = side_points(state, trick_leaders(state))
    winner = rules.match_winner(state)
    sides = tuple(
        SideScore(
            side=s,
            seats=side_seats(s, n),
            match_total=table.hands_won[s],
            detail=BriscolaSideScore(
                points[s],
                tricks[s],
                table.last_hand[s] if table.last_hand else None,
                table.hands_won[s],
            ),
        )
        for s in range(len(table.hands_won))
    )
    return ScoreReport(sides, state.phase is Phase.OVER, () if winner is None else (winner,))


_INFO: Final = ("briscola", "Briscola", PLAYER_COUNTS, DEFAULT_PLAYERS, OPTIONS)
RULES: Final = engine_rules(
    _INFO, Options, rules, determinize, view=view, validate=validate, score=_score
)
"""Briscola for 2, 3 and 4 players (docs/rules/briscola.md)."""
