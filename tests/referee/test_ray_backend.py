"""``--backend ray``: the same records and standings as the local backend, on a real Ray.

Each Ray test starts a local Ray (two CPUs, no dashboard) with its session folder in
the test's temporary folder, and shuts it down. Starting Ray takes seconds, so the
tests that do are marked slow; they run in ``make test`` all the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from mazzo.games.registry import GAMES
from mazzo.referee.match import Entrant, options_json, table_of
from mazzo.referee.records import read_records
from mazzo.referee.tournament import Config, Outcome, run_tournament
from mazzo.v1 import bot_pb2, game_pb2
from tests.referee.conftest import ROOT, ScriptedBot, ServeBot, fault_bot

H, R = "builtin:heuristic", "builtin:random"
#: A bot program that always plays the first legal move: deterministic, and an exec:
#: bot that each Ray task starts for itself.
FIRST = fault_bot("illegal", 10**9)
#: One hand a match where the game allows it: random play makes long hands.
SHORT = {"burraco": "hands=1", "ramino": "match_hands=1"}


def stable_record(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what the clock decides."""
    # The deal commitment's salt is fresh random bytes for every match.
    clock = ("time_used_ms", "started", "duration_s", "deal_commitment", "deal_salt")
    out = {k: v for k, v in record.items() if k not in clock}
    out["moves"] = [{k: v for k, v in m.items() if k != "ms"} for m in record["moves"]]
    out["faults"] = [{k: v for k, v in f.items() if k != "ms"} for f in record["faults"]]
    return out


def stable_records(path: Path) -> list[dict[str, Any]]:
    """The records of a file, by id (files are in order of completion)."""
    return sorted((stable_record(r) for r in read_records(path)), key=lambda r: r["id"])


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without the clock and without what depends on where bots ran."""
    return {k: v for k, v in summary.items() if k not in ("seconds", "bots_started", "backend")}


def configs() -> list[Config]:
    """Small tournaments: Maraffa with duplicate deals, and one deal in every rotation
    of the sides (one hand a match) of every other game."""
    out = []
    for game in sorted(GAMES):
        rules = GAMES[game].rules
        sides, _ = table_of(game, rules.default_players, game_pb2.GameOptions())
        entrants = [Entrant("heuristic", (H,))] + [
            Entrant(f"random{i}", (R,)) for i in range(1, len(sides))
        ]
        cfg = Config(
            name=f"ray-{game}",
            game=game,
            entrants=tuple(entrants),
            players=rules.default_players,
            deals=1,
            duplicate=True,
            concurrency=2,
        )
        if game == "maraffa":
            cfg = dataclasses.replace(cfg, deals=2, options={"maraffa": {"target": 21}}, seed=2026)
        elif game in SHORT:
            cfg = dataclasses.replace(cfg, options=options_json(game, [SHORT[game]]))
        out.append(cfg)
    return out


@contextlib.contextmanager
def short_link(folder: Path) -> Iterator[Path]:
    """A short name in the system's temporary folder for ``folder``: Ray builds its Unix
    socket paths (at most 107 bytes) on its temporary folder, and pytest's are long. The
    files stay in ``folder``; the link goes at the end."""
    link = Path(tempfile.mkdtemp(prefix="mzr"))
    link.rmdir()
    os.symlink(folder, link)
    try:
        yield link
    finally:
        link.unlink()


@pytest.fixture
def ray_session(tmp_path: Path) -> Iterator[Any]:
    """A local Ray of two CPUs for one test, its files in the test's folder."""
    import ray  # not skipped when missing: `make venv` installs it, CI must run this

    (tmp_path / "ray").mkdir()
    with short_link(tmp_path / "ray") as temp:
        ray.init(num_cpus=2, include_dashboard=False, _temp_dir=str(temp), logging_level="WARNING")
        try:
            yield ray
        finally:
            ray.shutdown()
    assert list((tmp_path / "ray").glob("session_*"))


@pytest_asyncio.fixture
async def first_move_bot(grpc_bot: ServeBot) -> AsyncIterator[str]:
    """A gRPC bot on 127.0.0.1 that plays the first legal move: reachable from a local
    Ray's workers, since they run on this machine."""
    yield await grpc_bot(ScriptedBot(lambda _r: bot_pb2.ActResponse(index=0)))


async def run(cfg: Config, path: Path, **kw: Any) -> Outcome:
    return await run_tournament(cfg, path, progress=False, **kw)


def test_without_ray_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from mazzo.referee import ray_backend

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(ImportError, match=r"mazzo\[ray\]"):
        ray_backend.RayBackend()


@pytest.mark.slow
async def test_ray_and_local_backends_give_the_same_records_and_standings(
    ray_session: Any, first_move_bot: str, tmp_path: Path
) -> None:
    from mazzo.referee.ray_backend import RayBackend

    for cfg in configs():
        if cfg.game == "maraffa":
            # Builtin, exec: and gRPC bots on the workers.
            cfg = dataclasses.replace(
                cfg,
                entrants=(
                    *cfg.entrants,
                    Entrant("exec-first", (FIRST,)),
                    Entrant("grpc-first", (first_move_bot,)),
                ),
            )
        local_path, ray_path = (
            tmp_path / f"{cfg.game}.local.jsonl",
            tmp_path / f"{cfg.game}.ray.jsonl",
        )
        local = await run(cfg, local_path)
        remote = await run(cfg, ray_path, backend=RayBackend())
        assert remote.summary["backend"] == "ray" and local.summary["backend"] == "local"
        assert remote.summary["complete"] and remote.summary["matches"] == len(cfg.jobs())
        assert stable(remote.summary) == stable(local.summary), cfg.game
        assert stable_records(ray_path) == stable_records(local_path), cfg.game
        if cfg.game == "maraffa":
            # 4 entrants, 6 pairs, 2 deals in both rotations; every match on its own
            # task, so each starts its own bots.
            assert remote.summary["matches"] == 24
            assert remote.summary["bots_started"]["exec-first.0"] == 12
    # The backend joined the Ray it found and left it running.
    assert ray_session.is_initialized()


@pytest.mark.slow
def test_the_command_resumes_a_local_run_on_ray(tmp_path: Path) -> None:
    """``mazzo tournament --backend ray --resume`` after a local run was cut short ends
    with the table and the records of an uninterrupted local run."""
    import asyncio

    cfg = configs()[[c.game for c in configs()].index("maraffa")]
    cfg = dataclasses.replace(cfg, deals=4)
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    full = asyncio.run(run(cfg, whole))
    cut = asyncio.run(run(cfg, part, stop_after=3))
    assert cut.interrupted and 3 <= len(read_records(part)) < 8
    toml = tmp_path / "t.toml"
    toml.write_text(
        f'name = "{cfg.name}"\ngame = "maraffa"\nseed = {cfg.seed}\ndeals = 4\n'
        "concurrency = 2\n[options]\ntarget = 21\n"
        + "".join(f'[[entrants]]\nname = "{e.name}"\nbot = "{e.bots[0]}"\n' for e in cfg.entrants)
    )
    (tmp_path / "ray").mkdir()
    with short_link(tmp_path / "ray") as temp:
        done = subprocess.run(
            [
                *(sys.executable, "-m", "mazzo", "tournament", str(toml), "--no-progress"),
                *("--records", str(part), "--resume", "--backend", "ray"),
                *("--ray-temp-dir", str(temp)),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=ROOT,
            # A local Ray, whatever cluster the environment names.
            env={k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"},
        )
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "ray").glob("session_*"))  # Ray's files were kept here
    summary = json.loads(part.with_name(part.name + ".summary.json").read_text())
    assert summary["backend"] == "ray" and summary["complete"]
    assert stable(summary) == stable(full.summary)
    assert stable_records(part) == stable_records(whole)
