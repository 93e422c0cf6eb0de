"""``mazzo arena migrate``: makes the schema once, then says it is up to date; a
database it cannot reach is one line, with no password in it."""

from __future__ import annotations

import socket

import pytest

from mazzo.arena import schema
from mazzo.cli import main


def test_migrate_makes_the_schema_then_finds_it_up_to_date(
    empty_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "migrate", "--db", empty_url]) == 0
    assert capsys.readouterr().out.endswith(f"at revision {schema.head()}, migrated from nothing\n")
    assert main(["arena", "migrate", "--db", empty_url]) == 0
    assert capsys.readouterr().out.endswith(f"at revision {schema.head()}, up to date\n")


def test_an_unreachable_database_is_one_line_without_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql+psycopg://mazzo:hunter2@127.0.0.1:{port}/arena"
    assert main(["arena", "migrate", "--db", url]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("mazzo: arena database") and "hunter2" not in err
