"""The client example: deal a match through ``GameService`` and play it to the end
with random legal moves, one ``ApplyMove`` per move, then ``Score`` it.

The service is stateless: every call carries the whole state, and every answer
says who decides next and what they may do (``seat``, ``legal_moves``).
"""

from __future__ import annotations

import argparse
import random
import sys

import grpc
from google.protobuf import json_format

from mazzo.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from mazzo_starter.bot import has_signal, is_claim
from mazzo_starter.service import game_service_channel

#: A safeguard: no match of these games needs this many moves.
MAX_MOVES = 1_000_000


def play(
    target: str, game: str, players: int, seed: int, options: game_pb2.GameOptions | None = None
) -> str:
    rng = random.Random(seed)
    with game_service_channel(target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        request = game_service_pb2.DealRequest(game=game, players=players, seed=seed)
        if options is not None:
            request.options.CopyFrom(options)
        dealt = stub.Deal(request)
        state, moves = dealt.state, list(dealt.legal_moves)
        count = 0
        while not state.finished:
            if count >= MAX_MOVES:
                raise SystemExit(f"no end after {count} moves")
            safe = [m for m in moves if not is_claim(m)] or moves
            plain = [m for m in safe if not has_signal(m)] or safe
            answer = stub.ApplyMove(
                game_service_pb2.ApplyMoveRequest(state=state, move=rng.choice(plain))
            )
            state, moves = answer.state, list(answer.legal_moves)
            count += 1
        score = stub.Score(game_service_pb2.ScoreRequest(state=state))
    winners = ",".join(str(side) for side in score.winners)
    return f"finished {game} players={state.players} moves={count} winners={winners}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one Mazzo match with random moves.")
    parser.add_argument("--target", required=True, help="HOST:PORT of a Mazzo GameService")
    parser.add_argument("--game", default="maraffa", help="maraffa, burraco or ramino")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--options",
        metavar="JSON",
        help='GameOptions in proto3 JSON, e.g. {"ramino":{"matchHands":1}}',
    )
    args = parser.parse_args(argv)
    options = None
    if args.options is not None:
        try:
            options = json_format.Parse(args.options, game_pb2.GameOptions())
        except json_format.ParseError as e:
            print(f"example: --options: {e}".replace("\n", " "), file=sys.stderr)
            return 2
    try:
        print(play(args.target, args.game, args.players, args.seed, options), flush=True)
    except grpc.RpcError as e:
        print(f"example: {e.code().name}: {e.details()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
