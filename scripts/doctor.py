#!/usr/bin/env python3
"""Which tools `make run` and `make test` need, and which this machine lacks.

Run before a long build, so a missing toolchain is one line now rather than a failure
twenty minutes in. Standard library only (it runs before the venv exists), any
Python 3 that can start it: it checks the Python version itself.

    python3 scripts/doctor.py            # what make run and make test need
    python3 scripts/doctor.py --for run  # what make run needs (exit 1 if missing)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Tool:
    name: str
    command: tuple[str, ...]  # prints the version
    minimum: tuple[int, ...]
    needed_by: str  # "run" or "test"
    purpose: str
    install: str  # how to get it on Debian or Ubuntu (root)


#: PostgreSQL's server binaries are not on PATH on Debian; the arena's tests look here.
PG_BIN = os.environ.get("MAZZO_PG_BIN", "/usr/lib/postgresql/15/bin")

TOOLS = (
    Tool(
        "python3",
        ("python3", "--version"),
        (3, 11),
        "run",
        "the service (.venv)",
        "apt-get install python3 python3-venv",
    ),
    Tool(
        "node",
        ("node", "--version"),
        (20,),
        "test",
        "buf, the TypeScript client, the viewer's type check",
        "apt-get install nodejs npm",
    ),
    Tool(
        "npm",
        ("npm", "--version"),
        (9,),
        "test",
        "buf, the TypeScript client",
        "apt-get install npm",
    ),
    Tool(
        "go",
        ("go", "version"),
        (1, 26),
        "test",
        "Go client, OpenAPI and API docs plugins",
        "apt-get install golang-go (if Debian's is older than 1.26: the Go project's release)",
    ),
    Tool(
        "java",
        ("java", "-version"),
        (17,),
        "test",
        "the Java client",
        "apt-get install openjdk-17-jdk-headless",
    ),
    Tool(
        "mvn",
        ("mvn", "--version"),
        (3,),
        "test",
        "bootstraps the Java client's pinned Maven",
        "apt-get install maven",
    ),
    Tool(
        "cargo",
        ("cargo", "--version"),
        (1, 88),
        "test",
        "the Rust client",
        "apt-get install cargo (if Debian's is older than 1.88: rustup)",
    ),
    Tool(
        "postgres",
        (os.path.join(PG_BIN, "postgres"), "--version"),
        (15,),
        "test",
        "the arena's tests on PostgreSQL (MAZZO_PG_BIN: another folder)",
        "apt-get install postgresql-15",
    ),
    Tool(
        "chromium",
        ("chromium", "--version"),
        (120,),
        "test",
        "the viewer's browser tests",
        "apt-get install chromium chromium-driver",
    ),
    Tool(
        "chromedriver",
        ("chromedriver", "--version"),
        (120,),
        "test",
        "the viewer's tests",
        "apt-get install chromium-driver",
    ),
)

VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def found_version(tool: Tool) -> tuple[int, ...] | None:
    """The tool's version, or None when it is not on PATH or says nothing readable."""
    if shutil.which(tool.command[0]) is None:
        return None
    try:
        done = subprocess.run(tool.command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    # java prints to stderr; Maven colours its output. The first line names the tool
    # and its version ("openjdk version \"17.0.15\"", "go version go1.26.8", "v20.2.0").
    text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr).strip()
    first = text.splitlines()[0] if text else ""
    match = VERSION.search(first.split("version", 1)[-1])
    if match is None:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)


def dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--for",
        dest="target",
        choices=("run", "test"),
        default="test",
        help="run: what make run needs; test (default): what make test needs as well",
    )
    args = parser.parse_args()
    wanted = [t for t in TOOLS if args.target == "test" or t.needed_by == "run"]
    missing = []
    for tool in wanted:
        version = found_version(tool)
        if version is None:
            state = "MISSING"
        elif version[: len(tool.minimum)] < tool.minimum:
            state = f"TOO OLD ({dotted(version)})"
        else:
            state = f"ok ({dotted(version)})"
        if not state.startswith("ok"):
            missing.append(tool)
        need = f"{tool.name} >= {dotted(tool.minimum)}"
        print(f"{need:<18} {state:<20} make {tool.needed_by}: {tool.purpose}")
    if missing:
        names = ", ".join(t.name for t in missing)
        print(f"doctor: missing or too old for make {args.target}: {names}", file=sys.stderr)
        print("doctor: to install them (as root; run apt-get update first):", file=sys.stderr)
        for tool in missing:
            print(f"  {tool.name + ':':<14} {tool.install}", file=sys.stderr)
        return 1
    print(f"doctor: everything make {args.target} needs is here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
