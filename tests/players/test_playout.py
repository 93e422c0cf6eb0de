"""Playouts: every legal move played on to the horizon, statistics that add up, and the
same numbers however the work is cut."""

from __future__ import annotations

import random
import statistics

import pytest

from mazzo.games.maraffa.options import Options
from mazzo.games.registry import rules_for
from mazzo.players.playout import (
    Horizon,
    MoveStats,
    PolicyKind,
    chooser,
    outcome,
    per_move,
    play_out,
    play_units,
    units_of,
)

MARAFFA = rules_for("maraffa")
LIMIT = 10_000  # the test positions are short; the rules' bound is tested per game


def position(players: int = 4, plays: int = 9, seed: int = 3) -> object:
    """A Maraffa state some random moves into its first hand."""
    state, _ = MARAFFA.deal(Options(), players, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        legal = MARAFFA.legal_moves(state)
        state, _ = MARAFFA.apply(state, legal[rng.randrange(len(legal) - 1)])
    return state


def test_stats_are_the_textbook_mean_and_standard_error() -> None:
    changes = [[3, -3], [7, -7], [0, 0], [5, -5], [1, -1]]
    stats = MoveStats(2)
    for change in changes:
        stats.add(change, [1.0, 0.0] if change[0] > 0 else [0.5, 0.5])
    mine = [c[0] for c in changes]
    assert stats.mean(0) == statistics.mean(mine)
    sem = statistics.stdev(mine) / len(mine) ** 0.5
    assert stats.standard_error(0) == pytest.approx(sem)
    assert stats.win_rate(0) == pytest.approx(0.9) and stats.win_rate(1) == pytest.approx(0.1)
    assert MoveStats(2).standard_error(0) == 0.0


@pytest.mark.parametrize("policy", [PolicyKind.RANDOM, PolicyKind.HEURISTIC])
def test_a_hand_playout_stops_when_the_next_hand_is_dealt(policy: PolicyKind) -> None:
    state = position()
    choose = chooser("maraffa", policy)
    end, moves = play_out(MARAFFA, state, choose, Horizon.HAND, random.Random(1), LIMIT)
    assert MARAFFA.hand_key(end) != MARAFFA.hand_key(state) or MARAFFA.finished(end)
    # Played again one move short, it is still in the hand.
    again, rng = state, random.Random(1)
    for _ in range(moves - 1):
        legal = MARAFFA.legal_moves(again)
        again, _ = MARAFFA.apply(again, legal[choose(again, legal, rng)])
    assert MARAFFA.hand_key(again) == MARAFFA.hand_key(state)


def test_a_match_playout_ends_the_match_and_names_its_winners() -> None:
    state = position()
    end, _ = play_out(
        MARAFFA,
        state,
        chooser("maraffa", PolicyKind.RANDOM),
        Horizon.MATCH,
        random.Random(2),
        LIMIT,
    )
    assert MARAFFA.finished(end)
    start = [s.match_total for s in MARAFFA.score(state).sides]
    change, won = outcome(MARAFFA, start, end, Horizon.MATCH)
    assert sum(won) == 1.0 and won[MARAFFA.score(end).winners[0]] == 1.0
    assert change == [
        s.match_total - t for s, t in zip(MARAFFA.score(end).sides, start, strict=True)
    ]


def test_every_legal_move_is_played_out_and_the_cut_of_the_work_changes_nothing() -> None:
    samples = [position(seed=s) for s in (3, 3, 3)]
    moves = len(MARAFFA.legal_moves(samples[0]))
    units = units_of(samples, moves)
    whole, simulated = play_units("maraffa", units, 5, PolicyKind.RANDOM, Horizon.HAND, 9, LIMIT)
    together = per_move(units, whole, moves)
    assert [m.playouts for m in together] == [15] * moves
    assert simulated > 15 * moves
    # Cut in three uneven chunks, in another order: the same per-move numbers.
    parts = [units[:4], units[4:5], units[5:]]
    pieces = [play_units("maraffa", p, 5, PolicyKind.RANDOM, Horizon.HAND, 9, LIMIT) for p in parts]
    stats = [s for part, _ in pieces for s in part]
    assert [vars(m) for m in per_move(units, stats, moves)] == [vars(m) for m in together]
    assert sum(n for _, n in pieces) == simulated
    # Another seed, other numbers.
    other, _ = play_units("maraffa", units, 5, PolicyKind.RANDOM, Horizon.HAND, 10, LIMIT)
    assert [vars(m) for m in per_move(units, other, moves)] != [vars(m) for m in together]


def test_a_playout_longer_than_the_rules_bound_is_a_bug_not_a_long_game() -> None:
    with pytest.raises(RuntimeError, match="bound"):
        play_out(
            MARAFFA,
            position(),
            chooser("maraffa", PolicyKind.RANDOM),
            Horizon.HAND,
            random.Random(1),
            3,
        )
