"""The search starter bot: a ``mazzo.v1.Bot`` that asks a Mazzo ``GameService`` to
search for it. For each ``Act`` it sends its own view to ``Simulate`` (the service
samples the hidden cards ``--determinizations`` times and plays every legal move out
``--playouts`` times from each sample) and plays the move with the best mean score
change for its side minus the mean of the other sides'. On any error, or when the
service does not answer within half the time left (at most 1 s), it plays a random
legal move as the random starter does. It never claims in Maraffa either: a false
claim ends the match, lost, with no score change, which a score change cannot see.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys

import grpc

from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_service_pb2, game_service_pb2_grpc
from mazzo_starter.bot import choose, is_claim, serve
from mazzo_starter.service import game_service_aio_channel

log = logging.getLogger("mazzo-search-bot")
MAX_WAIT = 1.0  # seconds: the longest a decision waits for the service


def best(reply: game_service_pb2.SimulateResponse) -> int:
    """The index of the move, not a claim, with the best own mean minus the others'."""

    def margin(outcome: game_service_pb2.MoveOutcome) -> float:
        means = [side.mean_score_change for side in outcome.sides]
        own = means.pop(reply.side)
        return own - (sum(means) / len(means) if means else 0.0)

    moves = [i for i, o in enumerate(reply.outcomes) if not is_claim(o.move)]
    return max(moves, key=lambda i: margin(reply.outcomes[i]))


class SearchBot(bot_pb2_grpc.BotServicer):
    def __init__(self, stub: game_service_pb2_grpc.GameServiceStub, args: argparse.Namespace):
        self.stub, self.args, self.rng = stub, args, random.Random(args.seed)

    async def Act(
        self, request: bot_pb2.ActRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.ActResponse:
        if not request.legal_moves:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "no legal moves to choose from")
        left = request.time_left.ToTimedelta().total_seconds() or 2 * MAX_WAIT  # 0: unset
        simulate = game_service_pb2.SimulateRequest(
            view=request.view,
            playouts=self.args.playouts,
            determinizations=self.args.determinizations,
            seed=self.rng.getrandbits(64),
        )
        try:
            reply = await self.stub.Simulate(simulate, timeout=min(left / 2, MAX_WAIT))
            if [o.move for o in reply.outcomes] != list(request.legal_moves):
                raise ValueError("the outcomes are not the legal moves")
            return bot_pb2.ActResponse(index=best(reply))
        except grpc.aio.AioRpcError as e:
            why = f"{e.code().name}: {e.details()}"
        except ValueError as e:
            why = str(e)
        log.warning("seat %d: search failed (%s); a random move", request.seat, why)
        return bot_pb2.ActResponse(index=choose(request, self.rng))


async def run(args: argparse.Namespace) -> None:
    async with game_service_aio_channel(args.service) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        await serve(args.host, args.port, SearchBot(stub, args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The Mazzo search starter bot (Simulate).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50062, help="0 picks a free port")
    parser.add_argument("--service", default="127.0.0.1:50051", help="a Mazzo GameService")
    parser.add_argument("--determinizations", type=int, default=32, help="samples of the view")
    parser.add_argument("--playouts", type=int, default=4, help="playouts per move and sample")
    parser.add_argument("--seed", type=int, default=None, help="seed of the search and fallback")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s: %(message)s")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
