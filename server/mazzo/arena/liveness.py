"""Which arena process a worker's name belongs to, and whether that process is gone.

A worker's name (``Match.claimed_by``) names one *instance* of a process, not just a
process id: ``HOST/PID/START/TAG/wN``, where START is the process's start time (in
clock ticks since boot, from ``/proc/PID/stat``; 0 where there is no ``/proc``) and TAG
is random. A restarted arena that happens to get the dead one's pid still has another
START and another TAG, so it never takes a dead worker's claim for its own.

Why it matters (crash safety, issue 34): a run killed outright (``kill -9``) leaves its
matches ``playing``. Waiting for their heartbeats to go silent (``Store.void_stale``,
a minute) would hold their bots busy that long and leave them ``playing`` after a
short run. Instead each scheduler round (and every run as it starts) asks ``gone`` of
the workers that hold matches: a worker of *this host* whose process is no longer
running, or whose pid is now another process's (another start time) or a zombie, is
certainly dead, and its matches are voided at once, saying so. A worker of another
host, or a name in another form, cannot be checked from here: its matches wait for the
heartbeat silence. So host names must be unique among the processes that share an
arena database (two containers both called ``arena`` on one PostgreSQL would void
each other's matches, as lost claims; nothing would be counted twice).
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

#: The separator: host names hold no "/", so a name splits in exactly five parts.
SEP = "/"


@dataclass(frozen=True)
class Instance:
    """One arena process: its host, pid, start time and a random tag."""

    host: str
    pid: int
    start: int
    tag: str

    @property
    def name(self) -> str:
        """The process's own name (``HOST/PID/START/TAG``): where its gateway's
        dial-in bots are connected (``connections``)."""
        return SEP.join((self.host, str(self.pid), str(self.start), self.tag))

    def worker(self, index: int) -> str:
        return f"{self.name}{SEP}w{index}"


def _host() -> str:
    return socket.gethostname().replace(SEP, "_")[:64] or "localhost"


def start_time(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (``/proc/PID/stat``'s 22nd
    field), 0 where there is no ``/proc``; None when there is no such process."""
    stat = _stat(pid)
    if stat is None:
        return None if Path("/proc/self/stat").exists() else 0
    return int(stat[19])


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (the state first)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def this_process() -> Instance:
    """This process, with a new random tag (each run is an instance of its own)."""
    pid = os.getpid()
    return Instance(_host(), pid, start_time(pid) or 0, secrets.token_hex(3))


def parse(worker: str) -> Instance | None:
    """The instance a worker's name names; None for a name in another form."""
    parts = worker.split(SEP)
    if len(parts) != 5 or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return Instance(parts[0], int(parts[1]), int(parts[2]), parts[3])


def gone(worker: str) -> str | None:
    """Why ``worker``'s process is certainly dead, or None when it may be alive (it
    is running, another host's, or a name in another form)."""
    of = parse(worker)
    if of is None or of.host != _host():
        return None
    try:
        os.kill(of.pid, 0)
    except ProcessLookupError:
        return f"its process {of.pid} on {of.host} is gone"
    except PermissionError:
        pass  # another user's process: it exists
    stat = _stat(of.pid)
    if stat is None:
        return None  # no /proc: the pid runs, and cannot be told apart from a reuse
    if stat[0] in ("Z", "X"):
        return f"its process {of.pid} on {of.host} is gone (a zombie)"
    if of.start and int(stat[19]) != of.start:
        return f"its process {of.pid} on {of.host} is gone (the pid is another process's now)"
    return None  # running: this process (another run in it, maybe) or a live one


def process_gone(process: str) -> str | None:
    """``gone`` for a process's own name (``Instance.name``, without a worker)."""
    return gone(f"{process}{SEP}w0")
