"""What makes a meld (burraco.md §3.2, §4.1, §7.3), checked directly, never by enumeration.

A meld is first reduced to a small *signature*, a tuple that keeps exactly what the
rules look at:

- combination: ``(COMBINATION, rank, naturals, wilds, 0)``;
- sequence: ``(SEQUENCE, suit, ranks, twos, others)`` where ``ranks`` is the 13-bit
  mask of its natural ranks other than the 2, ``twos`` the number of 2s of its own
  suit (each a natural 2 or a wild) and ``others`` the other wilds (jokers, 2s of
  other suits).

Every question is then a cached function of the signature: is it valid (and if not,
why), its canonical interpretation and burraco kind, and which single cards may be
laid off on it. Laying off cards updates the signature card by card
(``add_card``), so checking a lay-off never re-reads the meld. Listing the 3-card
melds of a hand (``triples``) reads per-suit rank masks through small tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final, NamedTuple, TypeVar

from mazzo.core.cards import JOKER, RANKS, code
from mazzo.games.burraco.cards import (
    ACE,
    BIT,
    FULL_RANKS,
    RANK,
    RANK_MASK,
    SUIT,
    TWO,
    TWOS,
    WILD,
    WILD_MASK,
)


class Kind(IntEnum):
    COMBINATION = 1
    SEQUENCE = 2


class Burraco(IntEnum):
    """How clean a meld is; a meld of 7 or more cards scores its kind (§4.1)."""

    NONE = 0
    SPORCO = 1
    SEMIPULITO = 2
    PULITO = 3


COMBINATION, SEQUENCE = Kind.COMBINATION, Kind.SEQUENCE
SPORCO, SEMIPULITO, PULITO = Burraco.SPORCO, Burraco.SEMIPULITO, Burraco.PULITO
MAX_COMBINATION: Final = 9
MAX_SEQUENCE: Final = 14
BURRACO_SIZE: Final = 7
#: A semipulito needs a wild with at least this many cards on one side (§4.1).
SEMIPULITO_RUN: Final = 7

Sig = tuple[Kind, int, int, int, int]

WILD_CARDS_ONLY: Final = "a meld of wild cards only is not allowed (§3.2 rule 2)"
TWO_WILDS: Final = (
    "more than one wild card in a meld (a 2 in its own place is natural) (§3.2 rule 1)"
)
TOO_FEW: Final = "a meld needs at least 3 cards"


class Interp(NamedTuple):
    """The canonical interpretation of a valid meld (§7.3).

    ``clean`` is PULITO without a wild, else SEMIPULITO or SPORCO by where the wild
    stands; it is the meld's burraco kind once it has 7 cards. Sequences: the wild's
    position (1 … 14, 0 without one), whether the ace stands high, the lowest and
    highest positions. Combinations: positions are 0.
    """

    kind: Kind
    size: int
    clean: Burraco
    wild_position: int
    ace_high: bool
    low: int
    high: int


# --------------------------------------------------------------------------- signatures


def signature(cards: Iterable[int]) -> Sig | str:
    """The signature of a multiset of cards, or why no meld can hold them together."""
    cards = tuple(cards)
    naturals = [c for c in cards if not WILD[c]]
    if not naturals:
        return WILD_CARDS_ONLY
    rank = RANK[naturals[0]]
    if len(naturals) >= 2 and all(RANK[c] == rank for c in naturals):
        return (COMBINATION, rank, len(naturals), len(cards) - len(naturals), 0)
    suit = SUIT[naturals[0]]
    if any(SUIT[c] != suit for c in naturals):
        return "natural cards of different ranks and suits: neither a combination nor a sequence"
    ranks = 0
    for c in naturals:
        bit = 1 << RANK[c]
        if ranks & bit:
            return f"a sequence may not hold two cards of rank {RANKS[RANK[c]]}"
        ranks |= bit
    own_two = TWOS[suit]
    twos = sum(1 for c in cards if c == own_two)
    return (SEQUENCE, suit, ranks, twos, len(cards) - len(naturals) - twos)


def add_card(sig: Sig, c: int) -> Sig | str:
    """The signature once ``c`` is laid off on the meld, or why it cannot go there.

    The result may still be invalid as a whole (``interpret`` says); a card that
    could never belong (another rank, another suit, a repeated rank) is refused here.
    """
    kind, a, b, d, e = sig
    if kind is COMBINATION:
        if WILD[c]:
            return (kind, a, b, d + 1, 0)
        if RANK[c] == a:
            return (kind, a, b + 1, d, 0)
        return f"{code(c)} is not a {RANKS[a]} (the combination's rank) nor a wild card"
    if c == JOKER or (WILD[c] and SUIT[c] != a):
        return (kind, a, b, d, e + 1)
    if WILD[c]:
        return (kind, a, b, d + 1, e)
    if SUIT[c] != a:
        return f"{code(c)} is not of the sequence's suit ({'SHDC'[a]})"
    bit = 1 << RANK[c]
    if b & bit:
        return f"the sequence already holds a {RANKS[RANK[c]]}"
    return (kind, a, b | bit, d, e)


# --------------------------------------------------------------------------- validity


#: Meld signatures remembered: more than the melds of the matches in flight, and a
#: bound, since a client may send any valid meld (the server's memory stays flat).
SIGNATURES: Final = 1 << 12


#: The memos of ``interpret`` and ``accepts``: plain dicts, which compiled code reads
#: with one C call (an ``lru_cache`` is called through Python's generic call path and
#: wraps the signature in a key tuple). Past ``SIGNATURES`` entries the oldest goes.
_INTERPRETED: Final[dict[Sig, Interp | str]] = {}
_ACCEPTS: Final[dict[Sig, int]] = {}
_Known = TypeVar("_Known")


def _remember(memo: dict[Sig, _Known], sig: Sig, value: _Known) -> _Known:
    """Store a memo's new entry, the oldest out past ``SIGNATURES`` (only on a miss)."""
    if len(memo) >= SIGNATURES:
        del memo[next(iter(memo))]
    memo[sig] = value
    return value


def interpret(sig: Sig) -> Interp | str:
    """The canonical interpretation of a meld, or the reason it is not valid (§3.2)."""
    known = _INTERPRETED.get(sig)
    if known is None:
        known = _remember(_INTERPRETED, sig, _interpret(sig))
    return known


def _interpret(sig: Sig) -> Interp | str:
    kind = sig[0]
    if kind is COMBINATION:
        return _combination(sig[2], sig[3])
    return _sequence(sig[2], sig[3], sig[4])


def _combination(naturals: int, wilds: int) -> Interp | str:
    """``valid_combination`` of §3.2; semipulito: 8 or more cards with the wild (§4.1)."""
    size = naturals + wilds
    if wilds > 1:
        return TWO_WILDS
    if size < 3:
        return TOO_FEW
    if size > MAX_COMBINATION:
        return f"a combination has at most {MAX_COMBINATION} cards (§3.2 rule 3)"
    clean = PULITO if not wilds else SEMIPULITO if size >= SEMIPULITO_RUN + 1 else SPORCO
    return Interp(COMBINATION, size, clean, 0, False, 0, 0)


def _sequence(ranks: int, twos: int, others: int) -> Interp | str:
    """``exists_interpretation`` of §3.2, choosing the canonical one of §7.3.

    Positions are bits 1 … 14 (A low = 1, 2 … K = 2 … 13, A high = 14). Among the
    valid interpretations the cleanest wins (§4.1); among equally clean ones the ace
    low, and a free wild at the high end if there is room, else the low end. The
    loops visit the options in that order, so the first best one is kept.
    """
    size = ranks.bit_count() + twos + others
    if size < 3:
        return TOO_FEW
    if size > MAX_SEQUENCE:
        return f"a sequence has at most {MAX_SEQUENCE} cards (§3.2 rule 3)"
    best: Interp | None = None
    too_many_wilds = True
    # Ranks 3 … K (rank index 2 … 12) stand at positions 3 … 13.
    middle = (ranks & ~((1 << ACE) | (1 << TWO))) << 1
    for natural_two in (True, False) if twos else (False,):
        wilds = others + twos - natural_two
        if wilds > 1:
            continue
        too_many_wilds = False
        base = middle | (1 << 2) if natural_two else middle
        for ace in (1 << 1, 1 << 14) if ranks & (1 << ACE) else (0,):
            naturals = base | ace
            low = (naturals & -naturals).bit_length() - 1
            high = naturals.bit_length() - 1
            holes = high - low + 1 - naturals.bit_count()
            if holes == 0:
                places = [0] if not wilds else [p for p in (high + 1, low - 1) if 1 <= p <= 14]
            elif holes == 1 and wilds == 1:
                gap = ((1 << (high + 1)) - (1 << low)) & ~naturals
                places = [gap.bit_length() - 1]
            else:
                continue
            for place in places:
                if place:
                    below = (naturals & ((1 << place) - 1)).bit_count()
                    longest = max(below, naturals.bit_count() - below)
                    clean = SEMIPULITO if longest >= SEMIPULITO_RUN else SPORCO
                else:
                    clean = PULITO
                if best is None or clean > best.clean:
                    best = Interp(
                        SEQUENCE,
                        size,
                        clean,
                        place,
                        ace == 1 << 14,
                        min(low, place) if place else low,
                        max(high, place),
                    )
    if best is not None:
        return best
    if too_many_wilds:
        return TWO_WILDS
    return (
        "the cards do not make one run: a sequence may not wrap around K-A-2 "
        "and its one wild fills at most one gap (§3.2)"
    )


def meld_error(cards: Sequence[int]) -> str | None:
    """Why these cards are not a valid meld, or None: the verify-with-reason of §3.2."""
    sig = signature(cards)
    if isinstance(sig, str):
        return sig
    interp = interpret(sig)
    return interp if isinstance(interp, str) else None


def burraco_kind(interp: Interp) -> Burraco:
    """The burraco kind of a meld (§4.1): NONE under 7 cards."""
    return interp.clean if interp.size >= BURRACO_SIZE else Burraco.NONE


# --------------------------------------------------------------------------- single-card lay-offs


def accepts(sig: Sig) -> int:
    """The mask of the cards that may be laid off alone on a valid meld of this signature."""
    known = _ACCEPTS.get(sig)
    if known is None:
        known = _remember(_ACCEPTS, sig, _accepts(sig))
    return known


def _accepts(sig: Sig) -> int:
    kind, a, b, d, e = sig
    mask = 0
    if kind is COMBINATION:
        if b + d < MAX_COMBINATION:
            mask = RANK_MASK[a] | (0 if d else WILD_MASK)
        return mask
    offset = 1 + 13 * a
    for r in range(13):
        if r != TWO and not b >> r & 1 and _valid_sequence(b | 1 << r, d, e):
            mask |= BIT[offset + r]
    if _valid_sequence(b, d + 1, e):
        mask |= BIT[offset + TWO]
    if _valid_sequence(b, d, e + 1):
        mask |= WILD_MASK & ~BIT[offset + TWO]
    return mask


def _valid_sequence(ranks: int, twos: int, others: int) -> bool:
    return not isinstance(interpret((SEQUENCE, 0, ranks, twos, others)), str)


# --------------------------------------------------------------------------- 3-card melds of a hand

#: A suit's 3-card melds are looked up by halves of its ranks. A run of three positions
#: (A low = 1, 2 … K = 2 … 13, A high = 14), or a pair of ranks that one wild makes a
#: run of three, spans at most three positions: one that starts at position 6 or below
#: lies within ranks A … 8, any other within ranks 7 … K and the high A. Each half holds
#: 8 ranks, so every melds table of every half fits in memory (256 per half and suit).
_HIGH_START: Final = 7


def _ranks(*positions: int) -> tuple[int, ...]:
    """The sorted rank indices of some positions."""
    return tuple(sorted((p - 1) % 13 for p in positions))


#: Per half (low, high): its runs of three positions, as sorted rank indices (A-2-3 …
#: Q-K-A; never K-A-2), and its pairs of ranks that one wild makes a run of three.
_RUNS: Final = tuple(
    tuple(_ranks(p, p + 1, p + 2) for p in range(1, 13) if (p >= _HIGH_START) == high)
    for high in (False, True)
)
_PAIRS: Final = tuple(
    tuple(
        _ranks(p, q)
        for p in range(1, 14)
        for q in (p + 1, p + 2)
        if q <= 14 and (p >= _HIGH_START) == high
    )
    for high in (False, True)
)


def _key(a: int, b: int, c: int) -> int:
    """A sorted triple of card ids as one int, so lists of triples sort fast."""
    return a << 12 | b << 6 | c


def key_cards(key: int) -> tuple[int, int, int]:
    return (key >> 12, key >> 6 & 63, key & 63)


_WILD_IDS: Final = (*TWOS, JOKER)
#: Pairs that would give a natural run with their own 2 (A-3 and 3-4): that run is
#: listed as natural already.
_NATURAL_WITH_TWO: Final = ((ACE, 2), (2, 3))


def _with_wild(a: int, b: int, w: int) -> int:
    """The key of the sorted triple of ``a <= b`` and ``w``."""
    if w <= a:
        return w << 12 | a << 6 | b
    if w <= b:
        return a << 12 | w << 6 | b
    return a << 12 | b << 6 | w


class _Entry(NamedTuple):
    """The 3-card melds that some natural cards make: alone, then with each wild card
    (slot 0-3: the 2 of S, H, D, C; slot 4: a joker; slot 5: a second copy of the
    suit's own 2, for pairs that hold its first copy as a natural)."""

    alone: tuple[int, ...]
    with_wild: tuple[tuple[int, ...], ...]


#: The tables, filled on first use and never evicted. A half of a suit is indexed by
#: ``suit << 9 | high << 8`` and its 8 ranks as 8 bits (``triples``): a list of 2,048
#: entries, read without hashing. The ranks' keys are sparse (some 1,000 of
#: them at most): a plain dict, read with ``get``.
_HALVES: Final[list[_Entry | None]] = [None] * (4 << 9)
_RANKS: Final[dict[int, _Entry]] = {}


def _half_entry(index: int) -> _Entry:
    """The sequences of three cards within one half of one suit (``_HIGH_START``)."""
    suit, high, bits = index >> 9, index >> 8 & 1, index & 0xFF
    # The high half's 8 bits are ranks 7 … K, then the A.
    field = (bits & 0x7F) << 6 | bits >> 7 if high else bits
    offset = 1 + 13 * suit
    alone = tuple(
        _key(offset + a, offset + b, offset + c)
        for a, b, c in _RUNS[high]
        if field >> a & 1 and field >> b & 1 and field >> c & 1
    )
    pairs = [p for p in _PAIRS[high] if field >> p[0] & 1 and field >> p[1] & 1]
    slots: list[tuple[int, ...]] = []
    for w in _WILD_IDS:
        if w == TWOS[suit]:
            usable = [p for p in pairs if TWO not in p and p not in _NATURAL_WITH_TWO]
        else:
            usable = pairs
        slots.append(tuple(_with_wild(offset + a, offset + b, w) for a, b in usable))
    twice = [p for p in pairs if TWO in p]
    slots.append(tuple(_with_wild(offset + a, offset + b, TWOS[suit]) for a, b in twice))
    entry = _HALVES[index] = _Entry(alone, tuple(slots))
    return entry


def _rank_entry(key: int) -> _Entry:
    """The combinations of three cards of one rank: ``key`` has bit ``c`` for each card of
    the rank held and bit ``c + 1`` for each held twice."""
    low = key & -key
    rank = RANK[low.bit_length() - 1]
    pool = [c for c in range(1, 53) if key >> c & 1 and RANK[c] == rank]
    pool = sorted(pool + [c for c in pool if key >> (c + 1) & 1])
    n = len(pool)
    alone = tuple(
        sorted(
            {
                _key(pool[i], pool[j], pool[k])
                for i in range(n)
                for j in range(i + 1, n)
                for k in range(j + 1, n)
            }
        )
    )
    pairs = sorted({(pool[i], pool[j]) for i in range(n) for j in range(i + 1, n)})
    slots = tuple(tuple(_with_wild(a, b, w) for a, b in pairs) for w in _WILD_IDS)
    entry = _RANKS[key] = _Entry(alone, (*slots, ()))
    return entry


def triples(hand_mask: int, twice_mask: int, banned_ranks: int) -> list[int]:
    """Every valid 3-card meld that a hand can lay down, as sorted keys (§3.7 order).

    ``hand_mask`` has bit ``c`` for each card held, ``twice_mask`` for each held
    twice or more; combinations of ``banned_ranks`` (a rank mask: the side already
    has one) are left out (§3.2 rule 4). Each suit's sequences and each rank's
    combinations are looked up by the cards they are made of, then joined with each
    wild card held; no triple can come out twice, so the keys need only sorting.
    """
    keys: list[int] = []
    slots = _SLOTS[(hand_mask & WILD_MASK) >> 2]
    halves = _HALVES
    seen = two_or_more = 0
    for s, shift in _SUIT_SHIFTS:
        field = hand_mask >> shift & FULL_RANKS
        naturals = field & _NOT_TWO
        if field & (field - 1):  # two ranks or more
            index = s | field & 0xFF
            low_half = halves[index] or _half_entry(index)
            index = s | 0x100 | (field >> 6) | (field & 1) << 7
            high_half = halves[index] or _half_entry(index)
            keys.extend(low_half.alone)
            keys.extend(high_half.alone)
            low_wild, high_wild = low_half.with_wild, high_half.with_wild
            for i in slots:
                keys.extend(low_wild[i])
                keys.extend(high_wild[i])
            if field >> TWO & 1 and twice_mask >> (shift + TWO) & 1:
                # Only the low half holds pairs with the 2.
                keys.extend(low_wild[5])
        elif not naturals:
            continue
        two_or_more |= (seen & naturals) | (twice_mask >> shift & naturals)
        seen |= naturals
    candidates = two_or_more & ~banned_ranks
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        rank = RANK_MASK[low.bit_length() - 1]
        key = hand_mask & rank | (twice_mask & rank) << 1
        entry = _RANKS.get(key) or _rank_entry(key)
        keys.extend(entry.alone)
        with_wild = entry.with_wild
        for i in slots:
            keys.extend(with_wild[i])
    keys.sort()
    return keys


#: Per set of wild cards held (bits 2 … 53 of a hand shifted down by 2): their slots.
_SLOTS: Final = {
    (sum(BIT[_WILD_IDS[i]] for i in range(5) if m >> i & 1)) >> 2: tuple(
        i for i in range(5) if m >> i & 1
    )
    for m in range(32)
}
_SUIT_SHIFTS: Final = tuple((s << 9, 1 + 13 * s) for s in range(4))
_NOT_TWO: Final = FULL_RANKS & ~(1 << TWO)
