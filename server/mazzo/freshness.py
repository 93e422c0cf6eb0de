"""Whether this process must run the pure sources: asked by ``MAZZO_PURE``, or because
an engine's source changed since it was compiled (docs/compiled.md).

Read at every ``import mazzo``, so it imports nothing heavy: ``mazzo.buildinfo`` (which
installs the finder that prefers sources) only when it is needed.
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES

#: Set (to anything but 0) at install time it builds pure Python; at run time it
#: imports the sources even where compiled modules are installed.
PURE_ENV = "MAZZO_PURE"
#: The folders setup.py compiles.
COMPILED_FOLDERS = ("core", "games", "codec")


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
        from mazzo.buildinfo import prefer_sources

        prefer_sources()
    elif stale := stale_extensions(package):
        import warnings

        from mazzo.buildinfo import prefer_sources

        warnings.warn(
            f"mazzo: {stale[0]} (and {len(stale) - 1} more) changed since it was compiled:"
            " running the pure Python sources; `make compiled` rebuilds",
            RuntimeWarning,
            stacklevel=3,
        )
        prefer_sources()
