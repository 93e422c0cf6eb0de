"""Mazzo: a stateless rules service for Italian card games."""

import os

__version__ = "0.1.0"

# MAZZO_PURE=1 at run time: import the pure sources even where compiled modules are
# installed (mazzo.buildinfo), before any other module of the package is imported.
if os.environ.get("MAZZO_PURE", "") not in ("", "0"):
    from mazzo.buildinfo import prefer_sources

    prefer_sources()
