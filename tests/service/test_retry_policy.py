"""The retry policy the clients share is one: the Python constant and the JSON file."""

from __future__ import annotations

import json
from pathlib import Path

from mazzo.service.retry import SERVICE_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def test_the_clients_file_is_the_referees_policy() -> None:
    shared = json.loads((ROOT / "clients" / "service-config.json").read_text())
    assert shared == SERVICE_CONFIG
    [method] = shared["methodConfig"]
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert [n["service"] for n in method["name"]] == ["mazzo.v1.GameService"]
