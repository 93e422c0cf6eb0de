"""Maraffa as a ``Rules`` value: the service's and referee's single entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from mazzo.core.facade import EngineRules
from mazzo.core.rules import OptionSpec, ScoreReport, SideScore
from mazzo.games.maraffa import determinize, rules
from mazzo.games.maraffa.events import Event
from mazzo.games.maraffa.moves import Move
from mazzo.games.maraffa.options import (
    DEFAULT_PLAYERS,
    PLAYER_COUNTS,
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
)
from mazzo.games.maraffa.scoring import hand_scores
from mazzo.games.maraffa.state import HandScore, State
from mazzo.games.maraffa.trionfo import determinize as trionfo_determinize
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.events import TrionfoEvent
from mazzo.games.maraffa.trionfo.scoring import score_report
from mazzo.games.maraffa.trionfo.state import TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate as trionfo_validate
from mazzo.games.maraffa.trionfo.view import TrionfoView
from mazzo.games.maraffa.trionfo.view import view as trionfo_view
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import View, controller, view


class MaraffaSideScore(NamedTuple):
    current_hand: HandScore
    last_hand: HandScore | None
    games_won: int


def _names(
    enum: type[Fractions | MarafonaRule | ClaimRule | SignalSet | Series],
) -> tuple[str, ...]:
    return tuple(m.name.lower() for m in enum if m.name != "FORM_DEFAULT")


OPTIONS: Final = (
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
    OptionSpec(
        "signals",
        "signals that may go with a play (none by default with deck39)",
        "core",
        _names(SignalSet),
    ),
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
    OptionSpec(
        "three_player_form",
        "3 players: four seats with a dummy, or 39 cards each for himself",
        "dummy",
        ("dummy", "deck39"),
    ),
    OptionSpec("removed_four", "deck39: the Four taken out", "4S", ("4S", "4H", "4C")),
    OptionSpec(
        "trionfo_first_speaker_card",
        "5 players: deal 1's first speaker holds this card",
        "5S",
        ("any card of the pack",),
    ),
    OptionSpec("trionfo_deal_batch", "5 players: cards per batch", "4", ("1", "2", "4", "8")),
    OptionSpec(
        "trionfo_auction",
        "5 players: bidding goes round until settled, or once",
        "continuous",
        ("continuous", "single_round"),
    ),
    OptionSpec("trionfo_signals", "5 players: leader's signals", "none", ("none", "core")),
    OptionSpec(
        "trionfo_stop_when_decided",
        "5 players: end a deal once its outcome is certain",
        "false",
        ("false", "true"),
    ),
    OptionSpec("match_deals", "5 players: deals in a match", "10", (">= 1",)),
    OptionSpec(
        "count_thrown_in", "5 players: a deal nobody bid for counts", "true", ("false", "true")
    ),
)


AnyState = State | TrionfoState
AnyEvent = Event | TrionfoEvent
TRIONFO_PLAYERS: Final = 5


def _deal(options: Options, players: int, seed: int) -> tuple[AnyState, list[AnyEvent]]:
    if players == TRIONFO_PLAYERS:
        t_state, t_events = trionfo.deal(options, players, seed)
        return t_state, list(t_events)
    m_state, m_events = rules.deal(options, players, seed)
    return m_state, list(m_events)


def _to_act(state: AnyState) -> int:
    return state.to_act


def _finished(state: AnyState) -> bool:
    return state.finished


def _legal_moves(state: AnyState) -> Sequence[Move]:
    if type(state) is TrionfoState:
        return trionfo.legal_moves(state)
    assert isinstance(state, State)
    return rules.legal_moves(state)


def _apply(state: AnyState, move: Move) -> tuple[AnyState, list[AnyEvent]]:
    if type(state) is TrionfoState:
        t_state, t_events = trionfo.apply(state, move)
        return t_state, list(t_events)
    assert isinstance(state, State)
    m_state, m_events = rules.apply(state, move)
    return m_state, list(m_events)


def _view(state: AnyState, seat: int) -> View | TrionfoView:
    if type(state) is TrionfoState:
        return trionfo_view(state, seat)
    assert isinstance(state, State)
    return view(state, seat)


def _controller(state: AnyState, seat: int) -> int:
    if type(state) is TrionfoState:
        return seat  # five players, each for himself
    assert isinstance(state, State)
    return controller(state, seat)


def _determinize(view: View | TrionfoView, count: int, seed: int) -> list[AnyState]:
    if type(view) is TrionfoView:
        return list(trionfo_determinize.determinize(view, count, seed))
    assert isinstance(view, View)
    return list(determinize.determinize(view, count, seed))


def _moves_bound(state: AnyState, to_match_end: bool) -> int:
    if type(state) is TrionfoState:
        return trionfo_determinize.moves_bound(state, to_match_end)
    assert isinstance(state, State)
    return determinize.moves_bound(state, to_match_end)


def _hand_key(state: AnyState) -> tuple[int, int]:
    """Trionfo: the deal; otherwise the game of a series and the hand in it."""
    if type(state) is TrionfoState:
        return 0, state.table.deal_number
    assert isinstance(state, State)
    return state.table.game_number, state.table.hand_number


def _validate(state: AnyState) -> None:
    if type(state) is TrionfoState:
        trionfo_validate(state)
    else:
        assert isinstance(state, State)
        validate(state)


def _score(state: AnyState) -> ScoreReport:
    if type(state) is TrionfoState:
        return score_report(state)
    assert isinstance(state, State)
    table = state.table
    current = hand_scores(state)
    team_seats = ((0, 2), (1, 3)) if table.seats == 4 else tuple((s,) for s in range(table.seats))
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


RULES: Final[EngineRules[AnyState, Move, Options]] = EngineRules(
    id="maraffa",
    display_name="Maraffa / Marafone Beccacino",
    player_counts=PLAYER_COUNTS,
    default_players=DEFAULT_PLAYERS,
    options=OPTIONS,
    default_options=Options,
    deal=_deal,
    to_act=_to_act,
    finished=_finished,
    legal_moves=_legal_moves,
    apply=_apply,
    view=_view,
    validate=_validate,
    score=_score,
    controller=_controller,
    determinize=_determinize,
    moves_bound=_moves_bound,
    hand_key=_hand_key,
)
"""Maraffa / Marafone Beccacino (docs/rules/maraffa.md), at every table size of
maraffa-forms.md: five players play Trionfo (trionfo/rules.py), the others rules.py. Each
call goes to the engine of the state's form."""
