"""Domain records (NamedTuples) <-> messages of the same field names, and a game's
events <-> the oneof of its event message, by name.

A record ``HandScore(aces, thirds)`` travels as a message with fields ``aces`` and
``thirds``: scalars as they are, lists as repeated fields. An event
``HandDealt(hand_number, dealer)`` is such a record in the oneof branch
``hand_dealt``. A game names only what differs (``Via``): a value stored otherwise
(a suit one up, a seat that may be absent) or a sub-message with its own codec.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Final, get_args

from google.protobuf.message import Message

from mazzo.core.errors import InvalidState


@dataclass(frozen=True)
class Via:
    """How one field of a record travels when not as itself.

    For a scalar, ``to_wire(value)`` is what is written and ``from_wire(value,
    field)`` what is read back, ``field`` being the wire field's path for an error;
    ``absent`` is the record's value when an optional wire field is unset (and is
    then not written). For a sub-message, ``to_wire(value, out)`` fills the message
    and ``from_wire(msg)`` reads it (each entry's, if the field is repeated)."""

    to_wire: Callable[..., Any] | None = None
    from_wire: Callable[..., Any] | None = None
    absent: int | None = None


_SCALAR: Final = 0
_REPEATED: Final = 1
_MESSAGE: Final = 2
_MESSAGES: Final = 3

_Step = tuple[str, int, Via | None]
_Fix = Callable[[Any, Any, str], Any]
_Read = Callable[[Any], tuple[Any, ...]]
_new = tuple.__new__


class Record:
    """A NamedTuple class ``kind`` <-> the message of descriptor ``message``, field
    by field by name; ``via`` names the fields that travel otherwise. ``branch``: the
    oneof branch the message is in, if any, for the paths of errors."""

    def __init__(
        self,
        kind: type,
        message: Any,
        via: Mapping[str, Via] | None = None,
        branch: str = "",
    ) -> None:
        special = via or {}
        names: tuple[str, ...] = kind._fields  # type: ignore[attr-defined]
        steps: list[_Step] = []
        for name in names:
            wire = message.fields_by_name[name]
            if wire.message_type is not None:
                how = _MESSAGES if wire.is_repeated else _MESSAGE
            else:
                how = _REPEATED if wire.is_repeated else _SCALAR
            steps.append((name, how, special.get(name)))
        self.kind = kind
        self._steps = tuple(steps)
        self.read = _getter(names)
        at = f".{branch}." if branch else "."
        fixes = [(i, _fix(at, *step)) for i, step in enumerate(steps)]
        self.fixes = tuple((i, fix) for i, fix in fixes if fix is not None)

    def to_wire(self, value: Any, m: Any) -> None:
        """Fill the message ``m`` with ``value``."""
        for (name, how, via), item in zip(self._steps, value, strict=True):
            if how == _SCALAR:
                if via is not None:
                    if item == via.absent:
                        continue
                    if via.to_wire is not None:
                        item = via.to_wire(item)
                setattr(m, name, item)
            elif how == _REPEATED:
                getattr(m, name).extend(item)
            else:
                assert via is not None and via.to_wire is not None
                if how == _MESSAGE:
                    via.to_wire(item, getattr(m, name))
                else:
                    entries = getattr(m, name)
                    for entry in item:
                        via.to_wire(entry, entries.add())

    def from_wire(self, m: Any, field: str = "") -> Any:
        """The record of the message ``m``; ``field``: its path (or its oneof's), for
        the errors of ``Via.from_wire``."""
        # One C call reads every field; NamedTuples are built as tuples, as their
        # __new__ is a Python call per record.
        if not self.fixes:
            return _new(self.kind, self.read(m))
        values = list(self.read(m))
        for i, fix in self.fixes:
            values[i] = fix(values[i], m, field)
        return _new(self.kind, values)


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` of a message, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    one = attrgetter(names[0])
    return lambda m: (one(m),)


def _undecoded(value: Any, m: Any, at: str) -> Any:
    raise TypeError(f"{at}: this record is only encoded")


def _fix(at: str, name: str, how: int, via: Via | None) -> _Fix | None:
    """What makes the record's value of a field of what is read from the wire:
    ``fix(value, message, path)``; None if nothing. ``at`` joins the path and ``name``."""
    if how == _REPEATED:
        return lambda value, m, path: tuple(value)
    if how != _SCALAR:
        assert via is not None
        if via.from_wire is None:
            return _undecoded
        read = via.from_wire
        if how == _MESSAGE:
            return lambda value, m, path: read(value)
        return lambda value, m, path: tuple([read(e) for e in value])
    if via is None:
        return None
    absent, convert = via.absent, via.from_wire
    if absent is not None:
        return lambda value, m, path: value if m.HasField(name) else absent
    if convert is None:
        return _undecoded
    return lambda value, m, path: convert(value, f"{path}{at}{name}")


def branch_name(event: type) -> str:
    """The oneof branch of an event class: ``HandDealt`` -> ``hand_dealt``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event.__name__).lower()


class EventTable:
    """The events of ``unions`` (the engine's ``Event = A | B | ...``) <-> ``message``
    (the game's event message, whose oneof is ``event``), each a ``Record`` in the
    branch of its name; ``via`` maps (event class, field name) to its ``Via``."""

    def __init__(
        self,
        message: type[Message],
        unions: Iterable[object],
        via: Mapping[tuple[type, str], Via] | None = None,
    ) -> None:
        special = via or {}
        kinds: dict[type, None] = {}
        for union in unions:
            kinds.update(dict.fromkeys(get_args(union)))
        branches = {f.name: f for f in message.DESCRIPTOR.oneofs_by_name["event"].fields}
        self._out: dict[type, tuple[str, Record]] = {}
        self._in: dict[str, tuple[type, _Read, tuple[tuple[int, _Fix], ...]]] = {}
        for kind in kinds:
            name = branch_name(kind)
            sub = branches[name].message_type
            assert sub is not None
            own = {field: v for (k, field), v in special.items() if k is kind}
            record = Record(kind, sub, own, name)
            self._out[kind] = (name, record)
            self._in[name] = (kind, record.read, record.fixes)

    def to_wire(self, event: Any, out: Any) -> None:
        """Fill ``out`` (the game's event message) with ``event``'s branch."""
        name, record = self._out[type(event)]
        record.to_wire(event, getattr(out, name))

    def from_wire(self, msg: Any, field: str) -> Any:
        """The event of ``msg``'s branch; only its form is checked (``Via.from_wire``
        may refuse a value, as ``InvalidState`` at ``field.<branch>.<name>``)."""
        name = msg.WhichOneof("event")
        if name is None:
            raise InvalidState(field, "the history entry names no event")
        # Record.from_wire inlined: a state's history is decoded on every request.
        kind, read, fixes = self._in[name]
        m = getattr(msg, name)
        if not fixes:
            return _new(kind, read(m))
        values = list(read(m))
        for i, fix in fixes:
            values[i] = fix(values[i], m, field)
        return _new(kind, values)


def one_up(value: int) -> int:
    """A suit on the wire (0 is "none"): the domain's 0..3 as 1..4."""
    return value + 1
