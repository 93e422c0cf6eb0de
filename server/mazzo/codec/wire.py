"""Protobuf wire framing for pre-encoded entries of repeated message fields.

Responses that list many small messages (moves, events, hands) are assembled from
memoised encodings with ``MergeFromString``: parsing bytes in C costs a fraction of
building each message field by field in Python. Only the framing is done here; every
body is encoded by protobuf itself.
"""

from __future__ import annotations

LENGTH_DELIMITED = 2


def varint(n: int) -> bytes:
    """Base-128 varint of a non-negative integer."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def entry(field_number: int, body: bytes) -> bytes:
    """One entry of a repeated message (or packed) field: key, length, body."""
    return varint(field_number << 3 | LENGTH_DELIMITED) + varint(len(body)) + body
