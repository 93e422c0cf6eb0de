"""A module run from its ``.py`` source, whichever build is installed.

Compiled code calls the functions of its own module directly, so a test that replaces
one of them (``monkeypatch.setattr``) would not be heard by a compiled module. Such a
test runs the module's source instead: the same code, with its own globals, importing
everything else as installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def from_source(name: str) -> ModuleType:
    """A fresh module object executed from ``name``'s ``.py`` file (not registered in
    ``sys.modules``, so the installed module stays what every other import sees)."""
    installed = importlib.util.find_spec(name)
    assert installed is not None and installed.origin is not None, name
    source = Path(installed.origin).with_name(name.rsplit(".", 1)[-1] + ".py")
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None, source
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
