"""A game's ``Rules`` value assembled from its engine's functions.

Every game's ``game.py`` used to repeat one class whose methods only forwarded to the
engine (deal, to_act, legal_moves, apply, view, validate). Here the engine's functions
are stored as they are, so ``RULES.apply(state, move)`` calls the engine directly, with
no forwarding frame, and a game's ``game.py`` keeps only what is its own: its options,
its score report, and (for Maraffa) the choice between its two engines.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from mazzo.core.errors import NotAllowedNow
from mazzo.core.rules import OptionSpec, ScoreReport, seat_to_act, table_hand_number

S = TypeVar("S")
M = TypeVar("M")
Opt = TypeVar("Opt")
Opt_in = TypeVar("Opt_in", contravariant=True)


def own_seat(state: object, seat: int) -> int:
    """The controller of a game where every seat decides for itself."""
    return seat


def cannot_determinize(view: object, count: int, seed: int) -> Sequence[Any]:
    """The ``determinize`` of a game that has no sampler (yet)."""
    raise NotAllowedNow("view", "this game cannot sample the hidden cards of a view")


def unbounded(state: object, to_match_end: bool) -> int:
    """The ``moves_bound`` of a game that states none: search cannot be admitted."""
    raise NotAllowedNow("state", "this game states no bound on the moves left")


def no_hands(state: object) -> Hashable:
    """The ``hand_key`` of a game that does not say where its hands end."""
    raise NotAllowedNow("state", "this game does not say where its hands end")


@dataclass(frozen=True, eq=False)
class EngineRules(Generic[S, M, Opt]):
    """Fulfils ``core.rules.Rules`` with plain functions; see that protocol for the
    meaning of each member."""

    id: str
    display_name: str
    player_counts: tuple[int, ...]
    default_players: int
    options: tuple[OptionSpec, ...]
    default_options: Callable[[], Opt]
    deal: Callable[[Opt, int, int], tuple[S, Sequence[Any]]]
    to_act: Callable[[S], int]
    finished: Callable[[S], bool]
    legal_moves: Callable[[S], Sequence[M]]
    apply: Callable[[S, M], tuple[S, Sequence[Any]]]
    view: Callable[[S, int], Any]
    validate: Callable[[S], None]
    score: Callable[[S], ScoreReport]
    controller: Callable[[S, int], int] = own_seat
    determinize: Callable[[Any, int, int], Sequence[S]] = cannot_determinize
    moves_bound: Callable[[S, bool], int] = unbounded
    hand_key: Callable[[S], Hashable] = no_hands


class Engine(Protocol[S, M, Opt_in]):
    """The functions a game's engine module (``games.<id>.rules``) provides."""

    def deal(self, options: Opt_in, players: int, seed: int, /) -> tuple[S, Sequence[Any]]: ...

    def finished(self, state: S, /) -> bool: ...

    def legal_moves(self, state: S, /) -> Sequence[M]: ...

    def apply(self, state: S, move: M, /) -> tuple[S, Sequence[Any]]: ...


class Sampler(Protocol[S]):
    """The functions a game's sampler module (``games.<id>.determinize``) provides: what
    search asks of a game beyond its rules."""

    def determinize(self, view: Any, count: int, seed: int, /) -> Sequence[S]: ...

    def moves_bound(self, state: S, to_match_end: bool, /) -> int: ...


def engine_rules(
    info: tuple[str, str, tuple[int, ...], int, tuple[OptionSpec, ...]],
    default_options: Callable[[], Opt],
    engine: Engine[S, M, Opt],
    sampler: Sampler[S],
    *,
    view: Callable[[S, int], Any],
    validate: Callable[[S], None],
    score: Callable[[S], ScoreReport],
    hand_key: Callable[[S], Hashable] = table_hand_number,
) -> EngineRules[S, M, Opt]:
    """The ``Rules`` of a game with one engine module and one sampler module: ``info`` is
    its id, display name, player counts, default players and option specs. A hand ends
    where the table's ``hand_number`` changes, unless ``hand_key`` says otherwise."""
    return EngineRules(
        *info,
        default_options,
        engine.deal,
        seat_to_act,
        engine.finished,
        engine.legal_moves,
        engine.apply,
        view,
        validate,
        score,
        determinize=sampler.determinize,
        moves_bound=sampler.moves_bound,
        hand_key=hand_key,
    )
