"""docs/arena.md's quick start, run as a user runs it: each command of its block in a
shell, in an empty folder (the arena is its ``arena.db``), ``mazzo arena serve`` in the
background, the Python starter dialing in with the token ``add-bot`` printed; then the
ladder page, in a real headless Chromium, shows the standings of all three bots
(the dial-in one included) within a minute. Screenshots: ``arena-quickstart-*.png``.

What differs from the page, and only that: every port is 0 (a free one, read from
what ``serve`` prints), ``mazzo`` is this checkout's (``python -m mazzo``), and the
starter runs from its sources (``clients/python/run-bot`` needs its own venv)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver

from tests.arena.test_pages_browser import browser, cells, errors  # noqa: F401  (fixture)
from tests.viewer.chromium import shoot

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "arena.md"
ENV = {
    **os.environ,
    "PYTHONPATH": f"{ROOT / 'server'}:{ROOT / 'clients' / 'python' / 'src'}",
    "MAZZO_PURE": "1",
}
ENV.pop("MAZZO_ARENA_DB", None)
#: ``mazzo`` as the shell runs it: this checkout's.
MAZZO = f'mazzo() {{ {shlex.quote(sys.executable)} -m mazzo "$@"; }}\n'


def quick_start() -> list[str]:
    """The commands of the quick start's code block, comments left out."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def shell(command: str, folder: Path) -> str:
    done = subprocess.run(
        ["bash", "-c", MAZZO + command],
        cwd=folder,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout


@pytest.fixture
def quickstart(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[str]]]]:
    """The quick start run in ``tmp_path``: the URL of the arena's HTTP port, and the
    processes left running (the arena, the dial-in starter)."""
    commands = quick_start()
    serving = [c for c in commands if c.startswith("mazzo arena serve")]
    dialing = [c for c in commands if "run-bot --connect" in c]
    assert len(serving) == len(dialing) == 1, commands
    assert commands[-2:] == [*serving, *dialing], "serve, then dial in: last"
    token = ""
    for command in commands[:-2]:
        said = shell(command, tmp_path)
        if " (dial-in); token " in said:
            token = said.rsplit(" ", 1)[1].strip()
    assert token, "no add-bot printed a dial-in bot's token"
    running: list[subprocess.Popen[str]] = []
    try:
        serve = re.sub(r"(--(?:http-|gateway-)?port) \d+", r"\1 0", serving[0])
        assert serve.endswith("&")
        arena = subprocess.Popen(
            [sys.executable, "-m", "mazzo", *shlex.split(serve.rstrip("&"))[1:]],
            cwd=tmp_path,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        running.append(arena)
        assert arena.stdout is not None
        lines = [arena.stdout.readline() for _ in range(3)]  # admin token, API, gateway
        http = re.search(r"HTTP on 127\.0\.0\.1:(\d+)", lines[1])
        gateway = re.search(r"gateway: grpc://(127\.0\.0\.1:\d+)", lines[2])
        assert http and gateway, lines
        dial = dialing[0].replace("127.0.0.1:50062", gateway.group(1))
        dial = dial.replace("TOKEN", token)
        argv = shlex.split(dial)
        assert argv[0] == "clients/python/run-bot", argv
        starter = subprocess.Popen(
            [sys.executable, "-m", "mazzo_starter.bot", *argv[1:]],
            cwd=tmp_path,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        running.append(starter)
        assert starter.stdout is not None
        assert starter.stdout.readline().strip() == "JOINED cy-1"
        yield f"http://127.0.0.1:{http.group(1)}", running
    finally:
        for process in running:
            process.terminate()
        for process in running:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


def test_the_quick_start_ladder_shows_standings_within_a_minute(
    quickstart: tuple[str, list[subprocess.Popen[str]]],
    browser: webdriver.Chrome,  # noqa: F811  (the fixture)
) -> None:
    url, running = quickstart
    started = time.monotonic()
    standings: list[list[str]] = []
    while time.monotonic() - started < 60:
        browser.get(url + "/arena/ladders/1")
        standings = cells(browser, "Standings")
        played = {row[1]: int(row[5]) for row in standings}
        if len(played) == 3 and all(played.values()):
            break
        time.sleep(1)
    assert sorted(row[1] for row in standings) == ["ada-1", "bob-1", "cy-1"]
    assert all(int(row[5]) > 0 for row in standings), standings  # every bot has played
    assert all(p.poll() is None for p in running), "the arena and the starter still run"
    assert len(cells(browser, "Newest matches")) > 0
    shoot(browser, "arena-quickstart")
    assert errors(browser) == []
