"""``mazzo bench`` prints JSON with its figures compared inside one run."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

import pytest


def run_bench(*args: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "mazzo", "bench", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert isinstance(report, dict)
    return report


def test_bench_reports_engine_speed_and_codec_times_as_json() -> None:
    report = run_bench(
        "--seconds", "0.3", "--only", "maraffa_random_hands_4p", "--only", "maraffa_state_codec"
    )
    hands = report["maraffa_random_hands_4p"]
    assert isinstance(hands, dict) and hands["hands"] > 0 and hands["hands_per_second"] > 0
    codec = report["maraffa_state_codec"]
    assert isinstance(codec, dict) and codec["encode_us"] > 0 and codec["decode_validate_us"] > 0


def test_bench_reports_the_forms_speed() -> None:
    """The forms of maraffa-forms.md have their figures: Trionfo deals per second and
    39-card hands per second, in-process."""
    report = run_bench(
        "--seconds",
        "0.3",
        "--only",
        "trionfo_random_deals_5p",
        "--only",
        "maraffa_random_hands_3p_deck39",
    )
    deals = report["trionfo_random_deals_5p"]
    assert isinstance(deals, dict) and deals["deals"] > 0 and deals["deals_per_second"] > 0
    hands = report["maraffa_random_hands_3p_deck39"]
    assert isinstance(hands, dict) and hands["hands"] > 0


@pytest.mark.slow
def test_apply_move_keeps_pace_with_a_health_check() -> None:
    """A regression guard, as a ratio in one run (absolute times vary by machine):
    ApplyMove, which decodes, checks, plays and encodes a whole state, keeps at least
    0.3 of the rate of Health/Check on the same server and channel. Quiet, the ratio
    is about 0.7; other work on the machine (other tests in parallel) pulls it down,
    so the bound only catches a gross slowdown."""
    report = run_bench("--seconds", "1", "--only", "grpc_apply_move_vs_health_check")
    figures = report["grpc_apply_move_vs_health_check"]
    assert isinstance(figures, dict)
    for case in ("in_flight_1", "in_flight_64", "play_forward_in_flight_64"):
        assert figures[case]["apply_over_health"] >= 0.3, figures[case]


def test_bench_reports_referee_throughput_and_overhead() -> None:
    report = run_bench(
        "--seconds",
        "0.3",
        "--only",
        "referee_maraffa_builtin_bots",
        "--only",
        "referee_maraffa_exec_bots",
    )
    for name in ("referee_maraffa_builtin_bots", "referee_maraffa_exec_bots"):
        figures = report[name]
        assert isinstance(figures, dict), name
        assert figures["matches"] > 0 and figures["hands"] >= figures["matches"]
        assert figures["hands_per_second"] > 0
        total, bot = figures["us_per_move"], figures["bot_us_per_move"]
        assert 0 < bot < total
        assert figures["referee_overhead_us_per_move"] == pytest.approx(total - bot, abs=0.05)


def test_bench_reports_sealing_overhead() -> None:
    """Seal and open in-process, and sealed against plain ApplyMove on one keyed server
    (the same matches, move for move). Figures only: the ratio is for a quiet machine."""
    report = run_bench("--seconds", "0.1", "--only", "sealed_apply_move_vs_plain")
    figures = report["sealed_apply_move_vs_plain"]
    assert isinstance(figures, dict)
    for form in ("maraffa_4p", "burraco_4p"):
        sizes = figures["seal_open_us"][form]
        assert sizes["seal_us"] > 0 and sizes["open_us"] > 0
        assert sizes["token_bytes"] > sizes["state_bytes"]
    for in_flight in (1, 16):
        rates = figures[f"apply_move_in_flight_{in_flight}"]
        assert rates["sealed_apply_move_per_second"] > 0 and rates["sealed_over_plain"] > 0


def test_anchors_put_our_hands_beside_openspiel_and_rlcard_in_one_run() -> None:
    """``--anchors``: the anchors extra is installed by make test, so every anchor is
    measured (none skipped) and each ratio is ours over theirs from this one run."""
    report = run_bench("--seconds", "0.2", "--anchors", "--only", "maraffa_state_codec")
    anchors = report["anchors"]
    assert isinstance(anchors, dict)
    ours, theirs, ratios = anchors["hands_per_cpu_second"], anchors["anchors"], anchors["ratios"]
    assert set(theirs) == {"openspiel_hearts", "openspiel_gin_rummy", "rlcard_gin_rummy"}
    for name, anchor in theirs.items():
        assert "skipped" not in anchor, (name, anchor)
        assert anchor["games"] > 0 and anchor["moves_per_game"] > 10, (name, anchor)
    assert ours["maraffa_4p"] > 0
    # Engines take turns in rounds; each ratio is the median of its rounds' ratios.
    rounds = anchors["round_ratios"]
    assert set(rounds) == set(ratios)
    for name, ratio in ratios.items():
        assert len(rounds[name]) == anchors["rounds"] == 3, rounds
        assert ratio == statistics.median(rounds[name]) and ratio > 0, (name, rounds)


def test_bench_times_each_speed_layer_against_the_plain_protobuf_way() -> None:
    """Issue 16's item 5: each layer is kept only while it beats what it replaced. The
    bench checks each pair gives the same answer before timing it (it fails if not)."""
    report = run_bench("--seconds", "0.05", "--only", "wire_layers")
    layers = report["wire_layers"]
    assert isinstance(layers, dict)
    pairs = [layers["apply_move_routed_by_raw_bytes"], layers["varint_from_table"]]
    for game in ("maraffa", "burraco", "ramino"):
        assert layers[game]["legal_moves"] >= 5
        pairs += [v for v in layers[game].values() if isinstance(v, dict)]
    assert len(pairs) == 2 + 4 * 3 + 2
    for pair in pairs:
        assert pair["layer_us"] > 0 and pair["plain_us"] > 0


@pytest.mark.slow
def test_bench_puts_dial_in_bots_beside_bots_the_referee_dials() -> None:
    """Issue 33's measurement, small: the same tables played through the gateway and
    through gRPC bots in one run, each kind's moves per referee CPU second, the ratio
    of the two, and the decisions' delivery one way, matched across processes.
    Figures only: the bound of the ratio and of the latency are for the full size
    (docs/referee.md#speed)."""
    report = run_bench("--seconds", "0.2", "--only", "gateway", "--gateway-tables", "2")
    figures = report["gateway"]
    assert isinstance(figures, dict)
    assert figures["bots"] == 8 and figures["tables"] == 2
    for kind in ("dial_in", "grpc"):
        flat, paced = figures[kind], figures[kind]["paced"]
        assert flat["moves"] > 0 and flat["moves_per_cpu_second"] > 0, (kind, flat)
        # Every bot was dialed or dialed in once, and answered every move it was asked.
        assert flat["bots_started"] == 8
        assert flat["answers_by_bots_in_the_run"] >= flat["moves"]
        for latency in (flat["delivery_ms"], flat["answer_ms"], flat["round_trip_ms"]):
            assert latency["count"] > 0 and 0 < latency["p50"] <= latency["p99"], (kind, flat)
        assert flat["delivery_ms"]["p50"] < flat["round_trip_ms"]["p50"]
        # Paced, each bot thinks half a second on average: too long for this window to
        # see many moves, but the phase was played and reported.
        assert paced["think_mean_ms"] > 0 and "delivery_ms" in paced
    # Rounds alternate the kinds (dial-in first, then gRPC first): each has its ratio.
    ratios = figures["round_ratios"]
    assert len(ratios) == figures["rounds"] == 4 and all(r > 0 for r in ratios)
    assert figures["median_round_ratio"] == pytest.approx(statistics.median(ratios), abs=1e-3)
    assert figures["dial_in_over_grpc_moves_per_cpu_second"] > 0
