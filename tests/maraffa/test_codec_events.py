"""Event encodings are memoised; events of different kinds that are equal as tuples
must still encode as their own kind."""

from __future__ import annotations

from mazzo.core.cards import card
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import wire as codec
from mazzo.v1 import game_service_pb2

_FIELD = 2


def _kinds(events: list[ev.Event]) -> list[str]:
    decoded = game_service_pb2.ApplyMoveResponse.FromString(codec.events_bytes(events, _FIELD))
    return [e.maraffa.WhichOneof("event") or "" for e in decoded.events]


def test_equal_tuples_of_different_event_kinds_keep_their_kind() -> None:
    two_of_spades = card("2S")
    assert ev.CardDrawn(0, two_of_spades) == ev.TrumpDeclared(0, two_of_spades)
    assert _kinds([ev.CardDrawn(0, two_of_spades)]) == ["card_drawn"]
    assert _kinds([ev.TrumpDeclared(0, two_of_spades)]) == ["trump_declared"]
    assert _kinds([ev.TargetRaised(1)]) == ["target_raised"]
    assert _kinds([ev.RedealRequested(1)]) == ["redeal_requested"]
