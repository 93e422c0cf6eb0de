"""Two arena processes on one PostgreSQL share the work (issue 34, item 5): every match
is played exactly once, by one process, no bot sits at two tables at the same moment
(the matches' stored claim and end times say so), and no scheduler seats a bot in two
duplicate sets at once. Dial-in bots too: each is seated by the process whose gateway
holds its stream, and none is recorded as crashed while it stayed connected; the
queued matches of a bot whose process was killed are voided by the other, and nothing
hangs. PostgreSQL only: SQLite's one writer at a time is the single-machine case."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import grpc
import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from mazzo.arena import queries, serve
from mazzo.arena.crash import LadderForm, environment, serve_command
from mazzo.arena.models import Bot, Match, MatchSeat
from mazzo.arena.multi import (
    Ran,
    audit,
    enter_house,
    overlaps,
    run_processes,
    set_overlaps,
)
from mazzo.arena.run import Settings
from mazzo.arena.store import Busy, Store
from mazzo.gateway.server import Limits
from tests.gateway.conftest import Client, safe_index

HOUSE: LadderForm = ("briscola", 2, {})
ON_POSTGRESQL = pytest.mark.parametrize("url", ["postgresql"], indirect=True)


@ON_POSTGRESQL
def test_two_processes_play_each_match_once_and_seat_no_bot_twice(url: str) -> None:
    with Store(url, migrate=False) as store:
        ladder = enter_house(store, HOUSE, bots=6)
        ran = run_processes(url, processes=2, matches=5, workers=2, env=environment(), queue=8)
        assert audit(store, ran) == []
        assert [len(r.finished()) for r in ran] == [5, 5]
        # Each run stops with none of its matches in play.
        lines = queries.newest_matches(store, ladder, limit=1000)
        assert sum(m.status == "finished" for m in lines) == 10
        assert all(m.status != "playing" for m in lines)


@ON_POSTGRESQL
def test_a_claim_skips_the_matches_whose_bots_are_at_another_table(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=4)
    first = store.schedule_set(ladder, ["bot0", "bot1"])
    second = store.schedule_set(ladder, ["bot2", "bot3"])
    a, b = store.claim("w1"), store.claim("w2")
    assert a is not None and b is not None
    assert (a.match_id, b.match_id) == (first[0], second[0])  # not first[1]: same bots
    assert store.claim("w3") is None  # every other match seats a bot in play
    store.void(a.match_id, "a test")
    c = store.claim("w3")
    assert c is not None and c.match_id == first[1]
    assert overlaps(store) == []


@ON_POSTGRESQL
def test_a_scheduler_seats_no_bot_in_two_sets_at_once(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=3)
    first = store.schedule_set(ladder, ["bot0", "bot1"], free_only=True)
    with pytest.raises(Busy, match="bot1 is seated"):
        store.schedule_set(ladder, ["bot2", "bot1"], free_only=True)
    second = store.schedule_set(ladder, ["bot2", "bot1"])  # by hand: as asked
    one, two = store.match(first[0]).set_id, store.match(second[0]).set_id
    assert set_overlaps(store) == [f"bot1 was seated in sets {one} and {two} at once"]


@ON_POSTGRESQL
def test_the_audit_sees_a_bot_at_two_tables(store: Store) -> None:
    ladder = enter_house(store, HOUSE, bots=2)
    first, second = store.schedule_set(ladder, ["bot0", "bot1"])
    claim = store.claim("w1")
    assert claim is not None and claim.match_id == first
    with store.engine.begin() as connection:  # as a claim that ignored the seat would
        same = claim_time(store, first) + timedelta(microseconds=1)
        connection.execute(
            update(Match)
            .where(Match.id == second)
            .values(status="playing", claimed_by="w2", claimed_at=same, heartbeat_at=same)
        )
    assert overlaps(store) == [
        f"bot0 sat at {first} and {second} at once",
        f"bot1 sat at {first} and {second} at once",
    ]


def claim_time(store: Store, match_id: str) -> datetime:
    at = store.match(match_id).claimed_at
    assert at is not None
    return at


@dataclass
class Serving:
    """``mazzo arena serve`` as a process of its own: its gateway's address, and all it
    prints (read as it comes, so that its pipe never fills)."""

    process: asyncio.subprocess.Process
    gateway: str
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.process.pid

    async def stop(self) -> Ran:
        """SIGTERM (the matches in play are voided, saying so), and what it printed."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), 30)
        await asyncio.gather(*self.readers)
        return Ran(self.pid, code, "".join(self.out), "".join(self.err))


async def serving(url: str, seed: int, grace: float) -> Serving:
    process = await asyncio.create_subprocess_exec(
        *serve_command(url, seed, workers=2, grace=grace),
        env=environment(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    out: list[str] = []
    while not out or not out[-1].startswith("gateway: grpc://"):
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line, f"mazzo arena serve ended before its gateway opened: {out}"
        out.append(line)
    served = Serving(process, out[-1].removeprefix("gateway: grpc://").strip(), out)
    for stream, lines in ((process.stdout, served.out), (process.stderr, served.err)):
        served.readers.append(asyncio.create_task(_read(stream, lines)))
    return served


async def _read(stream: asyncio.StreamReader, lines: list[str]) -> None:
    while line := await stream.readline():
        lines.append(line.decode())


async def dial_in(target: str, token: str) -> None:
    """A dial-in bot that answers every decision at once, until its stream ends."""
    client = Client(target)
    try:
        await client.join(token)
        while (decision := await client.next_decision()) is not None:
            await client.answer(decision.sequence, safe_index(decision.request))
    except grpc.aio.AioRpcError:
        pass  # its arena stopped, or was killed
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def bots_dialed_in(targets: dict[str, str], tokens: dict[str, str]) -> AsyncIterator[None]:
    """Each bot of ``targets`` dialed in to its arena's gateway while inside."""
    tasks = [asyncio.create_task(dial_in(targets[b], tokens[b])) for b in targets]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def until(check: Callable[[], bool], seconds: float, what: str) -> None:
    end = asyncio.get_running_loop().time() + seconds
    while not await asyncio.to_thread(check):
        assert asyncio.get_running_loop().time() < end, f"not within {seconds:g} s: {what}"
        await asyncio.sleep(0.2)


def dial_in_ladder(store: Store, dial_in: int, builtin: int) -> tuple[int, dict[str, str]]:
    """A Briscola 2p ladder of dial-in bots ``d0``... and builtin random ones ``b0``...,
    each its own owner's; and the dial-in bots' tokens."""
    ladder = store.add_ladder(*HOUSE[:2])
    tokens = {}
    for k in range(dial_in):
        store.add_owner(f"od{k}")
        tokens[f"d{k}"] = store.add_bot(f"od{k}", f"d{k}", ladder).token
    for k in range(builtin):
        store.add_owner(f"ob{k}")
        store.add_bot(f"ob{k}", f"b{k}", ladder, "builtin", "builtin:random")
    return ladder, tokens


def games(store: Store, ladder: int) -> dict[str, int]:
    return {s.bot: s.games for s in store.standings(ladder)}


def seated(store: Store, bot: str) -> list[Match]:
    """Every match seating ``bot``."""
    with Session(store.engine) as s:
        return list(
            s.scalars(
                select(Match)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .join(Bot, Bot.id == MatchSeat.bot_id)
                .where(Bot.name == bot)
                .order_by(Match.created_at)
            )
        )


async def this_process_arena(store: Store, seed: int, grace: float) -> serve.Served:
    """The second arena process: this test's own (``mazzo arena serve`` as the CLI
    starts it, every port a free one; its imports done already, so it starts at once)."""
    play = Settings(workers=2, seed=seed, until_idle=False, idle=0.1)
    return await serve.start(
        store, play=play, report=print, gateway_port=0, gateway_limits=Limits(grace=grace)
    )


@ON_POSTGRESQL
async def test_two_processes_seat_each_dial_in_bot_where_it_is_connected(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(url, migrate=False) as store:
        ladder, tokens = dial_in_ladder(store, dial_in=4, builtin=2)
        b = await this_process_arena(store, 2, grace=2.0)
        a = await serving(url, 1, grace=2.0)
        b_gateway = f"127.0.0.1:{b.gateway_port}"
        home = {"d0": a.gateway, "d1": a.gateway, "d2": b_gateway, "d3": b_gateway}
        try:
            async with bots_dialed_in(home, tokens):

                def each_played_twice() -> bool:
                    return all(games(store, ladder)[bot] >= 2 for bot in home)

                await until(each_played_twice, 40, "each dial-in bot plays two matches")
                # Both stopped while their bots are connected: a match in play is voided.
                ran_a, _ = await asyncio.gather(a.stop(), serve.stop(b, grace=0.5))
        finally:
            if a.process.returncode is None:
                a.process.kill()
        ran = [ran_a, Ran(os.getpid(), 0, capsys.readouterr().out, "")]
        assert audit(store, ran, stopped=True) == []
        for bot, pid in (("d0", a.pid), ("d1", a.pid), ("d2", os.getpid()), ("d3", os.getpid())):
            for match in seated(store, bot):
                if match.status == "scheduled":  # queued: for the next run
                    assert match.claimed_by is None
                    continue
                # Claimed by the process holding the bot, and none recorded a fault of it
                # (a crash, above all: it stayed connected).
                assert f"/{pid}/" in (match.claimed_by or ""), (bot, match.claimed_by)
                if match.status == "voided":
                    assert (match.voided_reason or "").startswith("the arena stopped while ")
                else:
                    assert match.record is not None and match.record["faults"] == []


@ON_POSTGRESQL
async def test_a_killed_process_s_dial_in_bot_has_its_queue_voided_by_the_other(
    url: str,
) -> None:
    with Store(url, migrate=False) as store:
        ladder, tokens = dial_in_ladder(store, dial_in=1, builtin=3)
        b = await this_process_arena(store, 2, grace=1.0)
        a = await serving(url, 1, grace=1.0)
        try:
            async with bots_dialed_in({"d0": a.gateway}, tokens):
                await until(lambda: games(store, ladder)["d0"] >= 1, 30, "d0 plays a match")
                a.process.kill()  # kill -9: d0's stream, its claims, its beat end with it
                await a.process.wait()
            done = sum(games(store, ladder).values())

            def d0_settled() -> bool:  # none of its matches waits for it any more
                return all(m.status in ("finished", "voided") for m in seated(store, "d0"))

            await until(d0_settled, 30, "d0's matches voided by the other process")
            # The other process plays on (its builtin bots), and nothing hangs.
            await until(lambda: sum(games(store, ladder).values()) > done + 4, 30, "b plays")
        finally:
            if a.process.returncode is None:
                a.process.kill()
            await serve.stop(b, grace=0.5)
        assert overlaps(store) == [] and set_overlaps(store) == []
        for match in seated(store, "d0"):
            if match.status == "finished":  # before the kill: it was connected throughout
                assert match.record is not None and match.record["faults"] == []
                assert f"/{a.pid}/" in (match.claimed_by or "")
                continue
            why = match.voided_reason or ""
            assert (
                (f"/{a.pid}/" in why and "crashed while playing it" in why)  # A's claim
                or why.startswith("d0 is connected to no arena process since ")  # queued
            ), why
