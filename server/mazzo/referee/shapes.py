"""The JSON types of a record's fields and of a published commitment line.

``mazzo verify`` reads files an attacker may have written. Every field it reads is
checked for its type first, so that a file of the wrong shape is refused in one line
naming the field (``Malformed``), never by a traceback from deep inside a check, and
so that no check has to guard its own reads. Fields a newer writer adds are allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


class Malformed(ValueError):
    """A record or published line that is not of the documented shape."""


@dataclass(frozen=True)
class Kind:
    """A leaf type: what it is called in a message, and the test."""

    name: str
    test: Callable[[Any], bool]


@dataclass(frozen=True)
class OrNull:
    shape: Any


def _int(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value < high  # bool is not an int here


def _text(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode()  # a lone surrogate (JSON "\ud800") cannot be printed or hashed
    except UnicodeEncodeError:
        return False
    return True


TEXT = Kind("text", _text)
FLAG = Kind("true or false", lambda v: isinstance(v, bool))
OBJECT = Kind("an object", lambda v: isinstance(v, dict))
INT = Kind("an integer of at most 64 bits", lambda v: _int(v, -(2**64) + 1, 2**64))
SEED = Kind("an integer of 0 to 2^64 - 1", lambda v: _int(v, 0, 2**64))
#: Seats, sides, plies, deal and pairing numbers, counts.
COUNT = Kind("an integer of 0 to 2^32 - 1", lambda v: _int(v, 0, 2**32))
NUMBER = Kind(
    "a finite number",
    lambda v: type(v) in (int, float) and math.isfinite(v) and abs(v) < 2**64,
)

SEALED = {"match_id?": TEXT, "deal_commitment?": TEXT, "deal_salt?": TEXT}
SIDE = {"entrant": TEXT, "seats": [COUNT], "bots": [TEXT]}
#: A deciding seat on a clock of its own (``match.SeatClock``).
SEAT_CLOCK = {"seat": COUNT, "move": NUMBER, "bank": NUMBER}
TIME_CONTROL = {"move": NUMBER, "bank": NUMBER, "seats?": [SEAT_CLOCK]}
FAULT_RULES = {"on_fault": TEXT, "disqualify_after": COUNT}
#: Where a match sits in its tournament's schedule (``tournament.tournament_tag``).
SLOT = {
    "name": TEXT,
    "pairing": COUNT,
    "deal": COUNT,
    "orientation": COUNT,
    "duplicate": FLAG,
    "base_seed?": INT,
}
TOURNAMENT = {**SLOT, "entropy?": [{"entrant": TEXT, "commitment": TEXT, "secret": TEXT}]}
MOVE = {
    "seat": COUNT,
    "move": OBJECT,
    "events": [OBJECT],
    "ms": NUMBER,
    "fault?": TEXT,
    "auto?": FLAG,
}
FAULT = {
    "ply": COUNT,
    "seat": COUNT,
    "entrant": TEXT,
    "bot": TEXT,
    "class": TEXT,
    "detail": TEXT,
    "ms": NUMBER,
}
FORFEIT = {"side": COUNT, "entrant": TEXT, "seat": INT, "reason": TEXT}
RESULT = {
    "finished": FLAG,
    "winners": [COUNT],
    "forfeit": OrNull(FORFEIT),
    "match_totals": [INT],
    "score": OBJECT,
}
#: Every field a record has had since the first format (``match.play_match``), and
#: the later ones (commitments, ``sealed``, ``tournament``) where present.
RECORD = {
    "mazzo_record": COUNT,
    "id": TEXT,
    "game": TEXT,
    "players": COUNT,
    "options": OBJECT,
    "seed": SEED,
    "deal_commitment?": TEXT,
    "deal_hash?": TEXT,
    "deal_salt?": TEXT,
    "sealed?": SEALED,
    "sides": [SIDE],
    "seat_bots": [TEXT],
    "time_control": TIME_CONTROL,
    "fault_rules": FAULT_RULES,
    "moves": [MOVE],
    "faults": [FAULT],
    "hands": [[INT]],
    "result": RESULT,
    "time_used_ms?": OBJECT,
    "started?": TEXT,
    "duration_s?": NUMBER,
    "tournament?": TOURNAMENT,
}
#: A line of a commitments file: a match published at its deal, or one abandoned
#: (``records.published_commitment``, ``records.abandoned``).
COMMITMENT = {
    "mazzo_commitment": COUNT,
    "id": TEXT,
    "seed?": SEED,
    "deal_commitment?": TEXT,
    "sealed?": SEALED,
    "abandoned?": FLAG,
    "game?": TEXT,
    "players?": COUNT,
    "options?": OBJECT,
    "sides?": [SIDE],
    "seat_bots?": [TEXT],
    "time_control?": TIME_CONTROL,
    "fault_rules?": FAULT_RULES,
    "tournament?": SLOT,
}


def _describe(shape: Any) -> str:
    if isinstance(shape, Kind):
        return shape.name
    if isinstance(shape, OrNull):
        return f"{_describe(shape.shape)} or null"
    return "a list" if isinstance(shape, list) else "an object"


def _found(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return f"the integer {value}" if abs(value) < 10**30 else "an integer too large"
    if isinstance(value, str) and not _text(value):
        return "text with an unpaired surrogate (not Unicode)"
    return {str: "text", float: "a number", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def check(value: Any, shape: Any, path: str) -> None:
    """``value`` has ``shape`` (a ``Kind``, ``OrNull``, ``[item]``, or ``{key: shape}``
    with ``key?`` for an optional key), or ``Malformed`` naming the first field (by
    its ``path``) that has not."""
    if isinstance(shape, OrNull):
        if value is not None:
            check(value, shape.shape, path)
        return
    if isinstance(shape, Kind):
        ok = shape.test(value)
    else:
        ok = isinstance(value, list if isinstance(shape, list) else dict)
    if not ok:
        raise Malformed(f"{path}: expected {_describe(shape)}, not {_found(value)}")
    if isinstance(shape, list):
        for i, item in enumerate(value):
            check(item, shape[0], f"{path}[{i}]")
    elif isinstance(shape, Mapping):
        for key, inner in shape.items():
            name = key.removesuffix("?")
            if name in value:
                check(value[name], inner, f"{path}.{name}" if path else name)
            elif name == key:
                raise Malformed(f"{path}: no {name!r}" if path else f"no {name!r}")


def check_record(record: Json, where: str) -> None:
    """A record of the documented shape, or ``Malformed`` saying ``where`` it is."""
    try:
        check(record, RECORD, "")
    except Malformed as e:
        raise Malformed(f"{where}: {e}") from None


def check_commitment(line: Json, where: str) -> None:
    """A published line of the documented shape: a match's commitment (and, in older
    files, its seed), or the note that it was abandoned."""
    try:
        check(line, COMMITMENT, "")
    except Malformed as e:
        raise Malformed(f"{where}: {e}") from None
    if not line.get("abandoned") and "deal_commitment" not in line:
        raise Malformed(f"{where}: neither a deal commitment, nor abandoned")
