"""Domain <-> wire, one module per game; the only code that imports generated protobuf."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mazzo.codec import burraco, maraffa, maraffa_trionfo, ramino
from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa.game import form_for, form_of
from mazzo.v1 import game_pb2, maraffa_pb2


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


def _serialised(
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


#: Maraffa's forms (``game.FORMS``) by name: the rules say which form a value or a
#: player count is (``form_of``, ``form_for``), this table how it travels.
MARAFFA_FORMS: Final[dict[str, FormCodec]] = {
    "classic": FormCodec(
        maraffa.state_from_wire,
        maraffa.state_to_wire,
        maraffa.state_bytes,
        maraffa.view_to_wire,
        maraffa.view_from_wire,
        maraffa.side_score_to_wire,
    ),
    "trionfo": FormCodec(
        maraffa_trionfo.state_from_wire,
        maraffa_trionfo.state_to_wire,
        _serialised(maraffa_trionfo.state_to_wire),
        maraffa_trionfo.view_to_wire,
        maraffa_trionfo.view_from_wire,
        maraffa_trionfo.side_score_to_wire,
    ),
}


def _maraffa_form(value: object) -> FormCodec:
    """The codec of the form of a state, a view or a side's score detail."""
    return MARAFFA_FORMS[form_of(value).name]


def _maraffa_state_from_wire(msg: game_pb2.GameState) -> Any:
    return MARAFFA_FORMS[form_for(msg.players).name].state_from_wire(msg)


def _maraffa_state_to_wire(state: Any, to_act: int, out: game_pb2.GameState) -> None:
    _maraffa_form(state).state_to_wire(state, to_act, out)


def _maraffa_state_bytes(state: Any, to_act: int) -> bytes:
    return _maraffa_form(state).state_bytes(state, to_act)


def _maraffa_view_to_wire(view: Any, out: game_pb2.GameView) -> None:
    _maraffa_form(view).view_to_wire(view, out)


def _maraffa_view_from_wire(msg: game_pb2.GameView, field: str) -> Any:
    return MARAFFA_FORMS[form_for(msg.players).name].view_from_wire(msg, field)


def _maraffa_side_score_to_wire(detail: Any, out: maraffa_pb2.MaraffaSideScore) -> None:
    _maraffa_form(detail).side_score_to_wire(detail, out)


CODECS: Final[dict[str, GameCodec]] = {
    "maraffa": GameCodec(
        game="maraffa",
        options_field="maraffa",
        options_from_wire=maraffa.options_from_wire,
        options_to_wire=maraffa.options_to_wire,
        state_from_wire=_maraffa_state_from_wire,
        state_to_wire=_maraffa_state_to_wire,
        state_bytes=_maraffa_state_bytes,
        move_from_wire=maraffa.move_from_wire,
        move_to_wire=maraffa.move_to_wire,
        moves_bytes=maraffa.moves_bytes,
        event_to_wire=maraffa.event_to_wire,
        events_bytes=maraffa.events_bytes,
        view_to_wire=_maraffa_view_to_wire,
        view_from_wire=_maraffa_view_from_wire,
        side_score_to_wire=_maraffa_side_score_to_wire,
    ),
    "burraco": GameCodec(
        game="burraco",
        options_field="burraco",
        options_from_wire=burraco.options_from_wire,
        options_to_wire=burraco.options_to_wire,
        state_from_wire=burraco.state_from_wire,
        state_to_wire=burraco.state_to_wire,
        state_bytes=_serialised(burraco.state_to_wire),
        move_from_wire=burraco.move_from_wire,
        move_to_wire=burraco.move_to_wire,
        moves_bytes=burraco.moves_bytes,
        event_to_wire=burraco.event_to_wire,
        events_bytes=burraco.events_bytes,
        view_to_wire=burraco.view_to_wire,
        view_from_wire=burraco.view_from_wire,
        side_score_to_wire=burraco.side_score_to_wire,
    ),
    "ramino": GameCodec(
        game="ramino",
        options_field="ramino",
        options_from_wire=ramino.options_from_wire,
        options_to_wire=ramino.options_to_wire,
        state_from_wire=ramino.state_from_wire,
        state_to_wire=ramino.state_to_wire,
        state_bytes=_serialised(ramino.state_to_wire),
        move_from_wire=ramino.move_from_wire,
        move_to_wire=ramino.move_to_wire,
        moves_bytes=ramino.moves_bytes,
        event_to_wire=ramino.event_to_wire,
        events_bytes=ramino.events_bytes,
        view_to_wire=ramino.view_to_wire,
        view_from_wire=ramino.view_from_wire,
        side_score_to_wire=ramino.side_score_to_wire,
    ),
}
