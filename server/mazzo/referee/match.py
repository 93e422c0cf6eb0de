"""One match: deal, ask each seat's bot, adjudicate faults, apply, record.

Generic over games: seats, sides and legal moves come from the engine, and which
seat's bot decides for a seat from the rules (``Rules.controller``): a bot is only
ever asked for, and shown, the seats its player controls. The referee owns
the clock: each deciding seat has a per-move allowance plus a bank for the match;
time over the allowance comes out of the bank, and an answer later than both is a
timeout. A fault (timeout, illegal move, malformed answer, crash) is recorded with
its class and adjudicated by the policy: forfeit the match, or play a random legal
move in its place and count a strike. A player reaching ``disqualify_after`` faults
in a run forfeits the match it is in, and every later one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from mazzo.core import fair
from mazzo.games.declaration import GameHooks
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.gateway.server import Gateway
from mazzo.players.builtins import random_index
from mazzo.referee.bots import (
    LOCAL,
    BotPool,
    BotSpec,
    Launch,
    await_dialed_in,
    await_reachable,
    check_startable,
)
from mazzo.referee.dial_in import DialInBot
from mazzo.referee.engine import Engine, LocalPosition, engine_for, players_for
from mazzo.referee.records import (
    FORMAT,
    Json,
    deal_commitment,
    deal_hash,
    events_json,
    move_json,
    to_json,
)
from mazzo.referee.transports import Fault, Reply, Transport
from mazzo.referee.watch import MatchWatch, Watcher
from mazzo.v1 import bot_pb2, game_pb2, game_service_pb2

#: Matches interleave on one event loop: let the others run every this many moves.
YIELD_EVERY = 32


@dataclass(frozen=True)
class SeatClock:
    """A deciding seat's own clock, where it is not the table's: a person's seat at a
    table of bots (``play_match``'s ``own_clocks``)."""

    seat: int
    move: float
    bank: float


@dataclass(frozen=True)
class TimeControl:
    """Seconds: per move, plus a bank for the whole match per deciding seat; ``seats``
    on a clock of their own."""

    move: float = 1.0
    bank: float = 10.0
    seats: tuple[SeatClock, ...] = ()

    def at(self, seat: int) -> tuple[float, float]:
        """The deciding seat's move time and bank."""
        for own in self.seats:
            if own.seat == seat:
                return own.move, own.bank
        return self.move, self.bank

    def as_json(self) -> Json:
        """The record's ``time_control``: ``seats`` only when a seat has its own."""
        out: Json = {"move": self.move, "bank": self.bank}
        if self.seats:
            out["seats"] = [{"seat": c.seat, "move": c.move, "bank": c.bank} for c in self.seats]
        return out


class OnFault(StrEnum):
    FORFEIT = "forfeit"
    RANDOM = "random"


@dataclass(frozen=True)
class FaultRules:
    on_fault: OnFault = OnFault.RANDOM
    #: Faults (over the whole run) at which a player is disqualified; 0: never.
    disqualify_after: int = 0


@dataclass(frozen=True)
class Entrant:
    """A player: one bot for every seat of its side, or one bot per deciding seat."""

    name: str
    bots: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.bots:
            raise ValueError(f"{self.name}: an entrant needs at least one bot")
        for spec in self.bots:
            BotSpec.parse(spec)


@dataclass(frozen=True)
class MatchSpec:
    id: str
    game: str
    seed: int
    players: int = 0
    #: The proto3 JSON of ``GameOptions`` (``{}`` = the game's defaults).
    options: Json = field(default_factory=dict)

    def options_message(self) -> game_pb2.GameOptions:
        return json_format.ParseDict(self.options, game_pb2.GameOptions())


@dataclass
class FaultLedger:
    """Faults per entrant over a run, and who is disqualified."""

    disqualify_after: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, entrant: str) -> bool:
        """Count a fault; true when this disqualifies the entrant."""
        self.counts[entrant] = self.counts.get(entrant, 0) + 1
        return self.disqualified(entrant)

    def disqualified(self, entrant: str) -> bool:
        limit = self.disqualify_after
        return limit > 0 and self.counts.get(entrant, 0) >= limit


def log_name(entrant: str, slot: int) -> str:
    """A file name for a bot's stderr: the entrant's name made safe (a name may be a
    whole ``exec:`` command, slashes and all), with a hash keeping names apart."""
    safe = re.sub(r"[^A-Za-z0-9._+-]+", "_", entrant).strip("._")[:60]
    digest = hashlib.blake2b(entrant.encode(), digest_size=4).hexdigest()
    return f"{safe}-{digest}.{slot}.stderr"


class Pools:
    """One pool of running bots per (entrant, bot slot), shared by a run's matches."""

    def __init__(self, launch: Launch = LOCAL, logs: Path | None = None) -> None:
        self._pools: dict[tuple[str, int], BotPool] = {}
        self._launch = launch
        self._logs = logs

    def pool(self, entrant: Entrant, slot: int) -> BotPool:
        key = (entrant.name, slot)
        pool = self._pools.get(key)
        if pool is None:
            log = None if self._logs is None else self._logs / log_name(entrant.name, slot)
            spec = BotSpec.parse(entrant.bots[slot])
            pool = BotPool(spec, self._launch, log)
            self._pools[key] = pool
        return pool

    def started(self) -> dict[str, int]:
        return {f"{name}.{slot}": p.started for (name, slot), p in self._pools.items()}

    async def close(self) -> None:
        for pool in self._pools.values():
            await pool.close()


def lineup_seats(
    sides: Sequence[Sequence[int]], deciders: Sequence[int], lineup: Sequence[Entrant]
) -> dict[int, tuple[int, int]]:
    """Deciding seat -> (side, bot slot of that side's entrant): one bot for all the
    side's deciding seats, or its i-th bot for its i-th deciding seat."""
    return seat_slots(sides, deciders, [(e.name, e.bots) for e in lineup])


def seat_slots(
    sides: Sequence[Sequence[int]],
    deciders: Sequence[int],
    lineup: Sequence[tuple[str, Sequence[str]]],
) -> dict[int, tuple[int, int]]:
    """``lineup_seats`` of (name, bots) per side, as a record holds them (``mazzo
    verify`` checks a record's seat bots with it, whatever its bots' specs)."""
    if len(lineup) != len(sides):
        raise ValueError(f"{len(sides)} sides need {len(sides)} entrants, not {len(lineup)}")
    slots: dict[int, tuple[int, int]] = {}
    for side, (seats, (name, bots)) in enumerate(zip(sides, lineup, strict=True)):
        mine = [s for s in seats if s in deciders]
        # More bots than deciding seats is allowed: a side of two seats may hold the
        # 3-player Maraffa dummy, whose controller's bot plays for both.
        if len(bots) != 1 and len(bots) < len(mine):
            raise ValueError(
                f"{name} plays {len(mine)} seats: give 1 bot or {len(mine)}, not {len(bots)}"
            )
        for i, seat in enumerate(mine):
            slots[seat] = (side, 0 if len(bots) == 1 else i)
    return slots


async def _domain_state(engine: Engine, position: Any, game: str) -> Any:
    """The rules' own state of a position: at hand for the in-process and sealed
    engines, decoded from the wire for a remote one (only when a match is watched)."""
    local = getattr(position, "local", position)
    if isinstance(local, LocalPosition):
        return local.state
    return CODECS[game].state_from_wire(await engine.state(position))


def _adjudicate(reply: Reply, request: bot_pb2.ActRequest) -> tuple[int, Fault | None, str]:
    """The chosen index, or the fault of the answer."""
    if reply.fault is not None or reply.response is None:
        return -1, reply.fault or Fault.MALFORMED, reply.detail
    response = reply.response
    moves = request.legal_moves
    choice = response.WhichOneof("choice")
    if choice == "index":
        if response.index < len(moves):
            return response.index, None, ""
        return -1, Fault.ILLEGAL, f"index {response.index} of {len(moves)} legal moves"
    if choice == "move":
        wanted = response.move.SerializeToString(deterministic=True)
        for i, m in enumerate(moves):
            if m.SerializeToString(deterministic=True) == wanted:
                return i, None, ""
        return (
            -1,
            Fault.ILLEGAL,
            f"not a legal move: {json_format.MessageToJson(response.move, indent=None)}",
        )
    return -1, Fault.MALFORMED, "neither index nor move"


@dataclass(frozen=True)
class _Seating:
    """Who decides for each seat, and which entrant's bot answers for each decider."""

    sides: list[list[int]]
    seats: list[int]
    #: Seat -> the seat whose bot decides for it (``Rules.controller``).
    controller: dict[int, int]
    deciders: list[int]
    #: Deciding seat -> (side, bot slot of that side's entrant).
    slots: dict[int, tuple[int, int]]

    def bot_spec(self, lineup: Sequence[Entrant], seat: int) -> str:
        """The spec of the bot that decides for ``seat``."""
        side, slot = self.slots[self.controller[seat]]
        return lineup[side].bots[slot]


async def _seating(
    engine: Engine,
    position: Any,
    spec: MatchSpec,
    players: int,
    options: game_pb2.GameOptions,
    lineup: Sequence[Entrant],
) -> _Seating:
    """The engine's sides and seats, which must be those the rules' controllers name:
    requests are routed to bots by that mapping."""
    first = await engine.score(position)
    sides = [list(s.seats) for s in first.sides]
    seats = sorted(s for side in sides for s in side)
    controller = controllers_of(spec.game, players, options, spec.seed)
    if sorted(controller) != seats:
        raise RuntimeError(f"the engine's seats {seats} are not the rules' {sorted(controller)}")
    deciders = sorted(set(controller.values()))
    return _Seating(sides, seats, controller, deciders, lineup_seats(sides, deciders, lineup))


def _header(
    spec: MatchSpec,
    lineup: Sequence[Entrant],
    seating: _Seating,
    players: int,
    commitment: str,
    clock: TimeControl,
    rules: FaultRules,
) -> Json:
    """The record as it stands at the deal: all that is known before the first move."""
    return {
        "mazzo_record": FORMAT,
        "id": spec.id,
        "game": spec.game,
        "players": players,
        "options": spec.options,
        "seed": spec.seed,
        "deal_commitment": commitment,
        "sides": [
            {"entrant": e.name, "seats": side, "bots": list(e.bots)}
            for e, side in zip(lineup, seating.sides, strict=True)
        ],
        "seat_bots": [seating.bot_spec(lineup, s) for s in seating.seats],
        "time_control": clock.as_json(),
        "fault_rules": {
            "on_fault": str(rules.on_fault),
            "disqualify_after": rules.disqualify_after,
        },
    }


def _with_own_clocks(
    clock: TimeControl, seating: _Seating, lineup: Sequence[Entrant], own: Mapping[str, TimeControl]
) -> TimeControl:
    """``clock`` with the deciding seats of the bots in ``own`` on their clocks;
    ``ValueError`` for a bot that is not at the table (a caller's mistake, not a
    clock to drop quietly)."""
    if not own:
        return clock
    specs = {who: seating.bot_spec(lineup, who) for who in seating.deciders}
    missing = sorted(set(own) - set(specs.values()))
    if missing:
        raise ValueError(f"own clocks for bots not at the table: {', '.join(missing)}")
    seats = tuple(
        SeatClock(who, own[spec].move, own[spec].bank) for who, spec in specs.items() if spec in own
    )
    return replace(clock, seats=seats)


def _disqualified_before(lineup: Sequence[Entrant], ledger: FaultLedger) -> Json | None:
    """The forfeit of the first entrant disqualified by earlier matches, if any."""
    for e in lineup:
        if ledger.disqualified(e.name):
            return _forfeit_of(lineup, e.name, -1, "disqualified before the match")
    return None


@dataclass
class _Play:
    """What the move loop carries from move to move: the position, the clocks, the
    running bots, and the moves and faults the record will hold."""

    spec: MatchSpec
    lineup: Sequence[Entrant]
    engine: Engine
    seating: _Seating
    clock: TimeControl
    rules: FaultRules
    ledger: FaultLedger
    position: Any
    watcher: Watcher | None = None
    watch: MatchWatch | None = None
    #: The rules' state of the position, while watched.
    seen: Any = None
    #: One running bot per (side, slot); a side with one bot plays all its seats with it.
    bots: dict[tuple[int, int], Transport] = field(default_factory=dict)
    #: Bots that crashed in this match.
    dead: set[tuple[int, int]] = field(default_factory=set)
    moves: list[Json] = field(default_factory=list)
    faults: list[Json] = field(default_factory=list)
    forfeit: Json | None = None
    ply: int = 0
    #: Plays the random moves in place of faulty answers, the same for every replay.
    fallback: random.Random = field(init=False)
    #: Per deciding seat: the time bank left, and the time its bot took in all.
    bank: dict[int, float] = field(init=False)
    spent: dict[int, float] = field(init=False)

    def __post_init__(self) -> None:
        self.fallback = random.Random(f"{self.spec.seed}:{self.spec.id}")
        self.bank = {who: self.clock.at(who)[1] for who in self.seating.deciders}
        self.spent = dict.fromkeys(self.seating.deciders, 0.0)

    async def start_watch(self, watcher: Watcher, header: Json, hooks: GameHooks) -> None:
        game = self.spec.game
        self.watcher = watcher
        self.watch = watcher.watch(header, rules_for(game), CODECS[game], hooks)
        self.seen = await _domain_state(self.engine, self.position, game)
        self.watch.dealt(self.seen)

    async def acquire_bots(self, pools: Pools) -> None:
        for side, slot in sorted(set(self.seating.slots.values())):
            pool = pools.pool(self.lineup[side], slot)
            seed = self.spec.seed * 1000 + side * 10 + slot
            self.bots[side, slot] = await pool.acquire(seed)

    def tell_dialed_in(self, players: int) -> None:
        """A dial-in bot is told its match and the seats it decides for."""
        for (side, slot), bot in self.bots.items():
            if isinstance(bot, DialInBot):
                seats = [
                    s
                    for s in self.seating.seats
                    if self.seating.slots[self.seating.controller[s]] == (side, slot)
                ]
                # Its seats share a clock (``own_clocks`` is per bot): the first one's.
                move = (
                    self.clock.at(self.seating.controller[seats[0]])[0]
                    if seats
                    else self.clock.move
                )
                bot.match_started(self.spec.id, self.spec.game, players, seats, move)

    def tell_ended(self, record: Json | None) -> None:
        """A dial-in bot is told its match is over: recorded (its MatchEnded names the
        record), or abandoned (None: no record id, "stopped before the end")."""
        result = {} if record is None else record["result"]
        forfeit = result.get("forfeit") or {}
        reason = "stopped before the end" if record is None else forfeit.get("reason", "")
        for bot in self.bots.values():
            if isinstance(bot, DialInBot):
                bot.match_ended(
                    self.spec.id, result.get("winners", []), reason, recorded=record is not None
                )

    async def release_bots(self, pools: Pools) -> None:
        for (side, slot), bot in self.bots.items():
            await pools.pool(self.lineup[side], slot).release(bot)

    async def play_to_end(self) -> None:
        while self.forfeit is None and not self.position.finished:
            await self._turn()

    async def _turn(self) -> None:
        """Ask the bot deciding for the seat to move, adjudicate its answer and play
        the move: its own, or a random one in place of a fault. A forfeit plays none."""
        seat = self.position.seat
        who = self.seating.controller[seat]
        bot = self.seating.slots[who]
        request = await self.engine.request(self.position, seat)
        move = self.clock.at(who)[0]
        reply = await self._ask(bot, request, move + self.bank[who])
        index, fault, detail = _adjudicate(reply, request)
        self.spent[who] += reply.elapsed
        entry: Json = {"seat": seat, "ms": round(reply.elapsed * 1000, 3)}
        if fault is None:
            self.bank[who] = max(0.0, self.bank[who] - max(0.0, reply.elapsed - move))
        elif bot in self.dead:
            entry["auto"] = True
            index = random_index(request.legal_moves, self.spec.game, self.fallback)
        else:
            self.forfeit = self._fault(seat, who, bot, fault, detail, entry["ms"])
            if self.forfeit is not None:
                return
            entry["fault"] = str(fault)
            index = random_index(request.legal_moves, self.spec.game, self.fallback)
        await self._apply(request, index, entry)

    async def _ask(
        self, bot: tuple[int, int], request: bot_pb2.ActRequest, allowance: float
    ) -> Reply:
        """The bot's answer within ``allowance`` (the move's time plus the bank), which
        the request tells it as ``time_left``; a bot that crashed is not asked again."""
        whole = int(allowance)
        request.time_left.seconds = whole
        request.time_left.nanos = int((allowance - whole) * 1e9)
        if bot in self.dead:
            return Reply(None, 0.0, Fault.CRASH, "crashed earlier in the match")
        return await self.bots[bot].act(request, allowance)

    def _fault(
        self, seat: int, who: int, bot: tuple[int, int], fault: Fault, detail: str, ms: float
    ) -> Json | None:
        """Record a fault of ``bot`` against its entrant: the forfeit, when the rules or
        a disqualification call for one; else None (a random move is played instead)."""
        side, slot = bot
        entrant = self.lineup[side].name
        if fault is Fault.TIMEOUT:
            self.bank[who] = 0.0
        if fault is Fault.CRASH or not self.bots[bot].alive:
            self.dead.add(bot)
        disqualified = self.ledger.add(entrant)
        self.faults.append(
            {
                "ply": self.ply,
                "seat": seat,
                "entrant": entrant,
                "bot": self.lineup[side].bots[slot],
                "class": str(fault),
                "detail": detail,
                "ms": ms,
            }
        )
        if self.rules.on_fault is OnFault.FORFEIT or disqualified:
            why = (
                f"{fault}: {detail}"
                if not disqualified
                else (f"disqualified after {self.ledger.counts[entrant]} faults ({fault})")
            )
            return _forfeit_of(self.lineup, entrant, seat, why)
        return None

    async def _apply(self, request: bot_pb2.ActRequest, index: int, entry: Json) -> None:
        """Play the chosen move and record it; show it to the watcher, if any."""
        entry["move"] = move_json(request.legal_moves[index])
        self.position, events = await self.engine.apply(self.position, index)
        entry["events"] = events_json(events)
        self.moves.append(entry)
        self.ply += 1
        if self.watch is not None and not self.watch.broken:
            await self._show(self.watch, entry)
        if self.ply % YIELD_EVERY == 0:
            await asyncio.sleep(0)

    async def _show(self, watch: MatchWatch, entry: Json) -> None:
        assert self.watcher is not None
        at = time.time()
        before = self.seen
        self.seen = await _domain_state(self.engine, self.position, self.spec.game)
        watch.moved(self.ply, entry, before, self.seen, at)
        if self.watcher.pace > 0:
            await asyncio.sleep(self.watcher.pace)

    def ending(self, score: game_service_pb2.ScoreResponse, hooks: GameHooks) -> Json:
        """The record's fields from the play: moves, faults, hands, result, time used."""
        hands = [p for m in self.moves if (p := hooks.hand_points(m["events"])) is not None]
        if self.forfeit is not None:
            winners = [i for i in range(len(self.seating.sides)) if i != self.forfeit["side"]]
        else:
            winners = list(score.winners)
        return {
            "moves": self.moves,
            "faults": self.faults,
            "hands": hands,
            "result": {
                "finished": score.finished,
                "winners": winners,
                "forfeit": self.forfeit,
                "match_totals": [s.match_total for s in score.sides],
                "score": to_json(score),
            },
            "time_used_ms": {str(s): round(t * 1000, 3) for s, t in self.spent.items()},
        }


async def play_match(
    spec: MatchSpec,
    lineup: Sequence[Entrant],
    engine: Engine,
    pools: Pools,
    clock: TimeControl = TimeControl(),
    rules: FaultRules = FaultRules(),
    ledger: FaultLedger | None = None,
    on_deal: Callable[[Json], None] | None = None,
    watcher: Watcher | None = None,
    on_record: Callable[[Json], Awaitable[None]] | None = None,
    own_clocks: Mapping[str, TimeControl] | None = None,
) -> Json:
    """Play one match to its end (or a forfeit) and return its record. ``own_clocks``:
    bots (by spec) on a clock of their own, for every seat they decide for, the others
    on ``clock`` (a person's minutes at a table of bots that answer in seconds); the
    record's ``time_control`` names those seats. ``on_deal`` is
    given the record's header (with the deal's commitment, and when sealed the
    service's ``sealed`` match id and commitment) before the first move; the salt that
    opens the commitment is in the record only, at the end. ``watcher`` is told of the
    match as it is played (``referee.watch``; the live view shows only what is public);
    without one the loop does nothing more per move than one test. ``on_record`` is
    awaited with the whole record before the dial-in bots are told the match ended: a
    caller that stores the record there (the arena) never has a bot told of a record
    that a crash could still lose; when it raises, the bots are told the match ended
    unrecorded, and the error goes on."""
    started = datetime.now(UTC)
    wall = time.perf_counter()
    ledger = ledger if ledger is not None else FaultLedger(rules.disqualify_after)
    options = spec.options_message()
    hooks = GAMES[spec.game].hooks
    position = await engine.deal(spec.game, options, spec.players, spec.seed)
    dealt = await engine.state(position)
    dealt_hash = deal_hash(dealt)
    salt = secrets.token_bytes(fair.SALT_BYTES)
    seating = await _seating(engine, position, spec, dealt.players, options, lineup)
    clock = _with_own_clocks(clock, seating, lineup, own_clocks or {})
    commitment = deal_commitment(spec.seed, dealt_hash, salt)
    record = _header(spec, lineup, seating, dealt.players, commitment, clock, rules)
    if on_deal is not None:
        sealed_at_deal = engine.sealed(position)  # the service's commitment, no salt yet
        on_deal(record if sealed_at_deal is None else {**record, "sealed": sealed_at_deal})
    play = _Play(spec, lineup, engine, seating, clock, rules, ledger, position)
    if watcher is not None:
        await play.start_watch(watcher, record, hooks)
    try:
        await play.acquire_bots(pools)
        play.tell_dialed_in(dealt.players)
        play.forfeit = _disqualified_before(lineup, ledger)
        await play.play_to_end()
    except BaseException:
        play.tell_ended(None)
        raise
    finally:
        await play.release_bots(pools)
    score = await engine.score(play.position)
    ending = play.ending(score, hooks)
    sealed = engine.sealed(play.position)
    if sealed is not None:
        record["sealed"] = sealed
    record.update(
        deal_hash=dealt_hash,
        deal_salt=salt.hex(),
        **ending,
        started=started.isoformat(timespec="seconds"),
        duration_s=round(time.perf_counter() - wall, 3),
    )
    if on_record is not None:
        try:
            await on_record(record)
        except BaseException:
            play.tell_ended(None)
            raise
    play.tell_ended(record)
    if play.watch is not None:
        play.watch.ended(record, play.seen)
    return record


def _forfeit_of(lineup: Sequence[Entrant], entrant: str, seat: int, reason: str) -> Json:
    side = next(i for i, e in enumerate(lineup) if e.name == entrant)
    return {"side": side, "entrant": entrant, "seat": seat, "reason": reason}


def entrants_for_bots(
    bots: Sequence[str], sides: Sequence[Sequence[int]], deciders: Sequence[int]
) -> list[Entrant]:
    """``--bot`` as given to ``mazzo match``: one per side, or one per deciding seat in
    seat order (then a side's bots are those of its seats)."""
    if len(bots) == len(sides):
        return [Entrant(f"side{i}:{b}", (b,)) for i, b in enumerate(bots)]
    if len(bots) == len(deciders):
        by_seat = dict(zip(deciders, bots, strict=True))
        lineup = []
        for i, seats in enumerate(sides):
            mine = tuple(by_seat[s] for s in seats if s in by_seat)
            lineup.append(Entrant(f"side{i}:{'+'.join(dict.fromkeys(mine))}", mine))
        return lineup
    raise ValueError(
        f"give one --bot per side ({len(sides)}) or per deciding seat ({len(deciders)}), "
        f"not {len(bots)}"
    )


def table_of(
    game: str, players: int, options: game_pb2.GameOptions
) -> tuple[list[list[int]], list[int]]:
    """The sides (their seats) and the deciding seats of a game, from the local rules."""
    rules = rules_for(game)
    players = players_for(game, players)
    state, _ = rules.deal(CODECS[game].options(options), players, 0)
    sides = [list(s.seats) for s in rules.score(state).sides]
    deciders = sorted(set(controllers_of(game, players, options, 0).values()))
    return sides, deciders


def controllers_of(
    game: str, players: int, options: game_pb2.GameOptions, seed: int
) -> dict[int, int]:
    """Seat -> the seat whose bot decides for it, as the rules say (``Rules.controller``)
    of the match this seed deals: the one mapping the referee routes requests by."""
    rules = rules_for(game)
    state, _ = rules.deal(CODECS[game].options(options), players_for(game, players), seed)
    seats = sorted(s for side in rules.score(state).sides for s in side.seats)
    return {s: rules.controller(state, s) for s in seats}


def summary_line(record: Json) -> str:
    """One line for people: who won, totals, how the match ended, faults. Totals short
    of the target need the last: a Maraffa match can end on a claim."""
    result = record["result"]
    names = [s["entrant"] for s in record["sides"]]
    won = ", ".join(names[w] for w in result["winners"]) or "nobody"
    text = f"{record['id']}: {won} won; totals {result['match_totals']}"
    if result["forfeit"]:
        text += f" (forfeit by {result['forfeit']['entrant']}: {result['forfeit']['reason']})"
    elif record["moves"]:
        last = record["moves"][-1]
        kind = next(iter(last["move"].get(record["game"], {})), "move")
        text += f"; ended with seat {last['seat']}'s {kind}"
    if record["faults"]:
        text += f"; {len(record['faults'])} faults"
    return text


def options_json(game: str, settings: Sequence[str]) -> Json:
    """``NAME=VALUE`` settings as the proto3 JSON of ``GameOptions`` for ``game``; a value
    is read as JSON when it parses (``41``, ``true``), else as text (an enum name)."""
    branch: Json = {}
    for setting in settings:
        name, sep, text = setting.partition("=")
        if not sep or not name:
            raise ValueError(f"{setting!r}: an option is NAME=VALUE")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        branch[name] = value
    if not branch:
        return {}
    try:
        msg = json_format.ParseDict({CODECS[game].options_field: branch}, game_pb2.GameOptions())
    except json_format.ParseError as e:
        reason = " ".join(str(e).split())
        raise ValueError(f"--option {', '.join(settings)}: {reason}") from None
    CODECS[game].options(msg)  # values the rules refuse: a RulesError naming the option
    return to_json(msg)


async def run_match(
    spec: MatchSpec,
    bots: Sequence[str],
    service: str | None = None,
    clock: TimeControl = TimeControl(),
    rules: FaultRules = FaultRules(),
    logs: Path | None = None,
    on_deal: Callable[[Json], None] | None = None,
    ca: Path | None = None,
    seal: bool = False,
    watcher: Watcher | None = None,
    gateway: Gateway | None = None,
    dial_in_wait: float = 60.0,
    on_record: Callable[[Json], None] | None = None,
    own_clocks: Mapping[str, TimeControl] | None = None,
) -> Json:
    """``mazzo match``: one match between the given bots; returns its record. ``ca``
    checks the certificates of ``grpcs://`` bots and service; ``seal`` plays through
    the service's sealed tokens, each bot given its own seat's; ``watcher``: the live
    view (``viewer.watch``, to ``referee.watch``'s contract); ``gateway`` seats the
    ``connect:`` bots, each waited for at most ``dial_in_wait`` seconds; ``on_record``
    is given the record before the dial-in bots are told the match ended (``mazzo
    match --records`` writes it there); ``own_clocks``: ``play_match``'s (a person's
    seats on the person's clock)."""
    sides, deciders = table_of(spec.game, spec.players, spec.options_message())
    lineup = entrants_for_bots(bots, sides, deciders)
    specs = [bot for entrant in lineup for bot in entrant.bots]
    check_startable(specs)
    if gateway is not None:
        gateway.forms.add((spec.game, players_for(spec.game, spec.players)))
    await await_reachable(specs, ca)
    await await_dialed_in(specs, gateway, dial_in_wait)
    engine = engine_for(service, ca, seal)
    pools = Pools(Launch(ca=ca, gateway=gateway), logs)
    try:
        return await play_match(
            spec,
            lineup,
            engine,
            pools,
            clock,
            rules,
            on_deal=on_deal,
            watcher=watcher,
            on_record=None if on_record is None else _awaitable(on_record),
            own_clocks=own_clocks,
        )
    finally:
        await pools.close()
        await engine.close()


def _awaitable(call: Callable[[Json], None]) -> Callable[[Json], Awaitable[None]]:
    """``play_match``'s ``on_record`` for a plain function (a file's write)."""

    async def awaited(record: Json) -> None:
        call(record)

    return awaited
