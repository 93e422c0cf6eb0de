"""Moves and events as short sentences for people watching, written by hand for every
kind of every game: ``seat 2 plays the 3 of denari, signalling striscio``, ``seat 1
draws from the stock``, ``hand 2 ends: seat 0 closes and wins 5 chips``.

A text says what the record's event (or move) itself says and nothing more, so it is
exactly as public as the record: a draw from the stock names no card because the event
names none. No rule of any game is used: the sentences are made from the protobuf
messages' fields. A kind with no text here falls back to ``words.words``, the generic
rendering of the JSON (``tests/viewer/test_texts.py`` fails if any kind of any game
has no text of its own, so a new event cannot fall back silently).

Maraffa's cards are named in Italian as the page draws them (asso, fante, cavallo, re
of coppe, denari, spade, bastoni); Burraco's and Ramino's in English (the queen of
hearts, a run 4-5-6 of hearts).
"""

from __future__ import annotations

import json
from functools import lru_cache

from google.protobuf import json_format

from mazzo.games.registry import GAMES
from mazzo.v1 import game_pb2
from mazzo.viewer.words import Json, move_words, words

# --------------------------------------------------------------------------- entry points


def _text_of(message: game_pb2.Event | game_pb2.Move) -> str:
    outer = "event" if isinstance(message, game_pb2.Event) else "move"
    game = message.WhichOneof(outer)  # type: ignore[arg-type]
    if game is None:
        return ""
    detail = getattr(message, game)
    kind = detail.WhichOneof(detail.DESCRIPTOR.oneofs[0].name)
    texts = GAMES[game].presentation
    text = (texts.event_texts if outer == "event" else texts.move_texts).get(kind or "")
    if text is None:
        return ""
    return text(getattr(detail, kind))


@lru_cache(maxsize=1 << 14)
def _event_text(text: str) -> str:
    said = _text_of(json_format.ParseDict(json.loads(text), game_pb2.Event()))
    return said or words(json.loads(text))


@lru_cache(maxsize=1 << 14)
def _move_text(text: str) -> tuple[str, bool]:
    said = _text_of(json_format.ParseDict(json.loads(text), game_pb2.Move()))
    return (said, True) if said else (move_words(json.loads(text)), False)


def event_text(event: Json) -> str:
    """An event (records' JSON) as a sentence: ``seat 2 plays the 3 of denari,
    signalling striscio``. A kind without a text of its own: ``words.words``."""
    return _event_text(json.dumps(event, sort_keys=True))


def move_text(move: Json, seat: int | None = None) -> str:
    """A move (records' JSON) as what its seat does: ``plays the 3 of denari``; with
    ``seat``, a sentence: ``seat 2 plays the 3 of denari``. A kind without a text of its
    own: ``words.move_words``."""
    said, own = _move_text(json.dumps(move, sort_keys=True))
    if seat is None:
        return said
    return f"seat {seat} {said}" if own else f"seat {seat}: {said}"
