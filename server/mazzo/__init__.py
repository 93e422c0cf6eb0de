"""Mazzo: a stateless rules service for Italian card games."""

from mazzo.freshness import use_fresh_code

__version__ = "0.1.0"

# Before any other module of the package is imported: MAZZO_PURE=1 at run time, or a
# source edited since its compile, imports the pure sources even where compiled modules
# are installed (mazzo.buildinfo).
use_fresh_code()
