#!/usr/bin/env python3
"""Validate everything in deploy/ offline, with each file's own tool.

- Kubernetes manifests: kubernetes-validate --strict (bundled schemas; no cluster);
- the Dockerfile: hadolint;
- the Envoy configuration: Envoy's own ``--mode validate``, with the proto
  descriptor set built by ``make descriptor`` standing in for /etc/envoy/mazzo.binpb.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEPLOY = ROOT / "deploy"
DESCRIPTOR = ROOT / "build" / "mazzo.binpb"


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
    if not DESCRIPTOR.exists():
        print(f"{DESCRIPTOR} is missing: run `make descriptor`")
        return 1
    config = (DEPLOY / "envoy" / "envoy.yaml").read_text()
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as local:
        local.write(config.replace("/etc/envoy/mazzo.binpb", str(DESCRIPTOR)))
        local.flush()
        ok = run(BIN / "envoy", "--mode", "validate", "-c", local.name, "-l", "warning") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
