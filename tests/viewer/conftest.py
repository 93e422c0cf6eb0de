"""Short matches of every game and form, played once per test process by builtin bots
in-process, for the viewer's tests."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mazzo.referee.match import MatchSpec, options_json, run_match

H, R = "builtin:heuristic", "builtin:random"
#: (id, game, players, options, bot): every form, kept short (low targets, one hand).
FORMS = [
    ("maraffa-2", "maraffa", 2, ["target=11"], R),
    ("maraffa-3", "maraffa", 3, ["target=11"], R),
    ("maraffa-4", "maraffa", 4, ["target=11"], R),
    ("maraffa-5", "maraffa", 5, ["match_deals=1"], R),
    ("burraco-2", "burraco", 2, ["hands=1"], H),
    ("burraco-3", "burraco", 3, ["hands=1"], H),
    ("burraco-4", "burraco", 4, ["hands=1"], H),
    ("ramino-2", "ramino", 2, ["match_hands=2"], H),
    ("ramino-3", "ramino", 3, ["match_hands=1"], H),
    ("ramino-4", "ramino", 4, ["match_hands=1"], H),
    ("ramino-5", "ramino", 5, ["match_hands=1"], H),
    ("ramino-6", "ramino", 6, ["match_hands=1"], H),
    ("briscola-2", "briscola", 2, [], H),
    ("briscola-3", "briscola", 3, ["removed_two=CARD_2H"], R),
    ("briscola-4", "briscola", 4, ["partners_show_hands=true"], H),
]


async def _play_all() -> list[dict[str, Any]]:
    records = []
    for rid, game, players, options, bot in FORMS:
        spec = MatchSpec(rid, game, 5, players, options_json(game, options))
        records.append(await run_match(spec, [bot] * players))
    return records


@pytest.fixture(scope="session")
def records() -> list[dict[str, Any]]:
    return asyncio.run(_play_all())


@pytest.fixture(scope="session")
def records_file(records: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("viewer") / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def view_server(records_file: Path) -> Iterator[str]:
    """``mazzo view`` on port 0: the URL it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "mazzo.cli", "view", str(records_file), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        yield url
    finally:
        process.terminate()
        process.wait(10)
