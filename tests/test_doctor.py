"""`make doctor` (scripts/doctor.py) names every missing or too old prerequisite in one
run, before a long build fails on it, and exits non-zero only when one is lacking."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCTOR = ROOT / "scripts" / "doctor.py"

#: What each tool prints for its version, as the real ones do (java on stderr, Maven
#: in colour with a second "version" line that must not be read as its own).
VERSIONS = {
    "python3": "echo 'Python 3.11.7'",
    "node": "echo v20.20.2",
    "npm": "echo 11.19.1",
    "go": "echo 'go version go1.26.8 linux/amd64'",
    "java": "echo 'openjdk version \"17.0.15\" 2025-04-15' >&2",
    "mvn": "printf '\\033[1mApache Maven 3.8.7\\033[m\\nJava version: 17.0.15\\n'",
    "cargo": "echo 'cargo 1.95.0 (f2d3ce0bd 2026-03-21)'",
    "chromium": "echo 'Chromium 156.0.8078.114 built on Debian GNU/Linux 12 (bookworm)'",
    "chromedriver": "echo 'ChromeDriver 156.0.8078.114 (a1b2c3-refs/branch-heads/8078@{#1})'",
    "postgres": "echo 'postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)'",
}


def doctor(tmp_path: Path, tools: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in tools.items():
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    return subprocess.run(
        [sys.executable, str(DOCTOR), *args],
        env={"PATH": str(bin_dir), "MAZZO_PG_BIN": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_complete_machine_passes(tmp_path: Path) -> None:
    done = doctor(tmp_path, VERSIONS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" ok (") == len(VERSIONS)
    assert "mvn >= 3           ok (3.8.7)" in done.stdout


def test_every_missing_or_old_tool_is_named_at_once(tmp_path: Path) -> None:
    tools = dict(VERSIONS, node="echo v18.19.0")
    del tools["go"], tools["cargo"]
    done = doctor(tmp_path, tools)
    assert done.returncode == 1
    assert "node >= 20         TOO OLD (18.19.0)" in done.stdout
    said = done.stderr.strip().splitlines()
    assert said[0] == "doctor: missing or too old for make test: node, go, cargo"
    # each with the command that installs it, and nothing for the tools that are here
    assert [line.split(":")[0].strip() for line in said[2:]] == ["node", "go", "cargo"]
    assert "apt-get install nodejs npm" in said[2] and "apt-get install cargo" in said[4]


def test_a_missing_browser_says_how_to_install_it(tmp_path: Path) -> None:
    tools = dict(VERSIONS)
    del tools["chromium"], tools["chromedriver"]
    done = doctor(tmp_path, tools)
    assert done.returncode == 1
    assert "chromium:      apt-get install chromium chromium-driver" in done.stderr


def test_make_run_needs_only_python(tmp_path: Path) -> None:
    done = doctor(tmp_path, {"python3": VERSIONS["python3"]}, "--for", "run")
    assert done.returncode == 0, done.stdout + done.stderr
    old = doctor(tmp_path, {"python3": "echo 'Python 3.10.12'"}, "--for", "run")
    assert old.returncode == 1 and "python3" in old.stderr
