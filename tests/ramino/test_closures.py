"""The closure finder against the spec's own loop (ramino.md §3.5.5).

``closures.best_closure`` finds the best closure directly; ``reference.best_closure``
is the spec's loop written out (521 hands valued one by one). They must agree on the
multiplier and on the arrangement reported (joker card, code it stands for), for
every option that changes closures: ``imaginary_jokers`` 0/1, ``set_duplicate_suits``.

The hands are drawn by ``reference.sample_hand``: mostly closure shapes of every type
with 0-2 cards replaced at random (so that joker substitutions matter), some fully
random. ``mazzo bench --only ramino_closure_agreement`` runs the same comparison on
100,000 hands.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mazzo.core.cards import cards, codes
from mazzo.games.ramino import reference
from mazzo.games.ramino.cards import pack
from mazzo.games.ramino.closures import best_closure, can_close, closing_discards


def compare(count: int, seed: int) -> Counter[int]:
    """Check ``count`` hands; the multipliers seen (so a test can see it met them all)."""
    rnd = random.Random(seed)
    seen: Counter[int] = Counter()
    for _ in range(count):
        hand = reference.sample_hand(rnd)
        jokers = 1 if rnd.random() < 0.85 else 0
        dup = rnd.random() < 0.2
        found = best_closure(hand, jokers, dup)
        expected = reference.best_closure(hand, jokers, dup)
        assert (found.multiplier, found.joker, found.stands_for) == expected, (
            f"{codes(hand)} jokers={jokers} dup={dup}: {found} != {expected}"
        )
        assert can_close(pack(hand), jokers, dup) == (expected[0] > 0), codes(hand)
        seen[expected[0]] += 1
    return seen


def test_the_finder_agrees_with_the_spec_loop() -> None:
    seen = compare(150, seed=1)
    assert set(seen) == {0, 1, 2, 3, 5, 6}, seen  # every type was met


@pytest.mark.slow
@pytest.mark.long
def test_the_finder_agrees_with_the_spec_loop_on_many_hands() -> None:
    seen = compare(2000, seed=2)
    assert min(seen.values()) >= 20, seen


@pytest.mark.slow
def test_closing_discards_are_exactly_the_discards_that_leave_a_closure() -> None:
    """The whole-hand tests of ``closing_discards`` never drop a closing discard: every
    discard of eleven cards is checked with the spec's loop."""
    rnd = random.Random(3)
    checked = closing = 0
    while checked < 60:
        ten = reference.sample_hand(rnd)
        extra = rnd.choice([c for c in range(1, 53) if ten.count(c) < 2])
        hand = tuple(sorted((*ten, extra)))
        jokers = 1 if rnd.random() < 0.85 else 0
        dup = rnd.random() < 0.2
        allowed = sorted(set(hand))
        expected = tuple(
            d
            for d in allowed
            if reference.best_closure(tuple(sorted(pack_minus(hand, d))), jokers, dup)[0] > 0
        )
        assert closing_discards(hand, jokers, dup, allowed) == expected, codes(hand)
        checked += 1
        closing += bool(expected)
    assert closing > 15  # the sample does exercise hands that close


def pack_minus(hand: tuple[int, ...], d: int) -> list[int]:
    rest = list(hand)
    rest.remove(d)
    return rest


def test_the_joker_may_stand_for_a_third_copy() -> None:
    """§3.5.2: the joker may stand for a card of which two copies are already in play.
    Nine diamonds and 4C: 4C becomes a diamond (a double by one suit); the first code
    of the suit that works is AD, held twice already."""
    ten = cards("AD AD 3D 4D 5D 7D 8D TD JD 4C")
    closure = best_closure(ten)
    assert (closure.multiplier, codes([closure.joker]), codes([closure.stands_for])) == (
        2,
        "4C",
        "AD",
    )
    assert reference.best_closure(ten) == (2, closure.joker, closure.stands_for)


def test_no_joker_option_allows_no_substitution() -> None:
    """imaginary_jokers = 0 (§5): RA-6 is no closure at all, since KD stays a lone
    king of diamonds next to a run of nine clubs; with the joker it is a royal."""
    ten = cards("3C 4C 5C 6C 7C 8C 9C TC JC KD")
    assert best_closure(ten, 0).multiplier == reference.best_closure(ten, 0)[0] == 0
    assert best_closure(ten, 1).multiplier == 5


def test_sets_that_repeat_a_suit_count_for_closing_discards() -> None:
    """Found in review: with set_duplicate_suits, 7S 7H 7H and 9C 9D 9D are sets, so the
    lone suits of those ranks are in all-real combinations; the whole-hand test once
    took them for cards in none and listed no CLOSE. The joker KD is 5S: 3S 4S 5S 6S."""
    hand = tuple(sorted(cards("7S 7H 7H 9C 9D 9D 3S 4S 6S KD 2C")))
    allowed = sorted(set(hand))
    expected = tuple(
        d for d in allowed if reference.best_closure(tuple(pack_minus(hand, d)), 1, True)[0]
    )
    assert codes(expected) == "KD 2C"
    assert closing_discards(hand, 1, True, allowed) == expected


def eleven_card_hands(count: int, seed: int) -> list[tuple[tuple[int, ...], int, bool]]:
    """Near-closures of every shape plus one card: the hands a player holds after taking."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        ten = reference.sample_hand(rnd)
        extra = rnd.choice([c for c in range(1, 53) if ten.count(c) < 2])
        out.append(
            (tuple(sorted((*ten, extra))), 1 if rnd.random() < 0.85 else 0, rnd.random() < 0.3)
        )
    return out


def check_whole_hand_test(count: int, seed: int) -> int:
    """``closing_discards`` (whole-hand tests first) against ``can_close`` of every
    discard (no whole-hand test; checked against the spec's loop above). Returns how
    many hands could close."""
    closing = 0
    for hand, jokers, dup in eleven_card_hands(count, seed):
        m = pack(hand)
        allowed = sorted(set(hand))
        every = tuple(d for d in allowed if can_close(m - pack([d]), jokers, dup))
        assert closing_discards(hand, jokers, dup, allowed) == every, (codes(hand), jokers, dup)
        closing += bool(every)
    return closing


def test_the_whole_hand_test_never_drops_a_closing_discard() -> None:
    assert check_whole_hand_test(4000, seed=11) > 1000


@pytest.mark.slow
@pytest.mark.long
def test_the_whole_hand_test_never_drops_a_closing_discard_on_many_hands() -> None:
    assert check_whole_hand_test(40000, seed=12) > 10000
