"""The Burraco entries of ``mazzo bench``: they run and report what the issue asks for."""

from __future__ import annotations

from mazzo.bench.engines import burraco_largest_legal_list, burraco_move_times, burraco_random_hands
from tests.test_bench import run_bench

KINDS = {"Draw", "PickUp", "OpenMeld", "LayOff", "Discard"}


def test_random_hands_report_rates_per_wall_and_cpu_second() -> None:
    for players in (2, 3, 4):
        report = burraco_random_hands(players, 0.2)
        assert report["players"] == players and report["hands"] > 0
        assert report["moves"] > report["hands"]
        assert report["hands_per_second"] > 0 and report["hands_per_cpu_second"] > 0
        assert report["us_per_move"] > 0


def test_move_times_cover_every_move_kind_and_both_stages() -> None:
    report = burraco_move_times(0.3)
    averages = report["us_per_call"]
    assert {k.removeprefix("apply ") for k in averages if k.startswith("apply")} == KINDS
    assert {"legal_moves acquire", "legal_moves meld"} <= set(averages)
    assert report["slowest_average_us"] == max(averages.values()) > 0


def test_largest_legal_list_is_reported_per_form() -> None:
    report = burraco_largest_legal_list(hands=12)
    assert set(report["largest_by_players"]) == {"2", "3", "4"}
    assert report["largest"] == max(report["largest_by_players"].values()) >= 2


def test_bench_command_runs_the_burraco_entries() -> None:
    report = run_bench("--seconds", "0.2", "--only", "burraco_random_hands_4p")
    hands = report["burraco_random_hands_4p"]
    assert isinstance(hands, dict) and hands["hands"] > 0
