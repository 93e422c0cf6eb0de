#!/usr/bin/env python3
"""Fetch the google/api and google/rpc protos our protos import, for the client builds.

The Go, TypeScript and Rust clients compile proto/ with their own tools, which need
google/api/annotations.proto (and what it imports) beside it; buf cannot reach its
registry here, and Google's protos are never committed. They come from the wheel of
googleapis-common-protos at the version pyproject.toml pins, downloaded by pip (no
install, no venv: a Go author needs no Python environment of ours) and unpacked.
Standard library and pip only.

    python3 scripts/fetch_google_protos.py build/proto-deps
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE = "googleapis-common-protos"
IMPORT_RE = re.compile(r'^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;', re.MULTILINE)
#: Besides what our protos import: Envoy's gRPC-JSON transcoder needs the status and
#: its details in the descriptor set to turn errors into JSON bodies.
EXTRA = ["google/rpc/status.proto", "google/rpc/error_details.proto"]


def pinned_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        dependencies = tomllib.load(f)["project"]["dependencies"]
    for requirement in dependencies:
        name, _, version = requirement.partition("==")
        if name.strip() == PACKAGE:
            return str(version).strip()
    sys.exit(f"fetch_google_protos: {PACKAGE} is not pinned in pyproject.toml")


def wheel(folder: Path) -> zipfile.ZipFile:
    """The pinned wheel, downloaded (pip's cache makes a second time free)."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", "--dest", str(folder), f"{PACKAGE}=={pinned_version()}"],
        check=True,
    )  # fmt: skip
    [found] = folder.glob("*.whl")
    return zipfile.ZipFile(found)


def fetch(dest: Path) -> None:
    """Our protos' imports (transitively), but the well-known types every protoc and
    buf already has, written under ``dest``."""
    ours = sorted((PROTO_ROOT / "mazzo" / "v1").glob("*.proto"))
    todo = [name for p in ours for name in IMPORT_RE.findall(p.read_text())] + EXTRA
    with tempfile.TemporaryDirectory() as tmp, wheel(Path(tmp)) as archive:
        inside = set(archive.namelist())
        if dest.exists():
            shutil.rmtree(dest)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen or name.startswith(("google/protobuf/", "mazzo/")):
                continue
            seen.add(name)
            if name not in inside:
                sys.exit(f"fetch_google_protos: {name} is not in {PACKAGE}'s wheel")
            text = archive.read(name)
            todo.extend(IMPORT_RE.findall(text.decode()))
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text)
            print(f"fetch_google_protos: {name} -> {target}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fetch(Path(sys.argv[1]).resolve())
