"""Playouts: a position's every legal move played on to a horizon by a builtin policy,
and the statistics that ``Simulate`` reports and ``builtin:pimc`` decides by.

Everything here runs on the engines' own values (no protobuf but what the heuristic
players read), and is deterministic: the playouts of move ``i`` from sample ``d``
draw from their own generator, seeded by ``(seed, d, i)``, so a batch gives the same
numbers whether it runs in one process or is split over many, in any order.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from mazzo.core.rules import AnyRules
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.players.builtins import heuristic_for
from mazzo.v1 import bot_pb2

_ACT_MOVES = bot_pb2.ActRequest.DESCRIPTOR.fields_by_name["legal_moves"].number


class Horizon(IntEnum):
    """Where a playout stops (``PlayoutHorizon``)."""

    HAND = 1
    MATCH = 2


class PolicyKind(IntEnum):
    """How the seats choose in a playout (``PlayoutPolicy``)."""

    RANDOM = 1
    HEURISTIC = 2


@dataclass
class MoveStats:
    """One legal move's playouts: per side, the sum and sum of squares of the match
    total's change, and the wins (ties share one)."""

    sides: int
    playouts: int = 0
    total: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    #: Playouts in which the match ended, and per side its share of those matches won.
    ended: int = 0
    match_wins: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.total = self.total or [0] * self.sides
        self.squares = self.squares or [0] * self.sides
        self.wins = self.wins or [0.0] * self.sides
        self.match_wins = self.match_wins or [0.0] * self.sides

    def add(self, change: Sequence[int], won: Sequence[float], ended: bool = False) -> None:
        self.playouts += 1
        self.ended += ended
        for s in range(self.sides):
            self.total[s] += change[s]
            self.squares[s] += change[s] * change[s]
            self.wins[s] += won[s]
            if ended:
                self.match_wins[s] += won[s]

    def merge(self, other: MoveStats) -> None:
        self.playouts += other.playouts
        self.ended += other.ended
        for s in range(self.sides):
            self.total[s] += other.total[s]
            self.squares[s] += other.squares[s]
            self.wins[s] += other.wins[s]
            self.match_wins[s] += other.match_wins[s]

    def mean(self, side: int) -> float:
        return self.total[side] / self.playouts if self.playouts else 0.0

    def standard_error(self, side: int) -> float:
        """Of the mean, from the sample variance; 0 with fewer than two playouts."""
        n = self.playouts
        if n < 2:
            return 0.0
        variance = (self.squares[side] - self.total[side] ** 2 / n) / (n - 1)
        return math.sqrt(max(variance, 0.0) / n)

    def win_rate(self, side: int) -> float:
        return self.wins[side] / self.playouts if self.playouts else 0.0


Chooser = Callable[[Any, Sequence[Any], random.Random], int]


def _random_chooser(game: str) -> Chooser:
    """Uniform among the legal moves, as ``builtin:random`` (never a move the game's
    strategy avoids while anything else is legal: a Maraffa claim)."""
    avoid = GAMES[game].strategy.avoid_at_random

    def choose(state: Any, moves: Sequence[Any], rng: random.Random) -> int:
        if len(moves) == 1:
            return 0
        choices = [i for i, m in enumerate(moves) if not avoid(m)]
        return rng.choice(choices) if choices else rng.randrange(len(moves))

    return choose


def _heuristic_chooser(game: str) -> Chooser:
    """The game's heuristic player, asked as the referee asks a bot: from the view of
    the seat to act and the legal moves, in wire form."""
    rules, codec = rules_for(game), CODECS[game]
    player = heuristic_for(game)
    if player is None:
        return _random_chooser(game)
    act = player

    def choose(state: Any, moves: Sequence[Any], rng: random.Random) -> int:
        if len(moves) == 1:
            return 0
        seat = rules.to_act(state)
        request = bot_pb2.ActRequest(seat=seat)
        codec.view_to_wire(rules.view(state, seat), request.view)
        request.MergeFromString(codec.moves_bytes(moves, _ACT_MOVES))
        index = act(request).index
        return index if 0 <= index < len(moves) else 0

    return choose


def chooser(game: str, policy: PolicyKind) -> Chooser:
    return _heuristic_chooser(game) if policy is PolicyKind.HEURISTIC else _random_chooser(game)


def match_totals(rules: AnyRules, state: Any) -> tuple[int, ...]:
    return tuple(side.match_total for side in rules.score(state).sides)


def play_out(
    rules: AnyRules,
    state: Any,
    choose: Chooser,
    horizon: Horizon,
    rng: random.Random,
    limit: int,
    hand: Hashable | None = None,
) -> tuple[Any, int]:
    """``state`` played on until the hand ``hand`` ends (by default the hand ``state``
    is in), or the match; returns the last state and the moves played. ``limit`` is
    the rules' bound: a playout longer than it is a bug of the bound, not a long game.

    A playout that tries a move from a position passes that position's hand: the move
    may itself end the hand (the last card), and the playout must then stop at once,
    not play the next hand through."""
    hand = rules.hand_key(state) if hand is None else hand
    moves = 0
    while not rules.finished(state):
        if horizon is Horizon.HAND and rules.hand_key(state) != hand:
            break
        legal = rules.legal_moves(state)
        state, _ = rules.apply(state, legal[choose(state, legal, rng)])
        moves += 1
        if moves > limit:
            raise RuntimeError(f"{rules.id}: a playout passed the rules' bound of {limit} moves")
    return state, moves


def outcome(
    rules: AnyRules, start: Sequence[int], end: Any, horizon: Horizon
) -> tuple[list[int], list[float]]:
    """Per side, the change of the match total and the share of the win."""
    report = rules.score(end)
    change = [side.match_total - start[i] for i, side in enumerate(report.sides)]
    sides = len(change)
    if report.finished:
        # The match ended, at either horizon (a Maraffa claim ends it within a hand):
        # its winners won, whatever the points say.
        winners = list(report.winners)
    else:
        best = max(change)
        winners = [s for s in range(sides) if change[s] == best]
    share = 1.0 / len(winners) if winners else 0.0
    return change, [share if s in winners else 0.0 for s in range(sides)]


#: One unit of work: sample ``d`` of a position (a state) and the index of one of its
#: legal moves. Units are independent: each has its own generator.
Unit = tuple[int, Any, int]


def units_of(samples: Sequence[Any], moves: int) -> list[Unit]:
    """Every (sample, legal move) of a position, samples first."""
    return [(d, state, i) for d, state in enumerate(samples) for i in range(moves)]


def play_units(
    game: str,
    units: Iterable[Unit],
    playouts: int,
    policy: PolicyKind,
    horizon: Horizon,
    seed: int,
    limit: int,
    deadline: float | None = None,
) -> tuple[list[MoveStats], int]:
    """Each unit's move played out ``playouts`` times from its sample: per unit its
    statistics, and the moves simulated in all. ``limit`` is the rules' bound on a
    playout's length (``Rules.moves_bound``). With a ``deadline`` (``perf_counter``
    time) no playout starts after it: the units not reached are left out, so the
    statistics may be fewer than the units (a bot's search within its time)."""
    rules = rules_for(game)
    choose = chooser(game, policy)
    stats: list[MoveStats] = []
    simulated = 0
    root_seen: Any = None
    for d, root, i in units:
        if root is not root_seen:  # units of one sample are consecutive
            root_seen, start, legal = root, match_totals(rules, root), rules.legal_moves(root)
            hand = rules.hand_key(root)
        if deadline is not None and time.perf_counter() >= deadline:
            break
        unit = MoveStats(len(start))
        rng = random.Random(f"{seed}/{d}/{i}")
        for _ in range(playouts):
            after, _ = rules.apply(root, legal[i])
            end, played = play_out(rules, after, choose, horizon, rng, limit - 1, hand)
            simulated += played + 1
            change, won = outcome(rules, start, end, horizon)
            unit.add(change, won, rules.finished(end))
        stats.append(unit)
    return stats, simulated


def per_move(units: Sequence[Unit], stats: Sequence[MoveStats], moves: int) -> list[MoveStats]:
    """The units' statistics added up per legal move, in the units' order."""
    total = [MoveStats(stats[0].sides) for _ in range(moves)]
    for (_, _, i), unit in zip(units, stats, strict=True):
        total[i].merge(unit)
    return total
