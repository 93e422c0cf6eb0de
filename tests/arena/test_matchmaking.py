"""Matchmaking's rules: paused and busy bots never seated, the newest bot first with the
nearest ratings beside it, and never two bots of one owner as opponents in any match
of the duplicate set (partners they may be, where the rotation keeps them partners)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mazzo.arena.matchmaking import Candidate, seating, teams

TWO = [[0], [1]]  # Burraco, Briscola 2p: one seat a side
FOUR_ALONE = [[0], [1], [2], [3]]  # Ramino 4p: every player for himself
PARTNERS = [[0, 2], [1, 3]]  # Maraffa, Burraco, Briscola 4p


def bot(name: str, owner: str = "", mu: float = 25.0, games: int = 0, **kw: bool) -> Candidate:
    return Candidate(name, owner or name, mu, 8.0, games, **kw)


def rotations(seats: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The set's matches as ``Store.schedule_set`` seats them: seat s of match r holds
    the first match's seat (s - r)."""
    n = len(seats)
    return [tuple(seats[(s - r) % n] for s in range(n)) for r in range(n)]


def test_partners_are_the_seats_that_stay_on_one_side_in_every_rotation() -> None:
    assert teams(PARTNERS) == [[0, 2], [1, 3]]
    assert teams(FOUR_ALONE) == [[0], [1], [2], [3]]
    assert teams(TWO) == [[0], [1]]
    # Sides of neighbours: rotated by one seat, 0 and 1 are split; no team survives.
    assert teams([[0, 1], [2, 3]]) == [[0], [1], [2], [3]]
    assert teams([[0, 1], [2, 3]], rotations=1) == [[0, 1], [2, 3]]


def test_paused_and_unavailable_bots_are_never_seated() -> None:
    pool = [
        bot("paused", games=0, paused=True),
        bot("busy", games=0, available=False),
        bot("p", games=5),
        bot("q", games=5),
    ]
    for seed in range(20):
        assert sorted(seating(TWO, pool, random.Random(seed)) or ()) == ["p", "q"]
    assert seating(TWO, pool[:3], random.Random(0)) is None


def test_the_bot_with_fewest_games_anchors_the_table_and_the_nearest_ratings_join_it() -> None:
    pool = [
        bot("veteran-far", mu=40.0, games=90),
        bot("veteran-near", mu=21.0, games=80),
        bot("rookie", mu=20.0, games=1),
        bot("veteran-mid", mu=30.0, games=70),
    ]
    assert sorted(seating(TWO, pool, random.Random(0)) or ()) == ["rookie", "veteran-near"]
    table = seating(FOUR_ALONE[:3], pool, random.Random(0))
    assert sorted(table or ()) == ["rookie", "veteran-mid", "veteran-near"]


def test_equal_ratings_go_to_the_bot_with_fewer_games_and_ties_are_drawn() -> None:
    pool = [bot("new", games=0), bot("old", games=9), bot("young", games=2)]
    assert sorted(seating(TWO, pool, random.Random(1)) or ()) == ["new", "young"]
    twins = [bot(f"t{i}", games=3) for i in range(6)]
    anchors = {frozenset(seating(TWO, twins, random.Random(seed)) or ()) for seed in range(30)}
    assert len(anchors) > 1, "ties between equal bots are drawn, not decided by the list"
    assert seating(TWO, twins, random.Random(7)) == seating(TWO, twins, random.Random(7))


def test_at_a_table_of_partners_the_anchors_nearest_rival_sits_against_it() -> None:
    pool = [
        bot("rookie", mu=25.0, games=0),
        bot("twin", mu=25.5, games=10),
        bot("far", mu=40.0, games=10),
        bot("farther", mu=45.0, games=10),
    ]
    table = seating(PARTNERS, pool, random.Random(0))
    assert table is not None
    rookie, twin = table.index("rookie"), table.index("twin")
    assert rookie % 2 != twin % 2, f"partners sit two seats apart: {table}"


def test_two_bots_of_one_owner_never_meet_when_every_seat_is_its_own_side() -> None:
    pool = [
        bot("ada-1", "ada", games=0),
        bot("ada-2", "ada", games=1),
        bot("ada-3", "ada", games=1),
        bot("bob-1", "bob", mu=40.0, games=50),
    ]
    assert sorted(seating(TWO, pool, random.Random(0)) or ()) == ["ada-1", "bob-1"]
    assert seating(FOUR_ALONE[:3], pool, random.Random(0)) is None  # only two owners
    assert seating(TWO, pool[:3], random.Random(0)) is None  # one owner alone


def test_two_bots_of_one_owner_may_be_partners_but_never_opponents() -> None:
    pool = [
        bot("ada-1", "ada", games=0),
        bot("ada-2", "ada", games=0),
        bot("bob-1", "bob", games=0),
        bot("cy-1", "cy", games=0),
    ]
    for seed in range(20):
        table = seating(PARTNERS, pool, random.Random(seed))
        assert table is not None
        # Seats 0 and 2 against 1 and 3: the ada bots sit together.
        assert {table.index("ada-1"), table.index("ada-2")} in ({0, 2}, {1, 3})
    three = [*pool[:2], bot("ada-3", "ada"), pool[2]]
    assert seating(PARTNERS, three, random.Random(0)) is None  # three of one owner


owners = st.sampled_from(["ada", "bob", "cy", "di", "ed"])
candidates = st.lists(
    st.builds(
        Candidate,
        name=st.uuids().map(str),
        owner=owners,
        mu=st.floats(0, 50),
        sigma=st.floats(0.1, 9),
        games=st.integers(0, 20),
        available=st.booleans(),
        paused=st.booleans(),
    ),
    max_size=12,
    unique_by=lambda c: c.name,
)


@settings(max_examples=150, deadline=None)
@given(candidates, st.sampled_from([TWO, FOUR_ALONE, PARTNERS, [[0], [1], [2]]]), st.integers())
def test_no_set_ever_seats_one_owner_on_two_sides(
    pool: list[Candidate], sides: list[list[int]], seed: int
) -> None:
    table = seating(sides, pool, random.Random(seed))
    playable = [c for c in pool if c.available and not c.paused]
    if table is None:
        return
    by_name = {c.name: c for c in playable}
    assert len(set(table)) == len(table) == sum(map(len, sides))
    assert set(table) <= set(by_name), "a paused or unavailable bot was seated"
    fewest = min(c.games for c in playable)
    assert fewest in {by_name[n].games for n in table}, "the newest bot sits at the table"
    for match in rotations(table):
        owner_side: dict[str, int] = {}
        for side, seats in enumerate(sides):
            for seat in seats:
                owner = by_name[match[seat]].owner
                assert owner_side.setdefault(owner, side) == side, (match, sides)
