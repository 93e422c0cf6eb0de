"""What each entry point installs (issue 14's lean set-up), read from make's own plan
(``make -n -B``: every step it would run from nothing): `make run` installs only what
serving needs, and a client's proto inputs need no venv of ours at all."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def plan(target: str) -> list[str]:
    # As from a shell: under `make test` the parent's flags would add "Entering directory".
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return done.stdout.splitlines()


def test_make_run_installs_only_what_serving_needs() -> None:
    steps = plan("run")
    installs = [step for step in steps if "pip install" in step]
    assert installs == ["MAZZO_PURE=1 .venv/bin/python -m pip install --quiet -e ."], installs
    assert steps[0] == "python3 scripts/doctor.py --for run"  # prerequisites first
    assert steps[-1] == ".venv/bin/mazzo serve"


def test_the_clients_proto_inputs_need_no_venv() -> None:
    steps = plan("proto-deps")
    assert not [step for step in steps if ".venv" in step or "pip install" in step], steps


def test_the_serving_install_holds_what_code_generation_runs() -> None:
    # make run generates the code with the serving venv alone: protoc (grpcio-tools),
    # google's protos, and the type stubs' plugin (mypy-protobuf) must come with it.
    with (ROOT / "pyproject.toml").open("rb") as f:
        dependencies = tomllib.load(f)["project"]["dependencies"]
    names = {requirement.split("==")[0] for requirement in dependencies}
    assert {"grpcio-tools", "googleapis-common-protos", "mypy-protobuf"} <= names
