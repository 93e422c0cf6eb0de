"""Print ``--no-build-isolation`` when this Python already has every build requirement
of pyproject.toml at its pinned version, else nothing.

``make``'s engine build reinstalls the package in the venv; pip's isolated build
environment installs the same pinned packages again each time (10-20 s). The test venv
has them all, ``make run``'s does not (no mypy), so the build is isolated there.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_requirements() -> list[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(pyproject["build-system"]["requires"])


def requirements_met(requires: list[str]) -> bool:
    """Whether every ``name==version`` is installed at that version (an unpinned
    requirement counts as not met: its version could be anything)."""
    for requirement in requires:
        name, _, pinned = requirement.partition("==")
        try:
            if not pinned or version(name.strip()) != pinned.strip():
                return False
        except PackageNotFoundError:
            return False
    return True


if __name__ == "__main__":
    print("--no-build-isolation" if requirements_met(build_requirements()) else "")
