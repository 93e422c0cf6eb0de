"""Which build of the engines this process runs: compiled by mypyc, or pure Python.

A compiled install keeps each module's ``.py`` beside its C extension, and Python
imports the extension first (docs/compiled.md). ``MAZZO_PURE=1`` at run time makes
``mazzo/__init__`` install ``SourcesFirst``, so the same install also runs as pure
Python: the bench and the differential check compare both builds in one run.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from mazzo.freshness import PURE_ENV, forced_pure

#: A module every compiled build compiles: where it comes from says which build runs.
PROBE = "mazzo.games.maraffa.rules"


def compiled_modules(root: Path | None = None) -> list[str]:
    """The modules installed as extensions beside their sources in the package folder
    ``root`` (``mazzo``'s own by default), whichever build runs."""
    root = root or Path(__file__).parent
    found = []
    for path in root.rglob("*"):
        suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
        if suffix is not None and path.with_name(path.name[: -len(suffix)] + ".py").exists():
            relative = path.relative_to(root.parent).as_posix()[: -len(suffix)]
            found.append(relative.replace("/", ".").removesuffix(".__init__"))
    return sorted(found)


@dataclass(frozen=True)
class Build:
    """The build this process runs, and the compiled modules installed."""

    compiled: bool
    modules: int
    #: Why installed compiled modules are not used.
    unused_because: str = f"{PURE_ENV}=1"

    @property
    def label(self) -> str:
        """``mypyc`` or ``pure``: a metric's label value."""
        return "mypyc" if self.compiled else "pure"

    def describe(self) -> str:
        """For ``--version`` and the first log line."""
        if self.compiled:
            return f"compiled: mypyc, {self.modules} modules"
        if self.modules:
            return f"pure Python: {self.unused_because}, {self.modules} compiled modules not used"
        return "pure Python"


def current() -> Build:
    """Where ``PROBE`` is imported from decides: it honours ``SourcesFirst``."""
    spec = importlib.util.find_spec(PROBE)
    origin = spec.origin if spec is not None else None
    compiled = origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))
    modules = len(compiled_modules())
    if compiled or not modules or forced_pure():
        return Build(compiled, modules)
    return Build(compiled, modules, "sources changed since the compile")
