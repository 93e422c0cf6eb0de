"""The arena plays every kind of bot: builtin bots, a ``grpc://`` bot (the Python
starter's ``run-bot``) and a bot that dials in to ``mazzo arena serve``'s gateway with
its token (the starter's ``--connect`` mode); every finished match is stored with a
record that verifies. A dial-in bot is seated only while it is connected; one that
drops mid-match is judged by the gateway's grace (a ``crash`` fault in the record),
and its queued matches are voided once it has been away longer than the grace;
a ``grpc://`` bot that does not answer faults as in the referee."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from mazzo.arena import serve
from mazzo.arena.models import Match
from mazzo.arena.run import Settings, run_arena
from mazzo.arena.store import Finished, Refused, Store
from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH
from mazzo.gateway.server import Limits
from mazzo.referee.verify import OK, verify
from mazzo.v1 import tables_pb2
from tests.gateway.conftest import Client, safe_index
from tests.gateway.test_http import preflight

ROOT = Path(__file__).resolve().parents[2]
Json = dict[str, Any]
#: Quick matches: Briscola 2p, a duplicate set of two.
GAME, PLAYERS = "briscola", 2


async def starter(*args: str) -> tuple[asyncio.subprocess.Process, str]:
    """The Python starter (``clients/python``) with ``args``, and its first line
    (``LISTENING HOST:PORT`` or ``JOINED NAME``)."""
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT / 'server'}:{ROOT / 'clients' / 'python' / 'src'}",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "mazzo_starter.bot",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 20)
    return process, line.decode().strip()


async def ended(process: asyncio.subprocess.Process) -> int:
    """Its exit status; killed if it has not ended within 10 s."""
    try:
        return await asyncio.wait_for(process.wait(), 10)
    except TimeoutError:
        process.kill()
        return await process.wait()


def finished_records(store: Store) -> list[Json]:
    with Session(store.engine) as session:
        rows = session.scalars(select(Match).where(Match.status == "finished"))
        return [m.record for m in rows if m.record is not None]


def published(store: Store) -> dict[str, Json]:
    """The commitment lines published before each finished match's first move."""
    with Session(store.engine) as session:
        rows = session.scalars(select(Match).where(Match.status == "finished"))
        return {
            m.id: {"mazzo_commitment": 1, "id": m.id, "deal_commitment": m.deal_commitment}
            for m in rows
        }


def games(store: Store, ladder: int) -> dict[str, int]:
    return {s.bot: s.games for s in store.standings(ladder)}


async def until(check: Any, seconds: float, what: str) -> None:
    end = asyncio.get_running_loop().time() + seconds
    while not await asyncio.to_thread(check):
        assert asyncio.get_running_loop().time() < end, f"not within {seconds:g} s: {what}"
        await asyncio.sleep(0.1)


@contextlib.asynccontextmanager
async def arena(
    store: Store, grace: float = 10.0, workers: int = 2
) -> AsyncIterator[tuple[serve.Served, list[str]]]:
    """``mazzo arena serve`` in this process, every port a free one, playing."""
    lines: list[str] = []
    play = Settings(workers=workers, seed=1, until_idle=False, idle=0.1)
    served = await serve.start(
        store, play=play, report=lines.append, gateway_port=0, gateway_limits=Limits(grace=grace)
    )
    try:
        yield served, lines
    finally:
        await serve.stop(served, grace=0.5)


def enter(store: Store, ladder: int, name: str, kind: str, target: str = "") -> str:
    """A bot of its own owner (``ada-1`` is ``ada``'s); its token."""
    store.add_owner(name.split("-")[0])
    return store.add_bot(name.split("-")[0], name, ladder, kind, target).token


async def test_builtin_grpc_and_dial_in_bots_play_and_every_record_verifies(url: str) -> None:
    with Store(url) as store:
        ladder = store.add_ladder(GAME, PLAYERS)
        enter(store, ladder, "ada-1", "builtin", "builtin:heuristic")
        enter(store, ladder, "bob-1", "builtin", "builtin:random")
        hosted, listening = await starter("--port", "0", "--seed", "1")
        dialer = None
        try:
            assert listening.startswith("LISTENING "), listening
            enter(store, ladder, "di-1", "grpc", "grpc://" + listening.split()[1])
            token = enter(store, ladder, "cy-1", "dial-in")
            async with arena(store) as (served, lines):
                assert served.gateway is not None and not served.gateway.connected("cy-1")
                address = f"127.0.0.1:{served.gateway_port}"
                dialer, joined = await starter("--connect", address, "--token", token)
                assert joined == "JOINED cy-1"
                assert served.gateway.connected("cy-1")

                def both_played() -> bool:
                    played = games(store, ladder)
                    return played["cy-1"] >= 2 and played["di-1"] >= 2

                await until(both_played, 30, f"cy-1 and di-1 play two matches: {lines}")
            # The arena's end ends the dial-in starter's stream: it exits 0.
            assert await ended(dialer) == 0
        finally:
            hosted.terminate()
            await ended(hosted)
            if dialer is not None and dialer.returncode is None:
                dialer.kill()
        records = finished_records(store)
        verdict = verify(records, published(store))
        assert verdict.code == OK and verdict.records == len(records) >= 4, verdict.failures
        bots = {bot for r in records for side in r["sides"] for bot in side["bots"]}
        assert {"connect:cy-1", "builtin:heuristic", "builtin:random"} <= bots
        assert "grpc://" + listening.split()[1] in bots
        assert all(r["faults"] == [] for r in records), [r["faults"] for r in records]
        assert not [line for line in lines if line.startswith("voided") and "stopped" not in line]


@pytest.mark.parametrize("drop_written", ["at once", "2 s late"])
async def test_a_dial_in_bot_that_drops_mid_match_is_a_crash_its_queue_voided_and_seated_no_more(
    tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch, drop_written: str
) -> None:
    """The gateway writes a drop to the database just after it. Written late (a busy
    database), a claim made meanwhile must still not seat the bot (the claim asks the
    gateway too): its queued match would be played and faulted a grace later, one
    crash more for one drop (seen once in CI)."""
    if drop_written == "2 s late":
        record = Store.record_connections

        def late(self: Store, process: str, connected: Any, now: Any = None) -> set[str]:
            if not connected:  # the drop
                threading.Event().wait(2.0)
            return record(self, process, connected, now)

        monkeypatch.setattr(Store, "record_connections", late)
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = store.add_ladder(GAME, PLAYERS)
        enter(store, ladder, "ada-1", "builtin", "builtin:random")
        token = enter(store, ladder, "cy-1", "dial-in")
        async with arena(store, grace=0.3, workers=1) as (served, lines):
            client = Client(f"127.0.0.1:{served.gateway_port}")
            await client.join(token, "cy-1")
            decision = await client.next_decision()
            assert decision is not None
            await client.answer(decision.sequence, safe_index(decision.request))
            await client.close()  # and never comes back

            def set_over() -> bool:
                return games(store, ladder)["cy-1"] == 1 and not store.queued(ladder)

            await until(set_over, 30, f"cy-1's set is over: {lines}")
            await asyncio.sleep(0.5)  # rounds of the scheduler: cy-1 is not seated again
            assert not store.queued(ladder) and games(store, ladder)["cy-1"] == 1
            assert served.gateway is not None and not served.gateway.connected("cy-1")
        # The match in play: a crash; the set's other match waited the grace for cy-1
        # to dial in again (to any arena process), then was voided, saying why.
        [record] = finished_records(store)
        assert verify([record], published(store)).code == OK
        [fault] = record["faults"]
        assert (fault["bot"], fault["class"]) == ("connect:cy-1", "crash")
        assert fault["detail"] == "disconnected, not back within the grace of 0.3 s"
        [cy] = [s for s in store.standings(ladder) if s.bot == "cy-1"]
        assert cy.faults == 1
        [voided] = [line for line in lines if line.startswith("voided ")]
        assert "cy-1 is connected to no arena process since " in voided
        assert voided.endswith("(more than the grace of 0.3 s)")


async def test_the_gateway_admits_the_arena_tokens_only_and_bots_registered_meanwhile(
    tmp_path: Path, sqlite_template: Path
) -> None:
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = store.add_ladder(GAME, PLAYERS)
        async with arena(store, workers=1) as (served, _lines):
            target = f"127.0.0.1:{served.gateway_port}"
            late = enter(store, ladder, "cy-1", "dial-in")  # after the gateway opened
            builtin = enter(store, ladder, "ada-1", "builtin", "builtin:random")
            refusals = []
            for token, name, plays in (
                ("not-a-token", "cy-1", ()),
                (builtin, "ada-1", ()),  # a builtin bot's token: no seat to dial in to
                (late, "cy-1", (("ramino", 4),)),  # not its ladder's game
            ):
                client = Client(target)
                hello = tables_pb2.Hello(token=token, name=name, protocol_version=1)
                for game, players in plays:
                    hello.plays.add(game=game, players=players)
                await client.call.write(tables_pb2.BotMessage(hello=hello))
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await client.read()
                refusals.append((refused.value.code(), refused.value.details()))
                await client.close()
            assert refusals == [
                (grpc.StatusCode.UNAUTHENTICATED, "unknown token for this name"),
                (grpc.StatusCode.UNAUTHENTICATED, "unknown token for this name"),
                (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "cy-1 is on the briscola 2p ladder, which it does not play",
                ),
            ]
            client = Client(target)
            welcome = await client.join(late)  # the name is the token's
            assert welcome.name == "cy-1" and served.gateway is not None
            assert served.gateway.connected("cy-1")
            await client.close()


async def test_a_grpc_bot_that_cannot_be_dialed_faults_as_in_the_referee(
    tmp_path: Path, sqlite_template: Path
) -> None:
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    with Store(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        ladder = store.add_ladder(GAME, PLAYERS)
        enter(store, ladder, "ada-1", "builtin", "builtin:random")
        enter(store, ladder, "di-1", "grpc", f"grpc://127.0.0.1:{closed}")
        summary = await run_arena(store, Settings(workers=1, matches=2, seed=1))
        assert (summary.finished, summary.voided) == (2, 0)
        records = finished_records(store)
        assert verify(records, published(store)).code == OK
        for record in records:
            [fault] = record["faults"]  # the first move; then random moves, marked auto
            assert (fault["bot"], fault["class"]) == (f"grpc://127.0.0.1:{closed}", "crash")
            assert fault["detail"].startswith("UNAVAILABLE")


class _HeldFinish(Store):
    """A store whose ``finish`` waits for ``release`` (set from the test) after saying
    it ``began``; with ``refuse``, it refuses the record then."""

    def __init__(self, url: str, refuse: bool = False) -> None:
        super().__init__(url)
        self.began, self.release = threading.Event(), threading.Event()
        self.refuse = refuse

    def finish(self, *args: Any, **kwargs: Any) -> Finished:
        self.began.set()
        self.release.wait(30)
        if self.refuse:
            raise Refused("refused by the test")
        return super().finish(*args, **kwargs)


async def _play_until_the_record_is_stored(
    client: Client, store: _HeldFinish
) -> tables_pb2.MatchEnded:
    """Answer decisions until the worker is storing the record; then nothing more
    comes (no MatchEnded) until the store answers; the MatchEnded that follows."""
    # A read is always pending when the loop ends: the store may begin between the
    # last answer and the next look at it, and that answer's read is spent.
    reading = asyncio.ensure_future(client.read())
    while True:
        while not reading.done() and not store.began.is_set():
            await asyncio.sleep(0.01)
        if not reading.done():
            break
        message = reading.result()
        assert message.WhichOneof("kind") != "match_ended", message
        if message.WhichOneof("kind") == "decision":
            decision = message.decision
            await client.answer(decision.sequence, safe_index(decision.request))
        reading = asyncio.ensure_future(client.read())
    await asyncio.sleep(0.5)  # the record is being stored: the bot is told nothing yet
    assert not reading.done(), reading.result()
    store.release.set()
    message = await asyncio.wait_for(reading, 10)
    assert message.WhichOneof("kind") == "match_ended", message
    return message.match_ended


async def test_a_dial_in_bot_is_told_its_match_ended_only_once_its_record_is_stored(
    tmp_path: Path, sqlite_template: Path
) -> None:
    # Told first and stored after, a kill -9 in between would have the bot know of a
    # finished match that the arena lost.
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    store = _HeldFinish(f"sqlite:///{tmp_path / 'arena.db'}")
    with store:
        ladder = store.add_ladder(GAME, PLAYERS)
        enter(store, ladder, "ada-1", "builtin", "builtin:random")
        token = enter(store, ladder, "cy-1", "dial-in")
        async with arena(store, workers=1) as (served, _lines):
            client = Client(f"127.0.0.1:{served.gateway_port}")
            await client.join(token, "cy-1")
            ended = await _play_until_the_record_is_stored(client, store)
            assert ended.record_id == ended.match_id
            assert store.match(ended.match_id).status == "finished"
            await client.close()


async def test_a_record_the_arena_could_not_store_is_told_ended_with_no_record(
    tmp_path: Path, sqlite_template: Path
) -> None:
    (tmp_path / "arena.db").write_bytes(sqlite_template.read_bytes())
    store = _HeldFinish(f"sqlite:///{tmp_path / 'arena.db'}", refuse=True)
    with store:
        ladder = store.add_ladder(GAME, PLAYERS)
        enter(store, ladder, "ada-1", "builtin", "builtin:random")
        token = enter(store, ladder, "cy-1", "dial-in")
        async with arena(store, workers=1) as (served, lines):
            client = Client(f"127.0.0.1:{served.gateway_port}")
            await client.join(token, "cy-1")
            ended = await _play_until_the_record_is_stored(client, store)
            assert (ended.record_id, ended.forfeit) == ("", "stopped before the end")
            assert store.match(ended.match_id).status == "playing"  # until voided as stale

            def reported() -> bool:
                return any(
                    line.startswith("[0] lost: the store refused its record") for line in lines
                )

            await until(reported, 5, f"the run reports the match lost: {lines}")
            await client.close()


async def test_the_arena_door_answers_the_pages_of_the_origins_it_allows_only(
    store: Store,
) -> None:
    """``mazzo arena serve --cors-origin``: a dial-in bot written as a page of that
    origin may call the door on the HTTP port; the arena's own API is not opened by it."""
    origin = "https://bots.example.org"
    served = await serve.start(store, gateway_port=0, pages=True, cors=(origin,))
    base = f"http://127.0.0.1:{served.http_port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            asked = await http.options(
                JOIN_PATH, headers=preflight(JOIN_PATH, origin, "content-type")
            )
            assert asked.status_code == 200
            assert asked.headers["access-control-allow-origin"] == origin
            evil = preflight(ANSWER_PATH, "https://evil.example", "authorization")
            assert (await http.options(ANSWER_PATH, headers=evil)).status_code == 400
            hello = {"hello": {"token": "nope", "protocolVersion": 1}}
            wrong = await http.post(JOIN_PATH, json=hello, headers={"origin": origin})
            assert wrong.status_code == 401
            assert wrong.headers["access-control-allow-origin"] == origin
            api = "/v1/arena/owners"
            shut = await http.options(api, headers=preflight(api, origin, "authorization"))
            assert "access-control-allow-origin" not in shut.headers
    finally:
        await serve.stop(served, grace=0.5)
