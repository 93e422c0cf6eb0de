"""Maraffa as a ``Rules`` value: the service's and referee's single entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mazzo.core.rules import OptionSpec, ScoreReport, SideScore
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.events import Event
from mazzo.games.maraffa.moves import Move
from mazzo.games.maraffa.options import (
    DEFAULT_PLAYERS,
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
)
from mazzo.games.maraffa.rules import ENGINE_PLAYERS
from mazzo.games.maraffa.scoring import hand_scores
from mazzo.games.maraffa.state import HandScore, Phase, State
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import View, view


class MaraffaSideScore(NamedTuple):
    current_hand: HandScore
    last_hand: HandScore | None
    games_won: int


def _names(
    enum: type[Fractions | MarafonaRule | ClaimRule | SignalSet | Series],
) -> tuple[str, ...]:
    return tuple(m.name.lower() for m in enum if m.name != "FORM_DEFAULT")


OPTIONS = (
    OptionSpec("target", "points that win a game", "41", (">= 1", "21", "31", "41", "51", "361")),
    OptionSpec(
        "fractions", "thirds dropped each hand, or kept", "floor_per_hand", _names(Fractions)
    ),
    OptionSpec(
        "marafona_rule",
        "who may declare 3-2-A of trumps (+3)",
        "any_holder_first_trick",
        _names(MarafonaRule),
    ),
    OptionSpec(
        "marafona_auto_declare", "declare the marafona wherever valid", "false", ("false", "true")
    ),
    OptionSpec("claim_rule", "what a claim must reach", "reach_target", _names(ClaimRule)),
    OptionSpec("signals", "signals that may go with a play", "core", _names(SignalSet)),
    OptionSpec("signals_checked", "a false signal is an illegal move", "false", ("false", "true")),
    OptionSpec(
        "redeal_weak_hand",
        "battezzante may ask a redeal under 4 thirds",
        "false",
        ("false", "true"),
    ),
    OptionSpec("series", "one game, or best of three with la bella", "single", _names(Series)),
    OptionSpec("bella_target", "target of the third game of a series", "= target", (">= 1",)),
    OptionSpec(
        "two_player_must_follow",
        "2 players: follow suit while the stock lasts",
        "true",
        ("false", "true"),
    ),
    OptionSpec("dummy_seat", "3 players: the dummy's seat", "2", ("0", "1", "2", "3")),
    OptionSpec("first_dealer", "the first dealer", "from seed", ("0..seats-1",)),
)


class MaraffaRules:
    """Maraffa / Marafone Beccacino (shared/rules/maraffa.md)."""

    id = "maraffa"
    display_name = "Maraffa / Marafone Beccacino"
    player_counts = ENGINE_PLAYERS
    default_players = DEFAULT_PLAYERS
    options = OPTIONS

    def default_options(self) -> Options:
        return Options()

    def deal(self, options: Options, players: int, seed: int) -> tuple[State, list[Event]]:
        return rules.deal(options, players, seed)

    def to_act(self, state: State) -> int:
        return rules.to_act(state)

    def finished(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def legal_moves(self, state: State) -> Sequence[Move]:
        return rules.legal_moves(state)

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        return rules.apply(state, move)

    def view(self, state: State, seat: int) -> View:
        return view(state, seat)

    def validate(self, state: State) -> None:
        validate(state)

    def score(self, state: State) -> ScoreReport:
        table = state.table
        current = hand_scores(state)
        team_seats = (
            ((0, 2), (1, 3)) if table.seats == 4 else tuple((s,) for s in range(table.seats))
        )
        winner = rules.match_winner(state)
        sides = tuple(
            SideScore(
                side=t,
                seats=team_seats[t],
                match_total=table.totals[t],
                detail=MaraffaSideScore(
                    current[t], table.last_hand[t] if table.last_hand else None, table.games_won[t]
                ),
            )
            for t in range(len(team_seats))
        )
        return ScoreReport(sides, winner is not None, () if winner is None else (winner,))


RULES = MaraffaRules()
