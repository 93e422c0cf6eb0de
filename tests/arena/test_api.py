"""The arena's API (``mazzo.v1.Arena``), through both doors: every test runs over gRPC
and over REST (the routes the proto's ``google.api.http`` annotations give), on SQLite
and on PostgreSQL. One owner's token never acts for another (a test per RPC); tokens
are shown once and kept hashed; bad input names its field (400/409 over HTTP, the
same message); each token has its own rate limit (RESOURCE_EXHAUSTED with RetryInfo,
429 with Retry-After)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import grpc
import httpx
import pytest
from google.protobuf import json_format
from google.rpc import code_pb2, error_details_pb2
from grpc_status import rpc_status
from sqlalchemy import select
from sqlalchemy.orm import Session

from mazzo.arena import api, serve
from mazzo.arena.api import Limits
from mazzo.arena.models import Bot, Owner
from mazzo.arena.run import Settings, run_arena
from mazzo.arena.store import Store
from mazzo.gateway.server import RateLimit
from mazzo.gateway.tokens import token_hash
from mazzo.referee.match import TimeControl
from mazzo.service.rest import http_rules
from mazzo.v1 import arena_pb2, arena_pb2_grpc
from tests.arena.sets import finish_next

Json = dict[str, Any]
ADMIN = "the-admin-token-of-these-tests"
DOORS = ["grpc", "rest"]
RULES = {rule.method.name: rule for rule in http_rules(serve.ARENA)}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Reply:
    """An answer, either door's: the code's name, the body (the answer or the Status
    as JSON), and for a refusal its field violations and when to retry."""

    code: str
    body: Json
    fields: list[str] = field(default_factory=list)
    retry: int | None = None
    http: int | None = None
    retry_after: str | None = None

    @property
    def message(self) -> str:
        return str(self.body.get("message", ""))


class Arena:
    """A served arena and a caller of its RPCs through either door."""

    def __init__(self, store: Store, served: serve.Served) -> None:
        self.store = store
        self.served = served
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{served.port}")
        self.stub = arena_pb2_grpc.ArenaStub(self.channel)
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{served.http_port}")

    async def call(self, door: str, rpc: str, request: Json, token: str = "") -> Reply:
        if door == "grpc":
            return await self._grpc(rpc, request, token)
        return await self._rest(rpc, request, token)

    async def ok(self, door: str, rpc: str, request: Json, token: str = "") -> Json:
        reply = await self.call(door, rpc, request, token)
        assert reply.code == "OK", reply
        return reply.body

    async def _grpc(self, rpc: str, request: Json, token: str) -> Reply:
        method = RULES[rpc].method
        message = json_format.ParseDict(request, _message(method.input_type.name))
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        try:
            answer = await getattr(self.stub, rpc)(message, metadata=metadata)
        except grpc.aio.AioRpcError as e:
            status = rpc_status.from_call(e)  # type: ignore[arg-type]
            body = {"code": e.code().value[0], "message": e.details()}
            return _refusal(e.code().name, body, status)
        return Reply("OK", json_format.MessageToDict(answer))

    async def _rest(self, rpc: str, request: Json, token: str) -> Reply:
        rule = RULES[rpc]
        rest = dict(request)
        path = re.sub(
            r"\{(\w+)\}", lambda m: quote(str(rest.pop(_camel(m.group(1)))), safe=""), rule.path
        )
        headers = {"authorization": f"Bearer {token}"} if token else {}
        if rule.verb == "GET":
            response = await self.http.get(path, params=rest, headers=headers)
        else:
            response = await self.http.request(rule.verb, path, json=rest, headers=headers)
        body = response.json()
        if response.status_code == 200:
            return Reply("OK", body, http=200)
        name = code_pb2.Code.Name(body["code"])
        status = json_format.ParseDict(body, rpc_status.status_pb2.Status())
        reply = _refusal(name, body, status)
        reply.http, reply.retry_after = response.status_code, response.headers.get("retry-after")
        return reply

    async def close(self) -> None:
        await self.channel.close()
        await self.http.aclose()


def _message(name: str) -> Any:
    return getattr(arena_pb2, name)()


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _refusal(code: str, body: Json, status: Any) -> Reply:
    reply = Reply(code, body)
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            reply.fields += [v.field for v in bad.field_violations]
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            reply.retry = info.retry_delay.seconds
    return reply


@pytest.fixture
async def arena(url: str) -> AsyncIterator[Arena]:
    with Store(url, migrate=False) as store:
        served = await serve.start(store, admin_hash=token_hash(ADMIN))
        client = Arena(store, served)
        try:
            yield client
        finally:
            await client.close()
            await serve.stop(served, grace=0.1)


@dataclass
class Cast:
    """Two owners, each with a dial-in bot on Briscola 2p, and their tokens."""

    ada: str
    bob: str
    ada_bot: str
    bob_bot: str
    ladder: int


async def cast(arena: Arena, door: str) -> Cast:
    tokens = {}
    for owner in ("ada", "bob"):
        made = await arena.ok(door, "CreateOwner", {"name": owner}, ADMIN)
        tokens[owner] = made["token"]
        bot = {"owner": owner, "name": f"{owner}-1", "game": "briscola", "players": 2}
        entered = await arena.ok(door, "RegisterBot", bot, tokens[owner])
        tokens[f"{owner}-1"] = entered["token"]
    ladder = int(entered["bot"]["ladderId"])
    return Cast(tokens["ada"], tokens["bob"], tokens["ada-1"], tokens["bob-1"], ladder)


# Owners, bots and tokens ----------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
async def test_an_owner_registers_bots_and_each_token_is_shown_once_and_kept_hashed(
    arena: Arena, door: str
) -> None:
    made = await arena.ok(door, "CreateOwner", {"name": "ada"}, ADMIN)
    assert made["owner"] == "ada" and len(made["token"]) >= 43
    dial_in = {"owner": "ada", "name": "ada-1", "game": "maraffa", "players": 4}
    dial_in["options"] = {"target": "21"}
    first = await arena.ok(door, "RegisterBot", dial_in, made["token"])
    assert first["bot"] == {"name": "ada-1", "owner": "ada", "ladderId": "1", "kind": "dial-in"}
    hosted = dict(dial_in, name="ada-2", target="grpc://127.0.0.1:50123")
    second = await arena.ok(door, "RegisterBot", hosted, made["token"])
    assert second["bot"]["kind"] == "grpc" and second["bot"]["ladderId"] == "1"  # same ladder
    listed = await arena.ok(door, "ListOwnerBots", {"owner": "ada"}, made["token"])
    assert [b["name"] for b in listed["bots"]] == ["ada-1", "ada-2"]
    assert "token" not in json.dumps(listed)
    # Only the hashes are stored, and the bot's token is the one its gateway accepts.
    with Session(arena.store.engine) as s:
        assert s.scalar(select(Owner.token_hash)) == token_hash(made["token"])
        stored = set(s.scalars(select(Bot.token_hash)))
    assert stored == {token_hash(first["token"]), token_hash(second["token"])}
    assert (found := arena.store.find_bot(first["token"])) is not None and found.name == "ada-1"
    ladders = await arena.ok(door, "ListLadders", {})
    assert ladders["ladders"] == [
        {"id": "1", "game": "maraffa", "players": 4, "options": {"target": "21"}, "bots": 2}
    ]


@pytest.mark.parametrize("door", DOORS)
async def test_a_rotated_token_replaces_the_old_one(arena: Arena, door: str) -> None:
    c = await cast(arena, door)
    new = await arena.ok(door, "RotateOwnerToken", {"owner": "ada"}, c.ada)
    assert new["owner"] == "ada" and new["token"] != c.ada
    old = await arena.call(door, "ListOwnerBots", {"owner": "ada"}, c.ada)
    assert old.code == "UNAUTHENTICATED"
    await arena.ok(door, "ListOwnerBots", {"owner": "ada"}, new["token"])
    bot = await arena.ok(door, "RotateBotToken", {"bot": "ada-1"}, new["token"])
    assert arena.store.find_bot(c.ada_bot) is None
    assert (found := arena.store.find_bot(bot["token"])) is not None and found.name == "ada-1"


@pytest.mark.parametrize("door", DOORS)
async def test_an_owner_pauses_and_resumes_its_bot_and_the_reason_is_shown(
    arena: Arena, door: str
) -> None:
    c = await cast(arena, door)
    paused = await arena.ok(door, "PauseBot", {"bot": "ada-1", "reason": "new version"}, c.ada)
    assert paused["bot"]["pausedReason"] == "new version"
    page = await arena.ok(door, "GetBot", {"bot": "ada-1"})
    assert page["standing"]["pausedReason"] == "new version"
    resumed = await arena.ok(door, "ResumeBot", {"bot": "ada-1"}, c.ada)
    assert "pausedReason" not in resumed["bot"]


@pytest.mark.parametrize("door", DOORS)
async def test_a_bot_is_entered_or_marked_as_played_by_a_person_and_its_page_says_so(
    arena: Arena, door: str
) -> None:
    made = await arena.ok(door, "CreateOwner", {"name": "ada"}, ADMIN)
    me = {"owner": "ada", "name": "ada-me", "game": "briscola", "players": 2, "person": True}
    entered = await arena.ok(door, "RegisterBot", me, made["token"])
    assert entered["bot"]["person"] is True and entered["bot"]["kind"] == "dial-in"
    assert (await arena.ok(door, "GetBot", {"bot": "ada-me"}))["bot"]["person"] is True
    # A person plays through the arena's page: a hosted bot is a program.
    hosted = dict(me, name="ada-2", target="grpc://127.0.0.1:50123")
    refused = await arena.call(door, "RegisterBot", hosted, made["token"])
    assert refused.code == "INVALID_ARGUMENT" and refused.fields == ["person"], refused
    await arena.ok(door, "RegisterBot", dict(hosted, person=False), made["token"])
    mark = {"bot": "ada-2", "person": True}
    refused = await arena.call(door, "SetBotPerson", mark, made["token"])
    assert refused.code == "INVALID_ARGUMENT" and refused.fields == ["person"], refused
    # Marked back as a program (proto3 JSON leaves a false field out), then as a person.
    off = await arena.ok(door, "SetBotPerson", {"bot": "ada-me", "person": False}, made["token"])
    assert "person" not in off["bot"]
    assert not arena.store.ladder_bots(int(entered["bot"]["ladderId"]))[0].person
    on = await arena.ok(door, "SetBotPerson", {"bot": "ada-me", "person": True}, made["token"])
    assert on["bot"]["person"] is True
    assert [b.person for b in arena.store.owner_bots(made["token"])] == [False, True]


# One owner never acts for another -------------------------------------------------------

#: Every RPC that acts for an owner, as ada's token would try it on bob's behalf.
ACTING = {
    "RotateOwnerToken": {"owner": "bob"},
    "ListOwnerBots": {"owner": "bob"},
    "RegisterBot": {"owner": "bob", "name": "bob-9", "game": "briscola", "players": 2},
    "RotateBotToken": {"bot": "bob-1"},
    "PauseBot": {"bot": "bob-1", "reason": "ada says so"},
    "ResumeBot": {"bot": "bob-1"},
    "SetBotPerson": {"bot": "bob-1", "person": True},
}


def test_every_rpc_is_covered_by_the_authorization_tests() -> None:
    covered = set(ACTING) | {"CreateOwner"} | set(PUBLIC)
    assert covered == {m.name for m in serve.ARENA.methods}


@pytest.mark.parametrize("url", ["sqlite"], indirect=True)  # the rule is the API's, not SQL's
@pytest.mark.parametrize("rpc", sorted(ACTING))
@pytest.mark.parametrize("door", DOORS)
async def test_one_owners_token_never_acts_for_another(arena: Arena, door: str, rpc: str) -> None:
    c = await cast(arena, door)
    arena.store.pause_bot("bob-1", "bob's own pause")  # ResumeBot would have work to do
    before = _state(arena.store)
    for token in (c.ada, c.bob_bot, c.ada_bot):  # another owner; bots act for no one
        refused = await arena.call(door, rpc, ACTING[rpc], token)
        expected = "PERMISSION_DENIED" if token == c.ada else "UNAUTHENTICATED"
        assert refused.code == expected, (token, refused)
        assert refused.http in (None, 403 if token == c.ada else 401)
    # Nor for a bot or owner that does not exist (the same answer: nothing learned).
    ghost = {
        k: (v.replace("bob", "zed") if k in ("owner", "bot") else v) for k, v in ACTING[rpc].items()
    }
    assert (await arena.call(door, rpc, ghost, c.ada)).code == "PERMISSION_DENIED"
    assert (await arena.call(door, rpc, ACTING[rpc])).code == "UNAUTHENTICATED"
    assert _state(arena.store) == before  # nothing changed
    await arena.ok(door, rpc, ACTING[rpc], c.bob)  # and bob may


@pytest.mark.parametrize("door", DOORS)
async def test_only_the_admin_token_creates_owners(arena: Arena, door: str) -> None:
    c = await cast(arena, door)
    for token in (c.ada, c.ada_bot, "", "not-a-token"):
        refused = await arena.call(door, "CreateOwner", {"name": "eve"}, token)
        assert refused.code == "UNAUTHENTICATED" and refused.http in (None, 401)
    assert "eve" not in _state(arena.store)["owners"]


#: The public reads: any token, or none, sees the same, and never a token or its hash.
PUBLIC = {
    "ListLadders": {},
    "GetStandings": {"ladderId": 1},
    "GetBot": {"bot": "bob-1"},
}


@pytest.mark.parametrize("url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("rpc", sorted(PUBLIC))
@pytest.mark.parametrize("door", DOORS)
async def test_the_public_reads_show_everyone_the_same_and_no_secret(
    arena: Arena, door: str, rpc: str
) -> None:
    c = await cast(arena, door)
    seen = [await arena.ok(door, rpc, PUBLIC[rpc], t) for t in ("", c.ada, c.bob, c.bob_bot)]
    assert all(s == seen[0] for s in seen)
    text = json.dumps(seen[0])
    for secret in (c.ada, c.bob, c.ada_bot, c.bob_bot):
        assert secret not in text and token_hash(secret) not in text


def _state(store: Store) -> Json:
    """Everything an API call could change: owners and bots with their hashes, pauses,
    who plays them."""
    with Session(store.engine) as s:
        return {
            "owners": {o.name: o.token_hash for o in s.scalars(select(Owner))},
            "bots": {
                b.name: (b.token_hash, b.paused_reason, b.ladder_id, b.person)
                for b in s.scalars(select(Bot))
            },
        }


# Bad input --------------------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
async def test_bad_input_names_its_field_with_the_same_message_through_both_doors(
    arena: Arena, door: str
) -> None:
    c = await cast(arena, door)
    bot = {"owner": "ada", "name": "ada-2", "game": "briscola", "players": 2}
    cases = [
        ("RegisterBot", dict(bot, name="no spaces"), "INVALID_ARGUMENT", "name"),
        ("RegisterBot", dict(bot, game="poker"), "INVALID_ARGUMENT", "game"),
        ("RegisterBot", dict(bot, players=7), "INVALID_ARGUMENT", "players"),
        ("RegisterBot", dict(bot, options={"target": "-3"}), "INVALID_ARGUMENT", "options"),
        ("RegisterBot", dict(bot, target="http://x"), "INVALID_ARGUMENT", "target"),
        ("RegisterBot", dict(bot, target="builtin:random"), "INVALID_ARGUMENT", "target"),
        ("RegisterBot", dict(bot, name="bob-1"), "FAILED_PRECONDITION", "name"),
        ("PauseBot", {"bot": "ada-1", "reason": "x" * 501}, "INVALID_ARGUMENT", "reason"),
        ("GetStandings", {"ladderId": 0}, "INVALID_ARGUMENT", "ladder_id"),
        ("GetBot", {"bot": "ada-1", "limit": 501}, "INVALID_ARGUMENT", "limit"),
        ("GetBot", {"bot": "ada-1", "opponent": "a b"}, "INVALID_ARGUMENT", "opponent"),
        ("GetBot", {"bot": "ada-1", "pageToken": "not a token"}, "INVALID_ARGUMENT", "page_token"),
        # A token this arena could have made, of a match not among ada-1's games.
        ("GetBot", {"bot": "ada-1", "pageToken": "bm9uZQ"}, "INVALID_ARGUMENT", "page_token"),
        (
            "GetBot",
            {"bot": "ada-1", "faultsPageToken": "%"},
            "INVALID_ARGUMENT",
            "faults_page_token",
        ),
        # ... and of a match ada-1 did not fault in.
        (
            "GetBot",
            {"bot": "ada-1", "faultsPageToken": "bm9uZQ"},
            "INVALID_ARGUMENT",
            "faults_page_token",
        ),
    ]
    for rpc, request, code, name in cases:
        refused = await arena.call(door, rpc, request, c.ada)
        assert (refused.code, refused.fields) == (code, [name]), (rpc, request, refused)
        assert refused.message.startswith(f"{name}: ")
        assert refused.http in (None, 400 if code == "INVALID_ARGUMENT" else 409)
    taken = await arena.call(door, "CreateOwner", {"name": "ada"}, ADMIN)
    assert (taken.code, taken.fields) == ("FAILED_PRECONDITION", ["name"])
    assert taken.message == "name: an owner named 'ada' exists"
    missing = await arena.call(door, "GetStandings", {"ladderId": 99})
    assert (missing.code, missing.message) == ("NOT_FOUND", "no ladder 99")


# Rate limits -----------------------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
async def test_each_token_has_its_own_rate_limit(arena: Arena, door: str) -> None:
    c = await cast(arena, door)
    arena.served.api.limits = limits = Limits(rate=3, window=30.0, failures=2)
    arena.served.api.calls = RateLimit(limits.rate, limits.window)
    arena.served.api.failures = RateLimit(limits.failures, limits.window)
    for _ in range(3):
        await arena.ok(door, "ListOwnerBots", {"owner": "ada"}, c.ada)
    refused = await arena.call(door, "ListOwnerBots", {"owner": "ada"}, c.ada)
    assert refused.code == "RESOURCE_EXHAUSTED" and refused.retry is not None
    assert 1 <= refused.retry <= 30 and "rate limit: this token" in refused.message
    if door == "rest":
        assert refused.http == 429 and refused.retry_after == str(refused.retry)
    await arena.ok(door, "ListOwnerBots", {"owner": "bob"}, c.bob)  # bob's is his own
    # The public reads count against the address, whatever token they carry.
    for made_up in ("a", "b", "c"):
        await arena.ok(door, "ListLadders", {}, made_up)
    public = await arena.call(door, "ListLadders", {}, "d")
    assert public.code == "RESOURCE_EXHAUSTED" and "calls from 127.0.0.1" in public.message
    # Guessing tokens: two failures, then the address waits, the database unasked.
    for guess in ("guess-1", "guess-2"):
        assert (await arena.call(door, "ListOwnerBots", {"owner": "ada"}, guess)).code == (
            "UNAUTHENTICATED"
        )
    third = await arena.call(door, "ListOwnerBots", {"owner": "ada"}, "guess-3")
    assert third.code == "RESOURCE_EXHAUSTED" and "failed authentications" in third.message


# A bot's page and the standings ---------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
async def test_standings_and_a_bots_page_show_games_history_and_faults(
    arena: Arena, door: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = arena.store
    ladder = store.add_ladder("briscola", 2)
    for owner in ("ada", "bob", "cy"):
        store.add_owner(owner)
        store.add_bot(owner, f"{owner}-1", ladder, "builtin", "builtin:random")
    # No time to think: every move a fault (a timeout), so each bot has faults.
    no_time = TimeControl(move=0.0, bank=0.0)
    settings = Settings(workers=1, matches=6, seed=1, clock=no_time, pause_limit=5)
    summary = await run_arena(store, settings)
    assert summary.finished == 6
    table = await arena.ok(door, "GetStandings", {"ladderId": ladder})
    rows = table["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert sum(int(r.get("games", 0)) for r in rows) == 12  # two seats a match
    for row in rows:
        assert row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert row["ratingLow"] == row["rating"] < row["mu"] < row["ratingHigh"]
        assert row.get("games", 0) == 0 or row["faultRate"] == 1.0  # a fault in each
    name = rows[0]["bot"]
    page = await arena.ok(door, "GetBot", {"bot": name})
    games = page["games"]
    finished = [g for g in games if g["status"] == "finished"]
    assert len(finished) == rows[0]["games"]
    assert all(name in g["seats"] for g in games)
    assert [p["matchId"] for p in page["history"]] == [g["matchId"] for g in finished][::-1]
    assert page["historyTotal"] == len(finished)
    last = page["history"][-1]
    assert last["rating"] == pytest.approx(rows[0]["rating"])
    assert finished[0]["ratingAfter"] == pytest.approx(rows[0]["rating"])
    faults = page["faults"]
    assert len(faults) == rows[0]["faults"] and {f["kind"] for f in faults} == {"timeout"}
    assert {f["matchId"] for f in faults} == {g["matchId"] for g in finished}
    opponent = next(s for g in finished for s in g["seats"] if s != name)
    against = await arena.ok(door, "GetBot", {"bot": name, "opponent": opponent, "limit": 1})
    assert len(against["games"]) == 1 and opponent in against["games"][0]["seats"]
    # A page at a time, each starting after the last one's games: the same games.
    assert page["totalGames"] == len(games) and "nextPageToken" not in page
    paged, request = [], {"bot": name, "limit": 1}
    while True:
        one = await arena.ok(door, "GetBot", request)
        assert len(one["games"]) == 1 and one["totalGames"] == len(games)
        paged += one["games"]
        if "nextPageToken" not in one:
            break
        request = {**request, "pageToken": one["nextPageToken"]}
    assert [g["matchId"] for g in paged] == [g["matchId"] for g in games]
    # A bot's history is bounded however many games it plays: the first and the newest kept.
    # Its faults a page at a time, whole matches' each: the same faults.
    monkeypatch.setattr(api, "MAX_FAULTS", 1)
    paged, request = [], {"bot": name}
    while True:
        one = await arena.ok(door, "GetBot", request)
        assert len({f["matchId"] for f in one["faults"]}) == 1  # one match's, all of them
        paged += one["faults"]
        if "nextFaultsPageToken" not in one:
            break
        request = {**request, "faultsPageToken": one["nextFaultsPageToken"]}
    assert paged == faults
    monkeypatch.setattr(api, "MAX_FAULTS", 200)
    busiest = max(rows, key=lambda r: int(r.get("games", 0)))["bot"]
    full = await arena.ok(door, "GetBot", {"bot": busiest})
    monkeypatch.setattr(api, "MAX_HISTORY", 2)
    short = await arena.ok(door, "GetBot", {"bot": busiest})
    assert short["history"] == [full["history"][0], full["history"][-1]]
    assert short["historyTotal"] == full["historyTotal"] == len(full["history"]) > 2
    missing = await arena.call(door, "GetBot", {"bot": "zed-1"})
    assert missing.code == "NOT_FOUND" and missing.http in (None, 404)


@pytest.mark.parametrize("door", DOORS)
async def test_a_bots_page_withholds_what_the_web_page_withholds_until_the_set_is_over(
    arena: Arena, door: str
) -> None:
    """The API reads what the pages read: a fault's detail may name a card of a deal
    still being played in its set's other match, so it stays empty until the set is
    over; and an opponent is a bot on another side (a partner is none)."""
    store = arena.store
    ladder = store.add_ladder("maraffa", 4, {"target": 41})
    for owner in ("ada", "bob", "cy", "di"):
        store.add_owner(owner)
        store.add_bot(owner, f"{owner}-1", ladder, "builtin", "builtin:random")
    # ada-1 and cy-1 are partners in the first set, opponents in the second.
    store.schedule_set(ladder, ["ada-1", "bob-1", "cy-1", "di-1"], rotations=2, seed=5)
    second = store.schedule_set(ladder, ["ada-1", "cy-1", "bob-1", "di-1"], rotations=2, seed=6)
    shown = {"seat": 0, "ply": 3, "class": "illegal", "detail": "played CARD_7C out of turn"}
    winners = {finish_next(store, [0], [shown]): 0, finish_next(store, [1]): 1}
    secret = {"seat": 0, "ply": 9, "class": "illegal", "detail": "played CARD_AS, not in hand"}
    third = finish_next(store, [1], [secret])  # its set's other match is still queued
    winners[third] = 1
    page = await arena.ok(door, "GetBot", {"bot": "ada-1"})
    assert "CARD_AS" not in json.dumps(page)
    by_match = {f["matchId"]: f for f in page["faults"]}
    assert by_match[third].get("detail", "") == "" and by_match[third]["kind"] == "illegal"
    assert [f["detail"] for f in page["faults"] if f["matchId"] != third] == [shown["detail"]]
    finished = [g for g in page["games"] if g["status"] == "finished"]
    assert {g["matchId"] for g in finished} == set(winners)
    for game in finished:  # partners on seats 0 and 2 (side 0), 1 and 3 (side 1)
        [seat] = game.get("ownSeats", [0])
        assert game.get("won", False) == (seat % 2 == winners[game["matchId"]])
        assert game["totals"] == ["41", "30"]
    against = await arena.ok(door, "GetBot", {"bot": "ada-1", "opponent": "cy-1"})
    assert {g["matchId"] for g in against["games"]} == set(second)  # not the first set's
    standings = await arena.ok(door, "GetStandings", {"ladderId": ladder})
    [ada] = [row for row in standings["standings"] if row["bot"] == "ada-1"]
    assert ada["faultRate"] == pytest.approx(2 / 3)


async def test_the_openapi_document_served_is_the_protos(arena: Arena) -> None:
    document = (await arena.http.get("/openapi.json")).json()
    assert document["info"]["title"] == "Mazzo arena"
    paths = {
        (rule.verb.lower(), re.sub(r"\{(\w+)\}", lambda m: "{" + _camel(m.group(1)) + "}", path))
        for path, rule in ((r.path, r) for r in RULES.values())
    }
    assert {(verb, path) for path, ops in document["paths"].items() for verb in ops} == paths
    pause = document["paths"]["/v1/arena/bots/{bot}:pause"]["post"]
    assert pause["security"] == [{"bearer": []}] and "403" in pause["responses"]
    assert "security" not in document["paths"]["/v1/arena/ladders"]["get"]


# mazzo arena serve ------------------------------------------------------------------------


def test_mazzo_arena_serve_on_port_0_prints_the_ports_it_bound(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    command = [sys.executable, "-m", "mazzo", "arena", "serve", "--db", db, "--port", "0"]
    command += ["--http-port", "0", "--gateway-port", "0", "--workers", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert process.stdout is not None
        admin = process.stdout.readline()
        assert admin.startswith("admin token (shown once, only its hash is kept): ")
        token = admin.rsplit(" ", 1)[1].strip()
        ports = process.stdout.readline()
        found = re.search(r"gRPC on 127\.0\.0\.1:(\d+), HTTP on 127\.0\.0\.1:(\d+)", ports)
        assert found, ports
        http = int(found.group(2))
        gateway = process.stdout.readline()
        assert re.fullmatch(r"gateway: grpc://127\.0\.0\.1:\d+\n", gateway), gateway
        made = httpx.post(
            f"http://127.0.0.1:{http}/v1/arena/owners",
            json={"name": "ada"},
            headers={"authorization": f"Bearer {token}"},
        )
        assert made.status_code == 200 and made.json()["owner"] == "ada"
        health = httpx.get(f"http://127.0.0.1:{http}/healthz")
        assert health.json() == {"status": "SERVING"}
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0


def test_the_serve_code_mounts_the_pages_when_their_module_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pagesdir"
    package.mkdir()
    (package / "fake_pages.py").write_text(
        "from starlette.responses import PlainTextResponse\n"
        "from starlette.routing import Route\n"
        "def routes(store):\n"
        "    return [Route('/ladder', lambda r: PlainTextResponse('a page'))]\n"
    )
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setattr(serve, "PAGES_MODULE", "fake_pages")
    routes = serve.page_routes(None)  # type: ignore[arg-type]
    assert [getattr(r, "path", "") for r in routes] == ["/ladder"]
    monkeypatch.setattr(serve, "PAGES_MODULE", "mazzo.arena.no_such_pages")
    assert serve.page_routes(None) == []  # type: ignore[arg-type]


# No input makes a server error -------------------------------------------------------

#: Values no field expects: wrong kinds, extremes, control characters, long text.
ODD = ["", "[1,2]", '{"a":1}', "null", "1e999", "-1", "true", "x" * 5000, "\u0000", "NaN"]


@pytest.mark.parametrize("url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("door", DOORS)
async def test_odd_input_to_every_rpc_is_refused_never_a_server_error(
    arena: Arena, door: str
) -> None:
    c = await cast(arena, door)
    arena.served.api.calls = RateLimit(10_000, 60.0)  # the limits are another test's
    arena.served.api.failures = RateLimit(10_000, 60.0)
    rng = random.Random(34)
    games = ["briscola", "maraffa", "ramino", "burraco", "x"]
    seen = set()
    for _ in range(120):
        value = rng.choice(ODD)
        request = {
            "CreateOwner": {"name": value},
            "RotateOwnerToken": {"owner": value},
            "ListOwnerBots": {"owner": value or "ada"},
            "RegisterBot": {
                "owner": "ada",
                "name": rng.choice(["ada-2", value]),
                "game": rng.choice(games),
                "players": rng.choice([0, 2, 3, 4, 9]),
                "options": {rng.choice(["target", "x", ""]): value},
                "target": rng.choice(["", value, f"grpc://{value}:1"]),
            },
            "RotateBotToken": {"bot": value},
            "PauseBot": {"bot": rng.choice(["ada-1", value]), "reason": value},
            "ResumeBot": {"bot": value or "ada-1"},
            "SetBotPerson": {"bot": rng.choice(["ada-1", value]), "person": rng.random() < 0.5},
            "ListLadders": {},
            "GetStandings": {"ladderId": rng.choice([1, 2, 2**40])},
            "GetBot": {
                "bot": value or "ada-1",
                "opponent": rng.choice(["", value]),
                "limit": 3,
                **({"pageToken": value} if rng.random() < 0.5 else {}),
                **({"faultsPageToken": value} if rng.random() < 0.5 else {}),
            },
        }
        rpc = rng.choice(sorted(request))
        if door == "rest" and any(v == "" for v in request[rpc].values()):
            continue  # an empty path segment is another route (404), not this RPC
        token = rng.choice([c.ada, ADMIN, c.ada_bot, "made-up", ""])
        reply = await arena.call(door, rpc, request[rpc], token)
        assert reply.code not in ("INTERNAL", "UNKNOWN"), (rpc, request[rpc], reply)
        assert reply.http is None or reply.http < 500, (rpc, request[rpc], reply)
        seen.add(reply.code)
    assert {"OK", "INVALID_ARGUMENT", "PERMISSION_DENIED", "UNAUTHENTICATED"} <= seen
