"""``builtin:pimc``: perfect-information Monte Carlo from the bot's own view.

For each decision: sample whole states consistent with the view (the game's
``determinize``, the same sampler as the service's ``Determinize``), play every
legal move out from each sample with a builtin policy (``playout.py``), and choose
the move whose playouts did best for the bot's side. Sampling, playing out and
choosing are three separate pieces, as in OpenSpiel's information-set searches.

Parameters, in the spec: ``builtin:pimc?samples=32&playouts=4&policy=random&
horizon=hand&time=0.5``. It works sample by sample and stops early when its time is
up: ``time`` seconds at most per decision, and never more than a twentieth of the
time the request says is left, so it keeps within any move limit and bank.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mazzo.codec import CODECS
from mazzo.games.registry import rules_for
from mazzo.players.builtins import Policy
from mazzo.players.playout import Horizon, MoveStats, PolicyKind, play_units
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
    samples = rules.determinize(view, settings.samples, seed % 2**64)
    legal = rules.legal_moves(samples[0])
    if len(legal) != len(request.legal_moves):
        raise RuntimeError(f"{game}: the view's samples list other legal moves than the request")
    side = _side_of(rules, samples[0], request.seat)
    limit = rules.moves_bound(samples[0], settings.horizon is Horizon.MATCH)
    totals: list[MoveStats] = []
    for d, sample in enumerate(samples):
        units = [(d, sample, i) for i in range(len(legal))]
        stats, _ = play_units(
            game, units, settings.playouts, settings.policy, settings.horizon, seed, limit
        )
        if not totals:
            totals = [MoveStats(s.sides) for s in stats]
        for mine, more in zip(totals, stats, strict=True):
            mine.merge(more)
        if time.perf_counter() >= deadline:
            break
    return best(totals, side)


def _side_of(rules: Any, state: Any, seat: int) -> int:
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
