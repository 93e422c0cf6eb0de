"""CI's short run of ``make soak`` (scripts/soak.py): a server under mixed load of every
game and form makes no errors. The 10-minute run, with memory and p99, is the note's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_short_soak_of_every_rpc_and_game_makes_no_error(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "soak.py"),
            "--seconds",
            "10",
            "--in-flight",
            "8",
            "--sample",
            "2",
            "--max-growth",
            "1000",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(out.read_text())
    assert report["errors"] == 0, report["codes"]
    assert done.returncode == 0, done.stderr[-2000:]
    rpcs = set(report["latency_ms"])
    assert rpcs >= {
        "Deal",
        "ApplyMove",
        "LegalMoves",
        "GetView",
        "Score",
        "ApplyMoves",
        "Determinize",
    }
