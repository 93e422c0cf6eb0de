"""Replay re-checks records against the rules and finds the first divergence."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mazzo.referee.match import Entrant, FaultRules, MatchSpec, OnFault
from mazzo.referee.records import RecordWriter, read_records
from mazzo.referee.replay import check_all, replay, show_hand
from tests.referee.conftest import fault_bot
from tests.referee.test_match import play

H, R = "builtin:heuristic", "builtin:random"


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    import asyncio

    async def all_kinds() -> list[dict[str, Any]]:
        lineup = [Entrant("H", (H,)), Entrant("R", (R,))]
        out = [await play(MatchSpec(f"p{p}", "maraffa", 7, players=p), lineup) for p in (2, 3, 4)]
        faulty = [Entrant("bad", (fault_bot("illegal", 5),)), Entrant("R", (R,))]
        out.append(await play(MatchSpec("faults", "maraffa", 3), faulty))
        rules = FaultRules(OnFault.FORFEIT)
        out.append(await play(MatchSpec("forfeit", "maraffa", 3), faulty, rules=rules))
        return out

    return asyncio.run(all_kinds())


def test_every_record_replays(records: list[dict[str, Any]]) -> None:
    count, moves, divergence = check_all(records)
    assert divergence is None, str(divergence)
    assert count == 5 and moves == sum(len(r["moves"]) for r in records)


def test_a_changed_move_is_the_first_divergence(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[2])
    ply = next(i for i, m in enumerate(record["moves"]) if i > 10 and "playCard" in str(m))
    played = record["moves"][ply]["move"]["maraffa"]["playCard"]["card"]
    other = "CARD_AS" if played != "CARD_AS" else "CARD_2S"
    record["moves"][ply]["move"]["maraffa"]["playCard"]["card"] = other
    divergence = replay(record).divergence
    assert divergence is not None and divergence.ply == ply
    assert "not a legal move" in divergence.what or "caused" in divergence.what


def test_changed_events_seat_deal_and_end_are_found(records: list[dict[str, Any]]) -> None:
    base = records[2]
    events = copy.deepcopy(base)
    events["moves"][5]["events"][0]["maraffa"]["cardPlayed"]["seat"] = 9
    assert replay(events).divergence.ply == 5  # type: ignore[union-attr]
    seat = copy.deepcopy(base)
    seat["moves"][3]["seat"] = (seat["moves"][3]["seat"] + 1) % 4
    assert "seat" in replay(seat).divergence.what  # type: ignore[union-attr]
    deal = copy.deepcopy(base)
    deal["seed"] += 1
    found = replay(deal).divergence
    assert found is not None and found.ply is None and "deal hash" in found.what
    short = copy.deepcopy(base)
    del short["moves"][-1]
    found = replay(short).divergence
    assert found is not None and found.ply == -1


def test_a_hand_is_printed_with_its_cards_and_moves(records: list[dict[str, Any]]) -> None:
    done = replay(records[2])
    assert done.divergence is None and len(done.hands) >= 2
    text = show_hand(done, 2)
    lines = text.splitlines()
    assert lines[0].startswith("p4 hand 2")
    assert sum(line.startswith("  seat ") for line in lines) == 4
    cards = " ".join(line.split(":", 1)[1] for line in lines if line.startswith("  seat "))
    assert len(cards.split()) == 40
    assert any("trump" in line for line in lines)
    with pytest.raises(ValueError):
        show_hand(done, len(done.hands) + 1)


def test_mazzo_replay_command(records: list[dict[str, Any]], tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    with RecordWriter(good) as out:
        for record in records:
            out.write(record)
    assert read_records(good) == json.loads(json.dumps(records))
    run = [sys.executable, "-m", "mazzo", "replay"]
    done = subprocess.run([*run, str(good)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "5 records" in done.stdout
    hand = subprocess.run(
        [*run, str(good), "--id", "p3", "--hand", "1"], capture_output=True, text=True, timeout=60
    )
    assert hand.returncode == 0 and "p3 hand 1" in hand.stdout
    bad = tmp_path / "bad.jsonl"
    broken = copy.deepcopy(records[0])
    broken["moves"][4]["seat"] = 7
    bad.write_text(json.dumps(records[1]) + "\n" + json.dumps(broken) + "\n")
    done = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "p2 at ply 4" in done.stdout


def test_a_torn_last_line_is_skipped_and_repaired(tmp_path: Path) -> None:
    from mazzo.referee.records import repair

    path = tmp_path / "r.jsonl"
    path.write_text('{"mazzo_record": 1, "id": "a"}\n{"mazzo_rec')
    assert [r["id"] for r in read_records(path)] == ["a"]
    repair(path)
    assert path.read_text() == '{"mazzo_record": 1, "id": "a"}\n'
    path.write_text('{"mazzo_rec\n{"mazzo_record": 1, "id": "a"}\n')
    with pytest.raises(ValueError):
        read_records(path)
