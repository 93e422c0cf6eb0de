"""Provably fair deals: a commitment to a match's deck, and entrants' entropy.

Every function here is pure and documented byte for byte (docs/fair-deals.md), so
anyone can check a record in any language with a BLAKE2b and the shuffle of
``shuffle.py``:

- The **deal hash** is BLAKE2b-256 of the dealt ``GameState``'s deterministic wire
  bytes: every card of the deal and the generator's seed.
- The **commitment** is BLAKE2b-256 of ``COMMIT_TAG`` ‖ salt (32 bytes) ‖ seed (8
  bytes, little-endian) ‖ deal hash (32 bytes). Published at ``Deal``, before any
  move; the salt, 32 secret bytes, makes it say nothing of the deal (without it the
  seed of a known schedule would be checked against the hash in a moment). At the
  end the salt is revealed and anyone recomputes the commitment from the seed.
- **Entropy**: a tournament's entrants each commit to a secret before the schedule
  (``entropy_commitment``) and reveal it once the schedule is fixed; every deal's
  seed is then drawn from the base seed, the deal's number and every secret
  (``mixed_seed``), so no one, the operator included, can choose the deals unless
  every entrant helps.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Final

SALT_BYTES: Final = 32
DIGEST_BYTES: Final = 32
COMMIT_TAG: Final = b"mazzo.v1 deal commitment\x00"
ENTROPY_TAG: Final = b"mazzo.v1 entrant entropy\x00"
MIX_TAG: Final = b"mazzo.v1 tournament entropy\x00"
SEED_TAG: Final = b"mazzo.v1 deal seed\x00"
#: An entrant's secret: enough bytes that nobody guesses it from its commitment.
MIN_SECRET_BYTES: Final = 16
MAX_SECRET_BYTES: Final = 64


def _b2(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=DIGEST_BYTES).digest()


def deal_hash(dealt_state_bytes: bytes) -> bytes:
    """BLAKE2b-256 of the dealt state's deterministic wire bytes."""
    return _b2(dealt_state_bytes)


def commitment(salt: bytes, seed: int, dealt_hash: bytes) -> bytes:
    """The commitment to a deal: hides it until ``salt`` is revealed, and binds it."""
    if len(salt) != SALT_BYTES or len(dealt_hash) != DIGEST_BYTES:
        raise ValueError(f"a salt and a deal hash are {SALT_BYTES} bytes each")
    if not 0 <= seed < 2**64:
        raise ValueError("a seed fits in 64 bits")
    return _b2(COMMIT_TAG + salt + seed.to_bytes(8, "little") + dealt_hash)


def commitment_matches(expected: bytes, salt: bytes, seed: int, dealt_hash: bytes) -> bool:
    """Whether the revealed ``salt``, ``seed`` and deal open the commitment."""
    try:
        found = commitment(salt, seed, dealt_hash)
    except ValueError:
        return False
    return hmac.compare_digest(found, expected)


def entropy_commitment(secret: bytes) -> bytes:
    """What an entrant publishes before the schedule: BLAKE2b-256 of ``ENTROPY_TAG`` ‖
    its secret."""
    check_secret(secret)
    return _b2(ENTROPY_TAG + secret)


def check_secret(secret: bytes) -> None:
    if not MIN_SECRET_BYTES <= len(secret) <= MAX_SECRET_BYTES:
        raise ValueError(
            f"an entropy secret is {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes, "
            f"not {len(secret)}"
        )


def mix(secrets: Mapping[str, bytes]) -> bytes:
    """Every entrant's revealed secret in one value: BLAKE2b-256 of ``MIX_TAG`` then,
    for each entrant in order of its name's UTF-8 bytes, the name's length (2 bytes,
    big-endian), the name, and its secret's commitment and secret."""
    data = bytearray(MIX_TAG)
    for name in sorted(secrets, key=lambda n: n.encode()):
        raw = name.encode()
        secret = secrets[name]
        data += len(raw).to_bytes(2, "big") + raw + entropy_commitment(secret) + secret
    return _b2(bytes(data))


def mixed_seed(base: int, deal: int, mixed: bytes) -> int:
    """The seed of deal ``deal`` of a tournament with entropy: the first 8 bytes,
    big-endian, of BLAKE2b-256 of ``SEED_TAG`` ‖ base (8 bytes, little-endian) ‖ deal
    (4 bytes, little-endian) ‖ the mix."""
    if not 0 <= base < 2**64 or not 0 <= deal < 2**32 or len(mixed) != DIGEST_BYTES:
        raise ValueError("a base seed of 64 bits, a deal number of 32 and a 32-byte mix")
    data = SEED_TAG + base.to_bytes(8, "little") + deal.to_bytes(4, "little") + mixed
    return int.from_bytes(_b2(data)[:8], "big")


def from_hex(text: object, what: str, size: int | None = None) -> bytes:
    """Bytes from hex text, or ``ValueError`` naming ``what``."""
    if not isinstance(text, str):
        raise ValueError(f"{what}: expected hex text")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"{what}: not hex") from None
    if size is not None and len(data) != size:
        raise ValueError(f"{what}: {len(data)} bytes, not {size}")
    return data
