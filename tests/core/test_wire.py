"""The protobuf framing the service writes and reads by hand, checked against
protobuf itself."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from mazzo.codec.wire import entry, message_fields, varint
from mazzo.v1 import maraffa_pb2


@given(st.integers(min_value=1, max_value=2**64 - 1))
def test_varint_is_protobufs(n: int) -> None:
    assert maraffa_pb2.MaraffaRng(seed=n).SerializeToString() == b"\x08" + varint(n)


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_message_fields_reads_what_protobuf_writes(state: bytes, move: bytes) -> None:
    assert message_fields(entry(1, state) + entry(2, move), 2) == [state, move]
    assert message_fields(entry(2, move) + entry(1, state), 2) == [state, move]
    assert message_fields(entry(2, move), 2) == [b"", move]
    assert message_fields(b"", 2) == [b"", b""]


def test_message_fields_declines_every_other_shape() -> None:
    body = b"\x0a\x07maraffa"
    assert message_fields(entry(1, body) + entry(1, body), 2) is None  # merged by protobuf
    assert message_fields(entry(3, body), 2) is None  # a field it does not know
    assert message_fields(b"\x08\x01", 2) is None  # not length-delimited
    assert message_fields(entry(1, body)[:-1], 2) is None  # truncated body
    assert message_fields(b"\x0a\x80", 2) is None  # truncated length
    assert message_fields(b"\x0a" + b"\xff" * 6 + b"\x01", 2) is None  # absurd length
    assert message_fields(b"\x82\x01\x00", 2) is None  # a two-byte key (field 16)


@given(st.binary(max_size=40))
def test_message_fields_answers_only_for_plain_encodings(data: bytes) -> None:
    """Whatever bytes come in, an answer means the bytes are exactly the answer's
    fields, each framed once, in some order: what protobuf would parse the same way."""
    fields = message_fields(data, 2)
    if fields is None:
        return
    framings = []
    for numbers in itertools.chain.from_iterable(
        itertools.permutations(subset, len(subset))
        for r in range(3)
        for subset in itertools.combinations((1, 2), r)
    ):
        if all(fields[n - 1] == b"" for n in (1, 2) if n not in numbers):
            framings.append(b"".join(entry(n, fields[n - 1]) for n in numbers))
    assert data in framings
