"""Sealed states through the service, over gRPC and HTTP (docs/sealing.md): matches played
with tokens agree move for move with the same matches played with plain states; every
refusal has the documented code, field and text; keys rotate without breaking a match."""

from __future__ import annotations

import base64
import contextlib
import os
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf import json_format

from mazzo.core import fair
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.sealing import NOT_A_TOKEN, Key, Sealer, read_header
from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_helpers import field_violations
from tests.service.fuzz_every_rpc import FORMS

Stub = game_service_pb2_grpc.GameServiceStub
TIMEOUT = 30.0


@dataclass
class Served:
    stub: Stub
    http: httpx.AsyncClient


@contextlib.asynccontextmanager
async def serving(sealer: Sealer | None) -> AsyncIterator[Served]:
    """A server on free ports (gRPC and HTTP), sealing with ``sealer``'s keys."""
    running, port = await start_server("127.0.0.1", 0, http_port=0, sealer=sealer)
    try:
        async with (
            httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{running.http_port}", timeout=TIMEOUT
            ) as http,
            grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
        ):
            yield Served(game_service_pb2_grpc.GameServiceStub(channel), http)
    finally:
        await stop_server(running, grace=0.5, quiet=0)


def new_key(key_id: str) -> Key:
    return Key(key_id, os.urandom(32))


def options_of(game: str, values: dict[str, Any]) -> game_pb2.GameOptions:
    return json_format.ParseDict({game: values}, game_pb2.GameOptions())


def decider(state: game_pb2.GameState) -> int:
    """The seat whose token may move now (the dummy's controller for the dummy)."""
    rules, codec = rules_for(state.game), CODECS[state.game]
    domain = codec.state_from_wire(state)
    return int(rules.controller(domain, rules.to_act(domain)))


def not_a_claim(move: game_pb2.Move) -> bool:
    """A random Maraffa claim would end the match at once."""
    return move.WhichOneof("move") != "maraffa" or move.maraffa.WhichOneof("action") != "claim"


async def refusal(call: Any) -> tuple[grpc.StatusCode, list[tuple[str, str]]]:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    return error.value.code(), field_violations(error.value)


# --------------------------------------------------------------------------- lockstep


@pytest.mark.parametrize(("game", "players", "values"), FORMS, ids=lambda v: str(v))
async def test_a_sealed_match_agrees_move_for_move_with_the_plain_one(
    game: str, players: int, values: dict[str, Any]
) -> None:
    """The same deal played with plain states and with tokens, the same moves chosen:
    each seat's token gives exactly its plain view, the deciding seat's token exactly
    the plain legal moves, and every ApplyMove the same events and next seat; the next
    decision's moves only when the same player decides again. Maraffa with four
    players is played to its end, every other form for 30 moves."""
    async with serving(Sealer([new_key("k1")])) as served:
        stub = served.stub
        options = options_of(game, values)
        plain = await stub.Deal(gs.DealRequest(game=game, players=players, options=options, seed=5))
        sealed = await stub.Deal(
            gs.DealRequest(game=game, players=players, options=options, seed=5, seal=True)
        )
        assert not sealed.HasField("state") and not sealed.legal_moves
        assert sealed.seat == plain.seat and len(bytes.fromhex(sealed.match_id)) == 16
        state, tokens = plain.state, list(sealed.sealed_states)
        rules = rules_for(game)
        domain = CODECS[game].state_from_wire(state)
        holders = [s for s in range(len(tokens)) if rules.controller(domain, s) == s]
        assert [bool(t) for t in tokens] == [s in holders for s in range(len(tokens))]
        headers = {s: read_header(tokens[s]) for s in holders}
        assert {(h.match_id.hex(), h.move, h.seats) for h in headers.values()} == {
            (sealed.match_id, 0, len(tokens))
        }
        rnd = random.Random(players)
        limit = 2000 if (game, players) == ("maraffa", 4) else 30
        for step in range(limit):
            if state.finished:
                break
            d = decider(state)
            legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
            mine = await stub.LegalMoves(gs.LegalMovesRequest(sealed_state=tokens[d], seat=d))
            assert mine == legal
            if step % 5 == 0:
                for s in holders:
                    view = await stub.GetView(gs.GetViewRequest(state=state, seat=s))
                    got = await stub.GetView(gs.GetViewRequest(sealed_state=tokens[s], seat=s))
                    assert got == view, f"seat {s}'s token shows another view at move {step}"
            move = rnd.choice([m for m in legal.moves if not_a_claim(m)] or list(legal.moves))
            after = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
            sealed_after = await stub.ApplyMove(
                gs.ApplyMoveRequest(sealed_state=tokens[d], seat=d, move=move)
            )
            assert not sealed_after.HasField("state")
            # The salt only once the match is over.
            assert sealed_after.HasField("deal_reveal") == after.state.finished
            reveal = sealed_after.deal_reveal
            assert list(sealed_after.events) == list(after.events)
            assert sealed_after.seat == after.seat
            same_player = not after.state.finished and decider(after.state) == d
            expected = list(after.legal_moves) if same_player else []
            assert list(sealed_after.legal_moves) == expected
            tokens = list(sealed_after.sealed_states)
            assert [read_header(tokens[s]).move for s in holders] == [step + 1] * len(holders)
            state = after.state
        if (game, players) == ("maraffa", 4):
            assert state.finished, "the match did not end"
        for s in holders:
            view = await stub.GetView(gs.GetViewRequest(state=state, seat=s))
            got = await stub.GetView(gs.GetViewRequest(sealed_state=tokens[s], seat=s))
            assert got.view == view.view
            assert got.deal_reveal == (reveal if state.finished else gs.DealReveal())
        if state.finished:
            # The revealed salt and seed open the commitment Deal published, with the
            # deal the plain Deal gave (docs/fair-deals.md).
            dealt = fair.deal_hash(plain.state.SerializeToString(deterministic=True))
            assert reveal.seed == 5 and len(sealed.deal_commitment) == 32
            assert fair.commitment(reveal.salt, 5, dealt) == sealed.deal_commitment
            assert reveal.deal_commitment == sealed.deal_commitment


async def test_the_search_rpcs_take_a_token_as_its_seats_view() -> None:
    """Determinize and Simulate with a seat's token answer as with that seat's view."""
    async with serving(Sealer([new_key("k1")])) as served:
        stub = served.stub
        dealt = await stub.Deal(gs.DealRequest(game="burraco", players=2, seed=3))
        sealed = await stub.Deal(gs.DealRequest(game="burraco", players=2, seed=3, seal=True))
        seat = dealt.seat
        other = 1 - seat
        for s in (seat, other):
            view = (await stub.GetView(gs.GetViewRequest(state=dealt.state, seat=s))).view
            token = sealed.sealed_states[s]
            by_view = await stub.Determinize(gs.DeterminizeRequest(view=view, count=3, seed=9))
            by_token = await stub.Determinize(
                gs.DeterminizeRequest(sealed_state=token, seat=s, count=3, seed=9)
            )
            assert by_token == by_view
        view = (await stub.GetView(gs.GetViewRequest(state=dealt.state, seat=seat))).view
        asked = {"playouts": 2, "determinizations": 2, "seed": 4}
        by_view = await stub.Simulate(gs.SimulateRequest(view=view, **asked))
        by_token = await stub.Simulate(
            gs.SimulateRequest(sealed_state=sealed.sealed_states[seat], seat=seat, **asked)
        )
        assert by_token == by_view
        code, violations = await refusal(
            stub.Simulate(
                gs.SimulateRequest(sealed_state=sealed.sealed_states[other], seat=other, **asked)
            )
        )
        assert code == grpc.StatusCode.FAILED_PRECONDITION
        assert violations == [("seat", f"seat {other} does not decide now (seat {seat} does)")]


async def test_the_maraffa_dummy_has_no_token_and_its_controller_plays_it() -> None:
    async with serving(Sealer([new_key("k1")])) as served:
        stub = served.stub
        plain = await stub.Deal(gs.DealRequest(game="maraffa", players=3, seed=2))
        sealed = await stub.Deal(gs.DealRequest(game="maraffa", players=3, seed=2, seal=True))
        dummy = plain.state.maraffa.table.options.dummy_seat
        controller = (dummy + 2) % 4
        assert len(sealed.sealed_states) == 4 and sealed.sealed_states[dummy] == b""
        state, tokens = plain.state, list(sealed.sealed_states)
        played_for_dummy = False
        for _ in range(40):
            d = decider(state)
            legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
            move = next(m for m in legal.moves if not_a_claim(m))
            played_for_dummy |= legal.seat == dummy and d == controller
            after = await stub.ApplyMove(
                gs.ApplyMoveRequest(sealed_state=tokens[d], seat=d, move=move)
            )
            tokens = list(after.sealed_states)
            state = (await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))).state
        assert played_for_dummy


async def test_a_sealed_match_over_http_json() -> None:
    """Tokens travel as base64 in JSON, as every bytes field does."""
    async with serving(Sealer([new_key("k1")])) as served:
        http = served.http
        dealt = (await http.post("/v1/games/ramino:deal", json={"players": 3, "seal": True})).json()
        assert "state" not in dealt and "legalMoves" not in dealt
        tokens, seat = dealt["sealedStates"], dealt.get("seat", 0)
        assert len(tokens) == 3 and all(base64.b64decode(t) for t in tokens)
        for _ in range(10):
            body = {"sealedState": tokens[seat], "seat": seat}
            legal = (await http.post("/v1/state:legalMoves", json=body)).json()
            reply = await http.post("/v1/state:apply", json={**body, "move": legal["moves"][0]})
            assert reply.status_code == 200, reply.text
            answer = reply.json()
            assert "state" not in answer
            tokens, seat = answer["sealedStates"], answer.get("seat", 0)
        view = await http.post("/v1/state:view", json={"sealedState": tokens[1], "seat": 1})
        assert view.status_code == 200 and view.json()["view"]["seat"] == 1
        wrong = await http.post("/v1/state:view", json={"sealedState": tokens[1], "seat": 2})
        assert wrong.status_code == 400
        assert wrong.json()["message"] == (
            "seat: not the seat of sealed_state: a token serves its own"
        )


async def test_a_plain_deal_commits_when_asked_with_no_key_needed() -> None:
    """commit: the commitment and its salt go to the dealer (who holds the state);
    over HTTP as base64. Without commit, a plain Deal is as before."""
    async with serving(None) as served:
        body = {"players": 2, "seed": "77", "commit": True}
        reply = (await served.http.post("/v1/games/maraffa:deal", json=body)).json()
        salt, committed = (base64.b64decode(reply[k]) for k in ("dealSalt", "dealCommitment"))
        state = json_format.ParseDict(reply["state"], game_pb2.GameState())
        dealt = fair.deal_hash(state.SerializeToString(deterministic=True))
        assert fair.commitment(salt, 77, dealt) == committed
        assert not fair.commitment_matches(committed, salt, 78, dealt)
        again = await served.stub.Deal(gs.DealRequest(game="maraffa", players=2, seed=77))
        assert not again.deal_commitment and not again.deal_salt
        assert again.state == state
        other = await served.stub.Deal(
            gs.DealRequest(game="maraffa", players=2, seed=77, commit=True)
        )
        assert other.deal_salt != salt and other.deal_commitment != committed


async def test_a_sealed_deal_without_a_seed_is_not_one_anybody_can_deal_again() -> None:
    """Issue 36: an unset seed was seed 0, so a plain Deal of seed 0 showed every sealed
    hand. Now it is drawn from the system's randomness: no seed a client can guess
    gives the same cards, and two such deals differ."""
    async with serving(Sealer([new_key("k1")])) as served:
        stub = served.stub
        plain = await stub.Deal(gs.DealRequest(game="burraco", players=2))
        guessed = await stub.GetView(gs.GetViewRequest(state=plain.state, seat=0))
        views = []
        for _ in range(2):
            sealed = await stub.Deal(gs.DealRequest(game="burraco", players=2, seal=True))
            got = await stub.GetView(
                gs.GetViewRequest(sealed_state=sealed.sealed_states[0], seat=0)
            )
            views.append(got.view.SerializeToString(deterministic=True))
        assert guessed.view.SerializeToString(deterministic=True) not in views
        assert views[0] != views[1]
        # A seed given is dealt as given, sealed or not (to replay a known deal).
        seeded = await stub.Deal(gs.DealRequest(game="burraco", players=2, seed=9, seal=True))
        plain = await stub.Deal(gs.DealRequest(game="burraco", players=2, seed=9))
        mine = await stub.GetView(gs.GetViewRequest(sealed_state=seeded.sealed_states[0], seat=0))
        theirs = await stub.GetView(gs.GetViewRequest(state=plain.state, seat=0))
        assert mine.view == theirs.view


# --------------------------------------------------------------------------- refusals


async def test_a_server_without_keys_refuses_to_seal_or_open() -> None:
    async with serving(None) as served:
        stub = served.stub
        why = "this server seals no states: it was started without --seal-key-file"
        code, violations = await refusal(
            stub.Deal(gs.DealRequest(game="maraffa", seal=True, seed=1))
        )
        assert (code, violations) == (grpc.StatusCode.FAILED_PRECONDITION, [("seal", why)])
        for call in (
            stub.GetView(gs.GetViewRequest(sealed_state=b"\x01token")),
            stub.LegalMoves(gs.LegalMovesRequest(sealed_state=b"\x01token")),
            stub.ApplyMove(gs.ApplyMoveRequest(sealed_state=b"\x01token")),
            stub.Determinize(gs.DeterminizeRequest(sealed_state=b"\x01token", count=1)),
            stub.Simulate(gs.SimulateRequest(sealed_state=b"\x01token", playouts=1)),
        ):
            code, violations = await refusal(call)
            assert (code, violations) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                [("sealed_state", why)],
            )
        reply = await served.http.post("/v1/state:view", json={"sealedState": "AXRva2Vu"})
        assert reply.status_code == 409 and reply.json()["message"] == f"sealed_state: {why}"


async def test_refusals_name_the_field_and_tell_nothing_of_the_token() -> None:
    async with serving(Sealer([new_key("k1")])) as served:
        stub = served.stub
        dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=7, seal=True))
        plain = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=7))
        token, seat = dealt.sealed_states[dealt.seat], dealt.seat
        other = (seat + 1) % 4
        move = plain.legal_moves[0]
        invalid, failed = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION
        cases = [
            (
                stub.GetView(gs.GetViewRequest(sealed_state=b"garbage", seat=seat)),
                invalid,
                ("sealed_state", NOT_A_TOKEN),
            ),
            (
                stub.GetView(gs.GetViewRequest(sealed_state=token[:-1], seat=seat)),
                invalid,
                ("sealed_state", NOT_A_TOKEN),
            ),
            (
                stub.GetView(gs.GetViewRequest(sealed_state=token, seat=other)),
                invalid,
                ("seat", "not the seat of sealed_state: a token serves its own"),
            ),
            (
                stub.GetView(gs.GetViewRequest(state=plain.state, sealed_state=token, seat=seat)),
                invalid,
                ("sealed_state", "give the position or sealed_state, not both"),
            ),
            (
                stub.LegalMoves(gs.LegalMovesRequest(state=plain.state, seat=1)),
                invalid,
                ("seat", "seat is given only with sealed_state, as its seat"),
            ),
            (
                stub.ApplyMove(gs.ApplyMoveRequest(state=plain.state, move=move, seat=1)),
                invalid,
                ("seat", "seat is given only with sealed_state, as its seat"),
            ),
            (
                stub.LegalMoves(
                    gs.LegalMovesRequest(sealed_state=dealt.sealed_states[other], seat=other)
                ),
                failed,
                ("seat", f"seat {other} does not decide now (seat {seat} does)"),
            ),
            (
                stub.ApplyMove(
                    gs.ApplyMoveRequest(
                        sealed_state=dealt.sealed_states[other], seat=other, move=move
                    )
                ),
                failed,
                ("seat", f"seat {other} does not decide now (seat {seat} does)"),
            ),
        ]
        for call, code, violation in cases:
            assert await refusal(call) == (code, [violation])
        # A match over: a move is refused as with a plain state, on `move`.
        claim = game_pb2.Move()
        claim.maraffa.claim.SetInParent()
        over = await stub.ApplyMove(gs.ApplyMoveRequest(sealed_state=token, seat=seat, move=claim))
        finished = over.sealed_states[seat]
        assert (
            await stub.GetView(gs.GetViewRequest(sealed_state=finished, seat=seat))
        ).view.finished
        code, violations = await refusal(
            stub.ApplyMove(gs.ApplyMoveRequest(sealed_state=finished, seat=seat, move=claim))
        )
        assert code == failed and violations[0][0] == "move"
        # Once it is over, nobody decides, and anybody may ask: there are no moves.
        nothing = await stub.LegalMoves(
            gs.LegalMovesRequest(sealed_state=over.sealed_states[other], seat=other)
        )
        assert not nothing.moves


async def test_keys_rotate_under_a_match_in_flight() -> None:
    """Old key: deals. Old and new (the new one last): opens the old tokens, and the
    match keeps its key (its deal commitment's salt derives from it) while new matches
    seal with the new. New alone (the old one retired): refuses the old match's
    tokens, plays on with the new match's."""
    old, new = new_key("2026-10"), new_key("2026-11")
    async with serving(Sealer([old])) as first:
        dealt = await first.stub.Deal(gs.DealRequest(game="ramino", players=2, seed=1, seal=True))
    seat, tokens = dealt.seat, list(dealt.sealed_states)
    async with serving(Sealer([old, new])) as rotated:
        legal = await rotated.stub.LegalMoves(
            gs.LegalMovesRequest(sealed_state=tokens[seat], seat=seat)
        )
        moved = await rotated.stub.ApplyMove(
            gs.ApplyMoveRequest(sealed_state=tokens[seat], seat=seat, move=legal.moves[0])
        )
        fresh = await rotated.stub.Deal(gs.DealRequest(game="ramino", players=2, seed=2, seal=True))
    assert {read_header(t).key_id for t in moved.sealed_states} == {"2026-10"}
    assert {read_header(t).key_id for t in fresh.sealed_states} == {"2026-11"}
    async with serving(Sealer([new])) as retired:
        for token in (tokens[0], moved.sealed_states[0]):
            code, violations = await refusal(
                retired.stub.GetView(gs.GetViewRequest(sealed_state=token, seat=0))
            )
            assert (code, violations) == (
                grpc.StatusCode.INVALID_ARGUMENT,
                [("sealed_state", NOT_A_TOKEN)],
            )
        view = await retired.stub.GetView(
            gs.GetViewRequest(sealed_state=fresh.sealed_states[0], seat=0)
        )
        assert view.view.seat == 0
