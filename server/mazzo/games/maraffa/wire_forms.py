"""Maraffa's two wires, one per family of forms: the classic forms' (``wire``) and
Trionfo's (``trionfo.wire``). The rules say which form a value or a player count is
(``game.form_of``, ``game.form_for``); this table says how that form travels, and the
functions below are the game's codec for every form."""

from __future__ import annotations

import sys
from typing import Any, Final, cast

from mazzo.codec import FormCodec, Wire, codec_of, serialised
from mazzo.games.maraffa import wire as maraffa
from mazzo.games.maraffa.game import form_for, form_of
from mazzo.games.maraffa.trionfo import wire as maraffa_trionfo
from mazzo.games.maraffa.wire import (  # noqa: F401 (the sections every form shares)
    event_to_wire,
    events_bytes,
    move_from_wire,
    move_to_wire,
    moves_bytes,
    options_from_wire,
    options_to_wire,
)
from mazzo.v1 import game_pb2, maraffa_pb2

#: Maraffa's forms (``game.FORMS``) by name: the rules say which form a value or a
#: player count is (``form_of``, ``form_for``), this table how it travels.
FORMS: Final[dict[str, FormCodec]] = {
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
        serialised(maraffa_trionfo.state_to_wire),
        maraffa_trionfo.view_to_wire,
        maraffa_trionfo.view_from_wire,
        maraffa_trionfo.side_score_to_wire,
    ),
}


def _form(value: object) -> FormCodec:
    """The codec of the form of a state, a view or a side's score detail."""
    return FORMS[form_of(value).name]


# The sections that differ by form, each sent to the form's codec: with the shared
# ones imported above, this module is Maraffa's ``Wire``.


def state_from_wire(msg: game_pb2.GameState) -> Any:
    return FORMS[form_for(msg.players).name].state_from_wire(msg)


def state_to_wire(state: Any, to_act: int, out: game_pb2.GameState) -> None:
    _form(state).state_to_wire(state, to_act, out)


def state_bytes(state: Any, to_act: int) -> bytes:
    return _form(state).state_bytes(state, to_act)


def view_to_wire(view: Any, out: game_pb2.GameView) -> None:
    _form(view).view_to_wire(view, out)


def view_from_wire(msg: game_pb2.GameView, field: str) -> Any:
    return FORMS[form_for(msg.players).name].view_from_wire(msg, field)


def side_score_to_wire(detail: Any, out: maraffa_pb2.MaraffaSideScore) -> None:
    _form(detail).side_score_to_wire(detail, out)


CODEC: Final = codec_of("maraffa", cast(Wire, sys.modules[__name__]))
