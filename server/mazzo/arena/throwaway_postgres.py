"""A throwaway PostgreSQL cluster on a free port in a temporary folder: for the arena's
tests and its drills (``make arena-crash``, ``arena-drill``, ``arena-scale``), never for
data anyone keeps.

PostgreSQL's server binaries are not on PATH (``/usr/lib/postgresql/15/bin``, or
``MAZZO_PG_BIN``), and the server refuses to run as root: as root the cluster is the
``postgres`` user's (``runuser``). The user is ``mazzo``, with no password, on
127.0.0.1 only. ``durable=False`` turns fsync off: a test cluster that dies is thrown
away anyway.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mazzo.arena import schema

PG_BIN = Path(os.environ.get("MAZZO_PG_BIN", "/usr/lib/postgresql/15/bin"))


class Unavailable(RuntimeError):
    """No cluster could be started here: why (the tests skip, or fail in CI)."""


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def cluster(
    pg_bin: Path = PG_BIN, durable: bool = True, max_connections: int = 200
) -> Iterator[tuple[Path, int]]:
    """A fresh cluster: its socket folder and its port. Stopped and removed after."""
    if not (pg_bin / "initdb").exists() or not (pg_bin / "pg_ctl").exists():
        raise Unavailable(f"no initdb and pg_ctl in {pg_bin} (apt-get install postgresql-15)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        raise Unavailable("running as root and no runuser to run it as postgres")
    folder = Path(tempfile.mkdtemp(prefix="mazzo-pg-"))
    folder.chmod(0o755)  # the postgres user must reach its files
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", _free_port()
    pg_ctl = [str(pg_bin / "pg_ctl"), "-D", str(data)]
    started = False
    try:
        initdb = [str(pg_bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "mazzo", "-N"]
        run = subprocess.run(_as_postgres(initdb), capture_output=True, text=True)
        if run.returncode != 0:
            raise Unavailable(f"initdb failed: {run.stderr.strip()}")
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
            f" -c max_connections={max_connections}"
        )
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        start = [*pg_ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"]
        run = subprocess.run(_as_postgres(start), capture_output=True, text=True)
        if run.returncode != 0:
            log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
            raise Unavailable(f"pg_ctl start failed: {run.stderr.strip()} {log[-2000:]}")
        started = True
        yield folder, port
    finally:
        if started:
            stop = [*pg_ctl, "-m", "immediate" if not durable else "fast", "-w", "stop"]
            subprocess.run(_as_postgres(stop), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def cpu_seconds(folder: Path) -> float:
    """CPU seconds (user and system) the cluster in ``folder`` has used so far: its
    postmaster's, its ended backends' (reaped by the postmaster, so in its children's
    times) and its live processes'. For the drills to say how much of the machine the
    database took (Linux ``/proc`` only; 0.0 elsewhere)."""
    try:
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                pid = int(stat.parent.name)
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if pid == postmaster:
                    total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
                elif int(fields[1]) == postmaster:  # ppid
                    total += int(fields[11]) + int(fields[12])
        return total / ticks
    except (OSError, ValueError, IndexError):
        return 0.0


def admin_url(port: int) -> str:
    """The cluster's ``postgres`` database, as the arena's URLs are written."""
    return f"postgresql+psycopg://mazzo@127.0.0.1:{port}/postgres"


def create_database(
    admin: str, name: str, template: str = "template1", replace: bool = False
) -> str:
    """A new database beside ``admin``'s (a URL), made from ``template``: its URL.
    ``replace`` drops one of that name first."""
    import psycopg  # the PostgreSQL driver: only where PostgreSQL is used
    from psycopg import sql

    plain = admin.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        if replace:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    return f"{admin.rsplit('/', 1)[0]}/{name}"


def fresh(admin: str, name: str) -> str:
    """A new, migrated database beside ``admin``'s (replacing one of that name)."""
    url = create_database(admin, name, replace=True)
    schema.upgrade(url)
    return url
