"""Closures and the imaginary joker (ramino.md §3.5), found directly and fast.

The spec defines ``best_closure`` as a loop over 521 hands (the ten cards, then each
card replaced by each of the 52 codes); this module computes the same result without
that loop, so that listing the legal moves (up to eleven closure checks a turn) stays
cheap. ``reference.py`` is the spec's loop written out; the tests and ``mazzo bench``
check that the two always agree.

How: a joker replaces one card ``x`` of the ten, so with a joker the question is about
nine cards plus one wild card ``W``. The pair and suit classes need only counts (an odd
code, one suit, a window of ten ranks). The classes made of simple combinations need a
partition search: take the lowest card left, try every combination holding it,
recurse. Three facts keep the search small:

- a card with no possible partner (nothing of its rank in another suit, nothing of its
  suit within two ranks) can only be the joker, so most hands are settled at once;
- ``W`` only ever fills a gap: if ``W`` stood for a code still held outside its
  combination, swapping ``W`` with that card gives a partition of the same cards in
  which ``W`` stands for the same code. So ``W`` is tried only for codes with no copy
  left, and the codes it is tried for are exactly the codes it can stand for;
- the joker card need not be chosen first: the search may place ``W`` and name the
  card it replaces later (state OWED), or name the card and place ``W`` later (HELD),
  so one memoised search covers every choice of ``x``.

Hands here are packed multisets (cards.py): ``m >> 2c & 3`` copies of card ``c``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache, lru_cache
from itertools import product
from typing import Final, NamedTuple

from mazzo.games.ramino.cards import CODES, FIGURES, JACK, KING, ONE, RANK, SUIT, card_at, pack


class ClosureType(IntEnum):
    """The closure types of §3.5.4; each value is the multiplier ``k`` it is paid at."""

    NONE = 0
    SIMPLE = 1
    DOUBLE = 2
    TRIPLE = 3
    ROYAL = 5
    SEXTUPLE = 6


class Closure(NamedTuple):
    """The best closure of ten cards and the arrangement reported for it (§3.5.5):
    ``joker`` is the card declared a joker and ``stands_for`` the code it takes, both 0
    when no substitution is needed."""

    kind: ClosureType
    joker: int = 0
    stands_for: int = 0

    @property
    def multiplier(self) -> int:
        return int(self.kind)


# The joker during a search.
FREE: Final = 0  # may still be used: no card named, W not placed
HELD: Final = 1  # a card was named the joker; W must still be placed
OWED: Final = 2  # W was placed; a card must still be named the joker
SPENT: Final = 3  # used, or not allowed

_LOW_BITS: Final = sum(1 << (2 * c) for c in CODES)
_SUIT_FIELD: Final = tuple(sum(3 << (2 * card_at(s, r)) for r in range(13)) for s in range(4))
_FIGURE_FIELD: Final = sum(3 << (2 * c) for c in FIGURES)


def _neighbours(c: int) -> int:
    """The codes that can share a simple combination with ``c`` together with one W:
    its rank in the other suits, and its suit within two ranks (the ace next to both
    the 2 and the K). Packed with both bits set, so ``m & mask`` tests presence."""
    s, r = SUIT[c], RANK[c]
    codes = {card_at(t, r) for t in range(4) if t != s}
    for p in (r, 13) if r == 0 else (r,):
        for q in (p - 2, p - 1, p + 1, p + 2):
            if 0 <= q <= 13 and q % 13 != r:
                codes.add(card_at(s, q % 13))
    return sum(3 << (2 * o) for o in codes)


_NEIGHBOURS: Final = (0, *(_neighbours(c) for c in CODES))
_RANK_LOW: Final = tuple(sum(1 << (2 * card_at(t, r)) for t in range(4)) for r in range(13))
#: Per card: its rank in every suit and its whole suit, the cards its combinations use.
_LOCAL: Final = (
    0,
    *(_SUIT_FIELD[SUIT[c]] | sum(3 << (2 * card_at(t, RANK[c])) for t in range(4)) for c in CODES),
)


def _cards(m: int) -> list[int]:
    """The distinct codes of a packed multiset, in canonical order."""
    out = []
    while m:
        c = ((m & -m).bit_length() - 1) >> 1
        out.append(c)
        m &= ~(3 << (2 * c))
    return out


def _count(m: int) -> int:
    return (m & _LOW_BITS).bit_count() + 2 * (m >> 1 & _LOW_BITS).bit_count()


def _one_suit(m: int) -> int:
    """The suit of a multiset of one suit, else -1."""
    for s in range(4):
        if m & ~_SUIT_FIELD[s] == 0:
            return s
    return -1


def _isolated(m: int, dup: bool) -> list[int]:
    """Codes that no simple combination can hold, even with one W (see module doc)."""
    return [c for c in _cards(m) if not m & _NEIGHBOURS[c] and not (dup and m >> (2 * c) & 3 >= 2)]


# --------------------------------------------------------------------------- a hand numbered

#: One low bit per field of a numbered multiset (``_Hand``): 30 fields, a small int.
_FIELDS_LOW: Final = sum(1 << (2 * i) for i in range(30))
#: Per card: the codes of its suit that can share a run with it and one W (the ace next
#: to both the 2 and the K), padded to four with 53, a code never held.
_SUIT_NEAR: Final = tuple(
    (*(d for d in CODES if SUIT[d] == SUIT[c] and _NEIGHBOURS[c] >> (2 * d) & 1), 53, 53)[:4]
    for c in range(53)
)


class _Hand:
    """The cards of one closure check for the searches, their distinct codes numbered
    0, 1, … in canonical order: a multiset of them is packed like a hand (``m >> 2i & 3``
    copies of number i), in a small int where a packed hand of 52 codes is a long, so
    compiled code keeps it in a machine word and pure Python's arithmetic is shorter.
    Built once per check with its tables; it also holds the check's memos."""

    def __init__(self, m: int, dup: bool) -> None:
        codes: list[int] = []
        # Per code: its field's shift; every code not held shares an empty field past
        # the numbered ones, so "copies left" needs no test of being held.
        shift = [2 * _cards_count(m)] * 54
        suits = [0, 0, 0, 0]
        ranks = [0] * 13
        packed = 0
        rest = m
        while rest:
            c = ((rest & -rest).bit_length() - 1) >> 1
            i2 = 2 * len(codes)
            codes.append(c)
            shift[c] = i2
            held = rest >> (2 * c) & 3
            rest -= held << (2 * c)
            packed |= held << i2
            suits[SUIT[c]] |= 3 << i2
            ranks[RANK[c]] |= 3 << i2
        full = (1 << 2 * len(codes)) - 1
        #: Per number: the numbers it can share a combination with (``_NEIGHBOURS``),
        #: and the numbers of its rank or suit (``_LOCAL``), both bits set.
        near: list[int] = []
        local: list[int] = []
        for c in codes:
            rank = ranks[RANK[c]]
            a, b, d, e = _SUIT_NEAR[c]
            suit_near = 3 << shift[a] | 3 << shift[b] | 3 << shift[d] | 3 << shift[e]
            near.append((rank & ~(3 << shift[c]) | suit_near) & full)
            local.append(suits[SUIT[c]] | rank)
        self.codes = codes
        self.shift = shift
        self.m = packed
        self.dup = dup
        self.near = near
        self.local = local
        self.figures = ranks[JACK] | ranks[JACK + 1] | ranks[KING]
        self.memo: dict[int, bool] = {}
        self.combos: dict[int, tuple[Combo, ...]] = {}

    def number(self, c: int) -> int:
        """One copy of code ``c`` (held) in the numbered packing."""
        return 1 << self.shift[c]


def _cards_count(m: int) -> int:
    """The number of distinct codes of a packed multiset."""
    return ((m | m >> 1) & _LOW_BITS).bit_count()


def _count_numbered(m: int) -> int:
    return (m & _FIELDS_LOW).bit_count() + 2 * (m >> 1 & _FIELDS_LOW).bit_count()


def _isolated_numbers(h: _Hand, m: int) -> list[int]:
    """``_isolated`` for a numbered multiset: the numbers no combination can hold."""
    near, dup = h.near, h.dup
    out = []
    rest = m
    while rest:
        i = ((rest & -rest).bit_length() - 1) >> 1
        rest &= ~(3 << (2 * i))
        if not m & near[i] and not (dup and m >> (2 * i) & 3 >= 2):
            out.append(i)
    return out


# --------------------------------------------------------------------------- combinations


_RANK_CODES: Final = tuple(tuple(card_at(t, r) for t in range(4)) for r in range(13))

#: A way to join other cards of a rank to a set: copies taken per suit, the real cards
#: with the lowest, the suits used as bits.
SetPick = tuple[int, int, int, int, int, int]


def _set_picks(avail: tuple[int, int, int, int]) -> tuple[SetPick, ...]:
    """The ways to join 1 to 3 other cards of a rank to a set, ``avail[t]`` copies of
    suit t being free."""
    out = []
    for picks in product(*(range(a + 1) for a in avail)):
        if 1 <= sum(picks) <= 3:
            used = sum(1 << t for t, k in enumerate(picks) if k)
            out.append((picks[0], picks[1], picks[2], picks[3], 1 + sum(picks), used))
    return tuple(out)


#: ``_set_picks`` by ``a0 + 4 a1 + 16 a2 + 64 a3``, filled on first use.
_SET_PICKS: Final[dict[int, tuple[SetPick, ...]]] = {}


#: (cards taken besides the lowest, numbered; real cards; size; the lowest code W may
#: stand for, 0 without W)
Combo = tuple[int, int, int, int]


def _combos(h: _Hand, local: int, i: int, wild: bool, runs: bool) -> tuple[Combo, ...]:
    """Every simple combination holding number ``i``, the lowest card left, with at most
    one W if ``wild``. ``local`` holds the other cards of its rank and suit (``i``
    taken out); the result depends on nothing else, so it is memoised for the hand."""
    key = ((local << 6 | i) << 1 | wild) << 1 | runs
    known = h.combos.get(key)
    if known is not None:
        return known
    out: list[Combo] = []
    dup, shift = h.dup, h.shift
    c = h.codes[i]
    s, r = SUIT[c], RANK[c]
    # Sets of rank r: 3 or 4 cards, suits all different unless dup (§3.5.3), chosen as
    # a count per suit of the other cards of rank r (c's own suit: copies left, if dup).
    codes = _RANK_CODES[r]
    o0, o1, o2, o3 = shift[codes[0]], shift[codes[1]], shift[codes[2]], shift[codes[3]]
    a0, a1, a2, a3 = local >> o0 & 3, local >> o1 & 3, local >> o2 & 3, local >> o3 & 3
    if not dup:
        a0, a1, a2, a3 = s != 0 and a0 > 0, s != 1 and a1 > 0, s != 2 and a2 > 0, s != 3 and a3 > 0
    avail = a0 + 4 * a1 + 16 * a2 + 64 * a3
    picks = _SET_PICKS.get(avail)
    if picks is None:
        picks = _SET_PICKS[avail] = _set_picks((a0, a1, a2, a3))
    for k0, k1, k2, k3, reals, used in picks:
        taken = (k0 << o0) + (k1 << o1) + (k2 << o2) + (k3 << o3)
        if reals >= 3:
            out.append((taken, reals, reals, 0))
        if wild and reals <= 3:
            # W takes a code of rank r with no copy left: the lowest, in a suit not used
            # (any suit if dup).
            after = local - taken
            for t in range(4):
                code = codes[t]
                if (dup or (t != s and not used >> t & 1)) and not after >> shift[code] & 3:
                    out.append((taken, reals, reals + 1, code))
                    break
    if runs:
        _runs(h, local, c, wild, out)
    result = tuple(out)
    h.combos[key] = result
    return result


def _runs(h: _Hand, local: int, c: int, wild: bool, out: list[Combo]) -> None:
    """Runs of c's suit holding c, added to ``out``. Every card of the suit below c is
    gone (c is the lowest card left), so c starts the run, W just before it does, or c
    is an ace played above the king."""
    shift = h.shift
    r = RANK[c]
    for lead in range(2 if wild and r != 0 else 1):
        taken, reals = 0, 1
        y = c - 1 if lead else 0
        length = 1 + lead
        start = r - lead
        for q in range(r + 1, 14):
            if q == 13:  # the ace above the king, unless the run starts at the ace
                if start == 0:
                    break
                code, held = c - r, 0
            else:
                code = c + q - r
                held = local - taken >> shift[code] & 3
            if held:
                taken += 1 << shift[code]
                reals += 1
            elif wild and not y:
                y = code
            else:
                break
            length += 1
            if length >= 3:
                out.append((taken, reals, length, y))
    if r == 0:  # the ace c above the king: Q K A, J Q K A, …
        taken, reals, length = 0, 1, 1
        y = 0
        for q in range(12, 0, -1):
            code = c + q
            if local - taken >> shift[code] & 3:
                taken += 1 << shift[code]
                reals += 1
            elif wild and not y:
                y = code
            else:
                break
            length += 1
            if length >= 3:
                out.append((taken, reals, length, y))


# --------------------------------------------------------------------------- the search


def _slots(n: int, w: int) -> int:
    """Places left to fill: the cards, plus W if it is still to place, minus the card
    still to be named for a W already placed."""
    return n + (w == HELD) - (w == OWED)


def _may_split(h: _Hand, m: int, w: int) -> bool:
    """A quick necessary condition: a card with no partner left can only be the joker
    (FREE) or the card a placed W stands for (OWED), and only one card can be that."""
    near, dup = h.near, h.dup
    allowed = w in (FREE, OWED)
    lonely = 0
    rest = m
    while rest:
        i = ((rest & -rest).bit_length() - 1) >> 1
        rest &= ~(3 << (2 * i))
        if not m & near[i] and not (dup and m >> (2 * i) & 3 >= 2):
            lonely += 1
            if lonely > allowed:
                return False
    return True


#: No split: every entry of a search result is INF.
INF: Final = 1 << 12
_NONE: Final = (INF, INF, INF, INF)
_DONE: Final = (0, INF, INF, INF)
Splits = tuple[int, int, int, int]


def _search(h: _Hand, m: int, n: int, w: int, runs: bool, memo: dict[int, Splits]) -> Splits:
    """Entry k: can the ``n`` cards of ``m`` (numbered) be split into exactly k simple
    combinations, with W still to place (HELD) or without W (SPENT)? INF if not;
    otherwise, HELD, the lowest code W can stand for in such a split, SPENT 0. Unlike
    ``_reaches`` it walks every split: the reported joker is the lowest code (§3.5.5)."""
    if n == 0:
        return _DONE if w == SPENT else _NONE
    key = m << 3 | runs << 2 | w
    known = memo.get(key)
    if known is not None:
        return known
    slots = _slots(n, w)
    b1 = b2 = b3 = INF
    if slots >= 3 and _may_split(h, m, w):
        i = ((m & -m).bit_length() - 1) >> 1
        m1 = m - (1 << (2 * i))
        for taken, reals, size, y in _combos(h, m1 & h.local[i], i, w == HELD, runs):
            rest = slots - size
            if rest != 0 and rest < 3:
                continue
            if not y:
                s0, s1, s2, _ = _search(h, m1 - taken, n - reals, w, runs, memo)
                b1, b2, b3 = min(b1, s0), min(b2, s1), min(b3, s2)
                continue
            # y: the lowest code W may take here
            s0, s1, s2, _ = _search(h, m1 - taken, n - reals, SPENT, runs, memo)
            if s0 < INF:
                b1 = min(b1, y)
            if s1 < INF:
                b2 = min(b2, y)
            if s2 < INF:
                b3 = min(b3, y)
    result: Splits = (INF, b1, b2, b3)
    memo[key] = result
    return result


#: ``parts`` for "any number of combinations".
ANY: Final = -1


def _room(slots: int, parts: int, runs: bool) -> bool:
    """Can ``slots`` places still be filled by ``parts`` combinations (ANY: any number)?"""
    if parts == ANY:
        return slots == 0 or slots >= 3
    if parts == 0:
        return slots == 0
    return 3 * parts <= slots and (runs or slots <= 4 * parts)


def _reaches(h: _Hand, m: int, n: int, w: int, parts: int, runs: bool) -> bool:
    """Can the cards (numbered) be split into exactly ``parts`` simple combinations
    (ANY: any number)? What ``_search`` tells, but stopping at the first split found."""
    if n == 0:
        return (w in (FREE, SPENT)) and (parts == 0 or parts == ANY)
    memo = h.memo
    key = m << 6 | (parts + 1) << 3 | runs << 2 | w
    known = memo.get(key)
    if known is not None:
        return known
    slots = _slots(n, w)
    found = False
    if _room(slots, parts, runs) and _may_split(h, m, w):
        i = ((m & -m).bit_length() - 1) >> 1
        m1 = m - (1 << (2 * i))
        if w == FREE:  # c is the joker: W is placed later
            found = _reaches(h, m1, n - 1, HELD, parts, runs)
        elif w == OWED:  # c is the card the W already placed stands for
            found = _reaches(h, m1, n - 1, SPENT, parts, runs)
        if not found and parts != 0:
            wild = w in (FREE, HELD)
            after = parts if parts == ANY else parts - 1
            for taken, reals, size, y in _combos(h, m1 & h.local[i], i, wild, runs):
                w2 = w if not y else (OWED if w == FREE else SPENT)
                if _room(slots - size, after, runs) and _reaches(
                    h, m1 - taken, n - reals, w2, after, runs
                ):
                    found = True
                    break
    memo[key] = found
    return found


# --------------------------------------------------------------------------- classes


def _royal_codes(m: int, n: int, s: int) -> list[int]:
    """For cards all of suit ``s``: with n = 10, ``[0]`` if they are one run of ten; with
    n = 9, every code that makes them one. A run of ten is a window of ten positions of
    the rank line A 2 … K A, the ace at one end only."""
    ranks = []
    for c in _cards(m):
        if m >> (2 * c) & 3 != 1:
            return []  # a repeated card: never one run
        ranks.append(RANK[c])
    out = []
    for start in range(5):
        positions = {13 if r == 0 and start > 0 else r for r in ranks}
        if min(positions) < start or max(positions) > start + 9:
            continue
        missing = [p for p in range(start, start + 10) if p not in positions]
        if n == 10 and not missing:
            out.append(0)
        elif n == 9 and len(missing) == 1:
            out.append(card_at(s, missing[0] % 13))
    return out


def _count_kinds(m: int, n: int, wild: bool) -> dict[int, int]:
    """The classes that need only counts, reached by ten cards (``wild`` False) or by
    nine cards and W (``wild``: with the lowest code W can take): sextuple, royal,
    triple, double by one suit. Maps multiplier to that code (0 without W)."""
    out: dict[int, int] = {}
    single = m & _LOW_BITS  # codes held once
    pairs = single.bit_count() == (1 if wild else 0)
    once = (single.bit_length() - 1) >> 1 if wild else 0
    suit = _one_suit(m)
    if pairs:
        out[3] = once
        if suit >= 0:
            out[6] = once
    if suit >= 0:
        royal = _royal_codes(m, n, suit)
        if royal:
            out[5] = min(royal)
        if wild:
            other = [c for c in CODES if SUIT[c] == suit and c not in royal]
            if other:
                out[2] = other[0]  # one suit, not one run
        elif not royal:
            out[2] = 0
    return out


def _split_kind(h: _Hand, m: int, n: int, w: int, floor: int) -> int:
    """The best class made of simple combinations, if above ``floor`` (§3.5.4): double
    by figure sets 3 + 3 + 4 or by two combinations, simple by three (a run of ten also
    splits in two). ``m``: numbered cards of ``h``; ``w``: SPENT (ten cards, no joker),
    FREE (the joker any one of them) or HELD (nine cards and W)."""
    if floor >= 2:
        return floor
    lonely = _isolated_numbers(h, m)
    if lonely:  # such a card can only be the joker
        if w != FREE or len(lonely) > 1:
            return floor
        m, n, w = m - (1 << (2 * lonely[0])), n - 1, HELD
    others = m & ~h.figures  # figure sets: every card a figure, but the joker
    if not others and _reaches(h, m, n, w, 3, False):
        return 2
    if (
        others
        and w == FREE
        and _count_numbered(others) == 1
        and _reaches(h, m - others, n - 1, HELD, 3, False)
    ):
        return 2
    if _reaches(h, m, n, w, 2, True):
        return 2
    if floor < 1 and _reaches(h, m, n, w, ANY, True):
        return 1
    return floor


def _fits_one_wild_combo(r9: int, dup: bool) -> bool:
    """Nine cards and W: every combination but W's is made of real cards, so the cards
    in no all-real combination (see ``_may_close``) must all be in W's, which holds one
    rank or one suit. A quick necessary test before a search."""
    present = (r9 | r9 >> 1) & _LOW_BITS
    weak = present & ~_strong_codes(r9, present, dup)
    if not weak:
        return True
    return any(not weak & ~field for field in _SUIT_FIELD) or any(
        not weak & ~rank for rank in _RANK_LOW
    )


def _first_stands_for(h: _Hand, r9: int, kind: int) -> int:
    """The lowest code W can take so that the nine cards ``r9`` (numbered) and W make a
    closure of type ``kind`` (1 or 2) by simple combinations; INF if there is none. A
    quick search says whether there is one; only then are all the splits walked for W."""
    if _isolated_numbers(h, r9) or not _fits_one_wild_combo(_unnumbered(h, r9), h.dup):
        return INF
    figures = not r9 & ~h.figures
    if kind == 2:
        by_sets = figures and _reaches(h, r9, 9, HELD, 3, False)
        if not by_sets and not _reaches(h, r9, 9, HELD, 2, True):
            return INF
    elif not _reaches(h, r9, 9, HELD, ANY, True):
        return INF
    found: dict[int, Splits] = {}
    splits = _search(h, r9, 9, HELD, True, found)
    if kind == 1:
        return min(splits[1], splits[3])
    if figures:
        return min(splits[2], _search(h, r9, 9, HELD, False, found)[3])
    return splits[2]


def _unnumbered(h: _Hand, m: int) -> int:
    """A numbered multiset of ``h`` packed as cards again."""
    out = 0
    for i, c in enumerate(h.codes):
        out += (m >> (2 * i) & 3) << (2 * c)
    return out


def best_closure(ten: Sequence[int], jokers: int = 1, dup: bool = False) -> Closure:
    """The best closure of ten cards (§3.5.5 ``best_closure``) and its reported joker.

    With ``jokers`` = 1 one card may stand for any code. The arrangement is the spec's:
    no substitution if none is needed, else the first card (canonical order) that
    reaches the best multiplier, standing for the first code (canonical order) that does.
    ``dup`` is the option ``set_duplicate_suits``.
    """
    return _best_closure(pack(ten), jokers, dup)


@lru_cache(maxsize=1 << 12)
def _best_closure(m: int, jokers: int, dup: bool) -> Closure:
    n = _count(m)
    plain = max((*_count_kinds(m, n, False), 0))
    # Cards no combination can hold: with one, ten cards split only if it is the joker;
    # with more, never. The searches' numbered hand is built only when they may split.
    lonely = len(_isolated(m, dup))
    h: _Hand | None = None
    if plain < 2 and not lonely:
        h = _Hand(m, dup)
        plain = _split_kind(h, h.m, n, SPENT, plain)
    if jokers == 0 or plain == 6:
        return Closure(ClosureType(plain))
    first: dict[int, int] = {}  # multiplier -> first (joker << 6 | stands_for) by counts
    for x in _cards(m):
        for kind, y in _count_kinds(m - ONE[x], n - 1, True).items():
            first.setdefault(kind, x << 6 | y)  # x runs upward: the first is kept
    best = max((*first, plain))
    floor = best - 1 if best == 2 else best  # a double by counts may come later than by splits
    split = floor
    if floor < 2 and lonely <= 1:
        if h is None:
            h = _Hand(m, dup)
        split = _split_kind(h, h.m, n, FREE, floor)
    best = max(best, split)
    if best == plain:
        return Closure(ClosureType(plain))
    pair = first.get(best, INF)
    if h is not None and split > floor and split == best:
        # the first card reaching it by splits may be earlier
        for x in _cards(m):
            if x << 6 >= pair:
                break
            y = _first_stands_for(h, h.m - h.number(x), best)
            if y < INF:
                pair = min(pair, x << 6 | y)
                break
    return Closure(ClosureType(best), pair >> 6, pair & 63)


# --------------------------------------------------------------------------- legal moves


@lru_cache(maxsize=1 << 14)
def can_close(m: int, jokers: int, dup: bool) -> bool:
    """Is ``best_closure`` of these ten packed cards at least 1? Cheaper than computing it."""
    wild = jokers > 0
    if (m & _LOW_BITS).bit_count() <= (2 if wild else 0):
        return True  # five pairs, the joker completing one of them
    if _long_suit(m, 1 if wild else 0):
        return True  # one suit, the joker as the tenth card
    lonely = _isolated(m, dup)
    if not lonely:
        h = _Hand(m, dup)
        return _reaches(h, h.m, 10, FREE if wild else SPENT, ANY, True)
    if wild and len(lonely) == 1:
        h = _Hand(m - ONE[lonely[0]], dup)
        return _reaches(h, h.m, 9, HELD, ANY, True)
    return False


_SUIT_LOW: Final = sum(1 << (2 * c) for c in range(1, 14))  # one low bit per code of spades
_ACES_LOW: Final = sum(1 << (2 * card_at(t, 0)) for t in range(4))
_RUN_STARTS: Final = sum(1 << (2 * c) for c in CODES if RANK[c] <= 10)  # A … J start a run of 3
_QUEENS_LOW: Final = sum(1 << (2 * card_at(t, 11)) for t in range(4))
_EVERY_SUIT: Final = 1 | 1 << 26 | 1 << 52 | 1 << 78  # times a spades mask: that mask in every suit


def _strong(present: int) -> int:
    """The codes (low bits) that belong to some all-real combination of three: a run
    of three in a suit (A 2 3 … Q K A) or three of a rank in different suits."""
    starts = present & present >> 2 & present >> 4 & _RUN_STARTS
    strong = starts | starts << 2 | starts << 4
    high = present & present >> 2 & (present & _ACES_LOW) << 22 & _QUEENS_LOW  # Q K A
    strong |= high | high << 2 | high >> 22
    p0, p1 = present & _SUIT_LOW, present >> 26 & _SUIT_LOW
    p2, p3 = present >> 52 & _SUIT_LOW, present >> 78 & _SUIT_LOW
    sets = p0 & p1 & (p2 | p3) | p2 & p3 & (p0 | p1)  # three suits or more of a rank
    return strong | sets | sets << 26 | sets << 52 | sets << 78


def _suit_counts(m: int) -> list[int]:
    """Cards per suit of a packed multiset."""
    return [
        (m >> (26 * s) & _SUIT_LOW).bit_count() + 2 * (m >> (26 * s + 1) & _SUIT_LOW).bit_count()
        for s in range(4)
    ]


def _long_suit(m: int, outside: int) -> bool:
    """Are all but ``outside`` cards of one suit? One bit per code outside a suit is a
    lower bound of the cards outside it, so most suits are ruled out by one count."""
    for field in _SUIT_FIELD:
        rest = m & ~field
        if rest.bit_count() <= outside and _count(rest) <= outside:
            return True
    return False


def _strong_codes(m: int, present: int, dup: bool) -> int:
    """``_strong``, and with repeated suits allowed every rank held three times or more
    (any three cards of a rank are then a set)."""
    strong = _strong(present)
    if dup:
        for r in range(13):
            held = m & (_RANK_LOW[r] | _RANK_LOW[r] << 1)
            if held and _count(held) >= 3:
                strong |= present & _RANK_LOW[r]
    return strong


def _may_close(m: int, present: int, wild: bool, dup: bool) -> bool:
    """Can some discard from these eleven cards leave ten that split into combinations?
    A necessary test: every combination but the one holding W is made of real cards, so
    a card in no all-real combination of the hand ("weak") is the discard, the joker
    card, or in the W combination, whose cards share a rank or a suit."""
    weak_low = present & ~_strong_codes(m, present, dup)
    weak_cards = m & (weak_low | weak_low << 1)
    weak = weak_low.bit_count() + (weak_cards >> 1 & _LOW_BITS).bit_count()
    if not wild:
        return weak <= 1
    if weak <= 3:
        return True
    if max(_suit_counts(weak_cards)) >= weak - 2:
        return True
    if weak > 6 + 2 * dup:  # a rank holds at most 4 cards (8 with repeated suits)
        return False
    ranks = [0] * 13
    for c in _cards(weak_cards):
        ranks[RANK[c]] += weak_cards >> (2 * c) & 3
    return max(ranks) >= weak - 2


@cache
def _run_cover(suit_bits: int) -> int:
    """The most codes of ``suit_bits`` (one suit's low bits, shifted to spades) within
    five consecutive places of the rank line A 2 … K A: an upper bound of the weak cards
    one combination with W can hold by a run (see ``_near_closure``)."""
    line = [suit_bits >> (2 + 2 * r) & 1 for r in range(13)]
    line.append(line[0])
    return max(sum(line[start : start + 5]) for start in range(10))


_SPADE_STARTS: Final = sum(1 << (2 * c) for c in range(1, 12))  # A … J start a run of three


class _SuitMemo(dict[int, int]):
    """A memo of a pure function of one suit's codes (low bits, shifted to spades), the
    codes that end a run of three and start another: filled on first use, at most
    8,192 entries; a hit is a plain dict lookup."""

    def __missing__(self, p: int) -> int:
        starts = p & p >> 2 & p >> 4 & _SPADE_STARTS
        high = p & p >> 2 & (p & 1 << 2) << 22 & 1 << 24  # Q K A
        value = (starts << 4 | high >> 22) & (starts | high)
        self[p] = value
        return value


_SUIT_RUN_ENDS_AND_STARTS: Final = _SuitMemo()


#: The interleaved packing of a hand's codes (``closing_discards``): one bit per code,
#: each suit in a lane of its own, spades on the even bits 2..26 (as ``_SUIT_LOW``),
#: hearts on the odd bits 3..27, diamonds and clubs the same 28 places higher. The
#: lanes never meet under the shifts by 2 and 4 places that find runs, and the whole
#: hand is below 2**56, a machine word once compiled.
_LANE_SHIFT: Final = (0, 1, 28, 29)
_LANES: Final = tuple(_SUIT_LOW << shift for shift in _LANE_SHIFT)
#: Per card id: its bit in the interleaved packing.
_LANE_BIT: Final = (0, *(1 << (2 * (c - 13 * SUIT[c]) + _LANE_SHIFT[SUIT[c]]) for c in CODES))
_LANE_RUN_STARTS: Final = sum(_SPADE_STARTS << shift for shift in _LANE_SHIFT)
_LANE_ACES: Final = sum(1 << (2 + shift) for shift in _LANE_SHIFT)
_LANE_QUEENS: Final = sum(1 << (24 + shift) for shift in _LANE_SHIFT)


def _near_closure(present: int, double: int, wild: bool, drops: int) -> bool:
    """Without repeated suits: may ``drops`` cards (the discard, then the joker card)
    go so that the rest, with W if ``wild``, are a closure? ``present``: the codes
    held, ``double``: those held twice, both in the interleaved packing (``_LANE_BIT``).
    A necessary test, exact for the classes by counts (pairs, one suit). For the
    classes made of combinations: every card in no all-real combination ("weak") is
    dropped or, with W, in W's combination. That is a set of one rank (at most two weak
    suits: three would make a set of real cards) or a run whose real cards are at most
    two stretches of the suit around W; a weak card's stretch holds at most two places
    (three would be a run), so the weak cards a run with W holds lie within five places.

    It runs on every hand a player holds after taking, so the four suits go through
    each step at once, in one int below 2**56: compiled, every step is a machine-word
    operation (no table lookup, no boxed int); in pure Python, fewer steps than one
    suit at a time."""
    # Codes held once (a lower bound of the cards outside five pairs), then the runs of
    # three of every suit at once (A 2 3 … Q K A) and the ranks held in three suits.
    if (present & ~double).bit_count() <= drops - 1 + 2 * wild:
        return True  # near five pairs
    starts = present & present >> 2 & present >> 4 & _LANE_RUN_STARTS
    high = present & present >> 2 & (present & _LANE_ACES) << 22 & _LANE_QUEENS  # Q K A
    runs = starts | starts << 2 | starts << 4 | high | high << 2 | high >> 22
    p0, p1 = present & _SUIT_LOW, present >> 1 & _SUIT_LOW
    p2, p3 = present >> 28 & _SUIT_LOW, present >> 29 & _SUIT_LOW
    sets = p0 & p1 & (p2 | p3) | p2 & p3 & (p0 | p1)  # three suits or more of a rank
    if (
        (sets or runs)
        # weak codes, a lower bound of the weak cards: W's combination holds four at most
        and (present & ~(runs | sets | sets << 1 | sets << 28 | sets << 29)).bit_count()
        <= drops + 4 * wild
        and _weak_fit(
            (
                double & _SUIT_LOW,
                double >> 1 & _SUIT_LOW,
                double >> 28 & _SUIT_LOW,
                double >> 29 & _SUIT_LOW,
            ),
            wild,
            drops,
            (p0, p1, p2, p3),
            (
                runs & _SUIT_LOW,
                runs >> 1 & _SUIT_LOW,
                runs >> 28 & _SUIT_LOW,
                runs >> 29 & _SUIT_LOW,
            ),
            sets,
        )
    ):
        return True
    if p0 and p1 and p2 and p3:
        return False  # one suit: three cards at least outside any, at most two allowed
    outside = drops - 1 + wild
    n0 = p0.bit_count() + (double & _SUIT_LOW).bit_count()
    n1 = p1.bit_count() + (double >> 1 & _SUIT_LOW).bit_count()
    n2 = p2.bit_count() + (double >> 28 & _SUIT_LOW).bit_count()
    n3 = p3.bit_count() + (double >> 29 & _SUIT_LOW).bit_count()
    # All but ``outside`` cards in one suit: the longest suit by comparisons, which
    # compiled are machine-word ones where max() is a call of the builtin.
    top = n0 if n0 > n1 else n1
    if n2 > top:
        top = n2
    if n3 > top:
        top = n3
    return n0 + n1 + n2 + n3 - top <= outside


def _second_copies(double: int, weak: int, runs: int, sets: int, others: int, present: int) -> int:
    """Of one suit's codes held twice (all masks by suit, shifted to spades), those in
    some all-real combination whose second copy cannot be in another: the two copies
    are in two all-real ones only if the code is in a run and a set, or in two sets
    (another suit of its rank held twice), or in two runs (which end and start at it,
    or share another code of the suit, held twice)."""
    two_runs = _SUIT_RUN_ENDS_AND_STARTS[present] | (double & double - 1 and runs)
    return double & ~weak & ~(runs & sets | sets & others | runs & two_runs)


def _weak_fit(
    doubles: tuple[int, int, int, int],
    wild: bool,
    drops: int,
    present: tuple[int, int, int, int],
    runs: tuple[int, int, int, int],
    sets: int,
) -> bool:
    """The weak-card test of ``_near_closure`` for a hand holding some combination:
    ``doubles`` (the codes held twice), ``present`` and ``runs`` per suit (shifted to
    spades), ``sets`` the ranks held in three suits or more."""
    p0, p1, p2, p3 = present
    r0, r1, r2, r3 = runs
    d0, d1, d2, d3 = doubles
    w0, w1, w2, w3 = p0 & ~(r0 | sets), p1 & ~(r1 | sets), p2 & ~(r2 | sets), p3 & ~(r3 | sets)
    weak = w0 | w1 << 1 | w2 << 28 | w3 << 29  # interleaved: see _near_closure
    double = d0 | d1 << 1 | d2 << 28 | d3 << 29
    count = weak.bit_count() + (weak & double).bit_count()
    if count > drops + 4 * wild:
        # W's combination holds at most four of these (one copy of a code); the second
        # copies below would add as many to the cards to place as to its cover.
        return False
    second = s0 = s1 = s2 = s3 = 0
    if double:
        # A card held twice: the two copies go in two combinations, so a copy may be
        # weak though its code is not.
        s0 = _second_copies(d0, w0, r0, sets, d1 | d2 | d3, p0)
        s1 = _second_copies(d1, w1, r1, sets, d0 | d2 | d3, p1)
        s2 = _second_copies(d2, w2, r2, sets, d0 | d1 | d3, p2)
        s3 = _second_copies(d3, w3, r3, sets, d0 | d1 | d2, p3)
        second = s0 | s1 | s2 | s3
        if second:
            count += (s0 | s1 << 1 | s2 << 28 | s3 << 29).bit_count()
    if not wild:
        return count < drops
    if count <= drops + 1:
        return True  # any one weak card fits W's combination
    if not second:
        cover = max(_run_cover(w0), _run_cover(w1), _run_cover(w2), _run_cover(w3))
        if cover < 2 and w0 & (w1 | w2 | w3) | w1 & (w2 | w3) | w2 & w3:
            cover = 2  # two weak suits of one rank, a set with W
    else:  # second copies anywhere in W's run; W's set holds three real cards
        cover = max(
            _run_cover(w0) + s0.bit_count(),
            _run_cover(w1) + s1.bit_count(),
            _run_cover(w2) + s2.bit_count(),
            _run_cover(w3) + s3.bit_count(),
        )
        if cover < 3:
            u0, u1, u2, u3 = w0 | s0, w1 | s1, w2 | s2, w3 | s3
            if u0 & u1 & (u2 | u3) | u2 & u3 & (u0 | u1):
                cover = 3
            elif cover < 2 and u0 & (u1 | u2 | u3) | u1 & (u2 | u3) | u2 & u3:
                cover = 2
    return count - cover <= drops


def closing_discards(
    hand: tuple[int, ...], jokers: int, dup: bool, allowed: Iterable[int]
) -> tuple[int, ...]:
    """The codes among ``allowed`` whose discard leaves a closure, in canonical order.

    Most hands are far from a closure: a whole-hand test (pairs, one suit, the cards in
    no combination) settles them before any discard is tried; then, without repeated
    suits, each discard gets the same test on its ten cards before the search. The
    hand is a tuple, as a state holds it: compiled, a loop over a tuple indexes it,
    where a loop over a ``Sequence`` goes through the iterator protocol."""
    wild = jokers > 0
    if dup:
        m = 0
        for c in hand:  # a plain loop: faster than sum(map(...)) in both builds
            m += ONE[c]
        present = (m | m >> 1) & _LOW_BITS
        if (
            (m & _LOW_BITS).bit_count() > (3 if wild else 1)  # not near five pairs
            and not _long_suit(m, 2 if wild else 1)  # nor one suit
            and not _may_close(m, present, wild, dup)
        ):
            return ()
        return tuple(d for d in allowed if can_close(m - ONE[d], jokers, dup))
    # The codes held and those held twice (two packs: never more), interleaved: a plain
    # loop of machine-word operations once compiled, and short in pure Python.
    present = double = 0
    for c in hand:
        bit = _LANE_BIT[c]
        if present & bit:
            double |= bit
        else:
            present |= bit
    if not _near_closure(present, double, wild, 2):
        return ()
    m = pack(hand)
    out: list[int] = []
    for d in allowed:
        bit = _LANE_BIT[d]  # the ten cards left: one copy of d less
        if double & bit:
            near = _near_closure(present, double - bit, wild, 1)
        else:
            near = _near_closure(present - bit, double, wild, 1)
        if near and can_close(m - ONE[d], jokers, dup):
            out.append(d)
    return tuple(out)
