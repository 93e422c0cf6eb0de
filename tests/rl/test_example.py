"""examples/rl: the training script writes a policy file the referee plays, and the
example's tournament runs with it (a tiny version: a few matches of training, one deal)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from mazzo.games.maraffa.encoding import CLAIM_ACTION
from mazzo.referee.tournament import Config, run_tournament
from mazzo.rl.policy import load_policy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rl"


def trainer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maraffa", EXAMPLE / "train_maraffa.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_is_seeded_and_writes_a_policy_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train = trainer()
    args = ["--imitate", "2", "--epochs", "1", "--matches", "4", "--hidden", "4", "--batch", "2"]
    args += ["--evaluate-every", "0"]
    assert train.main([*args, "--out", str(tmp_path / "a.npz")]) == 0
    assert train.main([*args, "--out", str(tmp_path / "b.npz")]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (report["imitate"], report["matches"]) == (2, 4)
    assert report["out"] == str(tmp_path / "b.npz")
    a, b = load_policy(tmp_path / "a.npz"), load_policy(tmp_path / "b.npz")
    assert (a.game, a.players, len(a.layers)) == ("maraffa", (2,), 2)
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert (wa == wb).all() and (ba == bb).all()
    assert a.layers[-1][1][CLAIM_ACTION] < -1000  # never a claim while anything else is legal


async def test_the_example_tournament_plays_the_trained_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the example's comment says, from a folder holding build/rl/maraffa2.npz."""
    monkeypatch.chdir(tmp_path)
    train = trainer()
    tiny = ["--imitate", "2", "--epochs", "1", "--matches", "2", "--hidden", "4"]
    assert train.main([*tiny, "--evaluate-every", "0"]) == 0
    assert (tmp_path / "build" / "rl" / "maraffa2.npz").is_file()
    config = Config.load(EXAMPLE / "tournament.toml")
    bots = {e.name: e.bots for e in config.entrants}
    assert bots == {
        "policy": ("builtin:policy?path=build/rl/maraffa2.npz",),
        "random": ("builtin:random",),
        "heuristic": ("builtin:heuristic",),
    }
    config = dataclasses.replace(config, deals=1, concurrency=1)
    outcome = await run_tournament(config, tmp_path / "r.jsonl", progress=False)
    assert len(outcome.records) == 6  # three pairs, one deal each, twice
    assert all(record["faults"] == [] for record in outcome.records)
    names = {row["name"] for row in outcome.summary["standings"]}
    assert names == {"policy", "random", "heuristic"}
