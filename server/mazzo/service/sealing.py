"""Sealed states: a match's state under authenticated encryption, one token per seat.

A client holding a plain state can read every hand and the generator, and can edit
the state (the service accepts any state the rules can reach). A sealed state is
neither readable nor editable: the server encrypts it under a key only it holds and
opens it again on the next call, so whoever carries the tokens between calls (a
platform, a bot) needs no trust. docs/sealing.md gives the formats and what sealing
does not prevent.

Token, version 1 (the header is authenticated as AES-GCM's associated data)::

    version 1 B | key id length 1 B | key id | match id 16 B | move 4 B (big-endian)
    | seat 1 B | seats 1 B | nonce 12 B | AES-256-GCM ciphertext and 16 B tag

The plaintext is the serialized ``GameState`` padded (0x80, then zeros) to a multiple
of ``PAD`` bytes, so a token's length says little about the hidden cards. Each match
has its own key, derived with HKDF-SHA256 from the server's key and the match id:
random 96-bit nonces then never repeat under one key (a match makes thousands of
tokens, not the billions where they would).

Every refusal of a token is the same ``BadToken`` to the client: which check failed
would tell a forger how close he came.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import secrets
import stat
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mazzo.core.errors import InvalidArgument, NotAllowedNow
from mazzo.core.rules import AnyRules

VERSION = 1
KEY_BYTES = 32
MATCH_ID_BYTES = 16
NONCE_BYTES = 12
TAG_BYTES = 16
#: Plaintexts are padded to a multiple of this: real states are 0.1-3 KB.
PAD = 256
#: Far above any state the rules reach (the longest: about 18 KB); checked before any work.
MAX_TOKEN_BYTES = 1 << 20
#: A match's moves are bounded by its rules, far below this.
MAX_MOVE = 0xFFFF_FFFF
#: More seats than any game has (Ramino: 6).
MAX_SEATS = 16
MAX_KEYS = 32
MAX_KEY_FILE_BYTES = 64 * 1024
KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,32}")
#: 32 random bytes hold 16 distinct values or more but once in about 10**13 draws;
#: fewer is a typed or patterned key.
MIN_DISTINCT_BYTES = 16
_HKDF_INFO = b"mazzo.v1 sealed state\x00"
_SALT_INFO = b"mazzo.v1 deal salt\x00"
SALT_BYTES = 32
_FIXED = struct.Struct(">16sIBB")  # match id, move, seat, seats
MAKE_A_KEY = "make one with: head -c 32 /dev/urandom | base64"

#: What a client is told of any token that does not open: nothing more.
NOT_A_TOKEN = "not a valid token for this server"


class BadToken(InvalidArgument):
    """A token that does not open. The client sees only ``NOT_A_TOKEN``; ``why`` is
    for tests and never leaves the server."""

    def __init__(self, why: str) -> None:
        super().__init__("sealed_state", NOT_A_TOKEN)
        self.why = why

    def __reduce__(self) -> tuple[type[BadToken], tuple[str]]:  # type: ignore[override]
        return (BadToken, (self.why,))


class KeyFileError(ValueError):
    """A key file refused at start; the message is one line for the operator."""


@dataclass(frozen=True)
class Key:
    id: str
    secret: bytes = field(repr=False)


def parse_keys(text: str, source: str = "key file") -> list[Key]:
    """The keys of a key file's text, oldest first: lines ``KEY_ID BASE64KEY``, blank
    lines and ``#`` comments ignored. Every line is checked: a key file that is wrong
    anywhere is refused whole, so a typo never leaves a server sealing with the wrong
    key."""
    keys: list[Key] = []
    lines: dict[str, int] = {}
    secrets_seen: dict[bytes, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {number}"
        parts = line.split()
        if len(parts) != 2:
            raise KeyFileError(f"{where}: expected 'KEY_ID BASE64KEY', got {len(parts)} words")
        key_id, encoded = parts
        if not KEY_ID.fullmatch(key_id):
            raise KeyFileError(
                f"{where}: a key id is 1 to 32 of A-Z a-z 0-9 . _ - (got {key_id[:40]!r})"
            )
        try:
            secret = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise KeyFileError(f"{where}: key {key_id!r} is not base64") from None
        if len(secret) != KEY_BYTES:
            raise KeyFileError(
                f"{where}: key {key_id!r} is {len(secret)} bytes, not {KEY_BYTES}: {MAKE_A_KEY}"
            )
        if len(set(secret)) < MIN_DISTINCT_BYTES:
            raise KeyFileError(
                f"{where}: key {key_id!r} does not look random ({len(set(secret))} distinct "
                f"bytes of {KEY_BYTES}): {MAKE_A_KEY}"
            )
        if key_id in lines:
            raise KeyFileError(f"{where}: key id {key_id!r} is also on line {lines[key_id]}")
        if secret in secrets_seen:
            raise KeyFileError(
                f"{where}: key {key_id!r} is the same key as {secrets_seen[secret]!r}"
            )
        lines[key_id] = number
        secrets_seen[secret] = key_id
        keys.append(Key(key_id, secret))
    if not keys:
        raise KeyFileError(f"{source}: no key (lines 'KEY_ID BASE64KEY'; {MAKE_A_KEY})")
    if len(keys) > MAX_KEYS:
        raise KeyFileError(f"{source}: {len(keys)} keys; at most {MAX_KEYS} (retire old ones)")
    return keys


def load_keys(path: Path) -> list[Key]:
    """The keys of the file at ``path``, refused with a ``KeyFileError`` if the file is
    missing, too large, not text, writable by other users (who could plant a key), or
    wrong on any line."""
    source = str(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"{source}: not a regular file")
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            mode = stat.S_IMODE(info.st_mode)
            raise KeyFileError(
                f"{source}: writable by other users (mode {mode:04o}); make it chmod 600"
            )
        if info.st_size > MAX_KEY_FILE_BYTES:
            raise KeyFileError(f"{source}: over {MAX_KEY_FILE_BYTES} bytes: not a key file")
        data = path.read_bytes()
    except FileNotFoundError:
        raise KeyFileError(f"{source}: no such file") from None
    except OSError as e:
        raise KeyFileError(f"{source}: cannot be read ({e.strerror})") from None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyFileError(f"{source}: not a text file of ASCII lines") from None
    return parse_keys(text, source)


@dataclass(frozen=True)
class Header:
    """What a token says of itself, in the clear but authenticated."""

    key_id: str
    match_id: bytes
    move: int
    seat: int
    seats: int
    #: The header's bytes: the associated data of the AEAD.
    raw: bytes = field(repr=False)


def header_bytes(key_id: str, match_id: bytes, move: int, seat: int, seats: int) -> bytes:
    kid = key_id.encode("ascii")
    return bytes((VERSION, len(kid))) + kid + _FIXED.pack(match_id, move, seat, seats)


def read_header(token: bytes) -> Header:
    """A token's header, its form checked (nothing is decrypted): ``BadToken`` if the
    token cannot be one of ours."""
    if len(token) > MAX_TOKEN_BYTES:
        raise BadToken("too long")
    if len(token) < 2:
        raise BadToken("too short for a header")
    if token[0] != VERSION:
        raise BadToken(f"version {token[0]}")
    kid_end = 2 + token[1]
    end = kid_end + _FIXED.size
    if not 1 <= token[1] <= 32 or len(token) < end + NONCE_BYTES + TAG_BYTES:
        raise BadToken("too short, or a key id of a bad length")
    try:
        key_id = token[2:kid_end].decode("ascii")
    except UnicodeDecodeError:
        raise BadToken("a key id that is not ASCII") from None
    match_id, move, seat, seats = _FIXED.unpack_from(token, kid_end)
    if not 1 <= seats <= MAX_SEATS or seat >= seats:
        raise BadToken("seats out of range")
    sealed = len(token) - end - NONCE_BYTES - TAG_BYTES
    if sealed <= 0 or sealed % PAD:
        raise BadToken("a ciphertext of a length no padded state has")
    return Header(key_id, match_id, move, seat, seats, token[:end])


def padded(data: bytes) -> bytes:
    """``data``, 0x80, then zeros up to a multiple of ``PAD`` (ISO/IEC 7816-4)."""
    return data + b"\x80" + bytes(-(len(data) + 1) % PAD)


def unpadded(data: bytes) -> bytes:
    body = data.rstrip(b"\x00")
    if not body or body[-1] != 0x80:
        raise BadToken("bad padding")
    return body[:-1]


class Sealer:
    """Seals and opens states with a server's keys: the last key seals, all open."""

    def __init__(self, keys: Sequence[Key]) -> None:
        if not keys:
            raise ValueError("a sealer needs a key")
        self._secrets = {key.id: key.secret for key in keys}
        self.key_id = keys[-1].id
        self.key_ids = tuple(key.id for key in keys)
        # Per process and bounded: deriving a match's key (HKDF) costs more than a seal.
        self._aead = lru_cache(maxsize=1024)(self._derive)

    @classmethod
    def from_file(cls, path: Path) -> Sealer:
        return cls(load_keys(path))

    def _derive(self, key_id: str, match_id: bytes) -> AESGCM:
        hkdf = HKDF(
            algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=_HKDF_INFO + match_id
        )
        return AESGCM(hkdf.derive(self._secrets[key_id]))

    @staticmethod
    def new_match_id() -> bytes:
        """A fresh match id: random, so two matches dealt alike (a duplicate tournament's
        tables) never share one, and the server keeps nothing."""
        return secrets.token_bytes(MATCH_ID_BYTES)

    def deal_salt(self, key_id: str, match_id: bytes) -> bytes:
        """The salt of a sealed match's deal commitment (docs/fair-deals.md): HKDF-SHA256
        of the match's key (``key_id``) with info ``mazzo.v1 deal salt``, a zero byte and
        the match id. The server keeps nothing, yet can reveal it at the end; nobody
        without the key can compute it before."""
        hkdf = HKDF(
            algorithm=hashes.SHA256(), length=SALT_BYTES, salt=None, info=_SALT_INFO + match_id
        )
        return hkdf.derive(self._secrets[key_id])

    def seal(
        self,
        state: bytes,
        match_id: bytes,
        move: int,
        seat: int,
        seats: int,
        key_id: str | None = None,
    ) -> bytes:
        """The token of ``seat`` for the serialized state ``state``, sealed with the key
        ``key_id`` (default: the newest). A match keeps the key it was dealt with to its
        end: its deal commitment's salt derives from that key."""
        if len(match_id) != MATCH_ID_BYTES or not 0 <= move <= MAX_MOVE:
            raise ValueError(f"match id of {len(match_id)} bytes, move {move}")
        if not 0 <= seat < seats <= MAX_SEATS:
            raise ValueError(f"seat {seat} of {seats}")
        key_id = self.key_id if key_id is None else key_id
        header = header_bytes(key_id, match_id, move, seat, seats)
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._aead(key_id, match_id).encrypt(nonce, padded(state), header)
        return header + nonce + sealed

    def open(self, token: bytes, header: Header | None = None) -> tuple[Header, bytes]:
        """The header and the serialized state of a token; ``BadToken`` unless it was
        sealed by a key of this server and not changed by a bit since."""
        if header is None:
            header = read_header(token)
        if header.key_id not in self._secrets:
            raise BadToken(f"unknown key id {header.key_id!r}")
        start = len(header.raw)
        nonce = token[start : start + NONCE_BYTES]
        aead = self._aead(header.key_id, header.match_id)
        try:
            plain = aead.decrypt(nonce, token[start + NONCE_BYTES :], header.raw)
        except InvalidTag:
            raise BadToken("authentication failed") from None
        return header, unpadded(plain)


def seats_of(rules: AnyRules, state: Any) -> int:
    """How many seats a match has: every seat of every side. Asked once per match, at
    Deal (a score costs more than a move); later tokens carry it in their header."""
    seats: int = 1 + max(seat for side in rules.score(state).sides for seat in side.seats)
    return seats


def holders(rules: AnyRules, state: Any, seats: int) -> list[bool]:
    """Which seats get a token: those that decide for themselves. The seat another
    decides for (Maraffa's dummy) gets none: its view is its controller's, and a
    second key to that would be one more to guard."""
    return [rules.controller(state, seat) == seat for seat in range(seats)]


def check_decides(rules: AnyRules, state: Any, seat: int) -> None:
    """A token plays, or lists the moves, only when its seat decides now (for a seat it
    controls, Maraffa's dummy, too). Who decides is public: every view shows it."""
    decider = rules.controller(state, rules.to_act(state))
    if seat != decider:
        raise NotAllowedNow("seat", f"seat {seat} does not decide now (seat {decider} does)")
