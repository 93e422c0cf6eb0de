"""Every fault class of docs/referee.md ("Time and faults") over the dial-in transport,
through both doors (the gRPC stream and the HTTP/JSON one), under both policies:
``--on-fault random`` (a strike, a random move in the faulty answer's place, the record
naming the class) and ``--on-fault forfeit`` (the match over, lost by the faulty side).

The faulty bot (``connect:alice``, seat 0 of a one-hand, two-player Briscola) answers
its first decision properly, misbehaves at its second, and then plays on.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import pytest
from google.protobuf import json_format

from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH, HttpDoor, HttpOptions
from mazzo.gateway.server import Connection, Limits, Seat
from mazzo.referee.match import (
    FaultRules,
    MatchSpec,
    OnFault,
    TimeControl,
    options_json,
    run_match,
)
from mazzo.referee.verify import verify
from mazzo.v1 import bot_pb2, game_pb2, tables_pb2
from tests.gateway.conftest import Client, Rig

ONE_HAND = options_json("briscola", ["hands_to_win=1"])
#: The decision (counted from 1) at which the bot misbehaves.
FAULTY = 2
GRACE = 0.3
#: The timeout's clock: small, but a scripted answer is well within the move's part.
SHORT = TimeControl(move=0.5, bank=0.3)
#: Every other test's clock: the defaults.
ROOMY = TimeControl()


class Door(Protocol):
    """One transport's side of a dial-in bot: its messages in, its answers out."""

    refusals: list[tuple[tables_pb2.Refusal, int | None]]

    def messages(self) -> AsyncIterator[tables_pb2.TableMessage]: ...

    async def send(self, answer: tables_pb2.Answer) -> None: ...

    async def drop(self) -> None: ...


class GrpcDoor:
    """The stream; refusals come on it (no HTTP status: None)."""

    def __init__(self, client: Client, token: str) -> None:
        self.client, self.token = client, token
        self.refusals: list[tuple[tables_pb2.Refusal, int | None]] = []

    async def messages(self) -> AsyncIterator[tables_pb2.TableMessage]:
        await self.client.join(self.token)
        while isinstance(message := await self.client.call.read(), tables_pb2.TableMessage):
            if message.WhichOneof("kind") == "refusal":
                self.refusals.append((message.refusal, None))
            yield message

    async def send(self, answer: tables_pb2.Answer) -> None:
        await self.client.call.write(tables_pb2.BotMessage(answer=answer))

    async def drop(self) -> None:
        await self.client.close()


class HttpJsonDoor:
    """The NDJSON stream and the answers POSTed; a refusal is the answer's response."""

    def __init__(self, base: str, token: str) -> None:
        self.token = token
        self.http = httpx.AsyncClient(base_url=base, timeout=10)
        self.refusals: list[tuple[tables_pb2.Refusal, int | None]] = []
        self.replies: list[httpx.Response] = []

    async def messages(self) -> AsyncIterator[tables_pb2.TableMessage]:
        hello = {"hello": {"token": self.token, "protocolVersion": 1}}
        async with self.http.stream("POST", JOIN_PATH, json=hello) as stream:
            assert stream.status_code == 200, await stream.aread()
            async for line in stream.aiter_lines():
                message = json_format.Parse(line, tables_pb2.TableMessage())
                if message.WhichOneof("kind") is not None:  # not a heartbeat
                    yield message

    async def send(self, answer: tables_pb2.Answer) -> None:
        await self.post(json_format.MessageToJson(tables_pb2.BotMessage(answer=answer)))

    async def post(self, body: str) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.token}", "content-type": "application/json"}
        reply = await self.http.post(ANSWER_PATH, content=body, headers=headers)
        self.replies.append(reply)
        if "refusal" in reply.json():
            refusal = json_format.ParseDict(reply.json(), tables_pb2.TableMessage()).refusal
            self.refusals.append((refusal, reply.status_code))
        return reply

    async def drop(self) -> None:
        await self.http.aclose()  # the join's connection with it


#: What the bot does with its faulty decision; ``first`` is the move it played at its
#: first one. True: it drops (and stays away).
Misbehave = Callable[["Bot", tables_pb2.Decision, game_pb2.Move], Awaitable[bool]]


@dataclass
class Bot:
    door: Door
    misbehave: Misbehave
    decisions: list[tables_pb2.Decision] = field(default_factory=list)
    ended: list[tables_pb2.MatchEnded] = field(default_factory=list)
    #: Decisions it left unanswered: answered late, at its next decision.
    late: list[tables_pb2.Decision] = field(default_factory=list)

    async def play(self) -> None:
        first = game_pb2.Move()
        async for message in self.door.messages():
            kind = message.WhichOneof("kind")
            if kind == "match_ended":
                self.ended.append(message.match_ended)
            if kind != "decision":
                continue
            decision = message.decision
            self.decisions.append(decision)
            if len(self.decisions) == 1:
                first = decision.request.legal_moves[0]
            if len(self.decisions) == FAULTY:
                if await self.misbehave(self, decision, first):
                    await self.door.drop()
                    return
                continue
            for old in self.late:
                await self.door.send(answer(old))
            self.late.clear()
            await self.door.send(answer(decision))


def answer(decision: tables_pb2.Decision, **response: Any) -> tables_pb2.Answer:
    """The decision's answer: its first legal move unless ``response`` says otherwise."""
    return tables_pb2.Answer(
        sequence=decision.sequence,
        match_id=decision.match_id,
        response=bot_pb2.ActResponse(**(response or {"index": 0})),
    )


@dataclass
class Played:
    record: dict[str, Any]
    bot: Bot
    rig: Rig


Play = Callable[..., Awaitable[Played]]


@pytest.fixture(params=["grpc", "http"])
async def play(request: pytest.FixtureRequest, rig: type[Rig]) -> AsyncIterator[Play]:
    """``await play(misbehave, policy, clock)``: one match of the misbehaving
    ``connect:alice`` against ``builtin:random`` over the parametrized door."""
    doors: list[HttpDoor] = []

    async def match(misbehave: Misbehave, policy: OnFault, clock: TimeControl = ROOMY) -> Played:
        r = rig(Limits(grace=GRACE))
        await r.start()
        if request.param == "grpc":
            door: Door = GrpcDoor(r.client(), r.tokens["alice"])
        else:
            http = HttpDoor(r.gateway, HttpOptions(flush=0.2))
            doors.append(http)
            port = await http.start("127.0.0.1", 0)
            door = HttpJsonDoor(f"http://127.0.0.1:{port}", r.tokens["alice"])
        bot = Bot(door, misbehave)
        player = asyncio.create_task(bot.play())
        record = await run_match(
            MatchSpec(id="faulty", game="briscola", seed=7, players=2, options=ONE_HAND),
            ["connect:alice", "builtin:random"],
            gateway=r.gateway,
            dial_in_wait=5,
            clock=clock,
            rules=FaultRules(on_fault=policy),
        )
        await r.gateway.stop(0.5)  # the run's end ends the stream
        await asyncio.wait_for(player, 5)
        await door.drop()
        assert verify([record]).code == 0
        return Played(record, bot, r)

    yield match
    for http in doors:
        await http.stop()


def the_fault(played: Played, policy: OnFault, fault_class: str) -> dict[str, Any]:
    """The record holds one fault, of ``fault_class``, at the bot's faulty decision,
    adjudicated by ``policy``; the fault's entry."""
    record = played.record
    [fault] = record["faults"]
    assert (fault["class"], fault["seat"], fault["entrant"]) == (
        fault_class,
        0,
        "side0:connect:alice",
    )
    mine = [i for i, m in enumerate(record["moves"]) if m["seat"] == 0]
    if policy is OnFault.FORFEIT:
        forfeit = record["result"]["forfeit"]
        assert (forfeit["side"], forfeit["seat"]) == (0, 0)
        assert forfeit["reason"].startswith(f"{fault_class}: ")
        assert record["result"]["winners"] == [1] and not record["result"]["finished"]
        assert len(mine) == FAULTY - 1 and fault["ply"] == len(record["moves"])
        if played.bot.ended:  # a bot still there is told why its match ended
            assert played.bot.ended[-1].forfeit == forfeit["reason"]
            assert list(played.bot.ended[-1].winners) == [1]
    else:
        assert record["result"]["finished"] and record["result"]["forfeit"] is None
        faulty = record["moves"][mine[FAULTY - 1]]
        assert faulty["fault"] == fault_class and fault["ply"] == mine[FAULTY - 1]
        assert len(mine) == 20  # one hand of Briscola for two: 20 cards each
    return fault


POLICIES = pytest.mark.parametrize("policy", list(OnFault), ids=str)


# timeout


async def silent(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
    """No answer in time; it comes late, with the next decision's."""
    bot.late.append(decision)
    return False


@POLICIES
async def test_no_answer_within_the_time_is_a_timeout_and_empties_the_bank(
    play: Play, policy: OnFault
) -> None:
    played = await play(silent, policy, SHORT)
    bot = played.bot
    fault = the_fault(played, policy, "timeout")
    # it waited the whole clock: the move's part and what was left of the bank (the
    # first decision, answered at once, may still overrun its part on a busy machine)
    [first, *_] = [m for m in played.record["moves"] if m["seat"] == 0]
    bank_left = SHORT.bank - max(first["ms"] / 1000 - SHORT.move, 0)
    assert bank_left > 0 and fault["ms"] >= (SHORT.move + bank_left) * 1000 - 1
    if policy is OnFault.RANDOM:
        after = bot.decisions[FAULTY]  # the next decision: the bank is empty
        assert after.clock.bank_left.ToTimedelta().total_seconds() == 0
        assert after.request.time_left.ToTimedelta().total_seconds() <= SHORT.move
        # the late answer is refused, not counted, and changes nothing
        [(refusal, status)] = bot.door.refusals
        assert refusal.sequence == bot.decisions[FAULTY - 1].sequence and not refusal.fault
        assert status in (None, 409)
        assert played.rig.gateway.seats["alice"].duplicates == 1


# illegal


async def past_the_moves(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
    await bot.door.send(answer(decision, index=len(decision.request.legal_moves)))
    return False


async def a_card_already_played(
    bot: Bot, decision: tables_pb2.Decision, first: game_pb2.Move
) -> bool:
    await bot.door.send(answer(decision, move=first))
    return False


@POLICIES
@pytest.mark.parametrize(
    ("misbehave", "detail"),
    [(past_the_moves, "legal moves"), (a_card_already_played, "not a legal move")],
    ids=["index-past-the-moves", "move-not-among-them"],
)
async def test_an_answer_that_is_no_legal_move_is_illegal(
    play: Play, policy: OnFault, misbehave: Misbehave, detail: str
) -> None:
    played = await play(misbehave, policy)
    assert detail in the_fault(played, policy, "illegal")["detail"]


def for_another(where: str) -> Misbehave:
    """An answer naming another decision (a sequence never sent), match or seat."""

    async def wrong(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
        wrong = answer(decision)
        if where == "sequence":
            wrong.sequence += 1000
        elif where == "match_id":
            wrong.match_id = "another"
        else:
            wrong.seat = decision.request.seat + 1
        await bot.door.send(wrong)
        return False

    return wrong


@POLICIES
@pytest.mark.parametrize("where", ["sequence", "match_id", "seat"])
async def test_an_answer_for_another_decision_match_or_seat_is_illegal(
    play: Play, policy: OnFault, where: str
) -> None:
    played = await play(for_another(where), policy)
    the_fault(played, policy, "illegal")
    # refused at once, naming the field at fault: on the stream, or as the POST's 400
    [(refusal, status)] = played.bot.door.refusals
    assert refusal.fault and status in (None, 400)
    assert [v.field for v in refusal.field_violations] == [f"answer.{where}"]


# malformed


async def no_choice(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
    await bot.door.send(tables_pb2.Answer(sequence=decision.sequence))
    return False


@POLICIES
async def test_an_answer_with_neither_index_nor_move_is_malformed(
    play: Play, policy: OnFault
) -> None:
    played = await play(no_choice, policy)
    assert "neither index nor move" in the_fault(played, policy, "malformed")["detail"]
    [(refusal, status)] = played.bot.door.refusals
    assert refusal.fault and status in (None, 400)
    assert [v.field for v in refusal.field_violations] == ["answer.response"]


async def test_an_http_answer_that_is_no_answer_is_a_400_and_the_decision_still_open(
    rig: type[Rig],
) -> None:
    """Over HTTP a body that does not parse names no decision, so it is no fault of one:
    a 400 naming the body, and the decision waits for a proper answer within its time."""
    tries: list[httpx.Response] = []

    async def garbage_first(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
        door = bot.door
        assert isinstance(door, HttpJsonDoor)
        sequence = str(decision.sequence)
        for body in (
            "not json",
            json.dumps({"answer": {"sequence": sequence, "response": {"index": "first"}}}),
            json.dumps({"answer": {"sequence": sequence, "response": {"card": 3}}}),
            json.dumps({"answer": {"sequence": sequence}, "hello": {}}),
        ):
            tries.append(await door.post(body))
        await door.send(answer(decision))
        return False

    r = rig(Limits(grace=GRACE))
    await r.start()
    http = HttpDoor(r.gateway, HttpOptions(flush=0.2))
    port = await http.start("127.0.0.1", 0)
    bot = Bot(HttpJsonDoor(f"http://127.0.0.1:{port}", r.tokens["alice"]), garbage_first)
    player = asyncio.create_task(bot.play())
    try:
        record = await run_match(
            MatchSpec(id="garbage", game="briscola", seed=7, players=2, options=ONE_HAND),
            ["connect:alice", "builtin:random"],
            gateway=r.gateway,
            dial_in_wait=5,
        )
        await r.gateway.stop(0.5)
        await asyncio.wait_for(player, 5)
    finally:
        await bot.door.drop()
        await http.stop()
    assert [t.status_code for t in tries] == [400] * 4
    for t in tries:
        status = t.json()
        assert status["code"] == 3  # INVALID_ARGUMENT, with its field violation
        [violation] = status["details"][0]["fieldViolations"]
        assert violation["field"] == "body" and violation["description"]
    assert record["faults"] == [] and record["result"]["finished"]
    assert r.gateway.seats["alice"].refused == 0


# crash


async def vanish(bot: Bot, decision: tables_pb2.Decision, _: game_pb2.Move) -> bool:
    return True


@POLICIES
async def test_a_bot_gone_past_the_grace_is_a_crash(play: Play, policy: OnFault) -> None:
    played = await play(vanish, policy)
    fault = the_fault(played, policy, "crash")
    assert f"not back within the grace of {GRACE:g} s" in fault["detail"]
    assert fault["ms"] >= GRACE * 1000
    if policy is OnFault.RANDOM:  # the rest of its moves are random, and no more faults
        rest = [m for m in played.record["moves"][fault["ply"] + 1 :] if m["seat"] == 0]
        assert rest and all(m.get("auto") for m in rest)


async def test_a_second_answer_before_the_referee_takes_the_first_changes_nothing() -> None:
    """Two answers to one decision in one breath (a bot re-sending after a reconnect,
    two POSTs racing): the first is the move; the second is a duplicate, not a fault,
    even when it names another match, and cannot replace the first."""
    seat = Seat("alice", Limits())
    conn = Connection("test", 8)
    seat.attach(conn)
    request = bot_pb2.ActRequest(legal_moves=[game_pb2.Move(), game_pb2.Move()])
    deciding = asyncio.create_task(seat.decide("m", request, 5.0, 1.0))
    await asyncio.sleep(0)  # the decision is sent
    [sequence] = [m.decision.sequence for m in _sent(conn) if m.WhichOneof("kind") == "decision"]
    first = tables_pb2.Answer(sequence=sequence, response=bot_pb2.ActResponse(index=1))
    assert seat.answer(first) is None
    for second in (
        tables_pb2.Answer(sequence=sequence, response=bot_pb2.ActResponse(index=0)),
        tables_pb2.Answer(sequence=sequence, match_id="another", response=first.response),
    ):
        refusal = seat.answer(second)
        assert refusal is not None and not refusal.refusal.fault
    outcome = await deciding
    assert outcome.miss is None and outcome.response is not None
    assert outcome.response.index == 1
    assert (seat.duplicates, seat.refused) == (2, 0)


async def test_a_decision_answered_just_before_a_drop_is_not_sent_again() -> None:
    """The answer came on the old connection and the bot dialed in again before the
    referee took it: the decision is not open any more, so it is not sent again."""
    seat = Seat("alice", Limits())
    old = Connection("old", 8)
    seat.attach(old)
    request = bot_pb2.ActRequest(legal_moves=[game_pb2.Move(), game_pb2.Move()])
    deciding = asyncio.create_task(seat.decide("m", request, 5.0, 1.0))
    await asyncio.sleep(0)  # the decision is sent
    [sequence] = [m.decision.sequence for m in _sent(old) if m.WhichOneof("kind") == "decision"]
    answer = tables_pb2.Answer(sequence=sequence, response=bot_pb2.ActResponse(index=1))
    assert seat.answer(answer) is None
    seat.detach(old)
    again = Connection("again", 8)
    seat.attach(again)  # in the same breath: the referee has not run yet
    assert [m.WhichOneof("kind") for m in _sent(again)] == ["welcome"]
    outcome = await deciding
    assert outcome.response is not None and outcome.response.index == 1


def _sent(conn: Connection) -> list[tables_pb2.TableMessage]:
    return [m for m in (conn.queue.get_nowait() for _ in range(conn.queue.qsize())) if m]


async def test_an_answer_cut_off_mid_body_is_no_error_of_the_door(rig: type[Rig]) -> None:
    """A drop in the middle of an answer's POST (its body half sent): the door answers
    499 (into the void) and logs no application error."""
    r = rig()
    await r.start()
    http = HttpDoor(r.gateway, HttpOptions(flush=0.1))
    port = await http.start("127.0.0.1", 0)
    errors: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append  # type: ignore[method-assign]
    uvicorn_log = logging.getLogger("uvicorn.error")  # its own: it does not propagate
    uvicorn_log.addHandler(handler)
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        head = (
            f"POST {ANSWER_PATH} HTTP/1.1\r\nhost: x\r\ncontent-length: 400\r\n"
            f"authorization: Bearer {r.tokens['alice']}\r\n\r\n"
        )
        writer.write(head.encode() + b'{"answer": {"sequence": "1", ')
        await writer.drain()
        await asyncio.sleep(0.2)  # the door is reading the body
        writer.transport.abort()
        await asyncio.sleep(0.2)
        assert not errors, errors[0].getMessage()
        # and the door still serves
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            headers = {"authorization": f"Bearer {r.tokens['alice']}"}
            reply = await client.post(ANSWER_PATH, json={"answer": {}}, headers=headers)
        assert reply.status_code == 409  # no stream open: the door's ordinary answer
    finally:
        uvicorn_log.removeHandler(handler)
        await http.stop()
