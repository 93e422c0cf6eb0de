"""Whether this process must run the pure sources: asked by ``MAZZO_PURE``, or because
an engine's source changed since it was compiled (docs/compiled.md).

Read at every ``import mazzo``, so it imports nothing heavy; the finder that prefers
sources is here too, so ``mazzo.buildinfo`` (which reports the build) is never needed
at start-up.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)

#: ``typing.TYPE_CHECKING`` without importing ``typing`` (type checkers know the name):
#: the annotations' modules stay off every ``import mazzo``.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

#: Set (to anything but 0) at install time it builds pure Python; at run time it
#: imports the sources even where compiled modules are installed.
PURE_ENV = "MAZZO_PURE"
#: The folders setup.py compiles.
COMPILED_FOLDERS = ("core", "games", "codec")


class SourcesFirst:
    """Finds ``mazzo``'s modules among ``.py`` files only, so the extension modules
    installed beside them are never imported. A meta path finder by its ``find_spec``
    alone: ``importlib.abc`` would add some 25 ms to every ``import mazzo``."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is None or not fullname.startswith("mazzo."):
            return None
        for entry in path:
            finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None  # not a source module (a namespace folder): the usual finders


def prefer_sources() -> None:
    """Import ``mazzo``'s pure sources from now on (idempotent)."""
    if not any(isinstance(f, SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourcesFirst())


def forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def stale_extensions(package: str | None = None) -> list[str]:
    """In a source tree (the editable install ``make`` builds), the sources changed
    since their modules were compiled: the extensions would run the old code. A wheel's
    files are never compared (their times are the install's)."""
    package = package or os.path.dirname(os.path.abspath(__file__))
    tree = os.path.dirname(package)
    if os.path.basename(tree) != "server" or not os.path.exists(
        os.path.join(tree, os.pardir, "pyproject.toml")
    ):
        return []
    suffix = EXTENSION_SUFFIXES[0]
    stale = []
    for folder in COMPILED_FOLDERS:
        for top, _, names in os.walk(os.path.join(package, folder)):
            for name in names:
                if name.endswith(suffix):
                    extension = os.path.join(top, name)
                    source = extension[: -len(suffix)] + ".py"
                    if os.path.exists(source) and os.path.getmtime(source) > os.path.getmtime(
                        extension
                    ):
                        stale.append(os.path.relpath(source, tree))
    return sorted(stale)


def use_fresh_code(package: str | None = None) -> None:
    """The pure sources from now on when ``MAZZO_PURE`` asks, or (with a warning: ``make
    compiled`` rebuilds, and ``make``'s targets do it themselves) when a compiled module
    is older than its source."""
    if forced_pure():
        prefer_sources()
    elif stale := stale_extensions(package):
        import warnings  # lazy: only a stale build pays for it at start-up

        warnings.warn(
            f"mazzo: {stale[0]} (and {len(stale) - 1} more) changed since it was compiled:"
            " running the pure Python sources; `make compiled` rebuilds",
            RuntimeWarning,
            stacklevel=3,
        )
        prefer_sources()
