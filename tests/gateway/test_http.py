"""The dial-in protocol over HTTP/JSON (``mazzo.gateway.http``): a bot written as a
plain HTTP client plays beside a gRPC one, comes back within the grace on either
transport, and meets the same limits as over gRPC, in HTTP's words."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest

from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH, HttpDoor, HttpOptions
from mazzo.gateway.origins import cors_origin
from mazzo.gateway.server import Limits
from mazzo.referee.match import MatchSpec, options_json, run_match
from mazzo.referee.verify import verify
from mazzo.v1 import tables_pb2
from tests.gateway.conftest import Client, Rig, safe_index

ROOT = Path(__file__).resolve().parents[2]
SHORT = options_json("maraffa", ["target=11"])


def hello(token: str, version: int = 1) -> dict[str, Any]:
    return {"hello": {"token": token, "protocolVersion": version}}


def first_safe(request: dict[str, Any]) -> int:
    """``safe_index`` of a request in the JSON mapping."""
    for i, move in enumerate(request.get("legalMoves", [])):
        if "claim" not in move.get("maraffa", {}):
            return i
    return 0


class HttpBot:
    """A bot as a plain HTTP client: the join's lines, answers POSTed back."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.http = httpx.AsyncClient(base_url=base, timeout=10)
        self.kinds: list[str] = []

    async def lines(self) -> AsyncIterator[dict[str, Any]]:
        """The stream's messages until it ends (a ``{}`` heartbeat is skipped)."""
        async with self.http.stream("POST", JOIN_PATH, json=hello(self.token)) as stream:
            assert stream.status_code == 200, await stream.aread()
            assert stream.headers["content-type"] == "application/x-ndjson"
            async for line in stream.aiter_lines():
                message = json.loads(line)
                if message:
                    self.kinds.append(next(iter(message)))
                    yield message

    async def answer(self, sequence: int | str, index: int, **more: Any) -> httpx.Response:
        body = {"answer": {"sequence": str(sequence), "response": {"index": index}, **more}}
        headers = {"authorization": f"Bearer {self.token}"}
        return await self.http.post(ANSWER_PATH, json=body, headers=headers)

    async def play(self, stop_after: int | None = None) -> None:
        """Answer every decision safely (until ``stop_after`` decisions: then drop)."""
        seen = 0
        async for message in self.lines():
            if "decision" in message:
                if stop_after is not None and seen == stop_after:
                    return
                seen += 1
                d = message["decision"]
                reply = await self.answer(d["sequence"], first_safe(d["request"]))
                assert reply.status_code == 200, reply.text

    async def close(self) -> None:
        await self.http.aclose()


class HttpRig:
    """A ``Rig`` with the HTTP door beside its gRPC port."""

    def __init__(self, rig: Rig, options: HttpOptions) -> None:
        self.rig = rig
        self.door = HttpDoor(rig.gateway, options)
        self.base = ""
        self.bots: list[HttpBot] = []

    async def start(self) -> None:
        await self.rig.start()
        port = await self.door.start("127.0.0.1", 0)
        self.base = f"http://127.0.0.1:{port}"

    def bot(self, name: str = "alice") -> HttpBot:
        made = HttpBot(self.base, self.rig.tokens[name])
        self.bots.append(made)
        return made

    async def stop(self) -> None:
        await self.rig.gateway.stop(0.5)
        await self.door.stop()
        for bot in self.bots:
            await bot.close()


@pytest.fixture
async def door(rig: type[Rig]) -> AsyncIterator[Callable[..., Awaitable[HttpRig]]]:
    made: list[HttpRig] = []

    async def make(limits: Limits | None = None, **options: Any) -> HttpRig:
        h = HttpRig(rig(limits), HttpOptions(**options))
        await h.start()
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()


def spec(name: str) -> MatchSpec:
    return MatchSpec(id=name, game="maraffa", seed=5, options=SHORT)


async def grpc_plays(client: Client) -> None:
    while (decision := await client.next_decision()) is not None:
        await client.answer(decision.sequence, safe_index(decision.request), decision.match_id)


async def test_an_http_bot_plays_a_whole_match_beside_a_grpc_one_and_a_builtin(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    alice = h.bot("alice")
    bob = h.rig.client()
    await bob.join(h.rig.tokens["bob"])
    players = [asyncio.create_task(alice.play()), asyncio.create_task(grpc_plays(bob))]
    record = await run_match(
        spec("both"),
        ["connect:alice", "connect:bob", "builtin:random", "builtin:random"],
        gateway=h.rig.gateway,
        dial_in_wait=5,
    )
    await h.rig.gateway.stop(0.5)  # the streams end; the door stays for the last answers
    await asyncio.wait_for(asyncio.gather(*players), 5)  # the run's end ends the stream
    assert record["result"]["finished"] and record["faults"] == []
    assert verify([record]).code == 0
    assert alice.kinds[:2] == ["welcome", "matchStarted"] and alice.kinds[-1] == "matchEnded"
    mine = [m for m in record["moves"] if m["seat"] == 0]
    assert mine and not any(m.get("auto") for m in mine)


@pytest.mark.parametrize("back_by", ["http", "grpc"])
async def test_a_drop_over_http_comes_back_within_the_grace_on_either_transport(
    door: Callable[..., Awaitable[HttpRig]], back_by: str
) -> None:
    h = await door(Limits(grace=3.0))
    alice = h.bot("alice")
    seen: list[int] = []

    async def drop_then_return() -> None:
        async for message in alice.lines():
            if "decision" in message:
                seen.append(int(message["decision"]["sequence"]))
                break  # leaves the stream: the connection closes, unanswered
        await asyncio.sleep(0.3)
        if back_by == "http":
            again = h.bot("alice")
            async for message in again.lines():
                if "decision" in message:
                    d = message["decision"]
                    seen.append(int(d["sequence"]))
                    await again.answer(d["sequence"], first_safe(d["request"]))
        else:
            client = h.rig.client()
            for _ in range(50):  # until the gateway has seen the HTTP stream go
                with_seat = h.rig.gateway.seats["alice"].conn
                if with_seat is None:
                    break
                await asyncio.sleep(0.02)
            await client.join(h.rig.tokens["alice"])
            decision = await client.next_decision()
            assert decision is not None
            seen.append(decision.sequence)
            await client.answer(decision.sequence, safe_index(decision.request))
            await grpc_plays(client)

    player = asyncio.create_task(drop_then_return())
    record = await run_match(
        spec(f"back-{back_by}"),
        ["connect:alice", "builtin:random"],
        gateway=h.rig.gateway,
        dial_in_wait=5,
    )
    await h.rig.gateway.stop(0.5)  # the streams end; the door stays for the last answers
    await asyncio.wait_for(player, 5)
    assert seen[0] == seen[1], "the pending decision came again with its number"
    assert record["result"]["finished"] and record["faults"] == []


async def test_one_connection_per_token_whichever_transport(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    client = h.rig.client()
    await client.join(h.rig.tokens["alice"])
    alice = h.bot("alice")
    # the answers of a seat held over gRPC are not taken over HTTP
    taken = await alice.answer(1, 0)
    assert taken.status_code == 409 and "no HTTP stream" in taken.json()["message"]
    # a join over HTTP replaces the gRPC connection, which ends as final
    async with alice.http.stream("POST", JOIN_PATH, json=hello(h.rig.tokens["alice"])) as lines:
        assert lines.status_code == 200
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            while True:
                await client.read()
        assert ended.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert h.rig.gateway.seats["alice"].conn in h.door.connections


async def test_a_replaced_http_stream_ends_with_a_final_refusal(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    """A body that just ends cannot carry gRPC's FAILED_PRECONDITION: the replaced
    stream's last line says it, so a page does not dial in again and take the seat
    back (a drop has no such line, and is dialed again)."""
    h = await door()
    first, second = h.bot("alice"), h.bot("alice")
    older = first.lines()
    assert "welcome" in await anext(older)
    newer = second.lines()
    assert "welcome" in await anext(newer)
    rest = [message async for message in older]
    refusal = rest[-1]["refusal"]
    assert "replaced" in refusal["reason"] and not refusal.get("fault")
    assert "sequence" not in refusal  # of no decision: 0, which proto JSON leaves out
    assert refusal["fieldViolations"][0]["field"] == "hello"
    assert h.rig.gateway.seats["alice"].conn in h.door.connections
    await newer.aclose()


async def test_a_wrong_token_is_401_on_both_paths(door: Callable[..., Awaitable[HttpRig]]) -> None:
    h = await door()
    bot = HttpBot(h.base, "not-a-token")
    h.bots.append(bot)
    joined = await bot.http.post(JOIN_PATH, json=hello("not-a-token"))
    assert joined.status_code == 401 and joined.json()["code"] == 16  # UNAUTHENTICATED
    answered = await bot.answer(1, 0)
    assert answered.status_code == 401
    unsaid = await bot.http.post(ANSWER_PATH, json={"answer": {"sequence": "1"}})
    assert unsaid.status_code == 401 and "Bearer" in unsaid.json()["message"]


async def test_bodies_are_bounded_and_checked(door: Callable[..., Awaitable[HttpRig]]) -> None:
    h = await door(Limits(max_receive=1024))
    http = h.bot().http
    token = h.rig.tokens["alice"]
    big = {"hello": {"token": token, "protocolVersion": 1, "name": "x" * 2000}}
    over = await http.post(JOIN_PATH, json=big)
    assert over.status_code == 413
    [violation] = over.json()["details"][0]["fieldViolations"]
    assert violation["field"] == "body"

    async def chunks() -> AsyncIterator[bytes]:  # no length said: counted while read
        for _ in range(4):
            yield b" " * 400

    streamed = await http.post(JOIN_PATH, content=chunks())
    assert streamed.status_code == 413
    bad = await http.post(JOIN_PATH, json={"hello": {"tokken": token}})
    assert bad.status_code == 400 and "tokken" in bad.json()["message"]
    not_hello = await http.post(JOIN_PATH, json={"answer": {"sequence": "1"}})
    assert not_hello.status_code == 400
    assert not_hello.json()["details"][0]["fieldViolations"][0]["field"] == "hello"
    version = await http.post(JOIN_PATH, json=hello(token, version=2))
    assert version.status_code == 409 and "protocol version 2" in version.json()["message"]


async def test_a_hello_must_arrive_within_its_deadline(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door(Limits(hello_seconds=0.2))

    async def slow() -> AsyncIterator[bytes]:
        yield b'{"hello": '
        await asyncio.sleep(0.5)
        yield b"{}}"

    late = await h.bot().http.post(JOIN_PATH, content=slow())
    assert late.status_code == 408 and late.json()["code"] == 4  # DEADLINE_EXCEEDED


async def test_too_many_connections_from_an_address_are_429_with_retry_after(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door(Limits(rate=2, rate_window=30))
    http = h.bot().http
    codes = [(await http.post(JOIN_PATH, json=hello("nope"))).status_code for _ in range(2)]
    assert codes == [401, 401]
    limited = await http.post(JOIN_PATH, json=hello(h.rig.tokens["alice"]))
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["retry-after"]) <= 30
    # one budget per address for both transports: the gRPC door refuses it as well
    client = h.rig.client()
    with pytest.raises(grpc.aio.AioRpcError) as refused:  # the hello's write may meet it too
        await client.hello(h.rig.tokens["alice"])
        await client.read()
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, refused.value
    assert "too many connections" in str(refused.value.details())


async def test_an_answer_for_a_decision_never_sent_is_refused_and_a_fault(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    alice = h.bot("alice")
    replies: list[httpx.Response] = []

    async def wrong_once() -> None:
        async for message in alice.lines():
            if "decision" in message:
                d = message["decision"]
                if not replies:
                    replies.append(await alice.answer(int(d["sequence"]) + 1000, 0))
                    continue  # its decision is lost: the fault is its
                if len(replies) == 1:
                    replies.append(await alice.answer(d["sequence"], 0, seat=3))
                    continue
                await alice.answer(d["sequence"], first_safe(d["request"]))

    player = asyncio.create_task(wrong_once())
    record = await run_match(
        spec("wrong"), ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=5
    )
    await h.rig.gateway.stop(0.5)  # the streams end; the door stays for the last answers
    await asyncio.wait_for(player, 5)
    first, second = (reply.json()["refusal"] for reply in replies)
    assert [reply.status_code for reply in replies] == [400, 400]
    assert first["fault"] and first["fieldViolations"][0]["field"] == "answer.sequence"
    assert second["fieldViolations"][0]["field"] == "answer.seat"
    assert [f["class"] for f in record["faults"]] == ["illegal", "illegal"]
    assert h.rig.gateway.seats["alice"].refused == 2
    assert record["result"]["finished"] and verify([record]).code == 0


async def test_an_answer_sent_twice_is_409_and_not_a_fault(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    alice = h.bot("alice")
    seconds: list[httpx.Response] = []

    async def twice() -> None:
        async for message in alice.lines():
            if "decision" in message:
                d = message["decision"]
                assert (await alice.answer(d["sequence"], first_safe(d["request"]))).is_success
                seconds.append(await alice.answer(d["sequence"], first_safe(d["request"])))

    player = asyncio.create_task(twice())
    record = await run_match(
        spec("twice"), ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=5
    )
    await h.rig.gateway.stop(0.5)  # the streams end; the door stays for the last answers
    await asyncio.wait_for(player, 5)
    assert seconds and {s.status_code for s in seconds} == {409}
    # the last one may come after the run's end closed the stream: 409 all the same
    refusals = [s.json()["refusal"] for s in seconds if "refusal" in s.json()]
    assert len(refusals) >= len(seconds) - 1 and not any(r.get("fault") for r in refusals)
    assert h.rig.gateway.seats["alice"].duplicates == len(refusals)
    assert record["faults"] == []


async def test_a_quiet_stream_gets_heartbeats(door: Callable[..., Awaitable[HttpRig]]) -> None:
    h = await door(heartbeat=0.05)
    token = h.rig.tokens["alice"]
    async with h.bot().http.stream("POST", JOIN_PATH, json=hello(token)) as stream:
        lines = stream.aiter_lines()
        assert "welcome" in json.loads(await anext(lines))
        assert json.loads(await anext(lines)) == {}


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="curl and jq")
async def test_the_documented_shell_bot_plays_a_match(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    """examples/bots/dial_in.sh, as docs/referee.md shows it."""
    h = await door()
    script = ROOT / "examples" / "bots" / "dial_in.sh"
    bot = await asyncio.create_subprocess_exec(
        str(script), h.base, h.rig.tokens["alice"], stderr=asyncio.subprocess.PIPE
    )
    record = await run_match(
        spec("shell"), ["connect:alice", "builtin:random"], gateway=h.rig.gateway, dial_in_wait=5
    )
    await h.rig.gateway.stop(0.5)
    _, err = await asyncio.wait_for(bot.communicate(), 5)
    assert bot.returncode == 0, err
    assert record["result"]["finished"] and record["faults"] == []
    assert verify([record]).code == 0


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="curl and jq")
def test_mazzo_match_with_gateway_http_and_the_shell_bot(tmp_path: Path) -> None:
    """The documented command line whole: `--gateway-http 0` prints its address, the
    shell bot dials in there, and the record verifies."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server"), "MAZZO_PURE": "1"}
    mazzo = [sys.executable, "-m", "mazzo"]
    tokens, records = tmp_path / "tokens.json", tmp_path / "r.jsonl"
    made = subprocess.run(
        [*mazzo, "token", "new", "alice", "--tokens", str(tokens)],
        env=env, capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    match = subprocess.Popen(
        [*mazzo, "match", "--game", "maraffa", "--option", "target=11",
         "--bot", "connect:alice", "--bot", "builtin:random", "--gateway", "0",
         "--gateway-http", "0", "--tokens", str(tokens), "--records", str(records),
         "--dial-in-wait", "20"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert match.stdout is not None
    try:
        assert match.stdout.readline().startswith("gateway: grpc://")
        line = match.stdout.readline()
        assert line.startswith("gateway: http://"), line
        url = line.split()[1]
        bot = subprocess.run(
            [str(ROOT / "examples" / "bots" / "dial_in.sh"), url, made.stdout.strip()],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert bot.returncode == 0, bot.stderr
        _, err = match.communicate(timeout=30)
        assert match.returncode == 0, err
    finally:
        if match.poll() is None:
            match.kill()
    [record] = [json.loads(x) for x in records.read_text().splitlines()]
    assert record["faults"] == [] and record["result"]["finished"]
    assert record["seat_bots"][0] == "connect:alice"


async def test_a_bot_that_stops_reading_is_dropped_and_no_one_waits(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    """Its own bounded queue fills (the socket's buffers first): the connection is
    dropped, the seat freed for the grace; the gateway's loop never waits on it."""
    h = await door(Limits(queue=4), flush=0.1)
    port = int(h.base.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1024)
    body = json.dumps(hello(h.rig.tokens["alice"])).encode()
    head = f"POST {JOIN_PATH} HTTP/1.1\r\nhost: x\r\ncontent-length: {len(body)}\r\n\r\n"
    writer.write(head.encode() + body)
    await writer.drain()
    assert b"200" in await reader.readline()
    seat = h.rig.gateway.seats["alice"]
    for _ in range(100):
        if seat.conn is not None:
            break
        await asyncio.sleep(0.01)
    conn = seat.conn
    assert conn is not None
    fat = tables_pb2.TableMessage()
    fat.refusal.reason = "x" * 200_000
    for _ in range(200):  # 40 MB that the bot never reads
        conn.send(fat)
        if conn.done.is_set():
            break
        await asyncio.sleep(0)  # the writer's turn
    assert conn.done.is_set() and "did not read" in conn.why
    for _ in range(100):
        if seat.conn is None:
            break
        await asyncio.sleep(0.01)
    assert seat.conn is None and seat.dropped_at is not None
    writer.close()


async def test_the_http_door_over_mutual_tls(tmp_path: Path) -> None:
    """`--tls-*` serve this door too: https, and client certificates when asked."""
    from tests.service.test_tls import Authority, trusting

    ca = Authority(tmp_path)
    server, client = ca.issue("server", server=True), ca.issue("client", server=False)
    rig = Rig(Limits())
    rig.gateway.seat("alice")
    door = HttpDoor(rig.gateway, HttpOptions())
    port = await door.start(
        "127.0.0.1", 0, str(server.cert), str(server.key), client_ca=str(ca.path)
    )
    base = f"https://127.0.0.1:{port}"
    try:
        http = httpx.AsyncClient(base_url=base, verify=trusting(ca.path, client))
        async with http, http.stream("POST", JOIN_PATH, json=hello(rig.tokens["alice"])) as s:
            assert "welcome" in json.loads(await anext(s.aiter_lines()))
        async with httpx.AsyncClient(base_url=base, verify=trusting(ca.path)) as anonymous:
            with pytest.raises(httpx.HTTPError):
                await anonymous.post(JOIN_PATH, json=hello(rig.tokens["alice"]))
    finally:
        await rig.gateway.stop(0)
        await door.stop()


ORIGIN = "https://bots.example.org"


def preflight(path: str, origin: str, headers: str) -> dict[str, str]:
    """A browser's CORS preflight of a POST to ``path`` from a page of ``origin``."""
    return {
        "origin": origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": headers,
    }


async def test_a_page_of_an_allowed_origin_may_call_the_door_and_no_other(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door(cors=(ORIGIN,))
    async with httpx.AsyncClient(base_url=h.base, timeout=10) as http:
        for path, asks in (
            (JOIN_PATH, "content-type"),
            (ANSWER_PATH, "authorization,content-type"),
        ):
            allowed = await http.options(path, headers=preflight(path, ORIGIN, asks))
            assert allowed.status_code == 200, allowed.text
            assert allowed.headers["access-control-allow-origin"] == ORIGIN
            assert "POST" in allowed.headers["access-control-allow-methods"]
            assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
            assert "access-control-allow-credentials" not in allowed.headers  # no cookies
            other = await http.options(path, headers=preflight(path, "https://evil.example", asks))
            assert other.status_code == 400
            assert "access-control-allow-origin" not in other.headers
            # an OPTIONS that is no preflight is not taken for a join or an answer
            assert (await http.options(path, headers={"origin": ORIGIN})).status_code == 405
        # The answers name the origin, refusals too (a page reads why), and let it read
        # a 429's Retry-After.
        wrong = await http.post(
            ANSWER_PATH, json={}, headers={"origin": ORIGIN, "authorization": "Bearer nope"}
        )
        assert wrong.status_code == 401 and wrong.headers["access-control-allow-origin"] == ORIGIN
        assert "retry-after" in wrong.headers["access-control-expose-headers"].lower()
        spec_ = await http.get("/openapi.json", headers={"origin": ORIGIN})
        assert spec_.headers["access-control-allow-origin"] == ORIGIN
    # A bot that sends its page's origin plays a whole match.
    alice = h.bot("alice")
    alice.http.headers["origin"] = ORIGIN
    player = asyncio.create_task(alice.play())
    record = await run_match(
        spec("cors"), ["connect:alice", *["builtin:random"] * 3], gateway=h.rig.gateway,
        dial_in_wait=5,
    )  # fmt: skip
    await h.rig.gateway.stop(0.5)
    await asyncio.wait_for(player, 5)
    assert record["result"]["finished"] and record["faults"] == []


async def test_with_no_origin_allowed_the_door_answers_no_preflight(
    door: Callable[..., Awaitable[HttpRig]],
) -> None:
    h = await door()
    async with httpx.AsyncClient(base_url=h.base, timeout=10) as http:
        asked = await http.options(JOIN_PATH, headers=preflight(JOIN_PATH, ORIGIN, "content-type"))
        assert asked.status_code == 405 and "access-control-allow-origin" not in asked.headers
        wrong = await http.post(
            ANSWER_PATH, json={}, headers={"origin": ORIGIN, "authorization": "Bearer nope"}
        )
        assert wrong.status_code == 401 and "access-control-allow-origin" not in wrong.headers


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("*", "*"),
        ("https://Bots.Example.org", "https://bots.example.org"),
        ("https://bots.example.org:443", "https://bots.example.org"),
        ("http://localhost:5173", "http://localhost:5173"),
        ("http://[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_an_origin_is_kept_as_a_browser_sends_it(given: str, kept: str) -> None:
    assert cors_origin(given) == kept


@pytest.mark.parametrize(
    "wrong",
    ["bots.example.org", "https://bots.example.org/", "ftp://a.b", "https://", "https://a.b:x"],
)
def test_what_is_not_an_origin_is_refused_saying_what_one_is(wrong: str) -> None:
    with pytest.raises(ValueError, match="scheme://host"):
        cors_origin(wrong)
