"""CI's short run of ``make drops`` (scripts/drops.py): dial-in bots cut off in the
middle of decisions by a proxy, at scaled-down times (a grace of 1 s, drops of 0.05 to
0.6 s, one past the grace), half the bots over gRPC and half over HTTP. The 1,000-drop
run is the note's (docs/robustness.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_drops_within_the_grace_lose_no_move_and_one_past_it_is_a_recorded_crash(
    tmp_path: Path,
) -> None:
    out = tmp_path / "drops.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "drops.py"),
            "--bots", "10", "--drops-per-bot", "1", "--http-every", "2",
            "--grace", "1", "--min", "0.05", "--max", "0.6",
            "--past-grace", "1", "--past-grace-seconds", "1.5",
            "--out", str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["drops"] + report["drops_not_reached"] == 10 and report["ok"]
    assert report["moves_lost"] == report["applied_twice"] == 0
    assert report["moves_applied"] == report["decisions"] > 0
    assert report["faults_within_grace"] == report["forfeits_with_time_left"] == 0
    assert report["past_grace"] == {"drops": 1, "hold_s": 1.5, "crash_recorded": 1, "forfeited": 1}
    # a bot slower than the grace to get back in (a loaded machine) is a recorded crash
    assert report["late_returns"]["crash_recorded"] <= report["late_returns"]["seats"]
    if report["late_returns"]["seats"] == 0:
        assert report["drops_by_door"] == {"grpc": 5, "http": 5}
        # a decision cut before its answer came again, with its number
        assert report["drop_kinds"] == {"before": 5, "in_flight": 5}
        assert report["unanswered_resent"] == "5 of 5"
