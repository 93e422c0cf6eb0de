"""Bot specs (``grpc://HOST:PORT``, ``exec:COMMAND``, ``builtin:NAME``), the builtin bots,
and pools that keep bots running between matches and replace crashed ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mazzo.referee.games import hooks_for
from mazzo.referee.transports import ExecBot, GrpcBot, InProcessBot, Policy, Transport
from mazzo.v1 import bot_pb2, game_pb2


def random_index(moves: Sequence[game_pb2.Move], game: str, rng: random.Random) -> int:
    """A uniformly random legal move, leaving out what the game says a random player
    should not pick (a Maraffa claim) unless nothing else is legal."""
    avoid = hooks_for(game).avoid_at_random
    choices = [i for i, m in enumerate(moves) if not avoid(m)]
    return rng.choice(choices) if choices else rng.randrange(len(moves))


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        return bot_pb2.ActResponse(index=random_index(request.legal_moves, request.view.game, rng))

    return policy


def heuristic_policy(seed: int) -> Policy:
    """The game's own heuristic (games.py), or random play for a game that has none."""
    fallback = random_policy(seed)
    by_game: dict[str, Policy] = {}

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        game = request.view.game
        chosen = by_game.get(game)
        if chosen is None:
            make = hooks_for(game).heuristic
            chosen = by_game[game] = make(seed) if make is not None else fallback
        return chosen(request)

    return policy


BUILTINS: dict[str, Callable[[int], Policy]] = {
    "random": random_policy,
    "heuristic": heuristic_policy,
}


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec; ``text`` is how it was written (and is recorded)."""

    text: str
    kind: str
    target: str

    @staticmethod
    def parse(text: str) -> BotSpec:
        if text.startswith("grpc://"):
            target = text.removeprefix("grpc://")
            if ":" not in target:
                raise ValueError(f"{text!r}: expected grpc://HOST:PORT")
            return BotSpec(text, "grpc", target)
        if text.startswith("exec:"):
            command = text.removeprefix("exec:").strip()
            if not command:
                raise ValueError(f"{text!r}: expected exec:COMMAND")
            return BotSpec(text, "exec", command)
        if text.startswith("builtin:"):
            name = text.removeprefix("builtin:")
            if name not in BUILTINS:
                known = ", ".join(f"builtin:{n}" for n in BUILTINS)
                raise ValueError(f"{text!r}: unknown builtin bot; there are {known}")
            return BotSpec(text, "builtin", name)
        raise ValueError(f"{text!r}: a bot is grpc://HOST:PORT, exec:COMMAND or builtin:NAME")

    def transport(self, cwd: Path | None = None, stderr: Path | None = None) -> Transport:
        if self.kind == "grpc":
            return GrpcBot(self.target)
        if self.kind == "exec":
            return ExecBot(self.target, cwd=cwd, stderr=stderr)
        return InProcessBot(BUILTINS[self.target])


class BotPool:
    """Running instances of one bot, reused from match to match (starting a program
    for every match would cost more than many matches). A bot that crashed is closed
    when its match returns it, and the next match gets a fresh one."""

    def __init__(self, spec: BotSpec, cwd: Path | None = None, stderr: Path | None = None):
        self.spec = spec
        self._cwd = cwd
        self._stderr = stderr
        self._idle: list[Transport] = []
        self._all: list[Transport] = []
        self.started = 0

    async def acquire(self, seed: int) -> Transport:
        while self._idle:
            bot = self._idle.pop()
            if bot.alive:
                break
            await self._drop(bot)
        else:
            bot = self.spec.transport(self._cwd, self._stderr)
            await bot.start()
            self._all.append(bot)
            self.started += 1
        bot.new_match(seed)
        return bot

    async def release(self, bot: Transport) -> None:
        if bot.alive:
            self._idle.append(bot)
        else:
            await self._drop(bot)

    async def _drop(self, bot: Transport) -> None:
        await bot.close()
        self._all.remove(bot)

    async def close(self) -> None:
        for bot in self._all:
            await bot.close()
        self._all.clear()
        self._idle.clear()
