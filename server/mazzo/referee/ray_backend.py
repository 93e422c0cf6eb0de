"""``mazzo tournament --backend ray``: every match a Ray task, on a local Ray or a cluster.

The driver (this process) keeps everything that is not a match: the schedule, the
records file, the fault ledger, progress, the SPRT and the standings. Each match
goes to a worker as a ``MatchTask`` and comes back as its record, so the records and
standings are those of the local backend for the same seeds. At most
``config.concurrency`` tasks are in flight (each asks Ray for one CPU); Ray retries a
task whose worker died, which is safe because a match is a pure function of its task.

Ray is an optional dependency (``pip install 'mazzo[ray]'``), imported only here.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from mazzo.referee.match import FaultLedger
from mazzo.referee.records import Json
from mazzo.referee.schedule import Job
from mazzo.referee.tournament import Config, MatchTask, play_task, tournament_tag

#: The Ray this code is tested with (pyproject.toml's ``ray`` extra pins it).
RAY_VERSION = "2.60.0"


def import_ray() -> Any:
    """Ray, or an ImportError that says how to get it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            "--backend ray needs Ray: pip install 'mazzo[ray]' "
            f"(ray=={RAY_VERSION}), or `make venv`, which installs it"
        ) from e
    return ray


def _play_remote(task: MatchTask) -> tuple[Json, dict[str, int]]:
    """The body of the Ray task: one match on a fresh event loop of the worker."""
    return asyncio.run(play_task(task))


class RayBackend:
    """Matches as Ray tasks. With no address (and no ``RAY_ADDRESS``) it starts a local
    Ray of ``config.concurrency`` CPUs and shuts it down at the end; with one it joins
    that cluster (``auto``, ``HOST:6379`` or ``ray://HOST:10001``) and leaves it running.
    A Ray already initialised in this process is used as it is."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        temp_dir: Path | None = None,
        logs: Path | None = None,
        ca: Path | None = None,
    ) -> None:
        self._ray = import_ray()
        self._ca = ca
        self._address = address or os.environ.get("RAY_ADDRESS") or None
        self._temp_dir = temp_dir
        self._logs = logs
        self._config: Config | None = None
        self._remote: Any = None
        self._owned = False
        self._started: dict[str, int] = {}

    async def start(self, config: Config) -> None:
        if config.own_clocks:  # a person's seats: their bots play in the referee's process
            raise ValueError("seats on a clock of their own play in this process: not with Ray")
        ray = self._ray
        self._config = config
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "logging_level": logging.WARNING,
                "log_to_driver": True,
            }
            if self._address:
                kwargs["address"] = self._address
            else:
                # A local Ray: no dashboard, one CPU per match in flight.
                kwargs.update(num_cpus=config.concurrency, include_dashboard=False)
                if self._temp_dir is not None:
                    # Not resolved: Ray's socket paths (under 108 bytes) are built on it,
                    # and a short symbolic link may stand for a long folder.
                    self._temp_dir.mkdir(parents=True, exist_ok=True)
                    kwargs["_temp_dir"] = os.path.abspath(self._temp_dir)
            ray.init(**kwargs)
            self._owned = True
        # Retries: a worker lost with its node plays the match again elsewhere.
        self._remote = ray.remote(num_cpus=1, max_retries=3)(_play_remote)

    async def play(self, job: Job, ledger: FaultLedger) -> Json:
        config = self._config
        assert config is not None and self._remote is not None, "start() the backend first"
        task = MatchTask(
            job=job,
            tag=tournament_tag(config, job),
            clock=config.clock,
            faults=config.faults,
            prior_faults=dict(ledger.counts),
            service=config.service,
            logs=None if self._logs is None else str(self._logs.resolve()),
            cwd=os.getcwd(),
            ca=None if self._ca is None else str(self._ca.resolve()),
            seal=config.seal,
        )
        ref = self._remote.remote(task)
        try:
            record, started = await ref
        except asyncio.CancelledError:
            # Ctrl-C, a decided SPRT: the match is abandoned, as on the local backend.
            self._ray.cancel(ref, force=True)
            raise
        for fault in record["faults"]:
            ledger.add(fault["entrant"])
        for key, count in started.items():
            self._started[key] = self._started.get(key, 0) + count
        return dict(record)

    def started(self) -> dict[str, int]:
        return dict(self._started)

    async def close(self) -> None:
        if self._owned:
            self._ray.shutdown()
            self._owned = False
