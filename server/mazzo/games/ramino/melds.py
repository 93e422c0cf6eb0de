"""A closure split into its combinations, for showing it (ramino.md §3.5.4).

``closures.best_closure`` values ten cards and names the joker it reports, but does
not say how the cards fall into combinations: the payout never needs it. A person
watching does, so ``closure_groups`` finds one arrangement that reaches the type the
engine found: the ten cards with the reported substitution made, split by the
type's own condition (five pairs; one run of ten; two combinations, three figure sets
or one suit; three combinations), each group in the order it is read (a run from its
low end, the ace above the king where it stands there). The joker card is put back
in the group, at the place of the code it stands for.

Pure and small: ten cards have few combinations, so the split is a plain exact-cover
search over them; the tests check every group against ``reference.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

from mazzo.games.ramino.cards import FIGURES, RANK, SUIT
from mazzo.games.ramino.closures import ClosureType
from mazzo.games.ramino.reference import is_set


class Group(NamedTuple):
    """One group of a closure: ``kind`` is ``run``, ``set``, ``pair`` or ``suit`` (ten
    cards of one suit, not one run); ``cards`` in reading order, the joker card (if in
    this group) at the place of the code it stands for, which ``stands_for`` names."""

    kind: str
    cards: tuple[int, ...]
    joker: int = 0
    stands_for: int = 0


def _run_order(cards: Sequence[int]) -> tuple[int, ...] | None:
    """The cards as one run of one suit, low end first (the ace high when it follows
    the king), or None: three or more, one suit, every rank once, unbroken."""
    if len(cards) < 3 or len({SUIT[c] for c in cards}) != 1:
        return None
    for high in (False, True):
        place = {c: (13 if high and RANK[c] == 0 else RANK[c]) for c in cards}
        ordered = sorted(cards, key=place.__getitem__)
        spots = [place[c] for c in ordered]
        if spots == list(range(spots[0], spots[0] + len(spots))):
            return tuple(ordered)
    return None


def _combinations(hand: Sequence[int], dup: bool, sets_only: bool) -> list[Group]:
    """Every simple combination inside the ten cards (copies told apart by place)."""
    out: dict[tuple[int, ...], Group] = {}
    for size in range(3, len(hand) + 1):
        for picked in combinations(sorted(hand), size):
            if is_set(picked, dup):
                out.setdefault(picked, Group("set", picked))
            elif not sets_only:
                run = _run_order(picked)
                if run is not None:
                    out.setdefault(picked, Group("run", run))
    return list(out.values())


def _split(hand: Counter[int], parts: int, found: list[Group]) -> list[Group] | None:
    """Exactly ``parts`` groups of ``found`` covering ``hand``, lowest card first."""
    if not +hand:
        return [] if parts == 0 else None
    if parts == 0:
        return None
    low = min(c for c, n in hand.items() if n > 0)
    for group in found:
        need = Counter(group.cards)
        if low in need and all(hand[c] >= n for c, n in need.items()):
            rest = _split(hand - need, parts - 1, found)
            if rest is not None:
                return [group, *rest]
    return None


def _groups_of(cards: Sequence[int], kind: ClosureType, dup: bool) -> list[Group] | None:
    """The ten concrete cards split by the condition of ``kind`` (§3.5.4)."""
    hand = Counter(cards)
    if kind in (ClosureType.TRIPLE, ClosureType.SEXTUPLE):
        if sorted(hand.values()) != [2] * 5:
            return None
        return [Group("pair", (c, c)) for c in sorted(hand)]
    if kind == ClosureType.ROYAL:
        run = _run_order(cards)
        return None if run is None else [Group("run", run)]
    if kind == ClosureType.DOUBLE:
        two = _split(hand, 2, _combinations(cards, dup, False))
        if two is not None:
            return two
        if all(c in FIGURES for c in cards):
            sets = _split(hand, 3, _combinations(cards, dup, True))
            if sets is not None:
                return sets
        if len({SUIT[c] for c in cards}) == 1:
            return [Group("suit", tuple(sorted(cards)))]
        return None
    if kind == ClosureType.SIMPLE:
        return _split(hand, 3, _combinations(cards, dup, False))
    return None


def closure_groups(
    ten: Sequence[int],
    joker: int,
    stands_for: int,
    kind: ClosureType | int,
    dup: bool = False,
) -> tuple[Group, ...]:
    """The combinations of a closure as ``best_closure`` reported it: the ten cards,
    the card declared the joker and the code it stands for (both 0: none), the closure
    type, and the option ``set_duplicate_suits``. Empty when the cards do not make that
    type (not a closure as reported)."""
    kind = ClosureType(kind)
    cards = list(ten)
    if joker and stands_for:
        if joker not in cards:
            return ()
        cards.remove(joker)
        cards.append(stands_for)
    groups = _groups_of(cards, kind, dup)
    if groups is None:
        return ()
    if joker and stands_for:  # the joker card back, where the code it stands for is
        for k, group in enumerate(groups):
            if stands_for in group.cards:
                at = group.cards.index(stands_for)
                shown = (*group.cards[:at], joker, *group.cards[at + 1 :])
                groups[k] = Group(group.kind, shown, joker, stands_for)
                break
    return tuple(groups)
