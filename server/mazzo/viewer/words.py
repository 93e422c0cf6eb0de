"""Records' JSON in plain words, field by field (``card played: seat 0, card 4C``): the
fallback of the hand-written texts (``viewer.texts``) and the cards and enum names the
tables (``viewer.tables``) show. Below both, so neither needs the other for these.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import FileDescriptor

from mazzo.v1 import game_pb2

Json = dict[str, Any]


def _files(file: FileDescriptor) -> list[FileDescriptor]:
    """``file`` and every file it imports of the package (``mazzo.v1``): the cards and
    each game's messages."""
    out = [file]
    for dependency in file.dependencies:
        if dependency.package == file.package and dependency not in out:
            out += [f for f in _files(dependency) if f not in out]
    return out


def _short_enum_names() -> dict[str, str]:
    """Every enum value's name without its enum's prefix, in words:
    ``MARAFFA_SPEECH_MASO_DEI_MASI`` -> ``maso dei masi``; cards keep their code."""
    out: dict[str, str] = {}
    for file in _files(game_pb2.DESCRIPTOR):
        for enum in file.enum_types_by_name.values():
            prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
            for value in enum.values:
                out[value.name] = value.name.removeprefix(prefix).lower().replace("_", " ")
    return out


SHORT = _short_enum_names()


def card(name: str) -> str:
    """``CARD_3D`` -> ``3D``."""
    return name.removeprefix("CARD_")


def cards(names: Any) -> list[str]:
    return [card(str(n)) for n in names or [] if n != "CARD_UNSPECIFIED"]


def enum(name: Any) -> str:
    return SHORT.get(str(name), str(name))


def _spaced(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", key).lower()


def _text(value: Any) -> str:
    if isinstance(value, dict):
        inner = ", ".join(f"{_spaced(k)} {_text(v)}" for k, v in value.items() if not _empty(v))
        return f"({inner})"
    if isinstance(value, list):
        return "[" + " ".join(_text(v) for v in value) + "]"
    if isinstance(value, str):
        if value.startswith("CARD_"):
            return card(value)
        return enum(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _empty(value: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return not value
    if isinstance(value, str):
        return value == "" or value.endswith("_UNSPECIFIED")
    return isinstance(value, list | dict) and not value


@lru_cache(maxsize=1 << 14)
def _words(text: str, kind: str = "event") -> str:
    message = game_pb2.Event() if kind == "event" else game_pb2.Move()
    msg = json_format.ParseDict(json.loads(text), message)
    full = json_format.MessageToDict(msg, always_print_fields_with_no_presence=True)
    parts = []
    for branch in full.values():  # the game's oneof branch
        for kind, body in branch.items():
            if not isinstance(body, dict):
                continue
            detail = ", ".join(f"{_spaced(k)} {_text(v)}" for k, v in body.items() if not _empty(v))
            parts.append(f"{_spaced(kind)}: {detail}" if detail else _spaced(kind))
    return "; ".join(parts)


def words(event: Json) -> str:
    """An event (records' JSON) in words: ``card played: seat 0, card 4C, signal
    striscio``. Fields at their default are written out where they matter (seat 0)."""
    return _words(json.dumps(event, sort_keys=True))


def move_words(move: Json) -> str:
    """A move (records' JSON) in words: ``play card: card 4C``."""
    return _words(json.dumps(move, sort_keys=True), "move")
