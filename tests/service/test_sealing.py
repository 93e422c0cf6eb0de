"""Sealing's own parts: the key file, the token format, rotation (docs/sealing.md)."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest

from mazzo import cli
from mazzo.service import logs
from mazzo.service.sealing import (
    MATCH_ID_BYTES,
    NOT_A_TOKEN,
    PAD,
    BadToken,
    Key,
    KeyFileError,
    Sealer,
    load_keys,
    padded,
    parse_keys,
    read_header,
    unpadded,
)


def key_line(key_id: str, secret: bytes | None = None) -> str:
    return f"{key_id} {base64.b64encode(secret or os.urandom(32)).decode()}"


def key_file(tmp_path: Path, *lines: str, mode: int = 0o600) -> Path:
    path = tmp_path / "seal.keys"
    path.write_text("\n".join(lines) + "\n")
    path.chmod(mode)
    return path


def test_a_key_file_gives_its_keys_oldest_first_with_comments_and_blank_lines(
    tmp_path: Path,
) -> None:
    a, b = os.urandom(32), os.urandom(32)
    path = key_file(tmp_path, "# seal keys", "", key_line("2026-10", a), "  " + key_line("k.2", b))
    keys = load_keys(path)
    assert keys == [Key("2026-10", a), Key("k.2", b)]
    sealer = Sealer(keys)
    assert sealer.key_id == "k.2" and sealer.key_ids == ("2026-10", "k.2")
    assert a.hex() not in repr(keys) and "secret" not in repr(keys[0])


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        ([], "no key"),
        (["# only a comment"], "no key"),
        (["k1"], "line 1: expected 'KEY_ID BASE64KEY', got 1 words"),
        ([key_line("k1") + " extra"], "line 1: expected 'KEY_ID BASE64KEY', got 3 words"),
        (["k/1 " + base64.b64encode(os.urandom(32)).decode()], "line 1: a key id is 1 to 32"),
        (["k" * 33 + " " + base64.b64encode(os.urandom(32)).decode()], "a key id is 1 to 32"),
        (["k1 not*base64"], "line 1: key 'k1' is not base64"),
        ([key_line("k1", os.urandom(16))], "key 'k1' is 16 bytes, not 32: make one with"),
        ([key_line("k1", os.urandom(64))], "key 'k1' is 64 bytes, not 32"),
        ([key_line("k1", bytes(32))], "key 'k1' does not look random (1 distinct bytes of 32)"),
        ([key_line("k1", b"passwordpasswordpasswordpassword")], "does not look random"),
        ([key_line("k1"), key_line("k1")], "line 2: key id 'k1' is also on line 1"),
        ([key_line("k1", b"\x01" * 18 + bytes(range(2, 16)))], "(15 distinct bytes of 32)"),
        ([key_line(f"k{i}") for i in range(33)], "33 keys; at most 32"),
    ],
)
def test_a_malformed_or_weak_key_file_is_refused_in_one_line(
    tmp_path: Path, lines: list[str], says: str
) -> None:
    with pytest.raises(KeyFileError) as error:
        load_keys(key_file(tmp_path, *lines))
    message = str(error.value)
    assert says in message and "\n" not in message, message


def test_the_same_key_under_two_ids_is_refused() -> None:
    secret = os.urandom(32)
    with pytest.raises(KeyFileError, match="line 2: key 'b' is the same key as 'a'"):
        parse_keys(f"{key_line('a', secret)}\n{key_line('b', secret)}")


def test_a_key_file_others_may_write_or_that_is_no_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match=r"writable by other users \(mode 0666\)"):
        load_keys(key_file(tmp_path, key_line("k1"), mode=0o666))
    with pytest.raises(KeyFileError, match="no such file"):
        load_keys(tmp_path / "missing")
    with pytest.raises(KeyFileError, match="not a regular file"):
        load_keys(tmp_path)
    binary = tmp_path / "binary"
    binary.write_bytes(b"k1 \xff\xfe\n")
    with pytest.raises(KeyFileError, match="not a text file"):
        load_keys(binary)


def test_mazzo_serve_refuses_a_bad_key_file_at_start_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logs, "configure", lambda fmt: None)  # the test's logging stays
    path = key_file(tmp_path, key_line("k1", os.urandom(20)))
    assert cli.main(["serve", "--port", "0", "--no-http", "--seal-key-file", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"mazzo: {path} line 1: key 'k1' is 20 bytes, not 32: make one with: " + (
        "head -c 32 /dev/urandom | base64\n"
    )


def test_padding_hides_the_length_within_a_block_and_round_trips() -> None:
    for n in (0, 1, PAD - 2, PAD - 1, PAD, 3 * PAD + 5):
        data = os.urandom(n - 1) + b"\x00" if n else b""  # a zero byte last: kept
        block = padded(data)
        assert len(block) % PAD == 0 and len(block) > len(data)
        assert unpadded(block) == data
    with pytest.raises(BadToken):
        unpadded(bytes(PAD))


def test_a_token_opens_to_its_state_and_says_its_match_move_and_seat() -> None:
    sealer = Sealer([Key("k1", os.urandom(32))])
    match_id = sealer.new_match_id()
    assert len(match_id) == MATCH_ID_BYTES and match_id != sealer.new_match_id()
    token = sealer.seal(b"state bytes", match_id, 7, 2, 4)
    header, state = sealer.open(token)
    assert state == b"state bytes"
    assert (header.key_id, header.match_id, header.move, header.seat, header.seats) == (
        "k1",
        match_id,
        7,
        2,
        4,
    )
    assert read_header(token) == header
    # Same state, seat and move: a fresh nonce makes another token each time.
    assert sealer.seal(b"state bytes", match_id, 7, 2, 4) != token
    assert len(token) == 1 + 1 + 2 + 16 + 4 + 1 + 1 + 12 + PAD + 16


def test_the_last_key_seals_and_every_key_opens_until_it_is_retired() -> None:
    old, new = Key("old", os.urandom(32)), Key("new", os.urandom(32))
    match_id = Sealer.new_match_id()
    before = Sealer([old]).seal(b"s", match_id, 0, 0, 2)
    rotated = Sealer([old, new])
    assert rotated.open(before)[1] == b"s"
    after = rotated.seal(b"s", match_id, 1, 0, 2)
    assert read_header(after).key_id == "new"
    retired = Sealer([new])
    assert retired.open(after)[1] == b"s"
    with pytest.raises(BadToken) as error:
        retired.open(before)
    assert error.value.why == "unknown key id 'old'"
    assert str(error.value) == f"sealed_state: {NOT_A_TOKEN}"
    # Another server's key under the same id opens nothing of this one's.
    with pytest.raises(BadToken, match=NOT_A_TOKEN):
        Sealer([Key("new", os.urandom(32))]).open(after)


def test_the_documented_key_file_and_refusal_are_what_the_server_does(tmp_path: Path) -> None:
    """docs/sealing.md's example key file loads (the last key seals), and its example
    of a refusal is the server's line."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "sealing.md").read_text()
    example = re.search(r"```text\n(# Mazzo seal keys.*?)```", page, re.S)
    assert example is not None
    sealer = Sealer(parse_keys(example.group(1)))
    assert sealer.key_ids == ("2026-10", "2026-11") and sealer.key_id == "2026-11"
    documented = re.search(r"^mazzo: seal\.keys line 2: .*$", page, re.M)
    assert documented is not None
    path = tmp_path / "seal.keys"
    path.write_text(f"{key_line('2026-10')}\n{key_line('2026-11', os.urandom(16))}\n")
    with pytest.raises(KeyFileError) as error:
        load_keys(path)
    assert f"mazzo: {error.value}".replace(str(path), "seal.keys") == documented.group(0)
