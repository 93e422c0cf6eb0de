#!/usr/bin/env python3
"""Validate everything in deploy/ offline, with each file's own tool.

- Kubernetes manifests: kubernetes-validate --strict (bundled schemas; no cluster);
- the Dockerfile: hadolint;
- the Envoy configuration: Envoy's own ``--mode validate``, with the proto
  descriptor set built by ``make descriptor`` standing in for /etc/envoy/mazzo.binpb;
- deploy/arena: its Kubernetes manifests with kubernetes-validate --strict, each listed
  in its kustomization.yaml; every ``mazzo`` command of its manifests and of its
  compose file accepted by mazzo's own parser;
- deploy/kuberay: its core manifests with kubernetes-validate --strict; the RayJob
  (a KubeRay custom resource, whose schema kubernetes-validate does not have) against
  rayjob.schema.json, the fields it uses, and every pod template in it as a core
  PodTemplate with kubernetes-validate --strict; then what no schema says: the Ray
  version is the one mazzo pins, the entry point is a ``mazzo tournament --backend
  ray`` command that mazzo's own parser accepts, its config is a file of the
  ConfigMap mounted where it says and loads as a tournament, and its records go to a
  persistent volume of the head.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEPLOY = ROOT / "deploy"
DESCRIPTOR = ROOT / "build" / "mazzo.binpb"
KUBERAY = DEPLOY / "kuberay"


def run(*args: str | Path) -> bool:
    print("+", " ".join(map(str, args)), flush=True)
    return subprocess.run([str(a) for a in args], cwd=ROOT).returncode == 0


def main() -> int:
    manifests = sorted(p for p in (DEPLOY / "k8s").glob("*.yaml") if p.name != "kustomization.yaml")
    ok = run(BIN / "kubernetes-validate", "--strict", *manifests)
    listed = (DEPLOY / "k8s" / "kustomization.yaml").read_text()
    missing = [p.name for p in manifests if p.name not in listed]
    if missing:
        print(f"not listed in kustomization.yaml: {missing}")
        ok = False
    ok = run(BIN / "hadolint", DEPLOY / "Dockerfile") and ok
    ok = check_kuberay() and ok
    ok = check_arena() and ok
    if not DESCRIPTOR.exists():
        print(f"{DESCRIPTOR} is missing: run `make descriptor`")
        return 1
    config = (DEPLOY / "envoy" / "envoy.yaml").read_text()
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as local:
        local.write(config.replace("/etc/envoy/mazzo.binpb", str(DESCRIPTOR)))
        local.flush()
        ok = run(BIN / "envoy", "--mode", "validate", "-c", local.name, "-l", "warning") and ok
    return 0 if ok else 1


ARENA = DEPLOY / "arena"


def arena_commands(docs: list[dict[str, Any]]) -> list[list[str]]:
    """Every ``mazzo ...`` command line in these documents: a container's command plus
    its args, or a compose service's entrypoint plus its command."""
    found = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            compose = "entrypoint" in node  # compose's entrypoint + command; else a container's
            head = node.get("entrypoint") if compose else node.get("command")
            tail = node.get("command") if compose else node.get("args")
            if isinstance(head, list) and head[:1] == ["mazzo"]:
                found.append([str(x) for x in head + (tail if isinstance(tail, list) else [])])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for doc in docs:
        walk(doc)
    return found


def check_arena() -> bool:
    """deploy/arena: the manifests valid, listed, and their commands mazzo's."""
    from mazzo.cli import build_parser

    manifests = sorted(p for p in (ARENA / "k8s").glob("*.yaml") if p.name != "kustomization.yaml")
    ok = run(BIN / "kubernetes-validate", "--strict", *manifests)
    listed = yaml.safe_load((ARENA / "k8s" / "kustomization.yaml").read_text())["resources"]
    for name in sorted({p.name for p in manifests} ^ set(listed)):
        print(f"deploy/arena/k8s: {name} is on one side only of kustomization.yaml")
        ok = False
    docs = [d for p in manifests for d in yaml.safe_load_all(p.read_text()) if d]
    docs.append(yaml.safe_load((ARENA / "compose.yaml").read_text()))
    commands = arena_commands(docs)
    if len(commands) < 4:  # migrate and serve, in the manifests and in compose
        print(f"deploy/arena: only {len(commands)} mazzo commands found")
        ok = False
    for argv in commands:
        try:
            build_parser().parse_args(argv[1:])
        except SystemExit:
            print(f"deploy/arena: mazzo's parser rejects {argv}")
            ok = False
    if ok:
        print(f"deploy/arena: {len(commands)} mazzo commands checked")
    return ok


def fail(problem: str) -> bool:
    print(f"deploy/kuberay: {problem}")
    return False


def ray_pins() -> set[str]:
    """The versions of Ray that pyproject.toml's extras pin."""
    text = (ROOT / "pyproject.toml").read_text()
    return set(re.findall(r'"ray(?:\[[a-z,-]+\])?==([0-9.]+)"', text))


@dataclass
class Kustomization:
    """What deploy/kuberay's kustomization.yaml declares, and the documents it lists."""

    generated: dict[str, list[str]]  # ConfigMap name -> its files
    resources: list[str]
    images: set[str]
    docs: list[tuple[str, dict[str, Any]]]  # (file, document)

    @staticmethod
    def load(folder: Path) -> Kustomization:
        data = yaml.safe_load((folder / "kustomization.yaml").read_text())
        generated = {
            g["name"]: [Path(f).name for f in g.get("files", [])]
            for g in data.get("configMapGenerator", [])
        }
        resources = list(data.get("resources", []))
        docs = []
        for name in resources:
            if (folder / name).exists():
                docs += [(name, d) for d in yaml.safe_load_all((folder / name).read_text()) if d]
        images = {i["name"] for i in data.get("images", [])}
        return Kustomization(generated, resources, images, docs)

    @property
    def claims(self) -> set[str]:
        return {d["metadata"]["name"] for _, d in self.docs if d["kind"] == "PersistentVolumeClaim"}


def check_kuberay() -> bool:
    kust = Kustomization.load(KUBERAY)
    ok = True
    listed = set(kust.resources) | {f for files in kust.generated.values() for f in files}
    present = {p.name for p in KUBERAY.iterdir() if p.suffix in (".yaml", ".toml")}
    for name in sorted(present - listed - {"kustomization.yaml"}):
        ok = fail(f"{name} is not in kustomization.yaml")
    for name in sorted(listed - present):
        ok = fail(f"kustomization.yaml lists {name}, which is missing")
    core = sorted({n for n, d in kust.docs if not d["apiVersion"].startswith("ray.io/")})
    if core:
        ok = run(BIN / "kubernetes-validate", "--strict", *(KUBERAY / n for n in core)) and ok
    jobs = [(n, d) for n, d in kust.docs if d["kind"] == "RayJob"]
    if not jobs:
        ok = fail("no RayJob")
    with tempfile.TemporaryDirectory() as work:
        for name, job in jobs:
            problems = rayjob_problems(job, kust)
            for problem in problems:
                ok = fail(f"{name}: {problem}")
            if schema_errors(job):
                continue  # the pod templates may not even be where they should be
            files = []
            for label, template in pod_templates(job).items():
                wrapped = {
                    "apiVersion": "v1",
                    "kind": "PodTemplate",
                    "metadata": {"name": label},
                    "template": template,
                }
                path = Path(work) / f"{job['metadata']['name']}.{label}.yaml"
                path.write_text(yaml.safe_dump(wrapped))
                files.append(path)
            ok = run(BIN / "kubernetes-validate", "--strict", *files) and ok
            if not problems:
                print(f"deploy/kuberay/{name}: RayJob checked")
    return ok


def schema_errors(job: dict[str, Any]) -> list[str]:
    """The RayJob against rayjob.schema.json: the fields it may use, and their types."""
    import jsonschema

    schema = json.loads((KUBERAY / "rayjob.schema.json").read_text())
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in jsonschema.Draft202012Validator(schema).iter_errors(job)
    ]


def pod_templates(job: dict[str, Any]) -> dict[str, Any]:
    cluster = job["spec"]["rayClusterSpec"]
    out = {"head": cluster["headGroupSpec"]["template"]}
    for group in cluster["workerGroupSpecs"]:
        out[f"worker-{group['groupName']}"] = group["template"]
    return out


def rayjob_problems(job: dict[str, Any], kust: Kustomization) -> list[str]:
    """The schema's complaints, then what no schema says: versions, images, replicas,
    and the command (mazzo's parser, its config, where its records go)."""
    from mazzo.cli import build_parser
    from mazzo.referee.ray_backend import RAY_VERSION
    from mazzo.referee.tournament import Config

    problems = schema_errors(job)
    if problems:
        return problems
    cluster = job["spec"]["rayClusterSpec"]
    pins = ray_pins()
    if pins != {RAY_VERSION} or cluster["rayVersion"] != RAY_VERSION:
        problems.append(
            f"rayVersion {cluster['rayVersion']}, pyproject.toml pins {sorted(pins)}, "
            f"mazzo.referee.ray_backend says {RAY_VERSION}: they must agree"
        )
    for group in cluster["workerGroupSpecs"]:
        if not group["minReplicas"] <= group["replicas"] <= group["maxReplicas"]:
            problems.append(f"{group['groupName']}: replicas outside min..max")
    templates = pod_templates(job)
    for label, template in templates.items():
        for container in template["spec"]["containers"]:
            image = container["image"].rsplit(":", 1)[0]
            if image not in kust.images:
                problems.append(f"{label}: image {image} is not in kustomization's images")

    head = templates["head"]["spec"]
    volumes = {v["name"]: v for v in head.get("volumes", [])}
    mounts = [
        (m["mountPath"].rstrip("/") + "/", volumes.get(m["name"], {}), m.get("readOnly", False))
        for c in head["containers"]
        for m in c.get("volumeMounts", [])
    ]

    def volume_of(path: str) -> tuple[dict[str, Any], bool, str]:
        for mount, volume, read_only in mounts:
            if path.startswith(mount):
                return volume, read_only, path.removeprefix(mount)
        return {}, False, ""

    argv = shlex.split(job["spec"]["entrypoint"])
    if argv[:2] != ["mazzo", "tournament"]:
        return [*problems, f"the entrypoint is not `mazzo tournament ...`: {argv[:2]}"]
    try:
        args = build_parser().parse_args(argv[1:])
    except SystemExit:
        return [*problems, f"mazzo's parser rejects the entrypoint: {argv}"]
    if args.backend != "ray":
        problems.append("the entrypoint does not say --backend ray")
    volume, _, key = volume_of(str(args.config))
    config_map = volume.get("configMap", {}).get("name")
    if config_map not in kust.generated or key not in kust.generated[config_map]:
        problems.append(f"{args.config} is not a file of a generated ConfigMap mounted there")
    else:
        try:
            config = Config.load(KUBERAY / key)
            print(f"deploy/kuberay/{key}: {len(config.jobs())} matches scheduled")
        except (ValueError, KeyError, OSError) as e:
            problems.append(f"{key} is not a tournament: {e}")
    for label, path in (("records", args.records), ("summary", args.summary)):
        if path is None:
            problems.append(f"give --{label} on a volume")
            continue
        volume, read_only, _ = volume_of(str(path))
        claim = volume.get("persistentVolumeClaim", {}).get("claimName")
        if claim not in kust.claims or read_only:
            problems.append(f"--{label} {path} is not on a writable PersistentVolumeClaim here")
    return problems


if __name__ == "__main__":
    sys.exit(main())
