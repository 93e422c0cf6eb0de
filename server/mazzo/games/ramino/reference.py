"""The spec's closure functions written out literally (ramino.md §3.5.5), as a check.

``best_closure`` here is the spec's loop: the ten cards, then every card replaced by
every one of the 52 codes, each hand valued by ``closure_multiplier``; partitions are
found by listing every simple combination the hand holds and trying exact covers. It is
slow (hundreds of hand evaluations per call) and shares no code with ``closures.py``
beyond the card tables, so the tests and ``mazzo bench`` compare the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, pairwise
from random import Random

from mazzo.games.ramino.cards import CODES, COPIES, DECK, RANK, SUIT

Hand = tuple[int, ...]


def is_set(cards: Sequence[int], dup: bool) -> bool:
    """3 or 4 cards of one rank, suits all different unless ``dup`` (§3.5.3)."""
    suits = [SUIT[c] for c in cards]
    return (
        len(cards) in (3, 4)
        and len({RANK[c] for c in cards}) == 1
        and (dup or len(set(suits)) == len(suits))
    )


def is_run(cards: Sequence[int]) -> bool:
    """3 or more cards of one suit in unbroken rank order, the ace low or high (§1.2)."""
    if len(cards) < 3 or len({SUIT[c] for c in cards}) != 1:
        return False
    low = sorted(RANK[c] + 1 for c in cards)  # A = 1 … K = 13
    high = sorted(14 if r == 1 else r for r in low)  # A = 14
    return any(all(b - a == 1 for a, b in pairwise(ranks)) for ranks in (low, high))


@lru_cache(maxsize=1 << 16)
def _candidates(h: Hand, sets_only: bool, dup: bool) -> list[Hand]:
    """Every simple combination inside the multiset ``h``, as sorted tuples."""
    found: set[Hand] = set()
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, set[int]] = {}  # a run holds one copy of each of its codes
    for c in h:
        by_rank.setdefault(RANK[c], []).append(c)
        by_suit.setdefault(SUIT[c], set()).add(c)
    for cards in by_rank.values():
        for size in (3, 4):
            for combo in combinations(sorted(cards), size):
                if is_set(combo, dup):
                    found.add(combo)
    if not sets_only:
        # A run is three or more consecutive ranks of one suit, every card of it held:
        # ranks 1 (A) … 13 (K) and 14 (A again), never the ace at both ends.
        for suit, same_suit in by_suit.items():
            held = {RANK[c] + 1 for c in same_suit}
            if 1 in held:
                held.add(14)
            for low in held:
                high = low
                while high + 1 in held and (low, high + 1) != (1, 14):
                    high += 1
                    if high - low >= 2:
                        ranks = range(low, high + 1)
                        found.add(tuple(sorted(1 + 13 * suit + (r - 1) % 13 for r in ranks)))
    return sorted(found)


def _covers(rest: Counter[int], parts: int, candidates: list[Hand]) -> bool:
    if not +rest:
        return parts == 0
    if parts == 0:
        return False
    first = min(c for c, n in rest.items() if n > 0)
    for combo in candidates:
        if first in combo:
            need = Counter(combo)
            if all(rest[c] >= n for c, n in need.items()) and _covers(
                rest - need, parts - 1, candidates
            ):
                return True
    return False


def partitions_into(h: Hand, m: int, dup: bool = False, sets_only: bool = False) -> bool:
    """``h`` can be split into exactly ``m`` simple combinations."""
    return _covers(Counter(h), m, _candidates(h, sets_only, dup))


def five_identical_pairs(h: Hand) -> bool:
    return sorted(Counter(h).values()) == [2] * 5


def one_suit(h: Hand) -> bool:
    return len({SUIT[c] for c in h}) == 1


def single_run(h: Hand) -> bool:
    return len(h) == 10 and is_run(h)


def figure_sets_3_3_4(h: Hand, dup: bool = False) -> bool:
    return all(RANK[c] >= 10 for c in h) and partitions_into(h, 3, dup, sets_only=True)


@lru_cache(maxsize=1 << 16)
def closure_multiplier(h: Hand, dup: bool = False) -> int:
    """§3.5.5 ``closure_multiplier`` of ten concrete cards (sorted)."""
    if five_identical_pairs(h) and one_suit(h):
        return 6
    if one_suit(h) and single_run(h):
        return 5
    if five_identical_pairs(h):
        return 3
    if (
        figure_sets_3_3_4(h, dup)
        or (one_suit(h) and not single_run(h))
        or partitions_into(h, 2, dup)
    ):
        return 2
    if partitions_into(h, 3, dup):
        return 1
    return 0


def best_closure(ten: Sequence[int], jokers: int = 1, dup: bool = False) -> tuple[int, int, int]:
    """§3.5.5 ``best_closure`` and the arrangement it reports: (k, joker card, stands for);
    (k, 0, 0) when no substitution is needed."""
    cards = tuple(sorted(ten))
    plain = closure_multiplier(cards, dup)
    best, joker, stands_for = plain, 0, 0
    if jokers:
        for i, x in enumerate(cards):
            for y in CODES:
                k = closure_multiplier(tuple(sorted((*cards[:i], y, *cards[i + 1 :]))), dup)
                if k > best:
                    best, joker, stands_for = k, x, y
    if best == plain:
        return best, 0, 0
    return best, joker, stands_for


# --------------------------------------------------------------------------- test hands


def _run(rnd: Random, length: int, suit: int | None = None) -> list[int]:
    suit = rnd.randrange(4) if suit is None else suit
    low = rnd.randint(1, 15 - length)  # 1 = A low … 14 = A high
    return [1 + 13 * suit + (r - 1) % 13 for r in range(low, low + length)]


def _set(rnd: Random, size: int, rank: int | None = None) -> list[int]:
    rank = rnd.randrange(13) if rank is None else rank
    return [1 + 13 * s + rank for s in rnd.sample(range(4), size)]


def _shaped(rnd: Random) -> list[int]:
    """Ten cards of one of the closure shapes of §3.5.4 (not always a valid hand)."""
    shape = rnd.randrange(9)
    if shape == 0:  # three combinations: 4 + 3 + 3
        return [c for size in (4, 3, 3) for c in rnd.choice((_run, _set))(rnd, size)]
    if shape == 1:  # two combinations: 3 + 7, 4 + 6, 5 + 5
        first = rnd.choice((3, 4, 5))
        head = rnd.choice((_run, _set))(rnd, first) if first <= 4 else _run(rnd, first)
        return [*head, *_run(rnd, 10 - first)]
    if shape == 2:  # five pairs, perhaps of one suit
        suit = rnd.randrange(4) if rnd.random() < 0.5 else None
        codes = rnd.sample([c for c in CODES if suit is None or SUIT[c] == suit], 5)
        return codes + codes
    if shape == 3:  # ten of one suit
        suit = rnd.randrange(4)
        return [1 + 13 * suit + r for r in rnd.sample(range(13), 10)]
    if shape == 4:  # a run of ten
        return _run(rnd, 10)
    if shape == 5:  # figures: sets of J, Q, K
        ranks = rnd.sample((10, 11, 12, rnd.choice((10, 11, 12))), 3)
        return [
            c for size, rank in zip((4, 3, 3), ranks, strict=True) for c in _set(rnd, size, rank)
        ]
    if shape == 6:  # runs sharing cards with sets, to need a third copy
        return [*_run(rnd, 3), *_run(rnd, 3), *_set(rnd, 4)]
    if shape == 7:  # sets that repeat a suit (X X Y), for set_duplicate_suits
        pairs = [_set(rnd, 2) for _ in range(2)]
        return [c for a, b in pairs for c in (a, a, b)] + _run(rnd, 4)
    return rnd.sample(DECK, 10)


def sample_hand(rnd: Random, mutations: int | None = None) -> Hand:
    """A hand of ten cards that could be held (each code at most twice): mostly one of
    the closure shapes with 0-2 cards replaced at random, sometimes ten random cards."""
    while True:
        cards = _shaped(rnd) if rnd.random() < 0.85 else rnd.sample(DECK, 10)
        for _ in range(rnd.choice((0, 1, 1, 2)) if mutations is None else mutations):
            cards[rnd.randrange(10)] = rnd.choice(CODES)
        if len(cards) == 10 and max(Counter(cards).values()) <= COPIES:
            return tuple(sorted(cards))
