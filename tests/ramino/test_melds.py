"""A closure split into its combinations (``melds.closure_groups``): for many sampled
hands that close, the groups hold exactly the ten cards, each group is what its kind
says by the spec's own tests (``reference.is_run``, ``is_set``), and there are as many
as the closure type needs; plus a few hands checked literally."""

from __future__ import annotations

import random
from collections import Counter

from mazzo.core.cards import cards, codes
from mazzo.games.ramino import reference
from mazzo.games.ramino.closures import ClosureType, best_closure
from mazzo.games.ramino.melds import Group, closure_groups


def _concrete(group: Group) -> list[int]:
    """The group's cards with (one copy of) the joker replaced by the code it stands for."""
    concrete = list(group.cards)
    if group.joker:
        concrete.remove(group.joker)
        concrete.append(group.stands_for)
    return concrete


def test_every_closure_splits_into_groups_of_its_type() -> None:
    rnd = random.Random(17)
    seen: Counter[int] = Counter()
    for _ in range(400):
        hand = reference.sample_hand(rnd)
        dup = rnd.random() < 0.2
        found = best_closure(hand, 1, dup)
        if not found.multiplier:
            continue
        groups = closure_groups(hand, found.joker, found.stands_for, found.kind, dup)
        where = f"{codes(hand)} dup={dup} {found}"
        assert groups, where
        assert Counter(c for g in groups for c in g.cards) == Counter(hand), where
        assert sum(1 for g in groups if g.joker) == (1 if found.joker else 0), where
        for group in groups:
            concrete = _concrete(group)
            if group.kind == "run":
                assert reference.is_run(concrete), where
            elif group.kind == "set":
                assert reference.is_set(concrete, dup), where
            elif group.kind == "pair":
                assert len(set(concrete)) == 1 and len(concrete) == 2, where
            else:
                assert group.kind == "suit" and reference.one_suit(concrete), where
        kinds = sorted(g.kind for g in groups)
        if found.kind == ClosureType.SIMPLE:
            assert len(groups) == 3, where
        elif found.kind == ClosureType.DOUBLE:
            assert len(groups) == 2 or kinds in (["set"] * 3, ["suit"]), where
        elif found.kind == ClosureType.ROYAL:
            assert kinds == ["run"] and len(groups[0].cards) == 10, where
        else:
            assert kinds == ["pair"] * 5, where
        seen[found.multiplier] += 1
    assert set(seen) == {1, 2, 3, 5, 6}, seen


def test_runs_read_from_their_low_end_and_the_joker_stands_in_place() -> None:
    hand = cards("5H 6H 7H 8H QS QH QD 2C 3C 4C")
    groups = closure_groups(hand, 0, 0, ClosureType.SIMPLE)
    shown = sorted((g.kind, codes(g.cards)) for g in groups)
    assert shown == [
        ("run", "2C 3C 4C"),
        ("run", "5H 6H 7H 8H"),
        ("set", "QS QH QD"),
    ]
    # the king of spades as the 7 of hearts: in the run, at the 7's place
    hand = cards("5H 6H KS 8H QS QH QD 2C 3C 4C")
    found = best_closure(hand)
    groups = closure_groups(hand, found.joker, found.stands_for, found.kind)
    run = next(g for g in groups if g.joker)
    assert codes(run.cards) == "5H 6H KS 8H" and codes([run.stands_for]) == "7H"
    # the ace above the king
    hand = cards("QD KD AD 4S 4H 4C 9C TC JC QC")
    groups = closure_groups(hand, 0, 0, ClosureType.SIMPLE)
    assert ("run", "QD KD AD") in [(g.kind, codes(g.cards)) for g in groups]


def test_cards_that_are_not_the_reported_type_give_no_groups() -> None:
    hand = cards("AS 3H 5D 7C 9S JH KD 2C 4S 6H")
    assert closure_groups(hand, 0, 0, ClosureType.SIMPLE) == ()
