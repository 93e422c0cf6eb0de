"""The starter bot: a gRPC server of ``mazzo.v1.Bot`` that plays a random legal move.

Put your strategy in ``choose``: it gets the whole ``ActRequest`` (your seat's view,
the legal moves, the time left) and returns the index of one legal move. A bot keeps
no state between calls: everything it may know is in the request.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import signal
import sys

import grpc

from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_pb2

log = logging.getLogger("mazzo-starter-bot")


def is_claim(move: game_pb2.Move) -> bool:
    """A Maraffa claim ends the game at once, lost if it is false: never at random."""
    return move.HasField("maraffa") and move.maraffa.HasField("claim")


def has_signal(move: game_pb2.Move) -> bool:
    return move.HasField("maraffa") and move.maraffa.play_card.signal != 0


def choose(request: bot_pb2.ActRequest, rng: random.Random) -> int:
    """The strategy: the index of the move to play. Replace this with a real one."""
    moves = request.legal_moves
    safe = [i for i, move in enumerate(moves) if not is_claim(move)]
    plain = [i for i in safe if not has_signal(moves[i])]
    return rng.choice(plain or safe or range(len(moves)))


class Bot(bot_pb2_grpc.BotServicer):
    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    async def Act(
        self, request: bot_pb2.ActRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.ActResponse:
        if not request.legal_moves:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "no legal moves to choose from")
        index = choose(request, self.rng)
        log.debug(
            "seat %d: %d legal moves, chose %d", request.seat, len(request.legal_moves), index
        )
        return bot_pb2.ActResponse(index=index)


async def serve(host: str, port: int, bot: bot_pb2_grpc.BotServicer) -> None:
    """Serve ``bot`` until SIGTERM or SIGINT; print ``LISTENING host:port`` once ready."""
    # SO_REUSEPORT off: two bots must never silently share a port.
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    bot_pb2_grpc.add_BotServicer_to_server(bot, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise SystemExit(f"cannot listen on {host}:{port}")
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(f"LISTENING {host}:{bound}", flush=True)
    log.info("serving mazzo.v1.Bot on %s:%d", host, bound)
    await stop.wait()
    await server.stop(grace=1.0)
    log.info("stopped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The Mazzo starter bot (mazzo.v1.Bot over gRPC).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50061, help="0 picks a free port")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s: %(message)s")
    asyncio.run(serve(args.host, args.port, Bot(args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
