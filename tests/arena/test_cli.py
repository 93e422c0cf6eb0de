"""``mazzo arena migrate``: makes the schema once, then says it is up to date; a
database it cannot reach is one line, with no password in it."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from mazzo.arena import schema
from mazzo.arena.store import Store
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


def test_the_docs_commands_enter_bots_play_them_and_show_the_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    assert main(["arena", "add-owner", "ada", *db]) == 0
    assert main(["arena", "add-owner", "bob", *db]) == 0
    tokens = re.findall(r"token \(shown once, only its hash is kept\): (\S+)$", out(capsys), re.M)
    assert len(tokens) == 2 and tokens[0] != tokens[1]
    assert (
        main(["arena", "add-ladder", "maraffa", "--players", "4", "--option", "target=1", *db]) == 0
    )
    assert out(capsys) == "ladder 1: maraffa 4p, target=1; sides [[0, 2], [1, 3]]\n"
    for owner, bot in (("ada", "ada-1"), ("ada", "ada-2"), ("bob", "bob-1"), ("bob", "bob-2")):
        assert (
            main(
                ["arena", "add-bot", owner, bot, "--ladder", "1", "--target", "builtin:random", *db]
            )
            == 0
        )
    assert out(capsys).count("(builtin); token") == 4
    assert main(["arena", "run", "--matches", "8", "--workers", "2", "--seed", "1", *db]) == 0
    text = out(capsys)
    assert text.count("] finished: ") == 8 and "[8/8] finished: " in text
    assert "8 matches finished: 8 finished, 0 voided, 0 lost" in text
    assert main(["arena", "standings", "--ladder", "1", *db]) == 0
    table = out(capsys).splitlines()
    assert table[0] == "ladder 1: maraffa 4p, target=1"
    assert sorted(line.split()[1] for line in table[2:]) == ["ada-1", "ada-2", "bob-1", "bob-2"]
    assert {line.split()[6] for line in table[2:]} == {"8"}  # games: every bot in every match
    assert main(["arena", "pause", "bob-1", "--reason", "a rest", *db]) == 0
    assert main(["arena", "run", *db]) == 0  # bob-2 alone cannot face ada's two
    assert "waiting: ladder 1 (maraffa 4p)" in out(capsys)
    assert main(["arena", "resume", "bob-1", *db]) == 0
    assert out(capsys) == "bob-1: back in\n"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["add-ladder", "maraffa", "--players", "3"], "maraffa 3p: its deciding seats are"),
        (["add-ladder", "scopa"], "unknown game 'scopa'"),
        (["add-ladder", "maraffa", "--option", "target=abc"], "--option target=abc"),
        (
            ["add-bot", "ada", "ada-1", "--ladder", "1", "--target", "builtin:nope"],
            "unknown builtin",
        ),
        (["add-bot", "nobody", "x-1", "--ladder", "1", "--target", "builtin:random"], "no owner"),
        (["standings", "--ladder", "7"], "no ladder 7"),
        (["serve", "--move-time", "0"], "--move-time 0.0"),
        (["serve", "--bank", "-1"], "--bank -1.0"),
        (["serve", "--person-move-time", "0"], "--person-move-time 0.0, --person-bank 1800.0"),
        (["serve", "--web-url", "ftp://host:1"], "--web-url 'ftp://host:1': an http://"),
        (["serve", "--web-url", "http://:8061"], "--web-url 'http://:8061': an http://"),
        (
            ["add-bot", "ada", "ada-1", "--ladder", "1", "--target", "builtin:random", "--person"],
            "a person plays a dial-in bot",
        ),
        (["person", "nobody"], "no bot named 'nobody'"),
    ],
)
def test_a_refused_command_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    assert main(["arena", "add-owner", "ada", *db]) == 0
    assert main(["arena", "add-ladder", "briscola", *db]) == 0
    capsys.readouterr()
    assert main(["arena", *args, *db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mazzo: ") and error in err and len(err.splitlines()) == 1


def test_a_bot_is_entered_as_played_by_a_person_and_marked_back_and_forth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    db = ["--db", url]
    assert main(["arena", "add-owner", "ada", *db]) == 0
    assert main(["arena", "add-ladder", "briscola", *db]) == 0
    assert main(["arena", "add-bot", "ada", "ada-me", "--ladder", "1", "--person", *db]) == 0
    assert "bot ada-me (dial-in, played by a person); token" in out(capsys)
    assert main(["arena", "person", "ada-me", "--off", *db]) == 0
    assert out(capsys) == "ada-me: played by a program\n"
    with Store(url) as store:
        assert [b.person for b in store.ladder_bots(1)] == [False]
    assert main(["arena", "person", "ada-me", *db]) == 0
    assert out(capsys) == "ada-me: played by a person\n"
    with Store(url) as store:
        assert [b.person for b in store.ladder_bots(1)] == [True]


def out(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().out
