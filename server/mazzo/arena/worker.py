"""A worker plays the matches it claims: with the referee's own ``play_match``, the
engine and the bot pools as ``referee.tournament.play_task`` makes them (the rules in
this process, the bots started for the match and closed after it).

For each claim it

1. takes the ladder's game, form and options and the bots of the seats (read with the
   claim, in its transaction), and makes the ``MatchSpec`` (the match's id and seed:
   the store's) and one ``Entrant`` per side (named after its bots, ``ada-1+cy-1`` for
   partners);
2. publishes the deal's commitment (``Store.publish_commitment``) from ``on_deal``,
   before the first move: synchronously, so no move is played before it is stored;
3. sends a heartbeat every ``heartbeat`` seconds while the match is played; a
   heartbeat refused means the claim is gone (voided as stale), and the match is
   abandoned unfinished;
4. finishes the match with its record (and an ``arena`` field: ladder, set, place in
   the set) **before** its dial-in bots are told it ended (``play_match``'s
   ``on_record``): a bot never hears of a record that a ``kill -9`` of the arena
   could still lose; or voids it saying why when it cannot be played (a bot of a kind not
   played yet, a form with a dummy seat, an error in play) or when the arena stops
   while it is in play;
5. plays it on the bots' clock (``clock``), with the seats of a bot played by a
   person (``BotInfo.person``) on the person's clock (``person_clock``): a person
   gets minutes, and the bots beside it still answer in seconds; the record keeps the
   clocks (``time_control``, its ``seats``) and those bots (``arena.people``);
6. pauses the match's bots that faulted in too many of their last matches, in the
   transaction that finishes it (``Store.finish``'s ``pause``): no scheduler sees them
   free in between.

Every kind of bot is played with the referee's seat machinery (``seats.bot_spec``):
``builtin:NAME`` in this process, ``grpc://HOST:PORT`` dialed (a bot that does not
answer faults, as in the referee), and a dial-in bot as ``connect:NAME`` through the
arena's gateway (``Worker.gateway``; a match seating one in an arena without a
gateway is voided, saying so). A dial-in bot that drops mid-match is the gateway's
to judge: back within its grace, the match goes on; not back, a ``crash`` fault in
the record, and the rest of its moves random.

Store calls run in a thread (``asyncio.to_thread``) so that a database that is slow to
answer does not stop the other matches on the loop; the commitment, which must be
stored before play goes on, and the void of a match cancelled mid-play, which must
happen even as the task ends, are made in the loop's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from mazzo.arena.models import DIAL_IN
from mazzo.arena.scheduler import PLAYABLE_KINDS, Unplayable, game_options, ladder_sides
from mazzo.arena.seats import bot_spec
from mazzo.arena.store import BotInfo, Claim, Finished, LadderInfo, Refused, Store
from mazzo.gateway.server import Gateway
from mazzo.referee.bots import Launch
from mazzo.referee.engine import engine_for
from mazzo.referee.match import (
    Entrant,
    FaultRules,
    MatchSpec,
    Pools,
    TimeControl,
    play_match,
    summary_line,
)
from mazzo.referee.records import Json
from mazzo.referee.watch import Watcher

#: What became of a claim.
FINISHED, VOIDED, LOST = "finished", "voided", "lost"


@dataclass(frozen=True)
class Played:
    """A claim's end: ``finished`` (``line`` is the result), ``voided`` (``line`` is
    the reason stored with it) or ``lost`` (the claim was taken away: voided as stale,
    or the store refused the record; ``line`` says which)."""

    match_id: str
    outcome: str
    line: str
    #: Bots paused after this match, with the reason stored.
    paused: dict[str, str] = field(default_factory=dict)


def match_for(
    claim: Claim, ladder: LadderInfo, bots: Sequence[BotInfo], dial_in: bool = False
) -> tuple[MatchSpec, list[Entrant]]:
    """The referee's match for a claim: its spec, and its lineup (one entrant per side,
    with one bot per deciding seat). ``Unplayable`` says why there is none; a dial-in
    bot is, unless ``dial_in`` (the worker has a gateway)."""
    sides = ladder_sides(ladder)
    if tuple(b.name for b in bots) != claim.seats or len(bots) != ladder.players:
        raise Unplayable(f"match {claim.match_id} seats {list(claim.seats)}, not a full table")
    for bot in bots:
        if bot.kind not in PLAYABLE_KINDS:
            raise Unplayable(
                f"{bot.name} is a {bot.kind} bot: the arena plays only "
                f"{', '.join(PLAYABLE_KINDS)} bots"
            )
        if bot.kind == DIAL_IN and not dial_in:
            raise Unplayable(f"{bot.name} dials in, and this arena has no gateway")
    spec = MatchSpec(claim.match_id, ladder.game, claim.seed, ladder.players, game_options(ladder))
    lineup = [
        Entrant("+".join(bots[s].name for s in side), tuple(bot_spec(bots[s]) for s in side))
        for side in sides
    ]
    return spec, lineup


@dataclass
class _Ending:
    """A match's record being stored (``storing``), and the store's answer."""

    storing: bool = False
    stored: Finished | None = None


@dataclass
class Worker:
    """Plays claims for the worker ``name`` (unique among the arena's processes)."""

    store: Store
    name: str
    clock: TimeControl = field(default_factory=TimeControl)
    #: The clock of the seats of a bot played by a person (None: ``clock``).
    person_clock: TimeControl | None = None
    rules: FaultRules = field(default_factory=FaultRules)
    #: Seconds between heartbeats while a match is played.
    heartbeat: float = 5.0
    #: A bot is paused after faults in ``pause_limit`` of its last ``pause_window`` matches.
    pause_limit: int = 3
    pause_window: int = 5
    #: The gateway its dial-in bots are seated through (``mazzo arena serve``'s).
    gateway: Gateway | None = None
    #: Who watches its matches (``arena.live``: the live tables; None: nobody).
    watcher: Watcher | None = None

    async def play(self, claim: Claim, stop: asyncio.Event | None = None) -> Played:
        """Play a claimed match to its end (module docstring). When ``stop`` is set
        mid-play (the arena stops), the match is abandoned and voided, saying so; when
        the task is cancelled mid-play, likewise before the cancellation goes on."""
        try:
            # Read with the claim (``Store.claim``); again only for a claim made by hand.
            ladder = claim.ladder
            if ladder is None:
                ladder = await asyncio.to_thread(self.store.ladder, claim.ladder_id)
            bots = list(claim.bots) or await asyncio.to_thread(self.store.seat_bots, claim.match_id)
            spec, lineup = match_for(claim, ladder, bots, self.gateway is not None)
        except Unplayable as e:
            return await self._void(claim, f"cannot be played: {e}")
        stopped = f"the arena stopped while {self.name} played it"
        ending = _Ending()
        people = [b.name for b in bots if b.person]
        playing = asyncio.create_task(
            self._record(claim, spec, lineup, ending, self.own_clocks(bots), people)
        )
        beating = asyncio.create_task(self._heartbeats(claim.match_id))
        stopping = asyncio.create_task((stop or asyncio.Event()).wait())
        tasks = (playing, beating, stopping)
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Refused):
                self.store.void(claim.match_id, stopped)
            raise
        finally:
            beating.cancel()
            stopping.cancel()
        if playing not in done and ending.storing and beating not in done:
            # stopped while its record is being stored: let the store answer
            await asyncio.gather(playing, return_exceptions=True)
            done = {playing}
        if playing not in done:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            if beating in done:  # refused: the claim is gone (or the database failed)
                beating.result()  # a database error: raised (void_stale voids the match)
                return Played(claim.match_id, LOST, f"{self.name} lost its claim (voided as stale)")
            return await self._void(claim, stopped)
        try:
            record = playing.result()
        except Refused as e:
            return Played(claim.match_id, LOST, f"the store refused its record: {e}")
        except Exception as e:
            return await self._void(claim, f"failed in play: {e!r}"[:1000])
        assert ending.stored is not None  # play_match returns once on_record has
        return Played(claim.match_id, FINISHED, summary_line(record), ending.stored.paused)

    def own_clocks(self, bots: Sequence[BotInfo]) -> dict[str, TimeControl]:
        """The table's bots (by spec) on a clock of their own: those played by a person,
        on ``person_clock``; the others play on ``clock``."""
        if self.person_clock is None:
            return {}
        return {bot_spec(b): self.person_clock for b in bots if b.person}

    async def _record(
        self,
        claim: Claim,
        spec: MatchSpec,
        lineup: list[Entrant],
        ending: _Ending,
        own_clocks: dict[str, TimeControl],
        people: list[str],
    ) -> Json:
        """Play the match and store its record (``ending`` says when that began, and
        keeps ``Store.finish``'s answer) before its dial-in bots are told it ended: a
        bot told of a record has it stored, whatever kills the arena after."""

        def publish(header: Json) -> None:
            self.store.publish_commitment(claim.match_id, self.name, header["deal_commitment"])

        async def finish(record: Json) -> None:
            record["arena"] = {
                "ladder": claim.ladder_id,
                "set": claim.set_id,
                "set_index": claim.set_index,
                # The bots played by people: their seats had their clock, and an unpaired deal.
                "people": people,
            }
            pause = (self.pause_limit, self.pause_window)
            ending.storing = True
            ending.stored = await asyncio.to_thread(
                self.store.finish, claim.match_id, self.name, record, pause
            )

        engine = engine_for(None)
        pools = Pools(Launch(gateway=self.gateway))
        try:
            return await play_match(
                spec,
                lineup,
                engine,
                pools,
                self.clock,
                self.rules,
                on_deal=publish,
                watcher=self.watcher,
                on_record=finish,
                own_clocks=own_clocks,
            )
        finally:
            await pools.close()
            await engine.close()

    async def _heartbeats(self, match_id: str) -> None:
        """Returns when a heartbeat is refused (the claim is no longer this worker's)."""
        while True:
            await asyncio.sleep(self.heartbeat)
            if not await asyncio.to_thread(self.store.heartbeat, match_id, self.name):
                return

    async def _void(self, claim: Claim, reason: str) -> Played:
        try:
            await asyncio.to_thread(self.store.void, claim.match_id, reason)
        except Refused as e:  # voided meanwhile (stale)
            return Played(claim.match_id, LOST, str(e))
        return Played(claim.match_id, VOIDED, reason)
