"""docs/rl.md shows each game's observation layout exactly as the code lays it out."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazzo.games.burraco.encoding import LAYOUT as BURRACO
from mazzo.games.maraffa.encoding import LAYOUT as MARAFFA
from mazzo.games.ramino.encoding import LAYOUT as RAMINO
from mazzo.rl.layout import Layout

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.parametrize(
    ("game", "layout"), [("Maraffa", MARAFFA), ("Burraco", BURRACO), ("Ramino", RAMINO)]
)
def test_the_page_shows_the_layout_of_the_code(game: str, layout: Layout) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"### {game}: {layout.size:,} numbers" in text
    assert layout.markdown() in text
