"""Every process a bot started goes when the bot goes, even one that left its session.

A bot runs in a session of its own, so killing its process group takes the children
that stayed in it. A child that called ``setsid`` (a daemon, a server the bot
launched) is in no group of ours: it is found through ``/proc`` as a descendant of
the bot while the bot still lives, and killed by pid, checked against its start time
so a recycled pid is never hit. After the bot has died its orphans are the
children of the nearest *subreaper*: a referee process that declares itself one
(``become_subreaper``) adopts them and ``kill_orphans`` ends them at the end of a
run. Linux only; elsewhere these find nothing and do nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from pathlib import Path

_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36

#: (pid, start time in clock ticks since boot): a process, told apart from a later
#: one that got the same pid.
Process = tuple[int, int]


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a live process, from ``/proc/PID/stat``."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after it.
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[19])


def descendants(pid: int) -> list[Process]:
    """Every live descendant of ``pid``, whatever its session or group."""
    if not _PROC.is_dir():
        return []
    children: dict[int, list[Process]] = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is not None:
            children.setdefault(stat[0], []).append((int(entry.name), stat[1]))
    found: list[Process] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def kill_all(processes: list[Process]) -> None:
    """SIGKILL each process that is still the one that was found."""
    for pid, started in processes:
        stat = _stat(pid)
        if stat is not None and stat[1] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def become_subreaper() -> bool:
    """Adopt the orphans of this process's descendants (Linux ``prctl``); true if so."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def kill_orphans() -> int:
    """Kill and reap every process left below this one: at the end of a run, when every
    bot has been closed, these are the orphans a subreaper adopted. Returns how many."""
    me = os.getpid()
    left = descendants(me)
    direct = [pid for pid, _ in left if (_stat(pid) or (0, 0))[0] == me]
    kill_all(left)
    for pid in direct:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    return len(left)
