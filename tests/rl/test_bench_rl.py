"""``mazzo bench --only rl``: environment steps against engine moves in one run, the
environment over gRPC, and the anchors (skipped with the reason when not installed)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from mazzo.bench.rl import FORMS, engine_moves, env_steps


@pytest.mark.parametrize("form", FORMS[:2], ids=[f[0] for f in FORMS[:2]])
def test_engine_and_environment_rates_are_measured(form: tuple[str, str, int, Any]) -> None:
    _, game, players, options = form
    engine = engine_moves(game, players, options, 0.05)
    env = env_steps(game, players, options, 0.05)
    for rate in (engine, env):
        assert rate["steps"] > 0 and rate["per_cpu_second"] > 0


@pytest.mark.slow
@pytest.mark.long
def test_bench_only_rl_prints_every_ratio() -> None:
    """A server process and the anchors: out of make test (make test-long runs it)."""
    result = subprocess.run(
        [sys.executable, "-m", "mazzo", "bench", "--seconds", "0.2", "--only", "rl"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["rl"]
    for name, *_ in FORMS:
        assert report[name]["env_steps_per_engine_move"] > 0
    assert report["maraffa_2p_over_grpc"]["against_in_process_env"] > 0
    anchors = report["anchors"]
    hearts = anchors["openspiel_hearts"]
    assert hearts["mazzo_maraffa_4p_env_steps_per_anchor_step"] > 0
    assert hearts["tensor"] == "information_state"
    rlcard = anchors["rlcard_gin_rummy"]
    assert "skipped" in rlcard or rlcard["per_cpu_second"] > 0
