"""Where each playing arena process's web pages are (issue 34: several processes on one
database), so that a live table is watched from any process's pages.

A live table lives in the process whose worker plays its match (``arena.live``). Each
process that plays and serves pages says where its pages answer (the ``processes``
table: its instance name, its ``web_url``, its last beat); a page of another process
finds a match's process by the match's claim (the worker's name starts with the
process's: ``liveness``) and relays that table's event stream from there
(``arena.live_relay``). A process silent past ``connections.STALE`` is taken for gone;
its row is forgotten an hour later (a ``kill -9`` leaves it behind).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mazzo.arena import liveness
from mazzo.arena.connections import STALE
from mazzo.arena.models import PLAYING, Match, Process

#: A row this long silent is deleted by the next beat of any process.
FORGET = timedelta(hours=1)


def advertise(s: Session, process: str, url: str, now: datetime) -> None:
    """``process``'s pages are at ``url`` as of ``now`` (its start, or a beat)."""
    row = s.get(Process, process)
    if row is None:
        s.add(Process(name=process, web_url=url, started_at=now, seen_at=now))
    else:
        row.web_url, row.seen_at = url, now
    s.execute(delete(Process).where(Process.seen_at < now - FORGET))


def withdraw(s: Session, process: str) -> None:
    """``process`` stops: its pages are no longer there."""
    s.execute(delete(Process).where(Process.name == process))


def addresses(s: Session, now: datetime) -> dict[str, str]:
    """The processes that say, now, where their pages are: name to URL."""
    rows = s.execute(select(Process.name, Process.web_url).where(Process.seen_at >= now - STALE))
    return {name: url for name, url in rows}


def process_of(worker: str | None) -> str | None:
    """The process a worker's name names (``liveness``), None for another form."""
    instance = None if worker is None else liveness.parse(worker)
    return None if instance is None else instance.name


def of_match(s: Session, match_id: str, now: datetime) -> tuple[str, str] | None:
    """The process playing ``match_id`` now and where its pages are, if it says."""
    worker = s.scalar(select(Match.claimed_by).where(Match.id == match_id, Match.status == PLAYING))
    process = process_of(worker)
    if process is None:
        return None
    url = s.scalar(
        select(Process.web_url).where(Process.name == process, Process.seen_at >= now - STALE)
    )
    return None if url is None else (process, url)
