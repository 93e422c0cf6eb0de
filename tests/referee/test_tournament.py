"""Tournaments: every game, faults of every class, duplicate pairing, resume, SPRT."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mazzo.games.registry import GAMES
from mazzo.referee.match import Entrant, FaultRules, OnFault, TimeControl, table_of
from mazzo.referee.records import read_records
from mazzo.referee.replay import check_all, replay
from mazzo.referee.sprt import Sprt
from mazzo.referee.tournament import Config, Outcome, render, run_tournament
from mazzo.v1 import game_pb2
from tests.referee.conftest import NODE_EXAMPLE, fault_bot

H, R = "builtin:heuristic", "builtin:random"


def config(**kw: Any) -> Config:
    base: dict[str, Any] = {
        "name": "t",
        "game": "maraffa",
        "entrants": (Entrant("heuristic", (H,)), Entrant("random", (R,))),
        "deals": 3,
        "options": {"maraffa": {"target": 21}},
    }
    base.update(kw)
    return Config(**base)


async def run(cfg: Config, path: Path, **kw: Any) -> Outcome:
    return await run_tournament(cfg, path, progress=False, **kw)


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without what the clock decides."""
    return {k: v for k, v in summary.items() if k not in ("seconds", "bots_started")}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_tournament_of_builtin_bots_for_every_game(game: str, tmp_path: Path) -> None:
    rules = GAMES[game].rules
    sides, _ = table_of(game, rules.default_players, game_pb2.GameOptions())
    entrants = (Entrant("h1", (H,)), Entrant("h2", (H,)), Entrant("r1", (R,)))
    entrants += tuple(Entrant(f"r{i}", (R,)) for i in range(2, len(sides)))
    short = {"maraffa": {"target": 21}, "burraco": {"hands": 1}, "ramino": {"match_hands": 1}}
    options = {game: short[game]} if game in short else {}
    cfg = config(game=game, options=options, entrants=entrants, deals=2, concurrency=3)
    cfg = dataclasses.replace(cfg, players=rules.default_players)
    out = await run(cfg, tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert out.summary["complete"] and len(records) == out.summary["scheduled"] > 0
    assert check_all(records)[2] is None
    table = {row["name"]: row for row in out.summary["standings"]}
    assert sum(row["matches"] for row in table.values()) == len(records) * len(sides)
    assert sum(row["wins"] for row in table.values()) == pytest.approx(len(records))
    assert "entrant" in render(out.summary)


async def test_duplicate_deals_swap_the_sides_and_pair_the_results(tmp_path: Path) -> None:
    out = await run(config(deals=4), tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert len(records) == 8
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for record in records:
        by_deal.setdefault(record["tournament"]["deal"], []).append(record)
    for pair in by_deal.values():
        a, b = sorted(pair, key=lambda r: r["tournament"]["orientation"])
        # The same deal, card for card ...
        assert a["seed"] == b["seed"] and a["deal_hash"] == b["deal_hash"]
        hands_a, hands_b = replay(a).hands[0][1].hands, replay(b).hands[0][1].hands
        assert hands_a == hands_b
        # ... with the sides swapped: whoever held side 0's cards now holds side 1's.
        assert [s["entrant"] for s in a["sides"]] == [s["entrant"] for s in b["sides"]][::-1]
        assert [s["seats"] for s in a["sides"]] == [s["seats"] for s in b["sides"]]
    dup = out.summary["pairings"][0]["duplicate"]
    assert dup["deals"] == 4
    total = dup["won_every_rotation"] + dup["split"] + dup["lost_every_rotation"]
    assert total == 4
    assert dup["of"] == "heuristic" and dup["points_difference"] > 0


async def test_seat_rotation_without_duplicates(tmp_path: Path) -> None:
    await run(config(deals=4, duplicate=False), tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert len(records) == 4
    firsts = [r["sides"][0]["entrant"] for r in records]
    assert firsts == ["heuristic", "random", "heuristic", "random"]


async def test_resume_after_an_interrupt_gives_the_same_table(tmp_path: Path) -> None:
    cfg = config(deals=4, concurrency=2)
    whole = await run(cfg, tmp_path / "whole.jsonl")
    part = tmp_path / "part.jsonl"
    first = await run(cfg, part, stop_after=3)
    assert first.interrupted and 3 <= len(read_records(part)) < 8
    with pytest.raises(ValueError, match="--resume"):
        await run(cfg, part)
    resumed = await run(cfg, part, resume=True)
    assert not resumed.interrupted
    assert stable(resumed.summary) == stable(whole.summary)
    assert sorted(r["id"] for r in read_records(part)) == sorted(
        r["id"] for r in read_records(tmp_path / "whole.jsonl")
    )


async def test_through_a_game_service_the_table_is_the_same(tmp_path: Path) -> None:
    from mazzo.service.server import start_server, stop_server

    server, port = await start_server("127.0.0.1", 0)
    try:
        remote = await run(config(service=f"127.0.0.1:{port}"), tmp_path / "remote.jsonl")
    finally:
        await stop_server(server, grace=0.5, quiet=0)
    local = await run(config(), tmp_path / "local.jsonl")
    assert stable(remote.summary) == stable(local.summary)
    assert remote.summary["matches"] == 6


async def test_gauntlet_plays_only_the_challengers_games(tmp_path: Path) -> None:
    entrants = (Entrant("h", (H,)), Entrant("r1", (R,)), Entrant("r2", (R,)))
    cfg = config(entrants=entrants, format="gauntlet", challengers=("h",), deals=1)
    out = await run(cfg, tmp_path / "r.jsonl")
    pairs = [p["entrants"] for p in out.summary["pairings"]]
    assert pairs == [["h", "r1"], ["h", "r2"]]


def _fault_entrants() -> tuple[Entrant, ...]:
    return (
        Entrant("slow", (fault_bot("slow", 25),)),
        Entrant("crashing", (fault_bot("crash", 9),)),
        Entrant("lying", (fault_bot("lie", 5),)),
        Entrant("garbage", (fault_bot("garbage", 6),)),
        Entrant("illegal", (fault_bot("illegal", 8),)),
        Entrant("random", (R,)),
    )


@pytest.mark.slow
@pytest.mark.parametrize("policy", [OnFault.RANDOM, OnFault.FORFEIT])
async def test_every_fault_class_is_adjudicated_and_nothing_is_lost(
    policy: OnFault, tmp_path: Path
) -> None:
    cfg = config(
        entrants=_fault_entrants(),
        format="gauntlet",
        challengers=("random",),
        deals=1,
        concurrency=3,
        options={"maraffa": {"target": 11}},
        # Generous enough that answers meant to be in time are, on a busy machine.
        clock=TimeControl(move=0.5, bank=0.5),
        faults=FaultRules(policy, disqualify_after=0),
    )
    out = await run(cfg, tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert out.summary["complete"] and len(records) == out.summary["scheduled"] == 10
    assert check_all(records)[2] is None  # every record replays
    classes: dict[str, set[str]] = {}
    for record in records:
        for fault in record["faults"]:
            classes.setdefault(fault["entrant"], set()).add(fault["class"])
    assert classes == {
        "slow": {"timeout"},
        "crashing": {"crash"},
        "lying": {"illegal"},
        "garbage": {"malformed"},
        "illegal": {"illegal"},
    }
    forfeits = [r["result"]["forfeit"] for r in records if r["result"]["forfeit"]]
    if policy is OnFault.FORFEIT:
        assert {f["entrant"] for f in forfeits} == set(classes)
        assert all(r["result"]["winners"] for r in records)
        table = {row["name"]: row for row in out.summary["standings"]}
        assert table["random"]["wins"] == 10
    else:
        assert forfeits == []
        assert all(r["result"]["finished"] for r in records)
    # The crashing bot was started again for its second match.
    assert out.summary["bots_started"]["crashing.0"] >= 2


async def test_disqualification_forfeits_the_rest(tmp_path: Path) -> None:
    entrants = (Entrant("illegal", (fault_bot("illegal", 2),)), Entrant("random", (R,)))
    cfg = config(entrants=entrants, deals=3, faults=FaultRules(disqualify_after=3))
    out = await run(cfg, tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert len(records) == 6 and out.summary["disqualified"] == ["illegal"]
    assert records[0]["result"]["forfeit"]["reason"].startswith("disqualified after 3")
    assert all(r["moves"] == [] for r in records[1:])
    assert check_all(records)[2] is None


async def test_sprt_stops_as_soon_as_it_decides(tmp_path: Path) -> None:
    cfg = config(deals=200)
    out = await run(cfg, tmp_path / "r.jsonl", sprt=Sprt(0, 50, 0.05, 0.05))
    assert out.sprt == "H1" and not out.interrupted
    sprt = out.summary["sprt"]
    assert sprt["llr"] >= sprt["bounds"][1]
    # Decided long before the 400 scheduled matches; the last pair tipped it.
    assert out.summary["matches"] < 40
    assert "SPRT" in render(out.summary)


def test_sprt_accepts_the_null_for_equal_players() -> None:
    test = Sprt(0, 20, 0.05, 0.05)
    draws_and_splits = [0.5, 0.0, 1.0, 0.5] * 400
    assert test.decide(draws_and_splits) == "H0"
    assert test.decide([1.0, 0.0]) is None
    with pytest.raises(ValueError):
        Sprt(10, 0, 0.05, 0.05)


def test_config_loads_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "x"\ngame = "maraffa"\ndeals = 2\nrecords = "out.jsonl"\n'
        "[options]\ntarget = 21\nfractions = 'MARAFFA_FRACTIONS_KEEP_THIRDS'\n"
        "[time]\nmove = 0.5\n[faults]\non_fault = 'forfeit'\ndisqualify_after = 4\n"
        '[[entrants]]\nname = "a"\nbot = "builtin:random"\n'
        '[[entrants]]\nname = "b"\nbots = ["builtin:random", "builtin:heuristic"]\n'
    )
    cfg = Config.load(path)
    assert cfg.options == {"maraffa": {"target": 21, "fractions": "MARAFFA_FRACTIONS_KEEP_THIRDS"}}
    assert cfg.clock == TimeControl(0.5, 10.0) and cfg.faults == FaultRules(OnFault.FORFEIT, 4)
    assert cfg.entrants[1].bots == (R, H) and cfg.records == tmp_path / "out.jsonl"
    assert len(cfg.jobs()) == 4
    path.write_text('game = "maraffa"\nrounds = 3\n')
    with pytest.raises(ValueError, match="rounds"):
        Config.load(path)
    path.write_text('deals = 3\n[[entrants]]\nname = "a"\nbot = "builtin:random"\n')
    with pytest.raises(ValueError, match="game"):
        Config.load(path)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
async def test_a_node_bot_plays_a_full_match(tmp_path: Path) -> None:
    node = Entrant("node", (f"exec:node {NODE_EXAMPLE}",))
    cfg = config(entrants=(node, Entrant("random", (R,))), deals=1, options={})
    out = await run(cfg, tmp_path / "r.jsonl")
    records = read_records(tmp_path / "r.jsonl")
    assert len(records) == 2 and all(r["result"]["finished"] for r in records)
    assert all(not r["faults"] for r in records)
    node_moves = [
        m
        for r in records
        for m in r["moves"]
        if r["seat_bots"][m["seat"]] == node.bots[0] and "playCard" in m["move"]["maraffa"]
    ]
    assert len(node_moves) > 20
    assert out.summary["bots_started"] == {"node.0": 1, "random.0": 1}


TOML = """name = "cli"
game = "maraffa"
deals = {deals}
concurrency = 2
records = "r.jsonl"
[options]
target = 21
[[entrants]]
name = "heuristic"
bot = "builtin:heuristic"
[[entrants]]
name = "low-card"
bot = "exec:node {bot}"
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_ctrl_c_stops_cleanly_and_resume_finishes_the_same(tmp_path: Path) -> None:
    """Through the command and a real SIGINT. The bots are deterministic (the Node bot
    plays its lowest card), as the same table after a resume requires."""

    def write(folder: Path, deals: int) -> Path:
        folder.mkdir()
        path = folder / "t.toml"
        path.write_text(TOML.format(deals=deals, bot=NODE_EXAMPLE))
        return path

    command = [sys.executable, "-m", "mazzo", "tournament", "--no-progress"]
    whole = write(tmp_path / "whole", 12)
    done = subprocess.run([*command, str(whole)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    part = write(tmp_path / "part", 12)
    proc = subprocess.Popen([*command, str(part)], stdout=subprocess.PIPE, text=True)
    records = part.parent / "r.jsonl"
    deadline = time.monotonic() + 120
    # finished lines: a record being written may be read half now and half at the next read
    while (not records.exists() or records.read_bytes().count(b"\n") < 5) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "entrant" in out
    cut = len(read_records(records))
    assert 5 <= cut < 24
    resumed = subprocess.run(
        [*command, str(part), "--resume"], capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    summaries = [json.loads((f.parent / "r.jsonl.summary.json").read_text()) for f in (whole, part)]
    assert stable(summaries[0]) == stable(summaries[1])
    assert len(read_records(records)) == 24


def test_mazzo_tournament_command_with_sprt(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "sprt"\ngame = "maraffa"\ndeals = 100\nrecords = "r.jsonl"\n'
        '[[entrants]]\nname = "h"\nbot = "builtin:heuristic"\n'
        '[[entrants]]\nname = "r"\nbot = "builtin:random"\n'
    )
    command = [sys.executable, "-m", "mazzo", "tournament", str(path), "--no-progress"]
    done = subprocess.run(
        [*command, "--sprt", "0", "50", "0.05", "0.05"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "r.jsonl.summary.json").read_text())
    assert summary["sprt"]["decision"] == "H1" and summary["matches"] < 200
    assert "SPRT [0.0, 50.0] for h" in done.stdout
    again = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "--resume" in again.stderr
