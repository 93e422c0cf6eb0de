"""The fault suite: a bot of every misbehaviour class, as a program and as a gRPC server.

Each is adjudicated within its time plus a stated grace, its match is recorded and
the record replays, and nothing it started outlives the referee. The bounds:

- a fault is adjudicated within the move's allowance (per-move time plus what is left
  of the bank) plus ``GRACE``;
- a whole match takes at most the faulty bot's moves x per-move time, plus the bank,
  plus ``MATCH_GRACE`` (the other side's moves, closing the bots, a busy machine).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import (
    Entrant,
    FaultRules,
    MatchSpec,
    OnFault,
    Pools,
    TimeControl,
    play_match,
)
from mazzo.referee.records import read_records
from mazzo.referee.replay import check_all
from mazzo.v1 import bot_pb2
from tests.referee.conftest import PY_EXAMPLE, ScriptedBot, ServeBot, fault_bot

MOVE, BANK = 0.25, 0.5
#: Per fault, beyond the allowance: a dead bot's last lines (0.2 s) and the event loop.
GRACE = 0.5
#: Per match, beyond the faulty bot's time: the other side, closing bots, a busy machine.
MATCH_GRACE = 4.0
CLOCK = TimeControl(MOVE, BANK)
R = "builtin:random"
#: One Maraffa hand (target 1), four players: the faulty side plays 20 cards.
SPEC = MatchSpec("fault", "maraffa", 4, 4, {"maraffa": {"target": 1}})


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead: it only waits for its parent to read its status.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


async def gone(pids: list[int], within: float = 3.0) -> list[int]:
    """The pids still alive after ``within`` seconds (SIGKILL is not instant)."""
    end = time.monotonic() + within
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return left


async def play_against_random(
    bot: str, spec: MatchSpec = SPEC, **kw: Any
) -> tuple[dict[str, Any], float]:
    pools = Pools()
    start = time.perf_counter()
    try:
        lineup = [Entrant("bad", (bot,)), Entrant("R", (R,))]
        record = await play_match(spec, lineup, LocalEngine(), pools, CLOCK, **kw)
    finally:
        await pools.close()
    return record, time.perf_counter() - start


def check_adjudicated(record: dict[str, Any], wall: float) -> None:
    """Recorded, replayable, every fault within its allowance, the match within its time."""
    assert check_all([record])[2] is None
    for fault in record["faults"]:
        assert fault["ms"] / 1000 <= MOVE + BANK + GRACE, fault
    mine = sum(m["seat"] in (0, 2) for m in record["moves"])
    assert wall <= mine * MOVE + BANK + MATCH_GRACE, (wall, mine)


#: mode, every, the class of the first fault, is the bot stopped for the rest of the match.
EXEC_FAULTS = [
    ("slow", 3, "timeout", False),
    ("late", 1, "timeout", True),
    ("never", 3, "timeout", False),
    ("deaf", 2, "timeout", True),
    ("crash", 3, "crash", True),
    ("signal", 3, "crash", True),
    ("illegal", 3, "illegal", False),
    ("lie", 3, "illegal", False),
    ("garbage", 3, "malformed", False),
    ("junk", 3, "malformed", False),
    ("silent", 3, "malformed", False),
    ("long", 3, "malformed", True),
    ("flood", 3, "malformed", True),
    ("close", 3, "crash", True),
    ("hold", 3, "crash", True),
]


@pytest.mark.parametrize(("mode", "every", "fault", "stopped"), EXEC_FAULTS)
async def test_an_exec_bot_of_each_fault_class_is_adjudicated_in_time(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    every: int,
    fault: str,
    stopped: bool,
) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAULT_BOT_PIDS", str(pids))
    record, wall = await play_against_random(fault_bot(mode, every))
    faults = record["faults"]
    assert faults and faults[0]["class"] == fault, faults
    assert faults[0]["detail"]
    check_adjudicated(record, wall)
    if stopped:
        # A bot that cannot go on is stopped and not asked again: the rest of its
        # moves are the referee's, with no more faults and no more waiting.
        after = [m for m in record["moves"][faults[-1]["ply"] + 1 :] if m["seat"] in (0, 2)]
        assert after and all(m.get("auto") for m in after)
    assert record["result"]["finished"]
    assert not await gone([int(p) for p in pids.read_text().split()])


async def test_a_deaf_bot_is_stopped_when_its_input_is_full_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13, item 3: a bot that stops reading used to block the match for good
    once the pipe filled (the write was outside the move's deadline)."""
    monkeypatch.setenv("FAULT_BOT_PIDS", str(tmp_path / "pids"))
    record, wall = await play_against_random(fault_bot("deaf", 2))
    details = [f["detail"] for f in record["faults"]]
    assert any("did not read its request" in d for d in details), details
    check_adjudicated(record, wall)


async def test_an_answer_line_over_the_limit_does_not_hang_the_referee(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13, item 2: closing a bot that wrote 50 MB on one line used to wait for
    good on a stdout nobody read."""
    monkeypatch.setenv("FAULT_BOT_PIDS", str(tmp_path / "pids"))
    record, wall = await asyncio.wait_for(play_against_random(fault_bot("long", 1)), 60)
    assert [f["class"] for f in record["faults"]] == ["malformed"]
    assert "longer than" in record["faults"][0]["detail"]
    check_adjudicated(record, wall)


async def test_late_answers_cost_the_match_no_more_than_its_time_control(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13, item 3: a bot late on every move used to pace the match well past
    moves x move time + bank, once its requests filled the pipe and our buffer (the
    write was outside the move's deadline). A match of several hands shows it."""
    monkeypatch.setenv("FAULT_BOT_PIDS", str(tmp_path / "pids"))
    longer = MatchSpec("late", "maraffa", 4, 4, {"maraffa": {"target": 31}})
    record, wall = await play_against_random(fault_bot("late", 1), longer)
    assert {f["class"] for f in record["faults"]} == {"timeout"}
    check_adjudicated(record, wall)


async def test_children_in_a_session_of_their_own_die_with_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAULT_BOT_PIDS", str(pids))
    record, _ = await play_against_random(fault_bot("setsid", 1000))
    assert not record["faults"]
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    assert not await gone(started)


# --------------------------------------------------------------------------- gRPC bots


def grpc_fault(mode: str) -> ScriptedBot:
    """A gRPC bot that misbehaves from its third request on."""
    forever = asyncio.Event()

    async def answer(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        calls = bot.calls
        left = request.time_left.ToTimedelta().total_seconds()
        if calls < 3:
            return bot_pb2.ActResponse(index=0)
        if mode == "timeout" and calls == 3:
            await asyncio.sleep(left + 0.2)
        elif mode == "late":
            await asyncio.sleep(left + 0.05)
        elif mode == "never":
            await forever.wait()
        elif mode == "raise" and calls == 3:
            raise RuntimeError("bug in the bot")
        elif mode == "illegal" and calls == 3:
            return bot_pb2.ActResponse(index=len(request.legal_moves) + 3)
        elif mode == "silent" and calls == 3:
            return bot_pb2.ActResponse()
        return bot_pb2.ActResponse(index=0)

    bot = ScriptedBot(answer)
    return bot


@pytest.mark.parametrize(
    ("mode", "fault"),
    [
        ("timeout", "timeout"),
        ("late", "timeout"),
        ("never", "timeout"),
        ("raise", "crash"),
        ("illegal", "illegal"),
        ("silent", "malformed"),
    ],
)
async def test_a_grpc_bot_of_each_fault_class_is_adjudicated_in_time(
    grpc_bot: ServeBot, mode: str, fault: str
) -> None:
    spec = await grpc_bot(grpc_fault(mode))
    record, wall = await play_against_random(spec)
    assert record["faults"] and record["faults"][0]["class"] == fault, record["faults"]
    assert record["faults"][0]["detail"]
    check_adjudicated(record, wall)


class _WrongType(grpc.GenericRpcHandler):
    """Serves ``mazzo.v1.Bot/Act`` with bytes that are no ``ActResponse``."""

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler | None:
        async def act(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
            return b"\xff\xff\xff\xff"  # a field number of 0 with a bad varint

        return grpc.unary_unary_rpc_method_handler(act)


async def test_a_grpc_bot_answering_the_wrong_message_type_is_malformed() -> None:
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((_WrongType(),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        record, wall = await play_against_random(f"grpc://127.0.0.1:{port}")
    finally:
        await server.stop(0)
    faults = record["faults"]
    assert faults and faults[0]["class"] == "malformed" and faults[0]["detail"], faults
    check_adjudicated(record, wall)


async def test_a_grpc_bot_that_dies_mid_match_is_a_crash(grpc_bot: ServeBot) -> None:
    server_box: list[grpc.aio.Server] = []
    #: The bot's own stop, awaited rather than stopped over again: two stops of one
    #: grpc.aio server at once can crash the process (a segfault seen under load).
    stopping: list[asyncio.Future[None]] = []

    async def answer(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        if bot.calls == 3 and not stopping:  # the stop runs once this answer is sent
            stopping.append(asyncio.ensure_future(server_box[0].stop(0)))
        return bot_pb2.ActResponse(index=0)

    bot = ScriptedBot(answer)
    server = grpc.aio.server()
    from mazzo.v1 import bot_pb2_grpc

    bot_pb2_grpc.add_BotServicer_to_server(bot, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    server_box.append(server)
    try:
        record, wall = await play_against_random(f"grpc://127.0.0.1:{port}")
    finally:
        await (stopping[0] if stopping else server.stop(0))
    assert record["faults"] and record["faults"][0]["class"] == "crash", record["faults"]
    check_adjudicated(record, wall)


async def test_the_forfeit_policy_ends_the_match_at_the_first_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAULT_BOT_PIDS", str(tmp_path / "pids"))
    record, wall = await play_against_random(
        fault_bot("deaf", 2), rules=FaultRules(OnFault.FORFEIT)
    )
    assert record["result"]["forfeit"]["entrant"] == "bad"
    check_adjudicated(record, wall)


# --------------------------------------------------------------------------- the command


def mazzo_match(*args: str, **kw: Any) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "mazzo", "match", "--game", "maraffa", "--seed", "4"]
    command += ["--move-time", str(MOVE), "--bank", str(BANK), *args]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw
    )


def test_bot_logs_go_to_a_folder_made_for_them_whatever_the_bot_command(tmp_path: Path) -> None:
    """Issue 13, item 4: a command with a '/' made the log's file name a path, and the
    folder was not created: FileNotFoundError before the first move."""
    logs = tmp_path / "not" / "yet"
    bot = f"exec:{sys.executable} {PY_EXAMPLE} 3"
    done = mazzo_match("--bot", bot, "--bot", R, "--bot-logs", str(logs), "--option", "target=1")
    _out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    [log] = logs.iterdir()
    assert "/" not in log.name and "legal moves" in log.read_text()


def test_sigterm_stops_a_match_and_its_bots(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    env = {**os.environ, "FAULT_BOT_PIDS": str(pids)}
    done = mazzo_match("--bot", fault_bot("never", 1), "--bot", R, env=env)
    end = time.monotonic() + 30
    while not pids.exists() and time.monotonic() < end:
        time.sleep(0.05)
    assert pids.exists(), done.communicate(timeout=5)
    done.send_signal(signal.SIGTERM)
    _out, err = done.communicate(timeout=120)
    assert done.returncode == 130, err
    assert "stopped" in err and "Traceback" not in err
    assert not asyncio.run(gone([int(p) for p in pids.read_text().split()]))


def test_a_crashed_bots_daemon_does_not_outlive_the_match(tmp_path: Path) -> None:
    """A child in a session of its own, left behind by a bot that then crashed: no
    process group or descendant of a live bot reaches it; the referee adopts it."""
    pids = tmp_path / "pids"
    env = {**os.environ, "FAULT_BOT_PIDS": str(pids)}
    bot = fault_bot("setsid", 2) + " crash"
    done = mazzo_match("--bot", bot, "--bot", R, "--option", "target=1", env=env)
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    assert "1 faults" in out and "Traceback" not in err
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    assert not asyncio.run(gone(started))


# --------------------------------------------------------------------------- a tournament


@pytest.mark.slow
async def test_a_tournament_of_every_fault_class_keeps_every_match_within_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One bot of each exec fault class in a gauntlet against builtin:random, under the
    random-move fault policy: every match is recorded, replays, and takes no longer than
    the faulty side's moves x move time + bank + MATCH_GRACE; no bot outlives the run."""
    from mazzo.referee.tournament import Config, run_tournament

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAULT_BOT_PIDS", str(pids))
    entrants = [Entrant("random", (R,))]
    entrants += [Entrant(mode, (fault_bot(mode, every),)) for mode, every, _, _ in EXEC_FAULTS]
    cfg = Config(
        name="faults",
        game="maraffa",
        entrants=tuple(entrants),
        players=4,
        format="gauntlet",
        challengers=("random",),
        deals=1,
        duplicate=False,
        concurrency=4,
        options={"maraffa": {"target": 1}},
        clock=CLOCK,
        faults=FaultRules(OnFault.RANDOM),
    )
    out = await run_tournament(cfg, tmp_path / "r.jsonl", progress=False)
    records = read_records(tmp_path / "r.jsonl")
    assert out.summary["complete"] and len(records) == len(EXEC_FAULTS)
    assert check_all(records)[2] is None
    for record in records:
        faulty = next(i for i, s in enumerate(record["sides"]) if s["entrant"] != "random")
        seats = set(record["sides"][faulty]["seats"])
        mine = sum(m["seat"] in seats for m in record["moves"])
        assert record["faults"], record["sides"][faulty]["entrant"]
        assert record["duration_s"] <= mine * MOVE + BANK + MATCH_GRACE, (
            record["sides"][faulty]["entrant"],
            record["duration_s"],
            mine,
        )
    assert not await gone([int(p) for p in pids.read_text().split()])
