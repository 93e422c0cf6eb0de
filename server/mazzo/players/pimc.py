"""``builtin:pimc``: perfect-information Monte Carlo from the bot's own view.

For each decision: sample whole states consistent with the view (the game's
``determinize``, the same sampler as the service's ``Determinize``), play every
legal move out from each sample with a builtin policy (``playout.py``), and choose
the move whose playouts did best for the bot's side. Sampling, playing out and
choosing are three separate pieces, as in OpenSpiel's information-set searches.

Parameters, in the spec: ``builtin:pimc?samples=32&playouts=4&policy=random&
horizon=hand&time=0.5``. It plays out round by round and starts no playout once its
time is up: ``time`` seconds at most per decision, and never more than a twentieth
of the time the request says is left, so it keeps within any move limit and bank.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mazzo.core.rules import AnyRules
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.players.builtins import Policy, heuristic_for
from mazzo.players.playout import Horizon, MoveStats, PolicyKind, Unit, play_units
from mazzo.v1 import bot_pb2

#: Of the time the request says is left, the share one decision may use.
TIME_SHARE = 0.05


@dataclass(frozen=True)
class Settings:
    samples: int = 32
    playouts: int = 4
    policy: PolicyKind = PolicyKind.RANDOM
    horizon: Horizon = Horizon.HAND
    #: Seconds a decision may take at most.
    time: float = 0.5


def settings_of(params: Mapping[str, str]) -> Settings:
    """The spec's parameters, checked (``ValueError`` names the bad one)."""
    known = {"samples", "playouts", "policy", "horizon", "time"}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(f"builtin:pimc has no parameter {unknown[0]!r}; it has {sorted(known)}")
    base = Settings()

    def count(name: str, default: int, top: int) -> int:
        text = params.get(name)
        if text is None:
            return default
        if not text.isdigit() or not 1 <= int(text) <= top:
            raise ValueError(f"builtin:pimc: {name} must be 1..{top}, not {text!r}")
        return int(text)

    def choice(name: str, options: dict[str, Any], default: Any) -> Any:
        text = params.get(name)
        if text is None:
            return default
        if text not in options:
            raise ValueError(f"builtin:pimc: {name} is one of {sorted(options)}, not {text!r}")
        return options[text]

    seconds = params.get("time")
    limit = base.time
    if seconds is not None:
        try:
            limit = float(seconds)
        except ValueError:
            limit = -1.0
        if not 0 < limit <= 60:
            raise ValueError(f"builtin:pimc: time is seconds in (0, 60], not {seconds!r}")
    return Settings(
        samples=count("samples", base.samples, 1024),
        playouts=count("playouts", base.playouts, 1000),
        policy=choice(
            "policy", {"random": PolicyKind.RANDOM, "heuristic": PolicyKind.HEURISTIC}, base.policy
        ),
        horizon=choice("horizon", {"hand": Horizon.HAND, "match": Horizon.MATCH}, base.horizon),
        time=limit,
    )


def pimc_policy(seed: int, params: Mapping[str, str]) -> Policy:
    """The policy of one match; its samples are drawn from ``seed`` and the number of
    the decision, so a match replays exactly (given the same timing)."""
    settings = settings_of(params)
    decisions = 0

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        nonlocal decisions
        decisions += 1
        return bot_pb2.ActResponse(index=choose(request, settings, seed * 1_000_003 + decisions))

    return policy


#: Samples drawn at a time: a decision draws more only while it has time (a
#: thousand samples of a Ramino view take seconds).
BATCH = 8


def choose(request: bot_pb2.ActRequest, settings: Settings, seed: int) -> int:
    """The index of the legal move whose playouts did best for the bot's side."""
    started = time.perf_counter()
    if len(request.legal_moves) <= 1:
        return 0
    left = request.time_left.ToTimedelta().total_seconds() if request.HasField("time_left") else 0
    budget = min(settings.time, TIME_SHARE * left) if left > 0 else settings.time
    deadline = started + budget
    game = request.view.game
    rules, codec = rules_for(game), CODECS[game]
    view = codec.view_from_wire(request.view, "view")
    first = rules.determinize(view, min(BATCH, settings.samples), seed % 2**64)
    legal = rules.legal_moves(first[0])
    if len(legal) != len(request.legal_moves):
        raise RuntimeError(f"{game}: the view's samples list other legal moves than the request")
    side = _side_of(rules, first[0], request.seat)
    limit = rules.moves_bound(first[0], settings.horizon is Horizon.MATCH)
    choices = candidates(game, legal)
    if len(choices) == 1:
        return choices[0]

    def batches() -> Iterator[Sequence[Any]]:
        yield first
        for start in range(BATCH, settings.samples, BATCH):
            count = min(BATCH, settings.samples - start)
            yield rules.determinize(view, count, (seed + start * _GOLDEN) % 2**64)

    # Round by round: in each, every candidate is played out once from one sample, in
    # an order drawn for the round; no playout starts after the deadline, so a slow
    # game (Burraco: a hundred legal moves) or a busy machine costs playouts, never
    # the move's time. A round cut short leaves no candidate favoured by its place.
    played: list[int] = []

    def units() -> Iterator[Unit]:
        d = 0
        for batch in batches():
            for sample in batch:
                for p in range(settings.playouts):
                    order = list(choices)
                    random.Random(f"{seed}/order/{d}/{p}").shuffle(order)
                    for i in order:
                        played.append(i)
                        yield (d * settings.playouts + p, sample, i)
                d += 1

    stats, _ = play_units(
        game, units(), 1, settings.policy, settings.horizon, seed, limit, deadline
    )
    totals = {i: MoveStats(len(rules.score(first[0]).sides)) for i in choices}
    for i, unit in zip(played, stats, strict=False):
        totals[i].merge(unit)
    tried = [i for i in choices if totals[i].playouts]
    if not tried:  # the sampling took the whole time: the heuristic answers at once
        return _fallback(game, request)
    return tried[best([totals[i] for i in tried], side)]


#: Spreads the batches' seeds (2**64 / golden ratio).
_GOLDEN = 0x9E3779B97F4A7C15


def _fallback(game: str, request: bot_pb2.ActRequest) -> int:
    player = heuristic_for(game)
    index = player(request).index if player is not None else 0
    return index if 0 <= index < len(request.legal_moves) else 0


def candidates(game: str, legal: Sequence[Any]) -> list[int]:
    """The legal moves worth playing out: the game's ``Strategy.search_candidates``
    (Maraffa plays cards plain: a signal changes nothing a playout can see)."""
    return GAMES[game].strategy.search_candidates(legal)


def _side_of(rules: AnyRules, state: Any, seat: int) -> int:
    """The side of the seat the bot plays for (the dummy's is its controller's)."""
    for side in rules.score(state).sides:
        if seat in side.seats:
            return int(side.side)
    raise RuntimeError(f"seat {seat} is on no side")


#: What ending the match is worth against points: more than any hand can score, so a
#: move that wins the match (a good Maraffa claim) is taken and one that loses it
#: (a false claim) never is.
MATCH_WEIGHT = 10_000.0


def value(stats: MoveStats, side: int) -> float:
    """How good a move's playouts were for ``side``: its mean score change less the
    others' average (in a two-sided game, the margin), plus ``MATCH_WEIGHT`` for each
    playout's share of a match ended and won, less it for one ended and lost."""
    others = [stats.mean(s) for s in range(stats.sides) if s != side]
    margin = stats.mean(side) - (sum(others) / len(others) if others else 0.0)
    if not stats.ended or not stats.playouts:
        return margin
    won = stats.match_wins[side]
    return margin + MATCH_WEIGHT * (2 * won - stats.ended) / stats.playouts


def best(stats: Sequence[MoveStats], side: int) -> int:
    """The first move of the highest value (ties go to the earlier legal move)."""
    values = [value(s, side) for s in stats]
    return values.index(max(values))
