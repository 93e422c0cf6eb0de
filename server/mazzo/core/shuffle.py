"""The seeded generator behind every deal: same seed, same cards, everywhere, forever.

The generator is counter-based, so its whole state is two integers that travel in
the game state (``seed`` and ``counter``) and any language can reproduce a draw:

1. Block ``k`` of draw ``counter`` is the 64-byte BLAKE2b digest (``person`` =
   ``b"mazzo-v1"``) of ``seed`` (8 bytes, little-endian) ‖ ``counter`` (8 bytes,
   little-endian) ‖ ``k`` (4 bytes, little-endian).
2. A draw below ``n`` reads ``B = ceil((bit_length(n) + 64) / 512)`` blocks
   ``k .. k+B-1`` (from ``k = 0``), concatenated and read as one big-endian unsigned
   integer ``x`` of ``L = 512 * B`` bits. If ``x >= (2**L // n) * n`` the draw is
   rejected and the next ``B`` blocks are read instead (probability below 2**-64);
   else the value is ``x mod n``. The result is exactly uniform.
3. A shuffle of a deck of ``m`` cards draws ``r`` below ``m!`` and runs
   Fisher-Yates from the back: for ``i = m-1 … 1``: ``r, j = divmod(r, i + 1)``,
   swap positions ``i`` and ``j``. Index 0 of the result is the top of the deck.

Golden vectors in ``tests/core/test_shuffle.py`` pin the output across releases.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from functools import cache
from typing import Final, TypeVar

T = TypeVar("T")

_PERSON: Final = b"mazzo-v1"
_BLOCK_BITS: Final = 512
_SPARE_BITS: Final = 64


def _block(seed: int, counter: int, k: int) -> bytes:
    data = seed.to_bytes(8, "little") + counter.to_bytes(8, "little") + k.to_bytes(4, "little")
    return hashlib.blake2b(data, digest_size=64, person=_PERSON).digest()


@cache
def _plan(n: int) -> tuple[int, int]:
    """Blocks per try and the rejection limit of a draw below ``n`` (memoised: pure)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    blocks = -(-(n.bit_length() + _SPARE_BITS) // _BLOCK_BITS)
    bits = blocks * _BLOCK_BITS
    return blocks, ((1 << bits) // n) * n


def draw_below(seed: int, counter: int, n: int) -> int:
    """A uniform integer in ``[0, n)``, the draw number ``counter`` of ``seed``."""
    if not 0 <= seed < 2**64 or not 0 <= counter < 2**64:
        raise ValueError("seed and counter must fit in 64 bits")
    blocks, limit = _plan(n)
    k = 0
    while True:
        if blocks == 1:
            x = int.from_bytes(_block(seed, counter, k), "big")
        else:
            x = int.from_bytes(b"".join(_block(seed, counter, k + i) for i in range(blocks)), "big")
        if x < limit:
            return x % n
        k += blocks


def shuffled(deck: Sequence[T], seed: int, counter: int) -> list[T]:
    """The deck shuffled by draw number ``counter`` of ``seed``; index 0 is the top."""
    cards = list(deck)
    m = len(cards)
    r = draw_below(seed, counter, math.factorial(m))
    for i in range(m - 1, 0, -1):
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
