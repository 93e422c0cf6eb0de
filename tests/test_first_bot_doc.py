"""The tutorial's code is the code in examples/first_bot: what a reader copies from
docs/first-bot.md is what the examples hold (and what their own checks run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "first-bot.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


@pytest.mark.parametrize(
    ("example", "language"),
    [("bot.py", "python"), ("heuristic_bot.py", "python"), ("tournament.toml", "toml")],
)
def test_the_tutorial_shows_the_example_whole(example: str, language: str) -> None:
    blocks = [body for lang, body in BLOCK.findall(DOC.read_text()) if lang == language]
    assert (ROOT / "examples" / "first_bot" / example).read_text() in blocks
