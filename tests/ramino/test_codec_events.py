"""Events that are equal as tuples but differ in kind keep their own wire form."""

from mazzo.games.ramino import events as ev
from mazzo.games.ramino.wire import events_bytes
from mazzo.v1 import game_service_pb2

QD = 1 + 13 * 2 + 11  # the queen of diamonds (Card enum: 1 + 13 * suit + rank)


def kinds(events: list[ev.Event]) -> list[str]:
    # ApplyMoveResponse.events is field 2: parse the framed entries back.
    reply = game_service_pb2.ApplyMoveResponse.FromString(events_bytes(events, 2))
    return [e.ramino.WhichOneof("event") or "" for e in reply.events]


def test_a_discard_is_not_mistaken_for_taking_the_discard_after_either_was_encoded() -> None:
    taken, discarded = ev.DiscardTaken(0, QD), ev.CardDiscarded(0, QD)
    assert taken == discarded  # as tuples: what made a memo keyed by value confuse them
    assert kinds([taken]) == ["discard_taken"]
    assert kinds([discarded]) == ["card_discarded"]
    assert kinds([discarded, taken]) == ["card_discarded", "discard_taken"]
