"""The contract every game module fulfils, so the service and referee need no game code.

A game is a value with pure functions over its own immutable state, move and view
types; the codec of that game turns them into wire messages and back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")
M = TypeVar("M")
Opt = TypeVar("Opt")

#: What ``__reduce__`` returns: how pickle makes the value again.
Reduced = tuple[type[Any], tuple[object, ...]]


def reduce_frozen(record: Any) -> Reduced:
    """A frozen dataclass's ``__reduce__``: its class and its field values. Pickle's
    default sets the attributes one by one on a new object, which a frozen class
    compiled by mypyc refuses (``FrozenInstanceError``); its constructor takes them
    whole, in both builds. States travel pickled to Simulate's worker processes."""
    return type(record), tuple(getattr(record, f.name) for f in fields(record))


def seat_to_act(state: Any) -> int:
    """The ``to_act`` of every game: its states name the seat that decides now
    (meaningless once the match is over)."""
    seat: int = state.to_act  # no int() call: this runs every move
    return seat


def table_hand_number(state: Any) -> int:
    """The ``hand_key`` of a game whose table numbers its hands (``table.hand_number``):
    every game's state but Trionfo's. Typed ``Any``, as ``Rules`` holds any game's
    states, so that one function serves them all (compiled, as it runs every move of a
    playout)."""
    number: int = state.table.hand_number
    return number


@dataclass(frozen=True)
class OptionSpec:
    """One option as ListGames describes it."""

    name: str
    description: str
    default: str
    allowed: tuple[str, ...]


@dataclass(frozen=True)
class SideScore:
    """One side's score: its seats, its match total, and the game's own detail."""

    side: int
    seats: tuple[int, ...]
    match_total: int
    detail: Any

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


@dataclass(frozen=True)
class ScoreReport:
    sides: tuple[SideScore, ...]
    finished: bool
    winners: tuple[int, ...]

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)


class Rules(Protocol, Generic[S, M, Opt]):
    """What a game provides. ``apply`` checks the move; ``validate`` checks a state."""

    @property
    def id(self) -> str: ...

    @property
    def display_name(self) -> str: ...

    @property
    def player_counts(self) -> tuple[int, ...]: ...

    @property
    def default_players(self) -> int: ...

    @property
    def options(self) -> tuple[OptionSpec, ...]: ...

    def default_options(self) -> Opt: ...

    def deal(self, options: Opt, players: int, seed: int) -> tuple[S, Sequence[Any]]: ...

    def to_act(self, state: S) -> int: ...

    def finished(self, state: S) -> bool: ...

    def legal_moves(self, state: S) -> Sequence[M]: ...

    def apply(self, state: S, move: M) -> tuple[S, Sequence[Any]]: ...

    def view(self, state: S, seat: int) -> Any: ...

    def determinize(self, view: Any, count: int, seed: int) -> Sequence[S]:
        """``count`` whole states whose view for ``view.seat`` is ``view``: the hidden
        cards dealt anew, uniformly among the deals the view allows, and what the
        view hides of the future (stock order, later shuffles) drawn from ``seed``.
        Deterministic in (view, count, seed), and the first samples of a count are
        those of a smaller one (``Simulate`` budgets a call on the first sample
        before drawing the rest). A view no deal can give is refused with
        ``InvalidArgument`` naming the field (``view....``)."""
        ...

    def moves_bound(self, state: S, to_match_end: bool) -> int:
        """An upper bound, from the rules, on the moves from ``state`` to the end of the
        hand (or of the match): what search requests are admitted by."""
        ...

    def hand_key(self, state: S) -> Hashable:
        """A value that changes exactly when a new hand (deal) of the match begins:
        where a playout to the end of the hand stops."""
        ...

    def controller(self, state: S, seat: int) -> int:
        """The seat whose player decides for ``seat``: ``seat`` itself, except where the
        rules give a seat's cards to another player (Maraffa's dummy). Fixed for a match,
        so a referee can give each player's bot exactly the seats it controls."""
        ...

    def score(self, state: S) -> ScoreReport: ...

    def validate(self, state: S) -> None: ...


#: Any game's rules, as the layers that look a game up by id hold them: the state,
#: move and options types are the game's own, which those layers never look into.
AnyRules = Rules[Any, Any, Any]
