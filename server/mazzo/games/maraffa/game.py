"""Maraffa as a ``Rules`` value: the service's and referee's single entry point."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, NamedTuple, Protocol, TypeVar

from mazzo.core.facade import EngineRules, Sampler, own_seat
from mazzo.core.rules import OptionSpec, ScoreReport, SideScore, seat_to_act
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
from mazzo.games.maraffa.trionfo.scoring import TrionfoSideScore, score_report
from mazzo.games.maraffa.trionfo.state import SEATS, TrionfoState
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
AnyView = View | TrionfoView
S = TypeVar("S")
V = TypeVar("V")


class FormEngine(Protocol[S]):
    """The functions a form's engine module (``rules``, ``trionfo.rules``) provides."""

    def deal(
        self, options: Options, players: int, seed: int, /
    ) -> tuple[S, Sequence[AnyEvent]]: ...

    def legal_moves(self, state: S, /) -> Sequence[Move]: ...

    def apply(self, state: S, move: Move, /) -> tuple[S, Sequence[AnyEvent]]: ...


class Form(Generic[S, V]):
    """One form of Maraffa: its engine's functions, and the classes of its values.

    The forms share options, moves and wire messages, and differ in state, view and
    score, so one ``Rules`` value serves them all and sends each call to the form of
    its state or view (``form_of``). A new form is one more ``Form`` in ``FORMS``.
    A plain class: mypyc cannot build a generic frozen dataclass (core/facade.py).
    """

    def __init__(
        self,
        name: str,
        players: tuple[int, ...],
        kinds: tuple[type, ...],
        engine: FormEngine[S],
        sampler: Sampler[S],
        *,
        view: Callable[[S, int], V],
        validate: Callable[[S], None],
        score: Callable[[S], ScoreReport],
        controller: Callable[[S, int], int],
        hand_key: Callable[[S], tuple[int, int]],
    ) -> None:
        #: For the codec's own table of forms (codec/__init__.py).
        self.name = name
        #: The player counts dealt in this form.
        self.players = players
        #: The classes of its states, views and score details, which ``form_of`` knows it by.
        self.kinds = kinds
        self.deal = engine.deal
        self.legal_moves = engine.legal_moves
        self.apply = engine.apply
        self.view = view
        self.validate = validate
        self.score = score
        self.controller = controller
        self.determinize = sampler.determinize
        self.moves_bound = sampler.moves_bound
        self.hand_key = hand_key


def _classic_score(state: State) -> ScoreReport:
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


def _classic_hand_key(state: State) -> tuple[int, int]:
    """The game of a series and the hand in it."""
    return state.table.game_number, state.table.hand_number


def _trionfo_hand_key(state: TrionfoState) -> tuple[int, int]:
    """The deal (a match is one game)."""
    return 0, state.table.deal_number


#: 2, 3 and 4 players: rules.py and the modules beside it.
CLASSIC: Final = Form[State, View](
    "classic",
    rules.ENGINE_PLAYERS,
    (State, View, MaraffaSideScore),
    rules,
    determinize,
    view=view,
    validate=validate,
    score=_classic_score,
    controller=controller,
    hand_key=_classic_hand_key,
)
#: 5 players: the trionfo sub-package.
TRIONFO: Final = Form[TrionfoState, TrionfoView](
    "trionfo",
    (SEATS,),
    (TrionfoState, TrionfoView, TrionfoSideScore),
    trionfo,
    trionfo_determinize,
    view=trionfo_view,
    validate=trionfo_validate,
    score=score_report,
    controller=own_seat,  # five players, each for himself
    hand_key=_trionfo_hand_key,
)
FORMS: Final = (CLASSIC, TRIONFO)
_BY_KIND: Final[dict[type, Form[Any, Any]]] = {k: f for f in FORMS for k in f.kinds}
_BY_PLAYERS: Final[dict[int, Form[Any, Any]]] = {p: f for f in FORMS for p in f.players}


def form_of(value: object) -> Form[Any, Any]:
    """The form of a state, a view or a side's score detail: the one switch between
    the forms (``KeyError`` for a value of none)."""
    return _BY_KIND[type(value)]


def form_for(players: int) -> Form[Any, Any]:
    """The form dealt for ``players``; the classic engine refuses any count no form
    plays, with its own error."""
    return _BY_PLAYERS.get(players, CLASSIC)


def _deal(options: Options, players: int, seed: int) -> tuple[AnyState, list[AnyEvent]]:
    state, events = form_for(players).deal(options, players, seed)
    return state, list(events)


def _finished(state: AnyState) -> bool:
    return state.finished


def _legal_moves(state: AnyState) -> Sequence[Move]:
    return form_of(state).legal_moves(state)


def _apply(state: AnyState, move: Move) -> tuple[AnyState, list[AnyEvent]]:
    new, events = form_of(state).apply(state, move)
    return new, list(events)


def _view(state: AnyState, seat: int) -> AnyView:
    seen: AnyView = form_of(state).view(state, seat)
    return seen


def _controller(state: AnyState, seat: int) -> int:
    return form_of(state).controller(state, seat)


def _determinize(view: AnyView, count: int, seed: int) -> list[AnyState]:
    return list(form_of(view).determinize(view, count, seed))


def _moves_bound(state: AnyState, to_match_end: bool) -> int:
    return form_of(state).moves_bound(state, to_match_end)


def _hand_key(state: AnyState) -> tuple[int, int]:
    """Trionfo: the deal; otherwise the game of a series and the hand in it."""
    return form_of(state).hand_key(state)


def _validate(state: AnyState) -> None:
    form_of(state).validate(state)


def _score(state: AnyState) -> ScoreReport:
    return form_of(state).score(state)


RULES: Final[EngineRules[AnyState, Move, Options]] = EngineRules(
    id="maraffa",
    display_name="Maraffa / Marafone Beccacino",
    player_counts=PLAYER_COUNTS,
    default_players=DEFAULT_PLAYERS,
    options=OPTIONS,
    default_options=Options,
    deal=_deal,
    to_act=seat_to_act,
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
maraffa-forms.md: five players play Trionfo (the trionfo sub-package), the others
rules.py. Each call goes to the engine of the state's form (``form_of``)."""
