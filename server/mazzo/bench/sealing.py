"""``mazzo bench``'s figures for sealed states (docs/sealing.md).

- ``seal_open_us``: in-process microseconds to seal one seat's token of a state and
  to open it again, for a mid-hand Maraffa state and a mid-hand Burraco state.
- ``apply_move``: ``ApplyMove`` calls per second over gRPC on one server, matches
  played forward with sealed tokens against the very same matches with plain states
  (the same deals, the same moves; each request carries what the previous answer
  gave), alternating short rounds so that drift in machine load hits both alike; and
  ``Health/Check`` on the same channel for scale. A sealed answer holds a fresh token
  for every seat (four in Maraffa for four).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import os
import random
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.bench.common import Calls, Report, per_call, position_after, server_process
from mazzo.games.registry import CODECS, rules_for
from mazzo.service.sealing import Key, Sealer
from mazzo.v1 import game_pb2, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs

MATCHES = 16
#: Moves per match measured: Maraffa's first hands (no claim is ever played).
MOVES = 120


@contextlib.contextmanager
def _key_file() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="mazzo-bench-") as folder:
        path = Path(folder) / "seal.keys"
        path.write_text(f"bench {base64.b64encode(os.urandom(32)).decode()}\n")
        path.chmod(0o600)
        yield path


def seal_open(seconds: float) -> Report:
    """Microseconds per seal and per open of one token, in-process."""
    sealer = Sealer([Key("bench", os.urandom(32))])
    match_id = sealer.new_match_id()
    report: Report = {}
    for game, players, plays in (("maraffa", 4, 20), ("burraco", 4, 40)):
        rules, codec = rules_for(game), CODECS[game]
        state = position_after(game, players, plays, seed=3)
        data = codec.state_bytes(state, rules.to_act(state))
        token = sealer.seal(data, match_id, 7, 0, players)
        assert sealer.open(token)[1] == data
        seal_us = per_call(functools.partial(sealer.seal, data, match_id, 7, 0, 4), seconds / 4)
        open_us = per_call(functools.partial(sealer.open, token), seconds / 4)
        report[f"{game}_{players}p"] = {
            "state_bytes": len(data),
            "token_bytes": len(token),
            "seal_us": round(seal_us, 2),
            "open_us": round(open_us, 2),
        }
    return report


def _matches(count: int) -> list[tuple[int, list[tuple[int, bytes]]]]:
    """Seeded 4-player Maraffa matches, each as (seed, [(deciding seat, move bytes)])."""
    rules, codec = rules_for("maraffa"), CODECS["maraffa"]
    out = []
    for seed in range(1, count + 1):
        state, _ = rules.deal(codec.options(game_pb2.GameOptions()), 4, seed)
        rnd = random.Random(seed)
        moves: list[tuple[int, bytes]] = []
        while len(moves) < MOVES and not rules.finished(state):
            legal = rules.legal_moves(state)
            move = rnd.choice([m for m in legal if type(m).__name__ != "Claim"] or legal)
            wire = game_pb2.Move()
            codec.move_to_wire(move, wire)
            moves.append((rules.controller(state, rules.to_act(state)), wire.SerializeToString()))
            state, _ = rules.apply(state, move)
        out.append((seed, moves))
    return out


def _player(
    stub: Any, sealed: bool, matches: list[tuple[int, list[tuple[int, bytes]]]]
) -> Callable[[], Any]:
    """One ApplyMove per call; each task in flight plays its own match forward and
    deals the next when its moves run out."""
    moves_of = {
        seed: [(seat, game_pb2.Move.FromString(m)) for seat, m in ms] for seed, ms in matches
    }
    seeds = [seed for seed, _ in matches]
    playing: dict[object, list[Any]] = {}
    turn = 0

    async def play() -> None:
        nonlocal turn
        task = asyncio.current_task()
        match = playing.get(task)
        if match is None or match[1] >= len(moves_of[match[0]]):
            seed = seeds[turn % len(seeds)]
            turn += 1
            dealt = await stub.Deal(
                gs.DealRequest(game="maraffa", players=4, seed=seed, seal=sealed)
            )
            position = list(dealt.sealed_states) if sealed else dealt.state
            match = playing[task] = [seed, 0, position]
        seed, ply, position = match
        seat, move = moves_of[seed][ply]
        if sealed:
            request = gs.ApplyMoveRequest(sealed_state=position[seat], seat=seat, move=move)
        else:
            request = gs.ApplyMoveRequest(state=position, move=move)
        reply = await stub.ApplyMove(request)
        match[1], match[2] = ply + 1, (list(reply.sealed_states) if sealed else reply.state)

    return play


async def _rates(port: int, pid: int, seconds: float, in_flight: int) -> Report:
    matches = _matches(MATCHES)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        check = health_pb2.HealthCheckRequest()
        plain_play, sealed_play = _player(stub, False, matches), _player(stub, True, matches)
        await plain_play()
        await sealed_play()
        plain, sealed, checked = Calls(pid), Calls(pid), Calls(pid)
        for _ in range(3):
            await checked.measure(lambda: health.Check(check), seconds / 15, in_flight)
            await plain.measure(plain_play, seconds / 5, in_flight)
            await sealed.measure(sealed_play, seconds / 5, in_flight)
    figures = {
        **plain.report("plain_apply_move"),
        **sealed.report("sealed_apply_move"),
        **checked.report("health_check"),
    }
    figures["sealed_over_plain"] = round(
        figures["sealed_apply_move_per_second"] / figures["plain_apply_move_per_second"], 3
    )
    figures["plain_over_health"] = round(
        figures["plain_apply_move_per_second"] / figures["health_check_per_second"], 3
    )
    return figures


def sealed_vs_plain(seconds: float) -> Report:
    """Seal and open in-process, and sealed against plain ``ApplyMove`` over gRPC."""
    report: Report = {"seal_open_us": seal_open(seconds / 4)}
    with _key_file() as keys, server_process(["--seal-key-file", str(keys)]) as (port, pid):
        for in_flight in (1, 16):
            report[f"apply_move_in_flight_{in_flight}"] = asyncio.run(
                _rates(port, pid, seconds * 3 / 8, in_flight)
            )
    return report
