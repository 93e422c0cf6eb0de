#!/usr/bin/env python3
"""Generate the OpenAPI 3 document of the HTTP/JSON API from the proto.

protoc-gen-openapi (google/gnostic) reads the google.api.http annotations and the
proto3 JSON names; this script runs it through grpc_tools' protoc and stores the
result as JSON inside the package, where `mazzo serve` serves it at /openapi.json.

    python scripts/gen_openapi.py --plugin build/bin/protoc-gen-openapi           # write
    python scripts/gen_openapi.py --plugin build/bin/protoc-gen-openapi --check   # compare
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
TARGET = ROOT / "server" / "mazzo" / "service" / "openapi.json"
ENTRY = "mazzo/v1/game_service.proto"


def include_paths() -> list[str]:
    import google.api
    import grpc_tools

    google_root = Path(google.api.__path__[0]).parent.parent
    tools_root = Path(grpc_tools.__file__).parent / "_proto"
    return [str(PROTO_ROOT), str(google_root), str(tools_root)]


def package_version() -> str:
    """The document's version is the package's (pyproject.toml), not the plugin's 0.0.1."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def generate(plugin: Path) -> str:
    """The document as JSON text."""
    # Our protos have no go_package (they are not Go-specific); the plugin wants one.
    go_packages = [
        f"--openapi_opt=M{p.relative_to(PROTO_ROOT)}=mazzo/v1;mazzov1"
        for p in sorted((PROTO_ROOT / "mazzo" / "v1").glob("*.proto"))
    ]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "grpc_tools.protoc",
                *(f"-I{p}" for p in include_paths()),
                f"--plugin=protoc-gen-openapi={plugin}",
                f"--openapi_out={out}",
                "--openapi_opt=naming=json",
                "--openapi_opt=enum_type=string",
                "--openapi_opt=title=Mazzo",
                f"--openapi_opt=version={package_version()}",
                *go_packages,
                ENTRY,
            ],
            check=True,
            cwd=ROOT,
        )
        document = yaml.safe_load((Path(out) / "openapi.yaml").read_text())
    return json.dumps(document, indent=1) + "\n"


def store(target: Path, text: str, check: bool, remake: str) -> int:
    """Write ``target``, or with ``check`` say whether it is current (exit status)."""
    name = target.relative_to(ROOT)
    if check:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print(f"{name} is stale: run `{remake}`", file=sys.stderr)
            return 1
        print(f"{name} matches the proto")
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {name}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plugin", type=Path, required=True, help="protoc-gen-openapi binary")
    parser.add_argument("--check", action="store_true", help="fail if the stored file is stale")
    args = parser.parse_args()
    return store(TARGET, generate(args.plugin.resolve()), args.check, "make openapi")


if __name__ == "__main__":
    sys.exit(main())
