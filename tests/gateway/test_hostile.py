"""What the gateway refuses before a bot reaches a table, and what bounds a connection."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from mazzo.gateway.server import Connection, Limits
from mazzo.gateway.tokens import TokenBook, token_hash
from mazzo.v1 import tables_pb2
from tests.gateway.conftest import Rig


async def refusal(rig: Rig, token: str, name: str = "", version: int = 1) -> grpc.aio.AioRpcError:
    client = rig.client()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        # a refusal at the door (the rate limit) may end the stream before the hello
        await client.hello(token, name, version)
        await client.read()
    return refused.value


async def test_a_wrong_token_is_unauthenticated(rig: type[Rig]) -> None:
    r = rig()
    await r.start()
    assert (await refusal(r, "not-a-token")).code() == grpc.StatusCode.UNAUTHENTICATED
    # bob's token does not open alice's seats
    refused = await refusal(r, r.tokens["bob"], "alice")
    assert refused.code() == grpc.StatusCode.UNAUTHENTICATED


async def test_a_protocol_version_not_spoken_is_refused(rig: type[Rig]) -> None:
    r = rig()
    await r.start()
    refused = await refusal(r, r.tokens["alice"], version=2)
    assert refused.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "speaks 1" in (refused.details() or "")


async def test_no_hello_within_the_deadline_closes_the_stream(rig: type[Rig]) -> None:
    r = rig(Limits(hello_seconds=0.2))
    await r.start()
    client = r.client()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.read()
    assert refused.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_an_oversize_message_is_refused(rig: type[Rig]) -> None:
    r = rig()
    await r.start()
    refused = await refusal(r, "x" * (Limits().max_receive + 1))
    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert r.gateway.seats["alice"].conn is None


async def test_a_newer_connection_of_a_token_replaces_the_older(rig: type[Rig]) -> None:
    """One live connection per token, the newest: a bot whose network changed dials
    again before its old connection is seen to be dead, and must not be refused while
    its clock runs. The older stream ends with a status the starters take as final."""
    r = rig()
    await r.start()
    older = r.client()
    welcome = await older.join(r.tokens["alice"])
    assert welcome.name == "alice" and welcome.grace.seconds == 10
    first = r.gateway.seats["alice"].conn
    newer = r.client()
    assert (await newer.join(r.tokens["alice"])).name == "alice"
    assert r.gateway.seats["alice"].conn not in (None, first)
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        while True:  # what the older stream still had queued, then its end
            await older.read()
    assert ended.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "replaced" in (ended.value.details() or "")
    assert r.gateway.seats["alice"].conn is not None  # the newer one keeps the seat


async def test_the_rate_limit_says_when_to_retry(rig: type[Rig]) -> None:
    r = rig(Limits(rate=2, rate_window=30))
    await r.start()
    for _ in range(2):
        assert (await refusal(r, "wrong")).code() == grpc.StatusCode.UNAUTHENTICATED
    refused = await refusal(r, r.tokens["alice"])
    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    status = rpc_status.from_call(refused)
    assert status is not None
    [detail] = status.details
    info = error_details_pb2.RetryInfo()
    assert detail.Unpack(info) and 1 <= info.retry_delay.seconds <= 30


async def test_a_reader_that_falls_behind_loses_its_own_connection_only() -> None:
    slow, other = Connection("slow", 2), Connection("other", 2)
    for _ in range(3):
        slow.send(tables_pb2.TableMessage())
    other.send(tables_pb2.TableMessage())
    assert slow.done.is_set() and "did not read" in slow.why
    assert not other.done.is_set()
    await asyncio.sleep(0)


def test_the_tokens_file_keeps_hashes_only(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    book = TokenBook()
    token = book.new("alice")
    assert len(token) >= 4 + 43  # the prefix, 32 random bytes
    # None starts with '-': a command line would take it for an option (--token -x...).
    assert token.startswith("mzt_") and not any(book.new("bob").startswith("-") for _ in range(300))
    book.save(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert token not in path.read_text() and token_hash(token) in path.read_text()
    loaded = TokenBook.load(path)
    assert loaded.who(token) == "alice" and loaded.who(token, "alice") == "alice"
    assert loaded.who(token, "bob") is None and loaded.who(token + "x") is None
    path.write_text("{}")
    with pytest.raises(ValueError, match="not a tokens file"):
        TokenBook.load(path)
