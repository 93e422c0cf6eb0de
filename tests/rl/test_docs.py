"""docs/rl.md shows each game's observation layout exactly as the code lays it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazzo.rl.burraco_encoding import LAYOUT as BURRACO
from mazzo.rl.layout import Layout
from mazzo.rl.maraffa_encoding import LAYOUT as MARAFFA
from mazzo.rl.ramino_encoding import LAYOUT as RAMINO

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.parametrize(
    ("game", "layout"), [("Maraffa", MARAFFA), ("Burraco", BURRACO), ("Ramino", RAMINO)]
)
def test_the_page_shows_the_layout_of_the_code(game: str, layout: Layout) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"### {game}: {layout.size:,} numbers" in text
    assert layout.markdown() in text
