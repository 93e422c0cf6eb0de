"""Child processes that end with the process that started them.

The server's pools (the simulator's, the viewer's) and ``mazzo serve --workers``'s
workers would outlive a server killed without its exit handlers (SIGKILL,
``os._exit``): a pool process waits for work on a pipe it also holds open for
writing, a worker holds the ports. Linux's PR_SET_PDEATHSIG ends them (it is tied to
the thread that started the child: a pool started from a thread that ends loses its
processes, which the pools replace); elsewhere they are joined at a normal exit only.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with(parent: int | None = None) -> None:
    """In the child, first thing: SIGTERM it when its parent ends; with ``parent`` (the
    pid that started it), exit at once if that one has already ended."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if parent is not None and os.getppid() != parent:
        os._exit(0)
