"""Domain <-> wire: the shape of every game's codec and what the codecs share.

Each game's own codec is its package's ``wire`` module, declared with the game
(``games.declaration``); the engines never import the wire."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Protocol

from mazzo.core.errors import InvalidArgument, InvalidState, RulesError
from mazzo.v1 import game_pb2


@dataclass(frozen=True)
class GameCodec:
    """How one game's values travel. ``options`` reads the game's branch of GameOptions."""

    game: str
    options_field: str
    options_from_wire: Callable[[Any, str], Any]
    options_to_wire: Callable[[Any, Any], None]
    state_from_wire: Callable[[game_pb2.GameState], Any]
    state_to_wire: Callable[[Any, int, game_pb2.GameState], None]
    state_bytes: Callable[[Any, int], bytes]
    move_from_wire: Callable[[game_pb2.Move, str], Any]
    move_to_wire: Callable[[Any, game_pb2.Move], None]
    moves_bytes: Callable[[Sequence[Any], int], bytes]
    event_to_wire: Callable[[Any, game_pb2.Event], None]
    events_bytes: Callable[[Sequence[Any], int], bytes]
    view_to_wire: Callable[[Any, game_pb2.GameView], None]
    #: A view sent by a client (Determinize, Simulate), checked; ``field`` names it.
    view_from_wire: Callable[[game_pb2.GameView, str], Any]
    side_score_to_wire: Callable[[Any, Any], None]

    def options(self, msg: game_pb2.GameOptions, field: str = "options") -> Any:
        branch = msg.WhichOneof("options")
        if branch not in (None, self.options_field):
            raise InvalidArgument(field, f"options for {branch} given to a {self.game} deal")
        return self.options_from_wire(getattr(msg, self.options_field), f"{field}.{self.game}")


def detail_of(
    msg: game_pb2.GameState | game_pb2.GameView,
    game: str,
    field: str = "state",
    error: type[RulesError] = InvalidState,
) -> Any:
    """The game's detail of a state or a view (at ``field``), which must be there."""
    if msg.WhichOneof("detail") != game:
        what = "state" if isinstance(msg, game_pb2.GameState) else "view"
        raise error(f"{field}.{game}", f"a {game.capitalize()} {what} needs its {game} detail")
    return getattr(msg, game)


def envelope(
    out: game_pb2.GameState | game_pb2.GameView,
    game: str,
    players: int,
    to_act: int,
    finished: bool,
    totals: Sequence[int],
) -> None:
    """The fields every game's state and view has (a view adds its ``seat``)."""
    out.game = game
    out.players = players
    out.to_act = to_act
    out.finished = finished
    out.match_score.extend(totals)


def serialised(
    state_to_wire: Callable[[Any, int, game_pb2.GameState], None],
) -> Callable[[Any, int], bytes]:
    """A game's ``state_bytes`` from its ``state_to_wire``."""

    def state_bytes(state: Any, to_act: int) -> bytes:
        out = game_pb2.GameState()
        state_to_wire(state, to_act, out)
        return out.SerializeToString()

    return state_bytes


@dataclass(frozen=True)
class FormCodec:
    """How one form of a game travels where its messages differ from the other forms':
    the state's, the view's and the score's detail. Moves, events and options are the
    game's own."""

    state_from_wire: Callable[[game_pb2.GameState], Any]
    state_to_wire: Callable[[Any, int, game_pb2.GameState], None]
    state_bytes: Callable[[Any, int], bytes]
    view_to_wire: Callable[[Any, game_pb2.GameView], None]
    view_from_wire: Callable[[game_pb2.GameView, str], Any]
    side_score_to_wire: Callable[[Any, Any], None]


class Wire(Protocol):
    """A game's ``wire`` module, one function per direction of each section: what
    ``codec_of`` makes the game's ``GameCodec`` of."""

    def options_from_wire(self, msg: Any, field: str, /) -> Any: ...

    def options_to_wire(self, options: Any, out: Any, /) -> None: ...

    def state_from_wire(self, msg: game_pb2.GameState, /) -> Any: ...

    def state_to_wire(self, state: Any, to_act: int, out: game_pb2.GameState, /) -> None: ...

    def move_from_wire(self, msg: game_pb2.Move, field: str, /) -> Any: ...

    def move_to_wire(self, move: Any, out: game_pb2.Move, /) -> None: ...

    def moves_bytes(self, moves: Sequence[Any], to_act: int, /) -> bytes: ...

    def event_to_wire(self, event: Any, out: game_pb2.Event, /) -> None: ...

    def events_bytes(self, events: Sequence[Any], to_act: int, /) -> bytes: ...

    def view_to_wire(self, view: Any, out: game_pb2.GameView, /) -> None: ...

    def view_from_wire(self, msg: game_pb2.GameView, field: str, /) -> Any: ...

    def side_score_to_wire(self, detail: Any, out: Any, /) -> None: ...


#: The sections of a ``GameCodec`` that a game's ``Wire`` gives by the same names.
_WIRE_SECTIONS: Final = tuple(
    f.name for f in fields(GameCodec) if f.name not in ("game", "options_field", "state_bytes")
)


def codec_of(game: str, wire: Wire) -> GameCodec:
    """The codec of a game whose ``wire`` module has one function per section (its
    options in ``GameOptions``'s branch named as the game); the state's bytes are the
    message's, unless the wire writes them itself (``state_bytes``)."""
    sections = {name: getattr(wire, name) for name in _WIRE_SECTIONS}
    state_bytes = getattr(wire, "state_bytes", None) or serialised(wire.state_to_wire)
    return GameCodec(game=game, options_field=game, state_bytes=state_bytes, **sections)
