#!/usr/bin/env python3
"""Generate the Python gRPC/protobuf modules from proto/ (stdlib + grpc_tools only).

Used by the Makefile (into server/, the source tree) and by setup.py's build hook
(into the wheel's build folder), so both always generate the same way.

    python scripts/gen_proto.py                  # into server/ -> server/mazzo/v1/*_pb2*.py[i]
    python scripts/gen_proto.py --out DIR        # into DIR/mazzo/v1/

Google's protos are never copied into the repository nor generated as Python: the
include paths point at the installed packages (googleapis-common-protos ships
google/api and google/rpc, grpc_tools ships google/protobuf), and at run time the
generated code imports google's modules from those same packages.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
# Our protos only; everything under google/ comes from the installed packages.
OUR_PROTOS = "mazzo/v1"


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"gen_proto: {module} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def include_dirs() -> list[Path]:
    # google/api/*.proto sit next to the google.api Python package (site-packages/google/api).
    googleapis_root = _package_dir("google.api").parent.parent
    if not (googleapis_root / "google/api/annotations.proto").is_file():
        sys.exit(f"gen_proto: no google/api/annotations.proto under {googleapis_root}")
    wkt_root = _package_dir("grpc_tools") / "_proto"
    return [PROTO_ROOT, googleapis_root, wkt_root]


def our_protos() -> list[Path]:
    protos = sorted((PROTO_ROOT / OUR_PROTOS).glob("*.proto"))
    if not protos:
        sys.exit(f"gen_proto: no .proto files in {PROTO_ROOT / OUR_PROTOS}")
    return protos


def _plugin(name: str) -> str:
    # The interpreter's own bin/ first (a venv run without activation), then PATH
    # (pip's isolated build environment puts its scripts there).
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    found = shutil.which(name, path=search)
    if found is None:
        sys.exit(f"gen_proto: {name} not found (pip install mypy-protobuf)")
    return found


def generate(out_root: Path) -> None:
    out_pkg = out_root / OUR_PROTOS
    out_pkg.mkdir(parents=True, exist_ok=True)
    # Drop modules of protos that were removed or renamed; nothing else lives here.
    for stale in out_pkg.glob("*_pb2*.py*"):
        stale.unlink()

    cmd = [
        sys.executable,
        "-m",
        "grpc_tools.protoc",
        *(f"-I{d}" for d in include_dirs()),
        f"--plugin=protoc-gen-mypy={_plugin('protoc-gen-mypy')}",
        f"--plugin=protoc-gen-mypy_grpc={_plugin('protoc-gen-mypy_grpc')}",
        f"--python_out={out_root}",
        f"--grpc_python_out={out_root}",
        f"--mypy_out=quiet:{out_root}",
        f"--mypy_grpc_out=quiet:{out_root}",
        # Paths relative to proto/ so module names follow the proto packages (mazzo.v1).
        *(str(p.relative_to(PROTO_ROOT)) for p in our_protos()),
    ]
    subprocess.run(cmd, check=True, cwd=PROTO_ROOT)
    (out_pkg / "__init__.py").write_text("")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "server", help="output root")
    args = parser.parse_args()
    generate(args.out.resolve())


if __name__ == "__main__":
    main()
