"""The duplicate sets' drill (``make arena-ranking``) measures the arena, not a model
of it: its ladder seats the same bots, in the same sets and seats, and reaches the same
ratings as the real scheduler and store on the same seeds; a duplicate set replays one
deal with the seats rotated; Kendall's tau and "settled" mean what they say. The
30 % figure itself is measured by the script, never asserted here."""

from __future__ import annotations

import random

import pytest

from mazzo.arena.ranking_drill import (
    Ladder,
    entrants_for,
    experiment,
    head_to_head,
    held_at,
    kendall_tau,
    rotated,
    settled_at,
)
from mazzo.arena.scheduler import Scheduler
from mazzo.arena.store import Store

NAMES = ["ada", "bea", "cy", "dan", "eve", "fay"]


def winners_of(seats: tuple[str, ...]) -> list[int]:
    """A made-up result the two ladders share: the seat of the name first in the
    alphabet wins, unless both names are short (then the other)."""
    first = seats.index(min(seats))
    return [1 - first] if all(len(n) <= 3 for n in seats) else [first]


def side_winners(seats: tuple[str, ...], sides: list[list[int]]) -> list[int]:
    """``winners_of`` for sides of any size: the side of the seat it names."""
    seat = winners_of(seats)[0] if len(seats) == 2 else seats.index(min(seats))
    return [next(i for i, side in enumerate(sides) if seat in side)]


@pytest.mark.parametrize(
    ("game", "players", "sides", "names"),
    [
        ("briscola", 2, [[0], [1]], NAMES),
        ("maraffa", 4, [[0, 2], [1, 3]], [*NAMES, "gil", "hal"]),  # partners, sets of 4
    ],
)
def test_the_drill_seats_and_rates_as_the_arena_does(
    store: Store, game: str, players: int, sides: list[list[int]], names: list[str]
) -> None:
    ladder_id = store.add_ladder(game, players)
    for name in names:
        store.add_owner(name)
        store.add_bot(name, name, ladder_id, "builtin", "builtin:random")
    scheduler = Scheduler(store, random.Random(7), queue=4)
    drill = Ladder(game, players, names, 7, True, lambda deal, seats: side_winners(seats, sides))
    set_seeds: dict[str, int] = {}
    for _ in range(6 * players):
        scheduler.round()
        claim = store.claim("w")
        assert claim is not None
        mine = drill.step()
        assert claim.seats == mine.seats
        assert set_seeds.setdefault(claim.set_id, claim.seed) == claim.seed
        record = {
            "id": claim.match_id,
            "seed": claim.seed,
            "sides": [{"seats": side} for side in sides],
            "result": {"winners": side_winners(claim.seats, sides)},
        }
        store.finish(claim.match_id, "w", record)
    standings = store.standings(ladder_id)
    assert [row.bot for row in standings] == drill.order()
    assert len({round(row.mu, 6) for row in standings}) > 2  # sets were rated
    for row in standings:
        skill = drill.skills[row.bot]
        assert row.mu == pytest.approx(skill.mu)
        assert row.sigma == pytest.approx(skill.sigma)
        assert row.games == skill.games


def test_a_duplicate_set_replays_its_deal_with_the_seats_rotated_as_the_store_does(
    store: Store,
) -> None:
    ladder_id = store.add_ladder("briscola", 4)
    for name in NAMES[:4]:
        store.add_owner(name)
        store.add_bot(name, name, ladder_id, "builtin", "builtin:random")
    seats = ["cy", "ada", "dan", "bea"]
    ids = store.schedule_set(ladder_id, seats, seed=99)
    assert [tuple(store.seats(i)) for i in ids] == [rotated(seats, i) for i in range(4)]
    assert rotated(seats, 1) == ("bea", "cy", "ada", "dan")
    drill = Ladder("briscola", 2, NAMES, 3, True, lambda deal, seats: [0])
    first = drill.next_match()
    second = drill.waiting.popleft()
    assert (second.set_id, second.seed) == (first.set_id, first.seed)
    assert second.seats == rotated(first.seats, 1)
    unpaired = Ladder("briscola", 2, NAMES, 3, False, lambda deal, seats: [0])
    a, b = unpaired.next_match(), unpaired.waiting.popleft()
    assert b.seats == a.seats[::-1] and b.seed != a.seed  # same set, fresh deal


def test_kendall_tau_counts_the_pairs_out_of_order() -> None:
    known = [f"b{i}" for i in range(8)]
    assert kendall_tau(known, known) == 1.0
    assert kendall_tau(known[::-1], known) == -1.0
    one_swap = [known[1], known[0], *known[2:]]
    assert kendall_tau(one_swap, known) == pytest.approx(26 / 28)  # at least 0.9
    two_swaps = [known[1], known[0], known[3], known[2], *known[4:]]
    assert kendall_tau(two_swaps, known) == pytest.approx(24 / 28)  # below 0.9
    with pytest.raises(ValueError):
        kendall_tau(known[:7], known)


def test_a_run_settles_with_the_game_after_its_last_one_below_the_threshold() -> None:
    assert settled_at([0.5, 0.95, 0.8, 0.93, 1.0]) == 4
    assert settled_at([0.95, 0.95]) == 1
    assert settled_at([0.95, 0.5]) is None


def test_an_order_holds_from_the_first_stretch_long_enough() -> None:
    taus = [0.5, 0.95, 0.8, 0.93, 1.0, 0.93, 0.2]
    assert held_at(taus, 2) == 4
    assert held_at(taus, 1) == 2
    assert held_at(taus, 4) is None


def test_the_bots_names_do_not_tell_their_order() -> None:
    orders = {tuple(e.name for e in entrants_for([0.0, 0.5, 1.0], seed)) for seed in range(20)}
    assert len(orders) > 1


def test_a_small_experiment_reports_both_kinds_of_deal() -> None:
    report = experiment("briscola", 2, [0.0, 0.5, 1.0], 2, 12, 5, 3, hold=4, per_match_too=True)
    assert report["runs"] == 2 and report["seeds"] == [5, 6]
    kinds = ("duplicate", "unpaired", "duplicate_per_match", "unpaired_per_match")
    for figure in ("settled", "held"):
        for kind in kinds:
            games = report[figure][kind]["per_run"]  # type: ignore[index]
            assert len(games) == 2
            assert all(g is None or 1 <= g <= 12 for g in games)
        for pair in (
            "duplicate_against_unpaired",
            "duplicate_per_match_against_unpaired_per_match",
            "duplicate_against_unpaired_per_match",
        ):
            assert 0 <= report[figure][pair]["fewer_in_runs"] <= 2  # type: ignore[index]
    checks = report["known_order"]["adjacent"]  # type: ignore[index]
    assert [(c["stronger"], c["weaker"], c["games"]) for c in checks] == [
        (0.0, 0.5, 6),
        (0.5, 1.0, 6),
    ]


def test_no_runs_checks_the_known_order_alone() -> None:
    report = experiment("briscola", 2, [0.0, 1.0], 0, 12, 5, 3)
    assert report["runs"] == 0 and report["seeds"] == []
    assert len(report["known_order"]["adjacent"]) == 1  # type: ignore[index]
    assert "settled" not in report and "held" not in report


def test_between_two_copies_of_the_heuristic_the_cards_decide_everything() -> None:
    # Same policy, no random moves: a deal replayed with the seats swapped is the same
    # game, so each hand wins both times (a set's results cancel), and it scores half.
    match = head_to_head("briscola", 2, 0.0, 0.0, 20, 1)
    assert match.games == 40 and match.score == 20
    assert match.hand_correlation == pytest.approx(1.0)
