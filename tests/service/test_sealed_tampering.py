"""Tampered tokens (issue 19): every bit of a set of sealed states flipped, truncations,
extensions, key ids swapped, tokens of retired, unknown and foreign keys, headers and
bodies spliced across matches, seats and moves: every one refused, none accepted,
none crashing, and every refusal the same words (nothing that helps a forger).

Every mutation goes to GetView through the service's handler, asking for the seat the
mutated header names, so that it reaches the decryption; the header-level ones also go
to LegalMoves, ApplyMove, Determinize and Simulate, and a sample of every kind over
real gRPC and HTTP. The counts are printed (``pytest -s``).
"""

from __future__ import annotations

import base64
import contextlib
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import httpx

from mazzo.core.errors import RulesError
from mazzo.service.game_service import GameService
from mazzo.service.sealing import (
    NONCE_BYTES,
    NOT_A_TOKEN,
    BadToken,
    Key,
    Sealer,
    header_bytes,
    read_header,
)
from mazzo.service.server import start_server, stop_server
from mazzo.service.simulator import Simulator
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_helpers import field_violations

#: (game, players): a token of each, of a few seats and moves.
MATCHES = [("maraffa", 4), ("burraco", 2), ("ramino", 3)]
#: The only words a refused token ever gets: its field and the one reason.
REFUSED = ("sealed_state", NOT_A_TOKEN)
WRONG_SEAT = ("seat", "not the seat of sealed_state: a token serves its own")


@dataclass(frozen=True)
class Genuine:
    """A real token, and what the service needs to try it in every RPC."""

    token: bytes
    seat: int
    decides: bool
    move: game_pb2.Move


async def tokens_of(service: GameService, game: str, players: int, seed: int) -> list[Genuine]:
    """Every seat's token after three moves of a sealed match (same seed, same cards)."""
    dealt = await service.Deal(
        gs.DealRequest(game=game, players=players, seed=seed, seal=True), None
    )
    tokens, seat = list(dealt.sealed_states), dealt.seat
    for _ in range(3):
        legal = await service.LegalMoves(
            gs.LegalMovesRequest(sealed_state=tokens[seat], seat=seat), None
        )
        after = await service.ApplyMove(
            gs.ApplyMoveRequest(sealed_state=tokens[seat], seat=seat, move=legal.moves[0]),
            None,
        )
        tokens, seat = list(after.sealed_states), after.seat
    legal = await service.LegalMoves(
        gs.LegalMovesRequest(sealed_state=tokens[seat], seat=seat), None
    )
    return [Genuine(token, s, s == seat, legal.moves[0]) for s, token in enumerate(tokens) if token]


def split(token: bytes) -> tuple[bytes, bytes]:
    """Header, and nonce with ciphertext."""
    raw = read_header(token).raw
    return raw, token[len(raw) :]


def rebuilt(token: bytes, **changes: Any) -> bytes:
    """``token`` with fields of its header changed, its body kept."""
    header = read_header(token)
    fields = {
        "key_id": header.key_id,
        "match_id": header.match_id,
        "move": header.move,
        "seat": header.seat,
        "seats": header.seats,
    }
    fields.update(changes)
    return header_bytes(**fields) + split(token)[1]


def bit_flips(token: bytes) -> Iterator[bytes]:
    for i in range(len(token) * 8):
        flipped = bytearray(token)
        flipped[i // 8] ^= 1 << (i % 8)
        yield bytes(flipped)


def truncations(token: bytes) -> Iterator[bytes]:
    """Every shorter token but the empty one: proto3 cannot send it (an empty bytes
    field is an absent one, and the request has no position)."""
    for n in range(1, len(token)):
        yield token[:n]


def extensions(token: bytes, rnd: random.Random) -> Iterator[bytes]:
    for n in (1, 2, 3, 12, 15, 16, 17, 255, 256, 257, 512, 4096):
        yield token + bytes(n)
        yield token + rnd.randbytes(n)
        yield token + (token * (n // len(token) + 1))[:n]


def header_tampering(
    genuine: Genuine, others: list[Genuine], strangers: dict[str, bytes], rnd: random.Random
) -> Iterator[tuple[str, bytes]]:
    """Key ids swapped, and tokens moved to another match, seat or move: header and
    body spliced, or a header field rewritten."""
    token = genuine.token
    header = read_header(token)
    for key_id in ("k1", "k0", "k3", "k", "k22", "x" * 32):
        if key_id != header.key_id:
            yield "key id swapped", rebuilt(token, key_id=key_id)
    yield from strangers.items()
    for other in others:
        theirs = read_header(other.token)
        if theirs.match_id != header.match_id:
            yield "other match: its header, our body", theirs.raw + split(token)[1]
            yield "other match: our header, its body", header.raw + split(other.token)[1]
            yield "other match: its match id written in", rebuilt(token, match_id=theirs.match_id)
        elif theirs.seat != header.seat:
            yield "other seat: its header, our body", theirs.raw + split(token)[1]
            yield "other seat: its seat written in", rebuilt(token, seat=theirs.seat)
    yield "other match: a new match id", rebuilt(token, match_id=os.urandom(16))
    for move in (header.move - 1, header.move + 1, 0, 2**32 - 1):
        if move != header.move and 0 <= move < 2**32:
            yield "other move written in", rebuilt(token, move=move)
    for seats in (header.seats - 1, header.seats + 1):
        if header.seat < seats <= 16:
            yield "seats rewritten", rebuilt(token, seats=seats)
    body = split(token)[1]
    yield "forged: random body", header.raw + rnd.randbytes(len(body))
    yield "forged: nonce of zeros", header.raw + bytes(NONCE_BYTES) + body[NONCE_BYTES:]
    yield "forged: ciphertext of zeros", header.raw + body[:NONCE_BYTES] + bytes(len(body) - 12)


async def attempt(service: GameService, rpc: str, genuine: Genuine, token: bytes, seat: int) -> Any:
    """``rpc`` asked with ``token`` for ``seat``, through the service's own handler."""
    if rpc == "GetView":
        return await service.GetView(gs.GetViewRequest(sealed_state=token, seat=seat), None)
    if rpc == "LegalMoves":
        return await service.LegalMoves(gs.LegalMovesRequest(sealed_state=token, seat=seat), None)
    if rpc == "ApplyMove":
        request = gs.ApplyMoveRequest(sealed_state=token, seat=seat, move=genuine.move)
        return await service.apply_move_bytes(request.SerializeToString(), None)  # type: ignore[arg-type]
    if rpc == "Determinize":
        asked = gs.DeterminizeRequest(sealed_state=token, seat=seat, count=1)
        return await service.Determinize(asked, None)
    simulate = gs.SimulateRequest(sealed_state=token, seat=seat, playouts=1)
    return await service.Simulate(simulate, None)


def seat_named(token: bytes, fallback: int) -> int:
    """The seat a token's header names, so the request reaches the decryption."""
    try:
        return read_header(token).seat
    except BadToken:
        return fallback


@dataclass
class Tally:
    """Tampered tokens by kind; calls and how each ended."""

    kinds: Counter[str] = field(default_factory=Counter)
    #: (field, reason) of every refusal, as the client sees it.
    refusals: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Where in the server a BadToken was refused (never sent to a client).
    stages: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    accepted: list[str] = field(default_factory=list)
    crashed: list[str] = field(default_factory=list)

    async def attempt(
        self,
        service: GameService,
        kind: str,
        genuine: Genuine,
        token: bytes,
        rpcs: tuple[str, ...],
        seat: int | None = None,
    ) -> None:
        self.kinds[kind] += 1
        asked = seat_named(token, genuine.seat) if seat is None else seat
        for rpc in rpcs:
            self.calls += 1
            try:
                await attempt(service, rpc, genuine, token, asked)
            except BadToken as e:
                self.refusals[(e.field, e.reason)] += 1
                self.stages[re.sub(r" \d+$", "", e.why.split(" '")[0])] += 1
            except RulesError as e:
                self.refusals[(e.field, e.reason)] += 1
            except Exception as e:  # collected: the test fails on any
                self.crashed.append(f"{kind} {rpc}: {type(e).__name__}: {e}")
            else:
                self.accepted.append(f"{kind} {rpc}: {token.hex()}")


ALL_RPCS = ("GetView", "LegalMoves", "ApplyMove", "Determinize", "Simulate")


async def test_every_tampered_token_is_refused_and_none_crashes() -> None:
    rnd = random.Random(19)
    k0, k1, k2 = (Key(f"k{i}", os.urandom(32)) for i in range(3))
    simulator = Simulator()
    service = GameService(sealer=Sealer([k1, k2]), simulator=simulator)
    retired = GameService(sealer=Sealer([k0]))
    unknown = GameService(sealer=Sealer([Key("k3", os.urandom(32))]))
    foreign = GameService(sealer=Sealer([Key("k2", os.urandom(32))]))  # our key id, not our key
    tally = Tally()
    try:
        for game, players in MATCHES:
            ours = await tokens_of(service, game, players, seed=4)
            again = await tokens_of(service, game, players, seed=4)  # same cards, another match
            strangers = {
                f"sealed under a {name} key": (await tokens_of(other, game, players, seed=4))[
                    0
                ].token
                for name, other in (
                    ("retired", retired),
                    ("unknown", unknown),
                    ("foreign", foreign),
                )
            }
            for genuine in (ours[0], ours[1]):
                # As it is, the token is accepted: every refusal below is for a change.
                assert await attempt(service, "GetView", genuine, genuine.token, genuine.seat)
                for token in bit_flips(genuine.token):
                    await tally.attempt(service, "bit flipped", genuine, token, ("GetView",))
                for token in truncations(genuine.token):
                    await tally.attempt(service, "truncated", genuine, token, ("GetView",))
                for token in extensions(genuine.token, rnd):
                    await tally.attempt(service, "extended", genuine, token, ("GetView",))
                others = [o for o in ours + again if o.token != genuine.token]
                for kind, token in header_tampering(genuine, others, strangers, rnd):
                    await tally.attempt(service, kind, genuine, token, ALL_RPCS)
                for seat in range(read_header(genuine.token).seats):
                    if seat != genuine.seat:
                        await tally.attempt(
                            service,
                            "shown for another seat",
                            genuine,
                            genuine.token,
                            ALL_RPCS,
                            seat,
                        )
    finally:
        simulator.close()
    tampered = sum(tally.kinds.values())
    print(f"\ntampered tokens: {tampered:,}, calls: {tally.calls:,}")
    for kind, count in sorted(tally.kinds.items()):
        print(f"  {kind}: {count:,}")
    print(f"refused: {sum(tally.refusals.values()):,} as {dict(tally.refusals)}")
    print(f"  where: {dict(tally.stages)}")
    print(f"accepted: {len(tally.accepted)}, crashed: {len(tally.crashed)}")
    assert not tally.accepted, tally.accepted[:5]
    assert not tally.crashed, tally.crashed[:5]
    assert set(tally.refusals) == {REFUSED, WRONG_SEAT}
    assert sum(tally.refusals.values()) == tally.calls
    assert tally.kinds["bit flipped"] >= 6 * 8 * 150 and tally.kinds["truncated"] >= 6 * 150


async def test_tampered_tokens_are_refused_alike_over_grpc_and_http() -> None:
    """A sample of every kind, on a real server: INVALID_ARGUMENT (HTTP 400) with the
    one field violation, the same through both doors."""
    rnd = random.Random(7)
    sealer = Sealer([Key("k1", os.urandom(32))])
    running, port = await start_server("127.0.0.1", 0, http_port=0, sealer=sealer)
    try:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{running.http_port}") as http,
        ):
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            dealt = await stub.Deal(gs.DealRequest(game="burraco", players=4, seed=1, seal=True))
            token, seat = dealt.sealed_states[dealt.seat], dealt.seat
            samples = (
                rnd.sample(list(bit_flips(token)), 40)
                + rnd.sample(list(truncations(token)), 20)
                + list(extensions(token, rnd))[:12]
                + [rebuilt(token, key_id="k9"), rebuilt(token, match_id=os.urandom(16))]
            )
            for tampered in samples:
                asked = seat_named(tampered, seat)
                with contextlib.suppress(grpc.aio.AioRpcError):
                    await stub.GetView(gs.GetViewRequest(sealed_state=tampered, seat=asked))
                    raise AssertionError(f"accepted over gRPC: {tampered.hex()}")
                try:
                    await stub.GetView(gs.GetViewRequest(sealed_state=tampered, seat=asked))
                except grpc.aio.AioRpcError as e:
                    assert e.code() == grpc.StatusCode.INVALID_ARGUMENT
                    assert field_violations(e) == [REFUSED]
                body = {"sealedState": base64.b64encode(tampered).decode(), "seat": asked}
                reply = await http.post("/v1/state:view", json=body)
                assert reply.status_code == 400, reply.text
                assert reply.json()["message"] == f"sealed_state: {NOT_A_TOKEN}"
    finally:
        await stop_server(running, grace=0.5, quiet=0)
