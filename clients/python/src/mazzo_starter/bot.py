"""The starter bot: plays a random legal move, as a gRPC server of ``mazzo.v1.Bot`` or,
with ``--connect``, dialing in to a referee's gateway (``mazzo.v1.Tables/Join``).

Put your strategy in ``choose``: it gets the whole ``ActRequest`` (your seat's view,
the legal moves, the time left) and returns the index of one legal move. A bot keeps
no state between calls: everything it may know is in the request. Serving or
dialing in, the same ``choose`` decides.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import grpc

from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_pb2, tables_pb2, tables_pb2_grpc

logger = logging.getLogger("mazzo-starter-bot")


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
        logger.debug(
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
    logger.info("serving mazzo.v1.Bot on %s:%d", host, bound)
    await stop.wait()
    await server.stop(grace=1.0)
    logger.info("stopped")


#: The protocol version of ``mazzo.v1.Tables`` this bot speaks.
PROTOCOL_VERSION = 1
#: Refusals that trying again cannot mend: stop and say why.
FINAL = (
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.INVALID_ARGUMENT,
)


class Refused(Exception):
    """The gateway refused this bot for good (a wrong token, a game it does not serve)."""


async def dial_in(
    target: str,
    token: str,
    name: str,
    rng: random.Random,
    ca: Path | None = None,
    retry_for: float = 30.0,
    log: Path | None = None,
) -> None:
    """Join the gateway at ``target`` (``HOST:PORT``, ``grpcs://HOST:PORT`` for TLS) and
    answer every decision with ``choose``, until the gateway ends the stream. A dropped
    connection (or a gateway that vanished: a referee restarted) is dialed again, with
    backoff up to 2 s, for at most ``retry_for`` seconds: the gateway sends the pending
    decision again, with the same sequence number. With ``log``, a line is appended to
    that file for each match the gateway says ended (``ended_line``): the bot's own
    account of its matches, to check the referee's against."""
    tls = target.startswith("grpcs://")
    target = target.removeprefix("grpcs://").removeprefix("grpc://")
    loop = asyncio.get_running_loop()
    give_up = loop.time() + retry_for
    delay = 0.1
    joined = asyncio.Event()
    while True:
        if tls:
            roots = None if ca is None else ca.read_bytes()
            credentials = grpc.ssl_channel_credentials(root_certificates=roots)
            channel = grpc.aio.secure_channel(target, credentials)
        else:
            channel = grpc.aio.insecure_channel(target)
        try:
            async with channel:
                await _play(tables_pb2_grpc.TablesStub(channel), token, name, rng, joined, log)
            return  # the gateway ended the stream: the run is over
        except grpc.aio.AioRpcError as e:
            if e.code() in FINAL:
                raise Refused(f"{e.code().name}: {e.details()}") from None
            if joined.is_set():  # it was playing: a new drop, a whole new wait
                joined.clear()
                give_up, delay = loop.time() + retry_for, 0.1
            if loop.time() >= give_up:
                raise
            logger.warning("connection lost (%s); dialing again", e.code().name)
        await asyncio.sleep(delay)
        delay = min(delay * 2, 2.0)
        if loop.time() >= give_up:
            raise SystemExit(f"cannot reach the gateway at {target}")


async def _play(
    stub: tables_pb2_grpc.TablesStub,
    token: str,
    name: str,
    rng: random.Random,
    joined: asyncio.Event,
    log: Path | None = None,
) -> None:
    """One stream: the Hello, then an answer per decision; ``joined`` is set once welcome."""
    answers: asyncio.Queue[tables_pb2.BotMessage | None] = asyncio.Queue()
    hello = tables_pb2.Hello(token=token, name=name, protocol_version=PROTOCOL_VERSION)
    await answers.put(tables_pb2.BotMessage(hello=hello))

    async def outgoing() -> AsyncIterator[tables_pb2.BotMessage]:
        while (message := await answers.get()) is not None:
            yield message

    call = stub.Join(outgoing())
    try:
        async for message in call:
            kind = message.WhichOneof("kind")
            if kind == "decision":
                decision = message.decision
                index = choose(decision.request, rng)
                answer = tables_pb2.Answer(
                    sequence=decision.sequence,
                    response=bot_pb2.ActResponse(index=index),
                    match_id=decision.match_id,
                )
                await answers.put(tables_pb2.BotMessage(answer=answer))
            elif kind == "welcome":
                joined.set()
                print(f"JOINED {message.welcome.name}", flush=True)
            elif kind == "refusal":
                refusal = message.refusal
                logger.warning("answer %d refused: %s", refusal.sequence, refusal.reason)
            elif kind == "match_started":
                logger.info("match_started: %s", message.match_started.match_id)
            elif kind == "match_ended":
                line = ended_line(message.match_ended)
                logger.info("match_ended: %s", line)
                if log is not None:
                    with log.open("a", encoding="utf-8") as file:
                        file.write(line + "\n")
    finally:
        await answers.put(None)


def ended_line(ended: tables_pb2.MatchEnded) -> str:
    """``finished MATCH RECORD`` for a match ended with a record (the referee stored
    it before telling), ``abandoned MATCH`` for one stopped before its end."""
    if ended.record_id:
        return f"finished {ended.match_id} {ended.record_id}"
    return f"abandoned {ended.match_id}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The Mazzo starter bot (mazzo.v1.Bot over gRPC).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=50061, help="0 picks a free port")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    parser.add_argument(
        "--connect",
        metavar="HOST:PORT",
        help="dial in to a referee's gateway instead of serving (grpcs://HOST:PORT for TLS)",
    )
    parser.add_argument("--token", help="the token `mazzo token new NAME` printed (with --connect)")
    parser.add_argument("--name", default="", help="the seats' name (default: the token's)")
    parser.add_argument("--ca", type=Path, help="check a grpcs:// gateway against this PEM CA")
    parser.add_argument(
        "--retry-for",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to keep dialing a gateway that went away (default 30)",
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help="append a line per match the gateway says ended (finished MATCH RECORD)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s: %(message)s")
    if args.connect is None:
        asyncio.run(serve(args.host, args.port, Bot(args.seed)))
        return 0
    if not args.token:
        parser.error("--connect needs --token")
    try:
        rng = random.Random(args.seed)
        asyncio.run(
            dial_in(args.connect, args.token, args.name, rng, args.ca, args.retry_for, args.log)
        )
    except Refused as e:
        print(f"refused: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
