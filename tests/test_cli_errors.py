"""Misuse of the ``mazzo`` command: one line saying what is wrong, and a non-zero exit;
never a traceback, never a success that did nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mazzo.cli import main
from mazzo.referee.match import summary_line


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``mazzo argv``; it must fail with exit 2 and a single line on stderr."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's usage errors
        code = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = one_line_error(capsys, ["replay", str(tmp_path / "nosuch.jsonl")])
    assert "No such file" in line and "nosuch.jsonl" in line


def test_replay_of_an_empty_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert "no records" in one_line_error(capsys, ["replay", str(empty)])


def test_replay_of_a_truncated_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    assert main(["match", "--game", "maraffa", "--bot", "builtin:random", "--bot",
                 "builtin:random", "--seed", "4", "--records", str(whole)]) == 0  # fmt: skip
    capsys.readouterr()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(whole.read_bytes()[:-200])
    assert "cut off" in one_line_error(capsys, ["replay", str(cut)])


@pytest.mark.parametrize(
    ("option", "says"),
    [("target=abc", "target"), ("nosuch=1", "nosuch"), ("target=-3", "target"), ("x", "NAME")],
)
def test_a_bad_match_option(capsys: pytest.CaptureFixture[str], option: str, says: str) -> None:
    argv = ["match", "--game", "maraffa", "--option", option]
    line = one_line_error(capsys, [*argv, "--bot", "builtin:random", "--bot", "builtin:random"])
    assert says in line


@pytest.mark.parametrize("variable", ["MAZZO_PORT", "MAZZO_HTTP_PORT", "MAZZO_WORKERS"])
def test_a_bad_environment_value(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "abc")
    assert "'abc'" in one_line_error(capsys, ["serve"])


def test_a_bot_that_cannot_start_stops_the_match_before_the_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = tmp_path / "r.jsonl"
    argv = ["match", "--game", "maraffa", "--bot", "exec:./no-such-bot --fast"]
    line = one_line_error(capsys, [*argv, "--bot", "builtin:random", "--records", str(records)])
    assert "no-such-bot" in line and "cannot start" in line
    assert not records.exists()


def test_a_tournament_with_a_bot_that_cannot_start(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'name = "t"\ngame = "maraffa"\nplayers = 4\nseed = 1\ndeals = 2\n'
        '[[entrants]]\nname = "a"\nbots = ["builtin:random"]\n'
        '[[entrants]]\nname = "b"\nbots = ["exec:no-such-program-anywhere"]\n'
    )
    records = tmp_path / "t.jsonl"
    argv = ["tournament", str(config), "--records", str(records), "--no-progress"]
    assert "no-such-program-anywhere" in one_line_error(capsys, argv)
    assert not records.exists()


def test_an_unknown_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no benchmark 'nosuch'" in one_line_error(capsys, ["bench", "--only", "nosuch"])


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("mazzo ")


def test_the_summary_says_how_the_match_ended() -> None:
    record = json.loads(
        '{"id": "m", "game": "maraffa", "sides": [{"entrant": "a"}, {"entrant": "b"}],'
        ' "result": {"winners": [0], "match_totals": [38, 20], "forfeit": null},'
        ' "moves": [{"seat": 2, "move": {"maraffa": {"claim": {}}}}], "faults": []}'
    )
    assert summary_line(record) == "m: a won; totals [38, 20]; ended with seat 2's claim"


@pytest.mark.parametrize("deals", ["0", "abc"])
def test_a_bad_number_of_deals(capsys: pytest.CaptureFixture[str], deals: str) -> None:
    config = "examples/tournaments/maraffa-duplicate.toml"
    assert "deals" in one_line_error(capsys, ["tournament", config, "--deals", deals])


def test_deals_makes_a_small_run_of_the_same_schedule(tmp_path: Path) -> None:
    records = tmp_path / "small.jsonl"
    config = str(Path(__file__).parents[1] / "examples/tournaments/maraffa-duplicate.toml")
    argv = ["tournament", config, "--deals", "2", "--records", str(records), "--no-progress"]
    assert main(argv) == 0
    matches = [json.loads(line) for line in records.read_text().splitlines()]
    # Two deals, each played twice (duplicate), the ids of the config's first two deals.
    assert sorted(m["id"].rsplit(".", 2)[1] for m in matches) == ["d0", "d0", "d1", "d1"]


@pytest.fixture(scope="module")
def one_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of a short match, to spoil."""
    path = tmp_path_factory.mktemp("verify") / "m.jsonl"
    argv = ["match", "--game", "maraffa", "--bot", "builtin:random", "--bot", "builtin:random"]
    assert main([*argv, "--option", "target=11", "--records", str(path)]) == 0
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def _line(record: dict[str, Any], **changes: Any) -> bytes:
    return json.dumps({**record, **changes}).encode() + b"\n"


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        (lambda r: _line(r, result=None), "result: expected an object, not null"),
        (lambda r: _line(r, tournament="x"), "tournament: expected an object, not text"),
        (lambda r: _line(r, seed=2**100), "seed: expected an integer of 0 to 2^64 - 1"),
        (lambda r: _line(r, moves=[{}]), "moves[0]: no 'seat'"),
        (lambda r: b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested more than 32 deep"),
        (lambda r: _line(r, duration_s=float("nan")), "NaN is not a number of a record"),
        (lambda r: _line(r).replace(b'"started"', b'"\xff"'), "can't decode byte 0xff"),
        (lambda r: b"[1, 2]\n", "not a Mazzo record"),
    ],
    ids=["null", "text", "huge", "missing", "deep", "nan", "not utf-8", "a list"],
)
def test_verify_of_a_file_that_is_not_records(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    one_record: dict[str, Any],
    spoil: Callable[[dict[str, Any]], bytes],
    says: str,
) -> None:
    path = tmp_path / "spoilt.jsonl"
    path.write_bytes(spoil(one_record))
    for command in ("verify", "replay"):  # mazzo replay reads records as verify does
        line = one_line_error(capsys, [command, str(path)])
        assert str(path) in line and says in line
