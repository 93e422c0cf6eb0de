"""Protobuf wire framing for pre-encoded entries of repeated message fields.

Responses that list many small messages (moves, events, hands) are assembled from
memoised encodings with ``MergeFromString``: parsing bytes in C costs a fraction of
building each message field by field in Python. Only the framing is done here; every
body is encoded (and, off the fast paths, parsed) by protobuf itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final, TypeVar

from google.protobuf.message import DecodeError, Message

from mazzo.codec.common import MEMO_ENTRIES
from mazzo.core.errors import InvalidArgument

LENGTH_DELIMITED: Final = 2

T = TypeVar("T")


def parse(deserialize: Callable[[bytes], T], data: bytes, field: str) -> T:
    """``data`` parsed by ``deserialize`` (a message's ``FromString``); bytes that are
    not such a message are the client's error, reported on ``field``."""
    try:
        return deserialize(data)
    except DecodeError as e:
        raise InvalidArgument(field, f"could not be parsed: {e}") from None


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


#: Keys, lengths and seats are almost all below 2**14: their encodings are kept.
_SMALL: Final = tuple(_varint(n) for n in range(1 << 14))


def varint(n: int) -> bytes:
    """Base-128 varint of a non-negative integer."""
    return _SMALL[n] if n < 16384 else _varint(n)


def entry(field_number: int, body: bytes) -> bytes:
    """One entry of a repeated message (or packed) field: key, length, body."""
    return varint(field_number << 3 | LENGTH_DELIMITED) + varint(len(body)) + body


def packed(field_number: int, values: Sequence[int]) -> bytes:
    """A packed repeated field of values below 128 (card ids, signals): each is one
    varint byte, the value itself; no values, no field."""
    return entry(field_number, bytes(values)) if values else b""


def entry_encoder(
    message: Callable[[], Message], fill: Callable[[T, Any], None], *, typed: bool = False
) -> Callable[[T, int], bytes]:
    """``encode(value, field_number)``: ``value`` as one entry of a repeated message
    field, the ``message`` that ``fill`` makes of it; memoised, as the lists a state,
    a view or a reply re-sends (moves, events, turns, tricks) are mostly the same
    values again. ``typed``: values equal across types (NamedTuples of different
    kinds) keep their own entries."""

    def encode(value: T, field_number: int) -> bytes:
        msg = message()
        fill(value, msg)
        return entry(field_number, msg.SerializeToString())

    # Wrapped by a call, not a decorator: see ``common.memoised_decoder``.
    return lru_cache(maxsize=MEMO_ENTRIES, typed=typed)(encode)


def field_entry_encoder(
    message: Callable[[], Message],
    fill: Callable[[T, Any], None],
    field_number: int,
    *,
    typed: bool = False,
) -> Callable[[T], bytes]:
    """``encode(value)``: ``value`` as one entry of the repeated field ``field_number``,
    memoised as ``entry_encoder``'s, for a list of one message (a state's history):
    keyed on the value alone, as that list is written on every call."""

    def encode(value: T) -> bytes:
        msg = message()
        fill(value, msg)
        return entry(field_number, msg.SerializeToString())

    return lru_cache(maxsize=MEMO_ENTRIES, typed=typed)(encode)


def message_fields(data: bytes, count: int) -> list[bytes] | None:
    """The bodies of fields 1..``count`` of a message made only of singular message
    fields (``ApplyMoveRequest``: state, move), each at most once; an absent field is
    ``b""``, the encoding of an empty message.

    This lets a request be routed by its raw bytes without parsing it. Anything else
    (another field, a field twice, which protobuf would merge, a truncated or
    over-long length) gives ``None``, and the caller parses the message in full.
    """
    found: list[bytes] = [b""] * count
    seen = 0
    i, end = 0, len(data)
    while i < end:
        key = data[i]
        number = key >> 3
        if key & 7 != LENGTH_DELIMITED or not 1 <= number <= count or seen >> number & 1:
            return None  # also a key of more than one byte: its top bit sets number >= 16
        seen |= 1 << number
        length = shift = 0
        while True:
            i += 1
            if i >= end or shift > 21:
                return None
            byte = data[i]
            length |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        start = i + 1
        i = start + length
        if i > end:
            return None
        found[number - 1] = data[start:i]
    return found


def first_difference(a: Message, b: Message, path: str) -> str:
    """The path of the first field where two messages of one type differ (``path`` if
    they do not): ``view.maraffa.hand_sizes[2]``. Fields in number order."""
    for field in a.DESCRIPTOR.fields:
        name = f"{path}.{field.name}"
        if field.is_repeated:
            left, right = getattr(a, field.name), getattr(b, field.name)
            for i in range(min(len(left), len(right))):
                if left[i] != right[i]:
                    if (
                        field.message_type is not None
                        and not field.message_type.GetOptions().map_entry
                    ):
                        return first_difference(left[i], right[i], f"{name}[{i}]")
                    return f"{name}[{i}]"
            if len(left) != len(right):
                return name
        elif field.message_type is not None:
            present = a.HasField(field.name), b.HasField(field.name)
            if present != (False, False) and getattr(a, field.name) != getattr(b, field.name):
                if all(present):
                    return first_difference(getattr(a, field.name), getattr(b, field.name), name)
                return name
        elif getattr(a, field.name) != getattr(b, field.name):
            return name
    return path
