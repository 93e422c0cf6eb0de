"""A game's options dataclass <-> its options message, field by field by name.

Every game's options travel the same way, so the mapping is read from the two
declarations instead of written out per game: a field the message marks optional
takes its default when unset, one it does not is read as it is, an enum takes its
default at 0 (unset) and refuses a number it does not know, and ``None`` is left
unset. A game names only the fields whose wire form differs (``special``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields
from enum import IntEnum
from typing import Any, Final

from google.protobuf.message import Message

from mazzo.codec.common import memoised_decoder, memoised_encoder, option_enum

#: How a field is read: ``(value, default, field)`` -> the option (``special``).
FieldDecoder = Callable[[Any, Any, str], Any]

_PLAIN: Final = 0
_OPTIONAL: Final = 1
_ENUM: Final = 2
_SPECIAL: Final = 3


def options_decoder(
    options: type[Any],
    message: type[Message],
    special: Mapping[str, FieldDecoder] | None = None,
) -> Callable[[Any, str], Any]:
    """``decode(msg, field)``: the ``options`` of an options ``message``; a refused value
    is reported at ``field.<name>`` (``InvalidArgument``)."""
    by_name = message.DESCRIPTOR.fields_by_name
    plan: list[tuple[str, int, Any, FieldDecoder | None]] = []
    for f in fields(options):
        default = None if f.default is MISSING else f.default
        wire = by_name[f.name]
        read = (special or {}).get(f.name)
        if read is not None:
            plan.append((f.name, _SPECIAL, default, read))
        elif wire.enum_type is not None:
            if not isinstance(default, IntEnum):
                raise TypeError(f"{options.__name__}.{f.name}: an enum option needs its reader")
            plan.append((f.name, _ENUM, default, None))
        else:
            plan.append((f.name, _OPTIONAL if wire.has_presence else _PLAIN, default, None))

    def decode(msg: Any, field: str) -> Any:
        values: dict[str, Any] = {}
        for name, how, default, read in plan:
            value = getattr(msg, name)
            if how == _OPTIONAL:
                values[name] = value if msg.HasField(name) else default
            elif how == _PLAIN:
                values[name] = value
            elif how == _ENUM:
                values[name] = option_enum(value, type(default), default, f"{field}.{name}")
            else:
                assert read is not None
                values[name] = read(value, default, f"{field}.{name}")
        return options(**values)

    return decode


def options_encoder(names: Iterable[str]) -> Callable[[Any, Any], None]:
    """``fill(options, out)``: every option of ``names`` written explicitly (an optional
    one too, at its default), so a state says which rules it plays by; ``None`` (a
    default resolved later) stays unset. Option values are the wire's (enums share
    their numbers, cards their ids)."""
    kept = tuple(names)

    def fill(options: Any, out: Any) -> None:
        for name in kept:
            value = getattr(options, name)
            if value is not None:
                setattr(out, name, value)

    return fill


def option_names(options: type[Any]) -> tuple[str, ...]:
    """The fields of an options dataclass, in order."""
    return tuple(f.name for f in fields(options))


class OptionsCodec:
    """A game's options both ways: ``from_message`` (checked, at ``field``), and
    memoised on the bytes, ``from_wire``; ``to_bytes`` (the options of ``names``, by
    default all, memoised) and ``to_wire``. A match keeps its options from deal to
    end, and they are written into every state: each distinct set is decoded and
    encoded once."""

    def __init__(
        self,
        options: type[Any],
        message: type[Message],
        special: Mapping[str, FieldDecoder] | None = None,
        names: Iterable[str] | None = None,
    ) -> None:
        self.message = message
        self.from_message = options_decoder(options, message, special)
        self.from_wire = memoised_decoder(message.FromString, self.from_message)
        self.to_bytes = self.encoder(option_names(options) if names is None else names)

    def encoder(self, names: Iterable[str]) -> Callable[[Any], bytes]:
        """The memoised bytes of the options of ``names`` (a form's, where a game's
        forms play by different options)."""
        fill = options_encoder(names)
        message = self.message

        def build(options: Any) -> Message:
            out = message()
            fill(options, out)
            return out

        return memoised_encoder(build)

    def to_wire(self, options: Any, out: Any) -> None:
        out.MergeFromString(self.to_bytes(options))
