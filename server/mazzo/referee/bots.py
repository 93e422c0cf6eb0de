"""Bot specs (``grpc://HOST:PORT``, ``exec:COMMAND``, ``builtin:NAME[?k=v&…]``,
``connect:NAME``, ``human[:NAME]``) and pools
that keep bots running between matches and replace crashed ones. The builtin players
themselves are strategy, in ``mazzo.players`` (a saved policy: ``mazzo.rl``); their names
are here, with the specs that name them.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl

import grpc

from mazzo.gateway.server import Gateway
from mazzo.gateway.tokens import check_name
from mazzo.players.builtins import Factory, Policy, heuristic_policy, random_policy
from mazzo.players.pimc import pimc_policy
from mazzo.referee import heap
from mazzo.referee.dial_in import DialInBot
from mazzo.referee.transports import ExecBot, GrpcBot, InProcessBot, Transport, channel_credentials

#: How long a run waits, before its first deal, for a ``grpc://`` bot to accept a
#: connection: a bot started just before the referee is still binding its port.
READY_SECONDS = 10.0


def _policy(seed: int, params: Mapping[str, str]) -> Policy:
    """A saved policy (docs/rl.md): ``builtin:policy?path=FILE``; needs ``mazzo[rl]``."""
    try:
        from mazzo.rl.policy import policy_player  # lazy: NumPy is the optional mazzo[rl]
    except ImportError as e:
        raise ValueError(
            f"builtin:policy needs NumPy ({e.name} is missing): pip install 'mazzo[rl]'"
        ) from None
    return policy_player(seed, params)


#: The seat name of a bare ``human`` spec.
HUMAN = "human"

#: The builtin players by the name a spec gives them (``builtin:NAME``).
BUILTINS: dict[str, Factory] = {
    "random": random_policy,
    "heuristic": heuristic_policy,
    "pimc": pimc_policy,
    "policy": _policy,
}
#: The builtins that take parameters (``builtin:NAME?key=value&…``).
WITH_PARAMS = ("pimc", "policy")


def parse_builtin(text: str) -> tuple[str, dict[str, str]]:
    """``NAME`` or ``NAME?key=value&…`` -> (name, parameters); unknown names refused.
    The parameters are checked by the player when it is made, here and now."""
    name, _, query = text.partition("?")
    if name not in BUILTINS:
        known = ", ".join(f"builtin:{n}" for n in BUILTINS)
        raise ValueError(f"builtin:{text}: unknown builtin bot; there are {known}")
    try:
        params = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError:
        raise ValueError(f"builtin:{text}: parameters are key=value&key=value") from None
    if params and name not in WITH_PARAMS:
        raise ValueError(f"builtin:{text}: builtin:{name} takes no parameters")
    BUILTINS[name](0, params)  # refuses bad parameters now, not at the first move
    return name, params


@dataclass(frozen=True)
class Launch:
    """Where a run's bots start, one value from the run down to each bot it starts:
    the folder ``exec:`` bots run in, the CA that checks ``grpcs://`` bots'
    certificates (the system's without it), the gateway ``connect:`` bots dial in to."""

    cwd: Path | None = None
    ca: Path | None = None
    gateway: Gateway | None = None


#: Bots started here, with the system's CAs and no gateway.
LOCAL: Final = Launch()


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec; ``text`` is how it was written (and is recorded)."""

    text: str
    kind: str
    target: str
    #: A builtin's parameters (``builtin:pimc?samples=16``).
    params: dict[str, str] = field(default_factory=dict, compare=False)

    @staticmethod
    def parse(text: str) -> BotSpec:
        for scheme in ("grpc", "grpcs"):
            if text.startswith(f"{scheme}://"):
                target = text.removeprefix(f"{scheme}://")
                if ":" not in target:
                    raise ValueError(f"{text!r}: expected {scheme}://HOST:PORT")
                return BotSpec(text, scheme, target)
        if text.startswith("exec:"):
            command = text.removeprefix("exec:").strip()
            if not command:
                raise ValueError(f"{text!r}: expected exec:COMMAND")
            return BotSpec(text, "exec", command)
        if text.startswith("builtin:"):
            name, params = parse_builtin(text.removeprefix("builtin:"))
            return BotSpec(text, "builtin", name, params)
        if text.startswith("connect:"):
            return BotSpec(text, "connect", check_name(text.removeprefix("connect:")))
        if text == HUMAN or text.startswith(f"{HUMAN}:"):
            # A person in the browser: a dial-in seat whose token the run makes itself.
            return BotSpec(text, "human", check_name(text.partition(":")[2] or HUMAN))
        raise ValueError(
            f"{text!r}: a bot is grpc://HOST:PORT, grpcs://HOST:PORT, exec:COMMAND, "
            "builtin:NAME, connect:NAME or human[:NAME]"
        )

    def startable(self, cwd: Path | None = None) -> str:
        """Why an ``exec:`` bot's program cannot start ('' if it can, and for other
        kinds): told before a match, not as a crash at its first move."""
        if self.kind != "exec":
            return ""
        try:
            program = shlex.split(self.target)[0]
        except ValueError as e:  # an unclosed quote
            return f"{self.text!r}: {e}"
        if "/" in program:
            path = Path(program) if cwd is None else cwd / program
            found = path.is_file() and os.access(path, os.X_OK)
        else:
            found = shutil.which(program) is not None
        if not found:
            return f"{self.text!r}: cannot start {program!r}: no such executable program"
        return ""

    def transport(self, launch: Launch = LOCAL, stderr: Path | None = None) -> Transport:
        """A new running-to-be bot, started as ``launch`` says; an ``exec:`` bot's
        standard error goes to ``stderr``."""
        if self.kind in ("connect", "human"):
            if launch.gateway is None:
                raise ValueError(f"{self.text!r}: a dial-in seat needs a gateway (--gateway PORT)")
            return DialInBot(launch.gateway.seat(self.target))
        if self.kind in ("grpc", "grpcs"):
            return GrpcBot(self.target, tls=self.kind == "grpcs", ca=launch.ca)
        if self.kind == "exec":
            return ExecBot(self.target, cwd=launch.cwd, stderr=stderr)
        make, params = BUILTINS[self.target], self.params
        return InProcessBot(lambda seed: make(seed, params))


def dial_in_names(specs: Iterable[str], kinds: tuple[str, ...] = ("connect", "human")) -> list[str]:
    """The names of the seats among ``specs`` that dial in (``connect:`` bots and
    ``human`` people; only ``kinds``), each once."""
    bots = (BotSpec.parse(text) for text in dict.fromkeys(specs))
    return list(dict.fromkeys(bot.target for bot in bots if bot.kind in kinds))


def human_names(specs: Iterable[str]) -> list[str]:
    """The names of the ``human`` seats among ``specs``, each once."""
    return dial_in_names(specs, ("human",))


async def await_dialed_in(specs: Iterable[str], gateway: Gateway | None, seconds: float) -> None:
    """Wait until every ``connect:`` bot has dialed in, at most ``seconds``; ``ValueError``
    naming who did not come (or that there is no gateway to come to)."""
    names = dial_in_names(specs)
    if not names:
        return
    if gateway is None:
        raise ValueError(f"connect:{names[0]}: dial-in seats need a gateway: give --gateway PORT")
    await gateway.wait_for(names, seconds)
    if len(names) >= heap.MANY_BOTS:
        heap.settle()  # what holds the seated bots lives as long as the run (referee.heap)


def check_startable(specs: Iterable[str], cwd: Path | None = None) -> None:
    """``ValueError`` naming the first ``exec:`` bot whose program cannot start: a
    typo in a command should stop a match or a run before its first deal, with the
    reason, not forfeit every match it was in."""
    for text in dict.fromkeys(specs):
        why = BotSpec.parse(text).startable(cwd)
        if why:
            raise ValueError(why)


async def await_reachable(
    specs: Iterable[str], ca: Path | None = None, seconds: float | None = None
) -> None:
    """Wait until every ``grpc://``/``grpcs://`` bot accepts a connection, at most
    ``seconds`` in all; ``ValueError`` naming the first that does not. A bot that is
    not listening yet would otherwise be a crash at its first move, and play the
    whole match at random; one that never listens is a mistake to tell before the
    first deal, like an ``exec:`` program that cannot start."""
    bots = [BotSpec.parse(text) for text in dict.fromkeys(specs)]
    remote = [bot for bot in bots if bot.kind in ("grpc", "grpcs")]
    seconds = READY_SECONDS if seconds is None else seconds
    end = asyncio.get_running_loop().time() + seconds
    for bot in remote:
        if bot.kind == "grpcs":
            channel = grpc.aio.secure_channel(bot.target, channel_credentials(ca))
        else:
            channel = grpc.aio.insecure_channel(bot.target)
        try:
            left = max(end - asyncio.get_running_loop().time(), 0.0)
            await asyncio.wait_for(channel.channel_ready(), left)
        except TimeoutError:
            tls = bot.kind == "grpcs"
            trust = ", or its certificate is not trusted (check --ca)" if tls else ""
            raise ValueError(
                f"{bot.text!r}: nothing accepted a connection at {bot.target} within "
                f"{seconds:g} s: start the bot first{trust}"
            ) from None
        finally:
            await channel.close()


class BotPool:
    """Running instances of one bot, reused from match to match (starting a program
    for every match would cost more than many matches). A bot that crashed is closed
    when its match returns it, and the next match gets a fresh one."""

    def __init__(self, spec: BotSpec, launch: Launch = LOCAL, stderr: Path | None = None):
        self.spec = spec
        self._launch = launch
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
            bot = self.spec.transport(self._launch, self._stderr)
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
