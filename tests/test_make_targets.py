"""What each entry point installs (issue 14's lean set-up), read from make's own plan
(``make -n -B``: every step it would run from nothing): `make run` installs only what
serving needs, and a client's proto inputs need no venv of ours at all."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def plan(target: str, *variables: str) -> list[str]:
    # As from a shell: under `make test` the parent's flags would add "Entering directory".
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target, *variables],
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
    assert installs[0] == "MAZZO_PURE=1 .venv/bin/python -m pip install --quiet -e .", installs
    # then the engines (compiled by default, BUILD=pure for pure Python) into that same
    # install, with no extra's dependencies
    assert len(installs) == 2, installs
    assert installs[1].endswith("pip install --quiet --no-deps $isolation -e . && \\"), installs
    assert "MAZZO_PURE=0" in installs[1]
    assert "MAZZO_PURE=1" in [s for s in plan("run", "BUILD=pure") if "pip install" in s][1]
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


def test_make_test_compiles_the_engines_after_the_dev_install_and_before_the_tests() -> None:
    # Every reinstall of the package removes the extensions: the compile must come last.
    steps = plan("test")
    dev = next(i for i, s in enumerate(steps) if "pip install --quiet -e '.[dev" in s)
    engines = next(i for i, s in enumerate(steps) if "MAZZO_PURE=0" in s and "pip install" in s)
    tests = next(i for i, s in enumerate(steps) if s.startswith(".venv/bin/pytest"))
    assert dev < engines < tests, steps


def test_the_engines_build_skips_pip_isolation_only_when_every_pin_is_installed() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_isolation", ROOT / "scripts" / "build_isolation.py"
    )
    assert spec is not None and spec.loader is not None
    isolation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(isolation)
    # The test venv has every build requirement at its pin (the dev extras pin them).
    assert isolation.requirements_met(isolation.build_requirements())
    assert not isolation.requirements_met(["setuptools==0.0.1"])
    assert not isolation.requirements_met(["no-such-package-here==1.0"])
    assert not isolation.requirements_met(["setuptools"])  # unpinned
