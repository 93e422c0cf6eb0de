"""``mazzo bench`` reports Ramino's figures: random hands per second, the time of a
closure check, and the agreement of the closure finder with the spec's loop."""

from __future__ import annotations

from tests.test_bench import run_bench


def test_bench_reports_ramino_hands_closure_times_and_agreement() -> None:
    report = run_bench(
        "--seconds",
        "0.5",
        "--closure-hands",
        "60",
        "--only",
        "ramino_random_hands_2p",
        "--only",
        "ramino_closure_check",
        "--only",
        "ramino_closure_agreement",
    )
    hands = report["ramino_random_hands_2p"]
    assert isinstance(hands, dict) and hands["moves"] > 0 and hands["us_per_move"] > 0
    if hands["hands"]:
        assert hands["cpu_ms_per_hand"] > 0
    check = report["ramino_closure_check"]
    assert isinstance(check, dict) and check["hands"] == 60
    assert 0 < check["cold"]["median_us"] <= check["cold"]["worst_us"]
    assert check["cold"]["cpu_worst_us"] > 0
    agreement = report["ramino_closure_agreement"]
    assert isinstance(agreement, dict)
    assert agreement["hands"] == agreement["agreed"] == 60, agreement["disagreements"]
    assert agreement["cpu_seconds"] > 0 and agreement["cpu_ms_per_hand"] > 0
