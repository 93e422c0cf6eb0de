"""Where the arena's bots sit: the referee's bot specs of its three kinds, and the
dial-in gateway of ``mazzo arena serve``.

A ``builtin`` bot's spec is its target (``builtin:heuristic``), a ``grpc`` bot's too
(``grpc://HOST:PORT``: a failed dial is the referee's ``crash`` fault); a ``dial-in``
bot is ``connect:NAME``, the referee's dial-in seat, played through the arena's
gateway. So the worker plays every kind with the referee's own seat machinery, and a
dial-in bot that drops mid-match meets the gateway's grace and fault classes: back
within the grace it goes on; not back, its decision is a ``crash`` fault in the record
(``disconnected, not back within the grace of ...``) and the rest of its match is
played at random for it, as for any crashed bot.

``ArenaGateway`` is the referee's ``Gateway`` (``mazzo.v1.Tables/Join``) whose token
book is the arena's: the hashes of its dial-in bots' tokens, read from the store when
a connection arrives (a bot registered or a token rotated a moment ago is admitted,
an old token is not), compared in constant time by ``TokenBook.who``. A bot is
refused, saying so, when its Hello names games and none is its ladder's form. A
dial-in bot is **connected** while it holds a Join stream: only then does the
scheduler seat it.

Several arena processes may share one database, each with its gateway: a bot's stream
is held by one of them. ``ArenaGateway.keep_connections`` (run by the arena's play,
``run.run_arena``) says in the database which bots this process holds, at once when
one comes or goes and every ``connections.BEAT`` seconds besides; claims and the
scheduler read it (``connections``). A stream another process has taken since (a newer
connection of the same bot) is closed here, as within one gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime

import grpc
from sqlalchemy.exc import SQLAlchemyError

from mazzo.arena.connections import BEAT
from mazzo.arena.liveness import Instance, this_process
from mazzo.arena.models import DIAL_IN, utcnow
from mazzo.arena.store import BotInfo, DialIn, Store
from mazzo.gateway.server import Connection, Gateway, Limits, Seat, peer_host
from mazzo.gateway.tokens import TokenBook
from mazzo.v1 import tables_pb2

#: The gateway's limits unless told otherwise (the referee's).
LIMITS = Limits()


def bot_spec(bot: BotInfo) -> str:
    """The referee's spec of an arena bot: its target, or ``connect:NAME`` when it
    dials in."""
    return f"connect:{bot.name}" if bot.kind == DIAL_IN else bot.target


log = logging.getLogger(__name__)


class ArenaSeat(Seat):
    """A gateway seat that knows since when its stream is held (wall clock: compared
    across processes) and says when it comes or goes."""

    def __init__(self, name: str, limits: Limits, changed: Callable[[], None]) -> None:
        super().__init__(name, limits)
        self.since: datetime | None = None
        self._changed = changed

    def attach(self, conn: Connection) -> None:
        super().attach(conn)
        self.since = utcnow()
        self._changed()

    def detach(self, conn: Connection) -> None:
        held = self.conn is not None
        super().detach(conn)
        if held and self.conn is None:
            self.since = None
            self._changed()


class ArenaGateway(Gateway):
    """The gateway of one arena process: seats for its dial-in bots, their tokens the
    store's; ``instance`` is the process (its workers' names start with its name)."""

    def __init__(
        self, store: Store, limits: Limits = LIMITS, instance: Instance | None = None
    ) -> None:
        super().__init__(TokenBook(), limits)
        self.store = store
        #: The form (game, players) each dial-in bot plays, by name.
        self.form: dict[str, tuple[str, int]] = {}
        self.instance = instance or this_process()
        #: Where this gateway's bots are connected, as the database names it.
        self.process = self.instance.name
        self._changed = asyncio.Event()

    def seat(self, name: str) -> Seat:
        found = self.seats.get(name)
        if found is None:
            found = self.seats[name] = ArenaSeat(name, self.limits, self._changed.set)
        return found

    def held(self) -> dict[str, datetime]:
        """The bots holding a stream here, with since when."""
        return {
            name: seat.since
            for name, seat in self.seats.items()
            if isinstance(seat, ArenaSeat) and seat.conn is not None and seat.since is not None
        }

    async def keep_connections(self, stop: asyncio.Event, beat: float = BEAT) -> None:
        """Say in the database which bots this process holds (module docstring) until
        ``stop``; then that it holds none (its bots' matches go to the process they
        dial in to next, or are voided a grace later)."""
        try:
            while not stop.is_set():
                self._changed.clear()
                await self._record(self.held())
                waits = [asyncio.create_task(e.wait()) for e in (self._changed, stop)]
                try:
                    await asyncio.wait(waits, timeout=beat, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in waits:
                        task.cancel()
        finally:
            with contextlib.suppress(SQLAlchemyError):
                await asyncio.to_thread(self.store.record_connections, self.process, {})

    async def _record(self, held: dict[str, datetime]) -> None:
        try:
            taken = await asyncio.to_thread(self.store.record_connections, self.process, held)
        except SQLAlchemyError as e:  # the database is away: the next beat tries again
            log.warning("cannot record the dial-in connections: %s", e)
            return
        for name in taken:
            seat = self.seats.get(name)
            if seat is not None and seat.conn is not None:
                seat.conn.close(
                    f"{name} dialed in again at another arena process: "
                    "this older connection is replaced",
                    grpc.StatusCode.FAILED_PRECONDITION,
                )

    def refresh(self) -> None:
        """Read the dial-in bots from the store: their tokens' hashes (a bot gone from
        the store, or a token rotated, no longer admits its old token) and a seat each."""
        bots: list[DialIn] = self.store.dial_in_bots()
        self.tokens.hashes = {bot.name: bot.token_hash for bot in bots}
        self.form = {bot.name: (bot.game, bot.players) for bot in bots}
        for bot in bots:
            self.seat(bot.name)

    def connected(self, name: str) -> bool:
        """``name`` holds a Join stream now."""
        seat = self.seats.get(name)
        return seat is not None and seat.conn is not None

    async def Join(  # type: ignore[override]  # read/write style: returns nothing
        self,
        request_iterator: AsyncIterator[tables_pb2.BotMessage],
        context: grpc.aio.ServicerContext,
    ) -> None:
        # The store is read before the Hello is checked, unless the address is over its
        # rate (the gateway refuses it then, and the database is not asked).
        if not self.rate.waiting(peer_host(context.peer())):
            await asyncio.to_thread(self.refresh)
        await super().Join(request_iterator, context)

    def admit(self, hello: tables_pb2.Hello) -> Seat | tuple[grpc.StatusCode, str]:
        admitted = super().admit(hello)
        if not isinstance(admitted, Seat):
            return admitted
        game, players = self.form.get(admitted.name, ("", 0))
        plays = {(form.game, form.players) for form in hello.plays}
        if plays and (game, players) not in plays and (game, 0) not in plays:
            why = f"{admitted.name} is on the {game} {players}p ladder, which it does not play"
            admitted.last_refusal = why
            return grpc.StatusCode.FAILED_PRECONDITION, why
        return admitted
