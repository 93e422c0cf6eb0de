"""Burraco as a ``Rules`` value: the service's and referee's single entry point."""

from __future__ import annotations

from typing import Final, NamedTuple

from mazzo.core.facade import engine_rules
from mazzo.core.rules import OptionSpec, ScoreReport, SideScore
from mazzo.games.burraco import determinize, rules
from mazzo.games.burraco.options import DEFAULT_PLAYERS, PLAYER_COUNTS, Options
from mazzo.games.burraco.scoring import credits, hand_scores
from mazzo.games.burraco.state import HandScore, Stage, State, match_sides
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import view


class BurracoSideScore(NamedTuple):
    """A match side's score: the running hand of the hand side it belongs to (as if the
    hand ended now, without a closing), what that would credit it, and the last hand."""

    current_hand: HandScore
    current_credit: int
    last_hand: HandScore | None
    last_credit: int | None


OPTIONS: Final = (
    OptionSpec("target", "total that wins the match", "2005", (">= 1", "2005", "1005")),
    OptionSpec("hands", "play exactly this many hands (0: play to target)", "0", (">= 0",)),
    OptionSpec("max_hands", "safeguard: the match ends after this many hands", "50", (">= 1",)),
    OptionSpec(
        "semipulito", "a half-clean burraco scores 150 (false: 100)", "true", ("false", "true")
    ),
    OptionSpec("closing_needs_clean", "closing needs a clean burraco", "false", ("false", "true")),
    OptionSpec(
        "single_card_pile_rule",
        "a one-card pile taken may not be discarded that turn",
        "true",
        ("false", "true"),
    ),
    OptionSpec(
        "three_player_phase_switch",
        "3 players: at 1000 switch to three pozzetti of 11; end at 1505",
        "true",
        ("false", "true"),
    ),
    OptionSpec("first_dealer", "the first dealer", "from seed", ("0..players-1",)),
)


def _score(state: State) -> ScoreReport:
    table = state.table
    if state.stage is Stage.OVER and table.last_hand:
        # The match ended with its last hand: that hand is the current one.
        current, credited = table.last_hand, table.last_credits
    else:
        current = hand_scores(state)
        credited = credits(table, current)
    sides = []
    for i, seats in enumerate(match_sides(table)):
        hand_side = next(s for s in current if seats[0] in s.seats)
        last = None
        if table.last_hand:
            last = next(s for s in table.last_hand if seats[0] in s.seats)
        sides.append(
            SideScore(
                side=i,
                seats=seats,
                match_total=table.totals[i],
                detail=BurracoSideScore(
                    hand_side,
                    credited[i],
                    last,
                    table.last_credits[i] if table.last_credits else None,
                ),
            )
        )
    won = rules.winners(state)
    return ScoreReport(tuple(sides), state.stage is Stage.OVER, won)


_INFO: Final = ("burraco", "Burraco", PLAYER_COUNTS, DEFAULT_PLAYERS, OPTIONS)
RULES: Final = engine_rules(
    _INFO, Options, rules, determinize, view=view, validate=validate, score=_score
)
"""Burraco, FIBUR Italian rules (docs/rules/burraco.md)."""
