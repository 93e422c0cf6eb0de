"""scripts/check_deploy.py's checks of the KubeRay RayJob catch what they are for.

kubernetes-validate is not run here (``make deploy-check`` runs it); these are the
checks written for this repository: the schema of the RayJob's own fields and what
no schema says.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def check() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "check_deploy", ROOT / "scripts" / "check_deploy.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def rayjob(check: ModuleType) -> tuple[dict[str, Any], Any]:
    kust = check.Kustomization.load(check.KUBERAY)
    job = next(d for _, d in kust.docs if d["kind"] == "RayJob")
    return copy.deepcopy(job), kust


def test_the_committed_rayjob_passes(check: ModuleType) -> None:
    job, kust = rayjob(check)
    assert check.rayjob_problems(job, kust) == []
    assert set(check.pod_templates(job)) == {"head", "worker-matches"}


def test_a_field_kuberay_does_not_have_fails(check: ModuleType) -> None:
    job, kust = rayjob(check)
    job["spec"]["shutdownAfterJobFinish"] = job["spec"].pop("shutdownAfterJobFinishes")
    problems = check.rayjob_problems(job, kust)
    assert any("shutdownAfterJobFinish' was unexpected" in p for p in problems)


def test_a_command_mazzo_rejects_fails(check: ModuleType) -> None:
    job, kust = rayjob(check)
    job["spec"]["entrypoint"] += " --workers 3"
    assert any("rejects the entrypoint" in p for p in check.rayjob_problems(job, kust))
    job, kust = rayjob(check)
    job["spec"]["entrypoint"] = job["spec"]["entrypoint"].replace("--backend ray", "")
    assert check.rayjob_problems(job, kust) == ["the entrypoint does not say --backend ray"]


def test_records_off_the_volume_and_another_ray_fail(check: ModuleType) -> None:
    job, kust = rayjob(check)
    job["spec"]["entrypoint"] = job["spec"]["entrypoint"].replace("/results/records", "/tmp/r")
    job["spec"]["rayClusterSpec"]["rayVersion"] = "2.59.0"
    problems = check.rayjob_problems(job, kust)
    assert len(problems) == 2
    assert "rayVersion 2.59.0" in problems[0]
    assert "--records /tmp/r.jsonl is not on a writable PersistentVolumeClaim" in problems[1]


def test_the_arenas_commands_are_found_in_manifests_and_compose(check: ModuleType) -> None:
    """deploy/arena: each pod's migrate and serve, and compose's, are what the check
    parses; a command mazzo would refuse is found there too (and fails the parser)."""
    import yaml

    from mazzo.cli import build_parser

    docs = [
        d for p in (check.ARENA / "k8s").glob("*.yaml") for d in yaml.safe_load_all(p.read_text())
    ]
    docs.append(yaml.safe_load((check.ARENA / "compose.yaml").read_text()))
    verbs = sorted(argv[2] for argv in check.arena_commands([d for d in docs if d]))
    assert verbs == ["migrate", "migrate", "serve", "serve"]
    bad = {"spec": {"command": ["mazzo", "arena", "serve"], "args": ["--no-such-flag"]}}
    (argv,) = check.arena_commands([bad])
    with pytest.raises(SystemExit):
        build_parser().parse_args(argv[1:])
