"""Check a deal's commitment locally (docs/fair-deals.md in the Mazzo repository).

Before the first move a dealer publishes ``deal_commitment``; at the end it reveals
the salt. With the seed and the dealt state (``Deal``'s answer for that seed), anyone
checks that the match was dealt as committed:

    deal_hash  = BLAKE2b-256(the dealt GameState's deterministic wire bytes)
    commitment = BLAKE2b-256(b"mazzo.v1 deal commitment\\x00" + salt (32 bytes)
                             + seed (8 bytes, little-endian) + deal_hash)
"""

from __future__ import annotations

import hashlib
import hmac

from mazzo.v1 import game_pb2

COMMIT_TAG = b"mazzo.v1 deal commitment\x00"


def _b2(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=32).digest()


def verify_deal_commitment(
    commitment: bytes, salt: bytes, seed: int, dealt_state: game_pb2.GameState
) -> bool:
    """Whether ``salt``, ``seed`` and ``dealt_state`` open ``commitment``."""
    if len(commitment) != 32 or len(salt) != 32 or not 0 <= seed < 2**64:
        return False
    deal_hash = _b2(dealt_state.SerializeToString(deterministic=True))
    found = _b2(COMMIT_TAG + salt + seed.to_bytes(8, "little") + deal_hash)
    return hmac.compare_digest(found, commitment)
