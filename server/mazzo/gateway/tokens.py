"""Bot tokens: ``mazzo token new NAME`` makes one; the file keeps only its hash.

A token is ``mzt_`` and 256 random bits (``secrets.token_urlsafe(32)``), so one
SHA-256 is all the hashing it needs: nothing is guessable to slow down, unlike a
password. The prefix keeps a token from starting with ``-`` (one in 64 did, and a
starter's ``--token -x...`` was then taken for an option: it exited at once) and lets
secret scanners tell a leaked one. Hashes are
compared with ``hmac.compare_digest``, every entry of the file when the bot names
none, so the time of a refusal tells nothing about which byte was wrong.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

#: The tokens file's format, in its ``format`` field.
FORMAT = 1
#: Every token's first characters (module docstring).
PREFIX = "mzt_"
#: A name is what ``connect:NAME`` and records show: short and plain.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_name(name: str) -> str:
    """``name``, or ``ValueError`` saying what a name may be."""
    if not NAME.fullmatch(name):
        raise ValueError(
            f"{name!r}: a bot name is 1 to 64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class TokenBook:
    """Name -> the SHA-256 (hex) of its token, as the tokens file holds them."""

    hashes: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def load(path: Path) -> TokenBook:
        """The file's tokens; a missing file holds none. ``ValueError`` for one that is
        not a tokens file."""
        if not path.exists():
            return TokenBook()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not a tokens file ({e.msg})") from None
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if data.get("format") != FORMAT or not isinstance(tokens, dict):
            raise ValueError(f"{path}: not a tokens file of format {FORMAT}")
        hashes = {}
        for name, entry in tokens.items():
            digest = entry.get("sha256") if isinstance(entry, dict) else None
            if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
                raise ValueError(f"{path}: the entry of {name!r} has no sha256")
            hashes[check_name(name)] = digest
        return TokenBook(hashes)

    def save(self, path: Path) -> None:
        """Write the file readable by its owner only (0600), replacing it whole."""
        text = json.dumps(
            {
                "format": FORMAT,
                "tokens": {n: {"sha256": h} for n, h in sorted(self.hashes.items())},
            },
            indent=2,
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        os.replace(temp, path)

    def new(self, name: str) -> str:
        """A new random token for ``name`` (replacing its old one); only its hash is kept."""
        token = PREFIX + secrets.token_urlsafe(32)
        self.hashes[check_name(name)] = token_hash(token)
        return token

    def who(self, token: str, name: str = "") -> str | None:
        """The name ``token`` belongs to (it must be ``name``'s when one is given), or
        None. Constant time in the token: every candidate is compared whole."""
        digest = token_hash(token).encode()
        found = None
        candidates = [name] if name else sorted(self.hashes)
        for candidate in candidates:
            # An unknown name is compared against a hash no token has: same time.
            stored = self.hashes.get(candidate, "0" * 64).encode()
            if hmac.compare_digest(digest, stored) and candidate in self.hashes:
                found = candidate
        return found
