"""docs/referee.md shows the example bots exactly as they are tested."""

from __future__ import annotations

import re

from tests.referee.conftest import NODE_EXAMPLE, PY_EXAMPLE, ROOT


def test_the_documented_example_bots_are_the_tested_files() -> None:
    text = (ROOT / "docs" / "referee.md").read_text()
    blocks = re.findall(r"```(?:python|js)\n(.*?)```", text, flags=re.S)
    for path in (PY_EXAMPLE, NODE_EXAMPLE):
        assert path.read_text() in blocks, f"docs/referee.md does not show {path.name} as is"
    assert len(PY_EXAMPLE.read_text().splitlines()) <= 40
