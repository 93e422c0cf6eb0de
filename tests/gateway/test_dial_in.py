"""Matches with dial-in seats: the starter dialing in through ``mazzo match``, a drop and
a reconnect within the grace, an answer sent twice, a bot that never comes back, an
answer for the wrong decision."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mazzo.gateway.server import Limits
from mazzo.referee.bots import BotSpec
from mazzo.referee.match import MatchSpec, TimeControl, options_json, run_match
from mazzo.referee.verify import verify
from mazzo.v1 import tables_pb2
from tests.gateway.conftest import Client, Rig, safe_index

ROOT = Path(__file__).resolve().parents[2]
SHORT = options_json("maraffa", ["target=11"])


def spec(name: str) -> MatchSpec:
    return MatchSpec(id=name, game="maraffa", seed=3, options=SHORT)


async def play_with(rig: Rig, bot: Any, **match: Any) -> dict[str, Any]:
    """A match of ``connect:alice`` (one side) against ``builtin:random``, alice played
    by ``bot(client)``; the record."""
    await rig.start()
    client = rig.client()
    await client.join(rig.tokens["alice"])
    player = asyncio.create_task(bot(client))
    record = await run_match(
        spec(match.pop("id", "dial")),
        ["connect:alice", "builtin:random"],
        gateway=rig.gateway,
        dial_in_wait=5,
        **match,
    )
    await rig.gateway.stop(0.5)
    await asyncio.wait_for(player, 5)
    return record


async def answer_all(client: Client) -> None:
    while (decision := await client.next_decision()) is not None:
        await client.answer(decision.sequence, safe_index(decision.request), decision.match_id)


def test_connect_spec() -> None:
    bot = BotSpec.parse("connect:alice")
    assert (bot.kind, bot.target) == ("connect", "alice")
    with pytest.raises(ValueError, match="bot name"):
        BotSpec.parse("connect:no/slash")
    with pytest.raises(ValueError, match="--gateway"):
        bot.transport()


async def test_a_match_of_a_dial_in_bot_is_recorded_and_legal(rig: type[Rig]) -> None:
    record = await play_with(rig(), answer_all)
    assert record["result"]["finished"] and record["faults"] == []
    assert record["seat_bots"][0] == "connect:alice"
    assert verify([record]).code == 0


@pytest.mark.parametrize(
    ("drop", "clock"),
    [(0.3, TimeControl()), (0.8, TimeControl(move=0.2, bank=0.2))],
    ids=["within-the-move", "past-the-whole-clock"],
)
async def test_a_drop_within_the_grace_resumes_with_the_same_sequence(
    rig: type[Rig], drop: float, clock: TimeControl
) -> None:
    """Also when the drop outlasts the bot's whole clock: a drop within the grace never
    loses a decision on time; the time away comes out of the bank."""
    r = rig(Limits(grace=3.0))
    seen: list[tuple[int, int]] = []  # (sequence, connection number)

    async def drop_once(client: Client) -> None:
        decision = await client.next_decision()
        assert decision is not None
        seen.append((decision.sequence, 1))
        await client.close()  # dropped mid-decision, unanswered
        await asyncio.sleep(drop)
        again = r.client()
        await again.join(r.tokens["alice"])
        decision = await again.next_decision()
        assert decision is not None
        seen.append((decision.sequence, 2))
        await again.answer(decision.sequence, safe_index(decision.request))
        await answer_all(again)

    record = await play_with(r, drop_once, clock=clock)
    assert seen[0][0] == seen[1][0], "the pending decision came again with its number"
    assert record["result"]["finished"] and record["faults"] == []
    assert record["time_used_ms"]["0"] >= drop * 1000
    assert verify([record]).code == 0


async def test_an_answer_sent_twice_is_applied_once(rig: type[Rig]) -> None:
    r = rig()
    decisions = 0
    refusals: list[Any] = []

    async def twice(client: Client) -> None:
        nonlocal decisions
        while True:
            message = await client.call.read()
            if not hasattr(message, "WhichOneof"):
                return
            if message.WhichOneof("kind") == "refusal":
                refusals.append(message.refusal)
            elif message.WhichOneof("kind") == "decision":
                decisions += 1
                d = message.decision
                await client.answer(d.sequence, safe_index(d.request))
                await client.answer(d.sequence, safe_index(d.request))

    record = await play_with(r, twice)
    alice = [m for m in record["moves"] if m["seat"] in (0, 2)]
    assert record["faults"] == [] and len(alice) == decisions
    assert r.gateway.seats["alice"].duplicates == decisions
    assert refusals and not any(f.fault for f in refusals)


async def test_a_bot_that_does_not_come_back_is_adjudicated(rig: type[Rig]) -> None:
    r = rig(Limits(grace=0.3))

    async def vanish(client: Client) -> None:
        await client.next_decision()
        await client.close()

    record = await play_with(r, vanish)
    [fault] = record["faults"]
    assert fault["class"] == "crash" and "grace" in fault["detail"]
    assert record["result"]["finished"]
    assert all(m.get("auto") for m in record["moves"][fault["ply"] + 1 :] if m["seat"] in (0, 2))


async def test_an_answer_for_another_decision_is_a_fault_not_a_crash(rig: type[Rig]) -> None:
    r = rig()
    refusals: list[Any] = []

    async def wrong_once(client: Client) -> None:
        first = True
        while True:
            message = await client.call.read()
            if not hasattr(message, "WhichOneof"):
                return
            kind = message.WhichOneof("kind")
            if kind == "refusal":
                refusals.append(message.refusal)
            elif kind == "decision":
                d = message.decision
                if first:  # a sequence never sent, then one for another match
                    first = False
                    await client.answer(d.sequence + 1000, 0)
                    continue
                if len(refusals) == 1 and d.sequence > 1:
                    await client.answer(d.sequence, 0, match_id="another")
                    refusals.append(None)
                    continue
                await client.answer(d.sequence, safe_index(d.request))

    record = await play_with(r, wrong_once)
    classes = [f["class"] for f in record["faults"]]
    assert classes == ["illegal", "illegal"], record["faults"]
    assert "never sent" in record["faults"][0]["detail"]
    assert "another" in record["faults"][1]["detail"]
    real = [f for f in refusals if f is not None]
    assert real[0].fault and real[0].field_violations[0].field == "answer.sequence"
    assert record["result"]["finished"] and verify([record]).code == 0


async def test_a_run_names_the_bot_that_did_not_dial_in(rig: type[Rig]) -> None:
    r = rig()
    await r.start()
    with pytest.raises(ValueError, match="connect:bob"):
        await run_match(
            spec("absent"), ["connect:bob", "builtin:random"], gateway=r.gateway, dial_in_wait=0.2
        )


def _mazzo(*args: str, **kw: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server"), "MAZZO_PURE": "1"}
    return subprocess.Popen([sys.executable, "-m", "mazzo", *args], text=True, env=env, **kw)


def test_mazzo_match_with_two_starters_dialing_in(tmp_path: Path) -> None:
    """The command line whole: tokens, a gateway on a free port, two Python starters
    that bind no port, and a record that verifies."""
    tokens = tmp_path / "tokens.json"
    made = {}
    for name in ("alice", "bob"):
        out = _mazzo("token", "new", name, "--tokens", str(tokens), stdout=subprocess.PIPE)
        made[name] = out.communicate(timeout=30)[0].strip()
    assert tokens.stat().st_mode & 0o777 == 0o600
    assert made["alice"] not in tokens.read_text()
    records = tmp_path / "r.jsonl"
    match = _mazzo(
        "match", "--game", "maraffa", "--option", "target=11",
        "--bot", "connect:alice", "--bot", "builtin:random",
        "--bot", "connect:bob", "--bot", "builtin:heuristic",
        "--gateway", "0", "--tokens", str(tokens), "--records", str(records),
        "--dial-in-wait", "20",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert match.stdout is not None
    line = match.stdout.readline()
    assert line.startswith("gateway: grpc://"), line
    address = line.split("grpc://")[1].strip()
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT / 'server'}:{ROOT / 'clients' / 'python' / 'src'}",
    }
    starters = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mazzo_starter.bot",
                "--connect",
                address,
                "--token",
                made[name],
                "--seed",
                "1",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alice", "bob")
    ]
    try:
        out, err = match.communicate(timeout=60)
        assert match.returncode == 0, err
        for starter in starters:  # the gateway's end ends them
            said, why = starter.communicate(timeout=10)
            assert starter.returncode == 0 and said.startswith("JOINED "), why
    finally:
        for p in (match, *starters):
            if p.poll() is None:
                p.kill()
    [record] = [json.loads(x) for x in records.read_text().splitlines()]
    assert record["faults"] == [] and record["result"]["finished"]
    check = _mazzo("verify", str(records), stdout=subprocess.PIPE)
    assert check.communicate(timeout=30)[0] and check.returncode == 0


def test_the_command_line_says_what_a_dial_in_seat_lacks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from mazzo.cli import main

    seats = ["match", "--game", "maraffa", "--bot", "connect:carol", "--bot", "builtin:random"]
    assert main(seats) == 2
    assert "need a gateway: give --gateway PORT" in capsys.readouterr().err
    tokens = str(tmp_path / "none.json")
    assert main([*seats, "--gateway", "0", "--tokens", tokens]) == 2
    assert "connect:carol has no token" in capsys.readouterr().err
    assert main([*seats, "--tokens", tokens]) == 2
    assert "are for --gateway" in capsys.readouterr().err


async def test_a_bot_told_its_match_ended_finds_the_record_kept(
    rig: type[Rig], tmp_path: Path
) -> None:
    """``MatchEnded`` is sent once the record is kept: in a tournament's records file,
    and by ``mazzo match``'s ``on_record``; a referee killed after telling a bot cannot
    lose the match it told of."""
    from mazzo.referee.match import Entrant
    from mazzo.referee.records import read_records
    from mazzo.referee.tournament import Config, run_tournament

    r = rig()
    await r.start()
    client = r.client()
    await client.join(r.tokens["alice"])
    path, kept = tmp_path / "t.jsonl", []
    told: dict[str, bool] = {}  # each match the bot was told of: its record kept then

    async def alice() -> None:
        while isinstance(message := await client.call.read(), tables_pb2.TableMessage):
            if message.WhichOneof("kind") == "decision":
                decision = message.decision
                index = safe_index(decision.request)
                await client.answer(decision.sequence, index, decision.match_id)
            elif message.WhichOneof("kind") == "match_ended":
                ended = message.match_ended
                in_file = ended.record_id in {rec["id"] for rec in read_records(path)}
                told[ended.match_id] = in_file or ended.record_id in kept

    player = asyncio.create_task(alice())
    entrants = (Entrant("alice", ("connect:alice",)), Entrant("rnd", ("builtin:random",)))
    config = Config(name="kept", game="briscola", entrants=entrants, deals=1)
    outcome = await run_tournament(config, path, progress=False, gateway=r.gateway)
    record = await run_match(
        MatchSpec(id="one", game="briscola", seed=2),
        ["connect:alice", "builtin:random"],
        gateway=r.gateway,
        on_record=lambda rec: kept.append(rec["id"]),
    )
    await r.gateway.stop(0.5)
    await asyncio.wait_for(player, 5)
    assert outcome.summary["matches"] == 2 and kept == [record["id"]]
    assert told == {**{rec["id"]: True for rec in read_records(path)}, "one": True}
