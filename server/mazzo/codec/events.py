"""A game's events (NamedTuples) <-> the oneof of its event message, by name.

An event ``HandDealt(hand_number, dealer)`` travels as the oneof branch ``hand_dealt``
with fields of the same names: scalars as they are, lists as repeated fields. A
game's table names only what differs (``Via``): a value stored otherwise (a suit one
up, a seat that may be absent) or a sub-message with its own codec.
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
    """How one field of an event travels when not as itself.

    For a scalar, ``to_wire(value)`` is what is written (``None``: leave it unset)
    and ``from_wire(value, field)`` what is read back, ``field`` being the wire
    field's path for an error; ``absent`` is the event's value when an optional wire
    field is unset (and is then not written). For a sub-message, ``to_wire(value,
    out)`` fills the message and ``from_wire(msg)`` reads it (each entry's, if the
    field is repeated)."""

    to_wire: Callable[..., Any] | None = None
    from_wire: Callable[..., Any] | None = None
    absent: int | None = None


_SCALAR: Final = 0
_REPEATED: Final = 1
_MESSAGE: Final = 2
_MESSAGES: Final = 3

_Step = tuple[str, int, Via | None]
_Fix = Callable[[Any, Any, str], Any]
_new = tuple.__new__


def branch_name(event: type) -> str:
    """The oneof branch of an event class: ``HandDealt`` -> ``hand_dealt``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event.__name__).lower()


class EventTable:
    """The events of ``unions`` (the engine's ``Event = A | B | ...``) <-> ``message``
    (the game's event message, whose oneof is ``event``); ``via`` maps (event class,
    field name) to its ``Via``."""

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
        branches = message.DESCRIPTOR.oneofs_by_name["event"].fields
        by_branch = {f.name: f for f in branches}
        self._out: dict[type, tuple[str, tuple[_Step, ...]]] = {}
        self._readers: dict[
            str, tuple[type, Callable[[Any], tuple[Any, ...]], tuple[tuple[int, _Fix], ...]]
        ] = {}
        for kind in kinds:
            name = branch_name(kind)
            branch = by_branch[name].message_type
            assert branch is not None
            sub = branch.fields_by_name
            steps: list[_Step] = []
            for field_name in kind._fields:  # type: ignore[attr-defined]
                wire = sub[field_name]
                how = (
                    (_MESSAGES if wire.is_repeated else _MESSAGE)
                    if wire.message_type
                    else (_REPEATED if wire.is_repeated else _SCALAR)
                )
                steps.append((field_name, how, special.get((kind, field_name))))
            self._out[kind] = (name, tuple(steps))
            fixes = [(i, _fix(name, *step)) for i, step in enumerate(steps)]
            self._readers[name] = (
                kind,
                _getter(kind._fields),  # type: ignore[attr-defined]
                tuple((i, fix) for i, fix in fixes if fix is not None),
            )

    def to_wire(self, event: Any, out: Any) -> None:
        """Fill ``out`` (the game's event message) with ``event``'s branch."""
        name, steps = self._out[type(event)]
        m = getattr(out, name)
        for (field_name, how, via), value in zip(steps, event, strict=True):
            if how == _SCALAR:
                if via is not None:
                    if value == via.absent:
                        continue
                    if via.to_wire is not None:
                        value = via.to_wire(value)
                setattr(m, field_name, value)
            elif how == _REPEATED:
                getattr(m, field_name).extend(value)
            else:
                assert via is not None and via.to_wire is not None
                if how == _MESSAGE:
                    via.to_wire(value, getattr(m, field_name))
                else:
                    entries = getattr(m, field_name)
                    for entry in value:
                        via.to_wire(entry, entries.add())

    def from_wire(self, msg: Any, field: str) -> Any:
        """The event of ``msg``'s branch; only its form is checked (``Via.from_wire``
        may refuse a value, as ``InvalidState`` at ``field.<branch>.<name>``)."""
        name = msg.WhichOneof("event")
        if name is None:
            raise InvalidState(field, "the history entry names no event")
        kind, read, fixes = self._readers[name]
        m = getattr(msg, name)
        # One C call reads every field; NamedTuples are built as tuples, as their
        # __new__ is a Python call per event.
        if not fixes:
            return _new(kind, read(m))
        values = list(read(m))
        for i, fix in fixes:
            values[i] = fix(values[i], m, field)
        return _new(kind, values)


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` of a message, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    one = attrgetter(names[0])
    return lambda m: (one(m),)


def _undecoded(value: Any, m: Any, at: str) -> Any:
    raise TypeError(f"{at}: this game's events are not decoded")


def _fix(branch: str, name: str, how: int, via: Via | None) -> _Fix | None:
    """What makes the event's value of a field read as it is on the wire:
    ``fix(value, branch message, path of the event)``; None if nothing."""
    if how == _REPEATED:
        return lambda value, m, at: tuple(value)
    if how != _SCALAR:
        assert via is not None
        if via.from_wire is None:  # a game whose events only go out
            return _undecoded
        read = via.from_wire
        if how == _MESSAGE:
            return lambda value, m, at: read(value)
        return lambda value, m, at: tuple([read(e) for e in value])
    if via is None:
        return None
    absent, convert = via.absent, via.from_wire
    if absent is not None:
        return lambda value, m, at: value if m.HasField(name) else absent
    if convert is None:
        return _undecoded
    return lambda value, m, at: convert(value, f"{at}.{branch}.{name}")


def one_up(value: int) -> int:
    """A suit on the wire (0 is "none"): the domain's 0..3 as 1..4."""
    return value + 1
