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


#: A product of consecutive radices below this fits a machine word (mypyc's short ints).
_WORD: Final = 1 << 62


@cache
def _radix_runs(m: int) -> tuple[tuple[int, int], ...]:
    """The radices ``m, m-1, …, 2`` of step 3 in runs, each as (product, length), every
    product below 2**62 (memoised: pure)."""
    runs: list[tuple[int, int]] = []
    radix = m
    while radix > 1:
        product, length = 1, 0
        while radix > 1 and product * radix < _WORD:
            product *= radix
            length += 1
            radix -= 1
        runs.append((product, length))
    return tuple(runs)


@cache
def _factorial(m: int) -> int:
    return math.factorial(m)


def shuffled(deck: Sequence[T], seed: int, counter: int) -> list[T]:
    """The deck shuffled by draw number ``counter`` of ``seed``; index 0 is the top.

    Step 3 divides a number of hundreds of bits once per card. The same digits come
    from dividing it once per run of radices whose product fits a machine word, then
    the remainder by each radix of the run (``r mod (a*b) = (r mod a) + a*((r div a)
    mod b)``): a few big divisions instead of one per card, and word-sized ones, which
    compiled code does without allocating."""
    cards = list(deck)
    m = len(cards)
    r = draw_below(seed, counter, _factorial(m))
    i = m - 1
    for product, length in _radix_runs(m):
        r, run = divmod(r, product)
        for _ in range(length):
            j = run % (i + 1)  # not divmod, which compiled code calls on boxed ints
            run //= i + 1
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
    return cards
