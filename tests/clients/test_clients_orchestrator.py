"""The clients orchestrator (scripts/clients_test.py) end to end, for the Python
client only: build, conformance, the three examples, the random and the search
starters in a referee tournament and the replay of its records, and the starter
dialing in to a gateway (binding no port) in the dial-in tournament. The all-language run
is `make clients-test`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.clients]


def test_python_client_passes_the_orchestrator(tmp_path: Path) -> None:
    script = str(ROOT / "scripts" / "clients_test.py")
    run = subprocess.run(
        [sys.executable, script, "--only", "python", "--keep", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    summary = json.loads(run.stdout)
    assert summary["ok"] and summary["failures"] == []
    python = summary["languages"]["python"]
    assert python["build_ok"] is True
    assert python["conformance"]["failed"] == 0
    vectors = sum(
        len(json.loads(p.read_text())["vectors"])
        for p in (ROOT / "clients" / "conformance" / "vectors").glob("*.json")
    )
    assert python["conformance"]["passed"] == vectors
    for game in ("maraffa", "burraco", "ramino"):
        assert python["examples"][game]["line"].startswith(f"finished {game} players=4 ")
    tournament = summary["tournament"]
    assert tournament["matches"] > 0 and tournament["faults"] == 0
    assert tournament["replayed"] is True
    records = (tmp_path / "tournament.jsonl").read_text().splitlines()
    assert len(records) == tournament["matches"]
    seat_bots = {bot for line in records for bot in json.loads(line)["seat_bots"]}
    assert f"grpc://{python['bot']}" in seat_bots
    assert f"grpc://{python['search_bot']}" in seat_bots
    dial_in = summary["dial_in"]
    assert dial_in["languages"] == ["python"]
    assert dial_in["matches"] > 0 and dial_in["faults"] == 0 and dial_in["verified"] is True
    assert dial_in["starters"]["python"] == {"joined": True, "exit": 0, "listening": []}
    dialed = (tmp_path / "dial-in.jsonl").read_text().splitlines()
    assert any("connect:python" in json.loads(line)["seat_bots"] for line in dialed)
