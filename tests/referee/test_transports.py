"""Each transport answers through the Bot.Act contract, and reports each fault by its class."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from mazzo.referee.bots import BotPool, BotSpec
from mazzo.referee.transports import ExecBot, Fault, GrpcBot, InProcessBot
from mazzo.v1 import bot_pb2
from tests.referee.conftest import (
    FAULT_BOT,
    NODE_EXAMPLE,
    PY_EXAMPLE,
    ScriptedBot,
    ServeBot,
    fault_bot,
    first_request,
)


def test_specs_parse_and_bad_specs_are_refused() -> None:
    assert BotSpec.parse("grpc://127.0.0.1:5000").target == "127.0.0.1:5000"
    assert BotSpec.parse("exec:node bot.js").target == "node bot.js"
    assert BotSpec.parse("builtin:heuristic").kind == "builtin"
    for bad in ("grpc://nohost", "exec:", "builtin:genius", "bot.js"):
        with pytest.raises(ValueError):
            BotSpec.parse(bad)


async def test_exec_bot_answers_a_request_per_line() -> None:
    request = await first_request()
    bot = ExecBot(BotSpec.parse(fault_bot("crash", 1000)).target)
    await bot.start()
    try:
        for _ in range(3):
            reply = await bot.act(request, 10.0)
            assert reply.fault is None, reply.detail
            assert reply.response == bot_pb2.ActResponse(index=0)
            assert 0 < reply.elapsed < 10.0
    finally:
        await bot.close()
    assert not bot.alive


@pytest.mark.parametrize(
    ("mode", "fault"),
    [
        ("crash", Fault.CRASH),
        ("garbage", Fault.MALFORMED),
        ("junk", Fault.MALFORMED),
        ("silent", Fault.MALFORMED),
    ],
)
async def test_exec_bot_faults_have_their_class(mode: str, fault: Fault) -> None:
    request = await first_request()
    bot = ExecBot(BotSpec.parse(fault_bot(mode, 2)).target)
    await bot.start()
    try:
        assert (await bot.act(request, 10.0)).fault is None
        reply = await bot.act(request, 10.0)
        assert reply.fault is fault, reply
        assert reply.response is None and reply.detail
    finally:
        await bot.close()


async def test_exec_bot_timeout_then_the_late_answer_is_skipped() -> None:
    request = await first_request()
    request.time_left.FromMilliseconds(200)
    bot = ExecBot(BotSpec.parse(fault_bot("slow", 2)).target)
    await bot.start()
    try:
        # The bot sleeps past the request's time_left (0.2 s); the referee's own limit
        # is generous where the bot is meant to answer in time (machines may be busy).
        assert (await bot.act(request, 10.0)).fault is None
        slow = await bot.act(request, 0.2)
        assert slow.fault is Fault.TIMEOUT and slow.elapsed >= 0.2
        # The third request's answer comes after the late second one: it is the third's.
        third = await bot.act(request, 10.0)
        assert third.fault is None and third.response == bot_pb2.ActResponse(index=0)
        assert bot.alive
    finally:
        await bot.close()


async def test_exec_bot_that_cannot_start_is_a_crash() -> None:
    request = await first_request()
    bot = ExecBot(f"python3 -c 'import sys; sys.exit(5)' {FAULT_BOT}")
    await bot.start()
    try:
        reply = await bot.act(request, 2.0)
        assert reply.fault is Fault.CRASH and "5" in reply.detail
        assert not bot.alive
    finally:
        await bot.close()


async def test_a_program_that_does_not_exist_is_a_crash(tmp_path: Path) -> None:
    request = await first_request()
    bot = ExecBot(str(tmp_path / "no-such-bot"))
    await bot.start()
    try:
        reply = await bot.act(request, 2.0)
        assert reply.fault is Fault.CRASH and "cannot start" in reply.detail
        assert not bot.alive
    finally:
        await bot.close()


async def test_example_bots_answer_in_range() -> None:
    request = await first_request()
    commands = [f"python3 {PY_EXAMPLE} 7"]
    if shutil.which("node"):
        commands.append(f"node {NODE_EXAMPLE}")
    for command in commands:
        bot = ExecBot(command)
        await bot.start()
        try:
            reply = await bot.act(request, 10.0)
            assert reply.fault is None, (command, reply)
            assert reply.response is not None
            assert reply.response.index < len(request.legal_moves)
        finally:
            await bot.close()


async def test_pool_restarts_a_crashed_bot_for_the_next_match() -> None:
    request = await first_request()
    pool = BotPool(BotSpec.parse(fault_bot("crash", 1)))
    try:
        first = await pool.acquire(1)
        assert isinstance(first, ExecBot)
        assert (await first.act(request, 10.0)).fault is Fault.CRASH
        await pool.release(first)
        second = await pool.acquire(2)
        assert second is not first and second.alive and pool.started == 2
        await pool.release(second)
        assert await pool.acquire(3) is second  # a healthy bot is reused
    finally:
        await pool.close()


async def test_grpc_bot_answer_timeout_and_crash(grpc_bot: ServeBot) -> None:
    request = await first_request()

    async def slow(r: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        await asyncio.sleep(1.0)
        return bot_pb2.ActResponse(index=1)

    def broken(r: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        raise RuntimeError("bug in the bot")

    good = GrpcBot((await grpc_bot(ScriptedBot(lambda r: bot_pb2.ActResponse(index=2))))[7:])
    late = GrpcBot((await grpc_bot(ScriptedBot(slow)))[7:])
    bad = GrpcBot((await grpc_bot(ScriptedBot(broken)))[7:])
    for bot in (good, late, bad):
        await bot.start()
    try:
        reply = await good.act(request, 5.0)
        assert reply.fault is None and reply.response == bot_pb2.ActResponse(index=2)
        reply = await late.act(request, 0.1)
        assert reply.fault is Fault.TIMEOUT and late.alive
        reply = await bad.act(request, 5.0)
        assert reply.fault is Fault.CRASH and not bad.alive
    finally:
        for bot in (good, late, bad):
            await bot.close()


async def test_grpc_bot_that_is_not_there_is_a_crash() -> None:
    request = await first_request()
    bot = GrpcBot("127.0.0.1:1")
    await bot.start()
    try:
        assert (await bot.act(request, 2.0)).fault is Fault.CRASH
    finally:
        await bot.close()


async def test_in_process_bot_too_slow_is_a_timeout() -> None:
    request = await first_request()

    def make(seed: int) -> object:
        def policy(r: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
            import time

            time.sleep(0.05)
            return bot_pb2.ActResponse(index=0)

        return policy

    bot = InProcessBot(make)  # type: ignore[arg-type]
    assert (await bot.act(request, 1.0)).fault is None
    assert (await bot.act(request, 0.01)).fault is Fault.TIMEOUT


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_request_lines_are_the_proto3_json_of_the_request(seed: int) -> None:
    from google.protobuf import json_format

    from mazzo.referee.transports import request_line

    request = await first_request(seed)
    request.time_left.FromMilliseconds(1500)
    for seat, token in ((0, b""), (3, b""), (1, bytes(range(250)) * 2)):
        request.seat = seat
        request.sealed_state = token  # a sealed match's (mazzo match --seal)
        line = request_line(request)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert json.loads(line) == json.loads(json_format.MessageToJson(request))
        parsed = json_format.Parse(line, bot_pb2.ActRequest())
        assert parsed == request
