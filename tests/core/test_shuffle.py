"""The seeded generator (mazzo.core.shuffle): golden vectors and its documented algorithm.

Every deal of every game comes from this generator (docs/rules/README.md §4.1:
"all randomness comes from the seeded generator recorded in the state"), so the same
``(seed, counter)`` must give the same cards on every machine and in every release.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

from mazzo.core.shuffle import draw_below, shuffled
from tests.source_modules import from_source

MAX64 = 2**64 - 1

# ---------------------------------------------------------------------------------- golden vectors
#
# GOLDEN VECTORS. These values were computed once and written here literally. They
# must NEVER change: a change means every stored game state, transcript and replay
# deals different cards. If a test below fails, the generator is broken, not the
# vectors.

GOLDEN_DRAWS: list[tuple[int, int, int, int]] = [
    # (seed, counter, n, draw_below(seed, counter, n))
    (0, 0, 1, 0),
    (0, 0, 2, 1),
    (0, 1, 2, 1),
    (1, 0, 10, 6),
    (42, 0, 4, 3),
    (MAX64, 0, 2, 0),
    (MAX64, MAX64, 1000, 310),
    (0, 0, math.factorial(40), 249528047789784117466987578511264518244692093955),
    (7, 1, math.factorial(40), 805621054691785466956706092744649563646524597127),
    (MAX64, 3, math.factorial(40), 215841809022784950871084045317606874228152306014),
    (
        0,
        0,
        math.factorial(108),
        int(
            "1081943720761064832075968139785940547737019578369015805670563892226712661458690"
            "3069008315958290384478637932576118432093219276303661025556239957249496903243997"
            "9348643432958474"
        ),
    ),
    (
        12345,
        6,
        math.factorial(108),
        int(
            "3811249432327908016871621129871821668276354207036374637921586910878418713882873"
            "6980153238636960910941945021288550698319523023340155685839251110217688128212483"
            "555886090291365"
        ),
    ),
]

GOLDEN_SHUFFLES: list[tuple[int, int, list[int]]] = [
    # (seed, counter, shuffled(range(40), seed, counter)); index 0 is the top of the deck
    (
        0,
        1,
        [17, 33, 5, 23, 21, 8, 19, 35, 11, 16, 4, 7, 30, 27, 2, 22, 6, 10, 39, 15,
         14, 32, 24, 28, 20, 26, 0, 36, 29, 1, 9, 38, 18, 3, 12, 34, 13, 25, 37, 31],
    ),
    (
        1,
        1,
        [8, 27, 16, 14, 33, 37, 34, 18, 1, 10, 30, 38, 24, 11, 20, 23, 21, 2, 7, 26,
         4, 0, 25, 31, 32, 3, 17, 39, 28, 29, 5, 13, 15, 35, 6, 12, 19, 22, 9, 36],
    ),
    (
        MAX64,
        1,
        [0, 33, 31, 14, 7, 8, 3, 39, 26, 4, 18, 24, 36, 27, 37, 20, 25, 29, 1, 30,
         28, 11, 38, 15, 2, 9, 13, 6, 35, 23, 32, 5, 16, 12, 34, 21, 22, 17, 19, 10],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("seed", "counter", "n", "expected"), GOLDEN_DRAWS)
def test_draw_below_golden_vectors(seed: int, counter: int, n: int, expected: int) -> None:
    """The pinned draws: n = 1, 2, small, 40! (one block) and 108! (two blocks)."""
    assert draw_below(seed, counter, n) == expected


@pytest.mark.parametrize(("seed", "counter", "expected"), GOLDEN_SHUFFLES)
def test_shuffle_golden_vectors(seed: int, counter: int, expected: list[int]) -> None:
    """The pinned shuffles of a 40-card deck (Maraffa's pack size)."""
    assert shuffled(range(40), seed, counter) == expected


# ------------------------------------------------------------------------ the documented algorithm
#
# An independent implementation written only from the module docstring, to show that
# the documentation is enough to reproduce the generator in another language.

Block = Callable[[int, int, int], bytes]


def reference_block(seed: int, counter: int, k: int) -> bytes:
    """Docstring step 1: BLAKE2b-512, person "mazzo-v1", of seed ‖ counter ‖ k (LE)."""
    message = seed.to_bytes(8, "little") + counter.to_bytes(8, "little") + k.to_bytes(4, "little")
    return hashlib.blake2b(message, digest_size=64, person=b"mazzo-v1").digest()


def reference_draw(seed: int, counter: int, n: int, block: Block = reference_block) -> int:
    """Docstring step 2: enough 512-bit blocks to hold n with 64 bits to spare, read as
    one big-endian integer; reject x >= (2**L // n) * n and read the next blocks."""
    blocks = 1
    while 512 * blocks < n.bit_length() + 64:
        blocks += 1
    bits = 512 * blocks
    limit = (2**bits // n) * n
    first = 0
    while True:
        data = b"".join(block(seed, counter, first + i) for i in range(blocks))
        x = int.from_bytes(data, "big")
        if x < limit:
            return x % n
        first += blocks


def reference_shuffle(deck: list[int], seed: int, counter: int) -> list[int]:
    """Docstring step 3: r below m!, Fisher-Yates from the back with r, j = divmod(r, i+1)."""
    cards = list(deck)
    r = reference_draw(seed, counter, math.factorial(len(cards)))
    for i in range(len(cards) - 1, 0, -1):
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_reference_implementation_reproduces_the_golden_vectors() -> None:
    """The vectors above are not just the module's output: the documented algorithm gives them."""
    for seed, counter, n, expected in GOLDEN_DRAWS:
        assert reference_draw(seed, counter, n) == expected
    for seed, counter, expected in GOLDEN_SHUFFLES:
        assert reference_shuffle(list(range(40)), seed, counter) == expected


def test_documented_algorithm_agrees_with_the_module_on_random_inputs() -> None:
    """200 random (seed, counter) pairs: draws of several sizes and 40-card shuffles agree."""
    rnd = random.Random(20240601)
    sizes = (1, 2, 3, 10, 40, 1000, 2**63, math.factorial(40), 2**512, math.factorial(108))
    for _ in range(200):
        seed = rnd.getrandbits(64)
        counter = rnd.choice((0, 1, 2, rnd.getrandbits(16), rnd.getrandbits(64)))
        n = rnd.choice(sizes)
        assert draw_below(seed, counter, n) == reference_draw(seed, counter, n), (seed, counter, n)
        assert shuffled(range(40), seed, counter) == reference_shuffle(
            list(range(40)), seed, counter
        ), (seed, counter)


def test_dividing_by_runs_of_radices_gives_the_documented_shuffle_of_any_deck() -> None:
    """The module takes the digits of step 3 a machine word at a time; every deck size
    of every game (39, 40, 108 cards ...) and the sizes around a run's end agree with
    the documented card-by-card loop."""
    rnd = random.Random(20261203)
    for m in (*range(0, 30), 39, 40, 52, 54, 104, 106, 108, 110, 200):
        for _ in range(5):
            seed, counter = rnd.getrandbits(64), rnd.getrandbits(64)
            assert shuffled(range(m), seed, counter) == reference_shuffle(
                list(range(m)), seed, counter
            ), (m, seed, counter)


def test_rejected_draw_reads_the_next_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Docstring step 2's rejection path (too rare to meet by chance): a first block of all
    ones is rejected for n = 3 (2**512 - 1 >= (2**512 // 3) * 3) and block k = 1 is used."""
    calls: list[int] = []

    def block(seed: int, counter: int, k: int) -> bytes:
        calls.append(k)
        return b"\xff" * 64 if k == 0 else reference_block(seed, counter, k)

    expected = int.from_bytes(reference_block(5, 9, 1), "big") % 3
    assert reference_draw(5, 9, 3, block) == expected
    source = from_source("mazzo.core.shuffle")  # compiled, _block is called directly
    monkeypatch.setattr(source, "_block", block)
    calls.clear()
    assert source.draw_below(5, 9, 3) == expected
    assert calls == [0, 1]


def test_shuffle_is_a_permutation() -> None:
    for seed in (0, 1, 99, MAX64):
        for counter in (0, 1, 2, 77):
            result = shuffled(range(40), seed, counter)
            assert sorted(result) == list(range(40))
    deck = [f"c{i}" for i in range(108)]
    assert sorted(shuffled(deck, 3, 4)) == sorted(deck)
    assert shuffled([], 1, 1) == []
    assert shuffled(["only"], 1, 1) == ["only"]


def test_shuffle_depends_on_seed_and_counter() -> None:
    base = shuffled(range(40), 10, 1)
    assert shuffled(range(40), 10, 1) == base
    assert shuffled(range(40), 11, 1) != base
    assert shuffled(range(40), 10, 2) != base


def test_draws_are_uniform_enough() -> None:
    """20,000 draws below 10 (counters 0..19999 of one seed): a chi-square with 9 degrees
    of freedom stays under 40 (p ≈ 4e-6 for a fair generator), and every value occurs."""
    draws = 20_000
    counts = Counter(draw_below(2024, c, 10) for c in range(draws))
    expected = draws / 10
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(10))
    assert set(counts) == set(range(10))
    assert chi2 < 40, (chi2, counts)


def test_first_card_position_is_uniform_enough() -> None:
    """Over 4,000 shuffles of 4 cards every card reaches the top about a quarter of the time."""
    tops = Counter(shuffled(range(4), 77, c)[0] for c in range(4000))
    chi2 = sum((tops[v] - 1000) ** 2 / 1000 for v in range(4))
    assert chi2 < 25, tops


@pytest.mark.parametrize(
    ("seed", "counter"), [(-1, 0), (2**64, 0), (0, -1), (0, 2**64), (2**70, 2**70)]
)
def test_out_of_range_seed_or_counter_is_rejected(seed: int, counter: int) -> None:
    with pytest.raises(ValueError):
        draw_below(seed, counter, 10)
    with pytest.raises(ValueError):
        shuffled(range(40), seed, counter)


@pytest.mark.parametrize("n", [0, -1])
def test_a_draw_below_less_than_1_is_rejected(n: int) -> None:
    with pytest.raises(ValueError):
        draw_below(1, 1, n)


def test_extreme_seed_and_counter_are_accepted() -> None:
    assert 0 <= draw_below(MAX64, MAX64, 10) < 10
    assert draw_below(0, 0, 1) == 0
