"""The duplicate sets' measurement (issue 34): how many games a ladder needs before its
order stays close to the bots' known order, with duplicate sets against unpaired deals.

A drill is one ladder run as ``mazzo arena run`` runs it with its defaults (one
worker, a queue of ``max(4, 2 * workers)`` matches), without the database: the games
are played in this process (the rules straight, as the referee's local engine does,
no records, no time control), so that hundreds of runs fit in minutes. What decides
the figure is the arena's own code:

- **who sits at each table**: ``matchmaking.seating`` on the ladder's bots as the
  scheduler sees them (``Candidate``: rating, games, busy or not), with the
  scheduler's loop (``Scheduler.round``: top the queue up while
  ``queued == 0 or queued + players <= queue``) run after every finished match, as
  the arena's loop does; one ``random.Random`` (the run's seed) for its draws;
- **the set**: match ``i`` of a set seats ``seats[(seat - i) % n]`` at ``seat``, as
  ``Store.schedule_set`` stores it; a worker claims the oldest match first;
- **the rating**: ``finish``'s: each match counts in its bots' games, and a set is
  rated once when its last match ends, the ladder's ``rating_model()`` rating its
  teams with ``duplicate.set_ranks`` over its matches' ``match_scores`` (the arena
  before it rated sets whole rated each match alone: ``per_match``, kept for the
  comparison); the ladder's order is the standings' (``mu - 3 sigma``, then the name).

``tests/arena/test_ranking_drill.py`` runs the drill beside the real ``Store`` and
``Scheduler`` on the same seeds and checks that they seat the same bots and reach the
same ratings. The two kinds of deal differ in one thing only: a duplicate set deals
every match of the set from its one seed (the store's); unpaired, each match has a
fresh seed of its own, the sets and their seating being the same.

The bots: each plays the game's heuristic, but with probability ``epsilon`` a
uniformly random legal move instead (``builtin:random``'s choice). Their order is
known by construction (more random moves, weaker; ``scripts/arena_ranking.py``
checks it head to head); ``builtin:pimc`` at several time budgets was the issue's
suggestion, but it is seconds a game, and two close budgets are not surely ordered.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from mazzo.arena.duplicate import set_ranks
from mazzo.arena.matchmaking import Candidate, seating
from mazzo.arena.scheduler import ladder_sides
from mazzo.arena.store import SEED_BITS, LadderInfo
from mazzo.games.registry import CODECS, rules_for
from mazzo.players.builtins import Policy, heuristic_for, random_index
from mazzo.referee.ratings import match_scores, rating_model, wilson
from mazzo.v1 import bot_pb2, game_pb2

#: ``ActRequest.legal_moves``' field number: the moves are encoded straight into it.
_ACT_MOVES = bot_pb2.ActRequest.DESCRIPTOR.fields_by_name["legal_moves"].number
#: The run's queue: ``mazzo arena run``'s default with its one worker (``run.py``).
QUEUE = 4
#: The order "stays close": Kendall's tau at least this (8 bots: one pair swapped).
TAU = 0.9


@dataclass(frozen=True)
class Entrant:
    """A bot of the drill: its name on the ladder and its share of random moves."""

    name: str
    epsilon: float


def mixed_policy(game: str, seed: int, epsilon: float) -> Policy:
    """The game's heuristic, but a random legal move with probability ``epsilon``."""
    heuristic = heuristic_for(game)
    if heuristic is None:
        raise ValueError(f"{game} has no heuristic player to mix")
    rng = random.Random(seed)

    def policy(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        if rng.random() < epsilon:
            return bot_pb2.ActResponse(index=random_index(request.legal_moves, game, rng))
        return heuristic(request)

    return policy


def play_deal(
    game: str, players: int, seed: int, epsilons: Sequence[float], sides: Sequence[Sequence[int]]
) -> list[int]:
    """One match dealt from ``seed``, seat ``s`` played by a bot of ``epsilons[s]``:
    the winning sides. Each seat's policy is seeded as the referee seeds its bots
    (``seed * 1000 + side * 10 + slot``)."""
    rules, codec = rules_for(game), CODECS[game]
    side_of = {seat: (i, slot) for i, side in enumerate(sides) for slot, seat in enumerate(side)}
    policies = [
        mixed_policy(game, seed * 1000 + side_of[s][0] * 10 + side_of[s][1], epsilons[s])
        for s in range(players)
    ]
    state, _ = rules.deal(codec.options(game_pb2.GameOptions()), players, seed)
    while not rules.finished(state):
        seat = rules.to_act(state)
        moves = rules.legal_moves(state)
        request = bot_pb2.ActRequest(seat=seat)
        codec.view_to_wire(rules.view(state, seat), request.view)
        request.MergeFromString(codec.moves_bytes(moves, _ACT_MOVES))
        state, _ = rules.apply(state, moves[policies[seat](request).index])
    return list(rules.score(state).winners)


def rotated(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots, in seat order, of match ``index`` of a set whose first match seats
    ``seats``: ``Store.schedule_set``'s rotation."""
    n = len(seats)
    return tuple(seats[(seat - index) % n] for seat in range(n))


def kendall_tau(order: Sequence[str], known: Sequence[str]) -> float:
    """Kendall's tau between two orders of the same names (no ties): 1 for the same
    order, -1 for the reverse."""
    rank = {name: i for i, name in enumerate(known)}
    if sorted(rank) != sorted(order) or len(order) != len(known):
        raise ValueError("the two orders must hold the same names, once each")
    ranks = [rank[name] for name in order]
    n = len(ranks)
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return 1.0
    discordant = sum(ranks[i] > ranks[j] for i in range(n) for j in range(i + 1, n))
    return (pairs - 2 * discordant) / pairs


def settled_at(taus: Sequence[float], tau: float = TAU) -> int | None:
    """The games played (``taus[g - 1]`` is tau after game ``g``) when tau reaches
    ``tau`` to stay there to the run's end; None when the last one is below it."""
    at = len(taus)
    while at > 0 and taus[at - 1] >= tau:
        at -= 1
    return None if at == len(taus) else at + 1


def held_at(taus: Sequence[float], hold: int, tau: float = TAU) -> int | None:
    """The games played when tau first reaches ``tau`` to stay there for ``hold``
    games in a row; None when no such stretch fits in the run."""
    runs = [0] * (len(taus) + 1)  # runs[g]: taus at least ``tau`` in a row from taus[g]
    for g in range(len(taus) - 1, -1, -1):
        runs[g] = runs[g + 1] + 1 if taus[g] >= tau else 0
    return next((g + 1 for g in range(len(taus)) if runs[g] >= hold), None)


@dataclass
class Skill:
    mu: float
    sigma: float
    games: int = 0


@dataclass(frozen=True)
class Scheduled:
    """A match in the queue: its set, place in the set, deal seed and bots by seat."""

    set_id: int
    index: int
    seed: int
    seats: tuple[str, ...]


#: Plays one match: (deal seed, bots by seat) -> the winning sides.
Play = Callable[[int, tuple[str, ...]], Sequence[int]]


@dataclass
class Ladder:
    """One ladder of the drill (module docstring): the bots' ratings, the queue, the
    matchmaking draws and the deals."""

    game: str
    players: int
    names: Sequence[str]
    seed: int
    duplicate: bool
    play: Play
    queue: int = QUEUE
    #: Rate each match alone (the arena before it rated sets whole), for comparison.
    per_match: bool = False
    sides: list[list[int]] = field(init=False)
    skills: dict[str, Skill] = field(init=False)
    waiting: deque[Scheduled] = field(init=False)
    sets: int = 0

    def __post_init__(self) -> None:
        self.sides = ladder_sides(LadderInfo(0, self.game, self.players, {}))
        model = rating_model()
        self.skills = {n: Skill(model.mu, model.sigma) for n in self.names}
        self.waiting = deque()
        self.results: dict[int, list[tuple[Scheduled, list[int]]]] = {}
        self.matchmaking = random.Random(self.seed)  # the Scheduler's rng
        self.deals = random.Random(f"deals {self.seed}")

    def top_up(self) -> list[Scheduled]:
        """``Scheduler.round`` for this ladder: the sets it schedules, in order."""
        new: list[Scheduled] = []
        while not self.waiting or len(self.waiting) + self.players <= self.queue:
            busy = {name for match in self.waiting for name in match.seats}
            candidates = [
                Candidate(n, n, s.mu, s.sigma, s.games, available=n not in busy)
                for n, s in sorted(self.skills.items())  # ladder_bots: by name
            ]
            seats = seating(self.sides, candidates, self.matchmaking)
            if seats is None:
                break
            self.sets += 1
            shared = self.deals.getrandbits(SEED_BITS)
            for index in range(len(seats)):
                seed = shared if self.duplicate else self.deals.getrandbits(SEED_BITS)
                match = Scheduled(self.sets, index, seed, rotated(seats, index))
                self.waiting.append(match)
                new.append(match)
        return new

    def next_match(self) -> Scheduled:
        """The oldest scheduled match (the worker's claim), after a scheduler round."""
        self.top_up()
        if not self.waiting:
            raise ValueError(f"{len(self.names)} bots cannot fill a table of {self.players}")
        return self.waiting.popleft()

    def finish(self, match: Scheduled, winners: Sequence[int]) -> None:
        """``Store.finish``: the match counted in its bots' games; and when it ends its
        set, the set rated as one result (``duplicate.set_ranks``); or, with
        ``per_match`` (the arena before sets were rated whole), the match rated alone."""
        for name in match.seats:
            self.skills[name].games += 1
        self.results.setdefault(match.set_id, []).append((match, list(winners)))
        if not self.per_match and len(self.results[match.set_id]) < len(match.seats):
            return
        played = self.results.pop(match.set_id)
        teams = [[[m.seats[seat] for seat in side] for side in self.sides] for m, _ in played]
        scores = [match_scores({"sides": self.sides, "result": {"winners": w}}) for _, w in played]
        order, ranks = set_ranks([[sorted(t) for t in match] for match in teams], scores)
        model = rating_model()
        before = [
            [model.rating(self.skills[b].mu, self.skills[b].sigma, b) for b in team]
            for team in order
        ]
        for team, news in zip(order, model.rate(before, ranks=ranks), strict=True):
            for name, new in zip(team, news, strict=True):
                self.skills[name].mu, self.skills[name].sigma = new.mu, new.sigma

    def step(self) -> Scheduled:
        """Claim, play and finish the next match."""
        match = self.next_match()
        self.finish(match, self.play(match.seed, match.seats))
        return match

    def order(self) -> list[str]:
        """The standings' order: by mu - 3 sigma, best first, then by name."""
        return sorted(
            self.skills, key=lambda n: (-(self.skills[n].mu - 3 * self.skills[n].sigma), n)
        )


def drill(
    game: str,
    players: int,
    entrants: Sequence[Entrant],
    games: int,
    seed: int,
    duplicate: bool,
    per_match: bool = False,
) -> list[float]:
    """One ladder run of ``games`` matches: Kendall's tau between the ladder's order
    and the known one (lowest epsilon first) after each match. ``per_match``: each
    match rated alone (``Ladder.per_match``)."""
    epsilon: Mapping[str, float] = {e.name: e.epsilon for e in entrants}
    known = [e.name for e in sorted(entrants, key=lambda e: e.epsilon)]
    sides = ladder_sides(LadderInfo(0, game, players, {}))

    def play(deal: int, seats: tuple[str, ...]) -> Sequence[int]:
        return play_deal(game, players, deal, [epsilon[b] for b in seats], sides)

    ladder = Ladder(
        game, players, [e.name for e in entrants], seed, duplicate, play, per_match=per_match
    )
    taus = []
    for _ in range(games):
        ladder.step()
        taus.append(kendall_tau(ladder.order(), known))
    return taus


def entrants_for(epsilons: Sequence[float], seed: int) -> list[Entrant]:
    """The bots of a run, named ``bot-1`` ... in an order drawn from ``seed``: their
    names (the standings' tie-break) say nothing of their strength."""
    names = [f"bot-{i + 1}" for i in range(len(epsilons))]
    random.Random(f"names {seed}").shuffle(names)
    return [Entrant(n, e) for n, e in zip(names, epsilons, strict=True)]


@dataclass(frozen=True)
class HeadToHead:
    """``strong``'s score against ``weak`` (a shared win counts its share) in
    ``games``; and ``hand_correlation``: across the deals, the correlation of seat 0's
    result in the deal's first two rotations, the share of a result the cards decide
    (0: the deal says nothing, 1: the hand wins whoever holds it), which is what a
    duplicate set cancels."""

    score: float
    games: int
    hand_correlation: float | None


def head_to_head(
    game: str, players: int, strong: float, weak: float, deals: int, seed: int
) -> HeadToHead:
    """The known order checked: ``strong`` against ``weak`` on ``deals`` deals, each
    played once per rotation of the seats (``strong`` at seat 0, then 1, ...; the
    others ``weak``)."""
    sides = ladder_sides(LadderInfo(0, game, players, {}))
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    rng = random.Random(f"head to head {seed}")
    score, played = 0.0, 0
    hands: list[list[float]] = [[], []]  # seat 0's result in rotations 0 and 1
    for _ in range(deals):
        deal = rng.getrandbits(SEED_BITS)
        for seat in range(players):
            epsilons = [weak] * players
            epsilons[seat] = strong
            winners = play_deal(game, players, deal, epsilons, sides)
            if side_of[seat] in winners:
                score += 1 / len(winners)
            if seat < 2:
                hands[seat].append(1 / len(winners) if side_of[0] in winners else 0.0)
            played += 1
    try:
        correlation: float | None = statistics.correlation(*hands)
    except statistics.StatisticsError:  # too few deals, or results that never vary
        correlation = None
    return HeadToHead(score, played, correlation)


def summary(values: Sequence[int | None], games: int) -> dict[str, object]:
    """Games over the runs; a run with None counts as ``games`` (so the mean and
    median are lower bounds when ``never`` is not 0)."""
    counted = sorted(games if v is None else v for v in values)
    return {
        "per_run": list(values),
        "never": sum(v is None for v in values),
        "mean": round(statistics.fmean(counted), 1),
        "median": statistics.median(counted),
    }


def experiment(
    game: str,
    players: int,
    epsilons: Sequence[float],
    runs: int,
    games: int,
    seed: int,
    reference_deals: int,
    hold: int = 1000,
    progress: Callable[[str], None] = lambda line: None,
    per_match_too: bool = False,
) -> dict[str, object]:
    """The whole measurement as JSON: the known order checked (each bot against the
    next weaker one, ``reference_deals`` deals), then ``runs`` ladder runs of ``games``
    matches with duplicate sets and as many with unpaired deals, run ``r`` of both on
    seed ``seed + r`` (the same bots' names and matchmaking seed). Per kind of deal:
    ``settled`` (tau >= 0.9 from that game to the run's end: the issue's figure),
    ``held`` (the first ``hold`` games in a row at tau >= 0.9: the arena's ratings
    move for ever (OpenSkill's tau), so the order can dip after it has settled), and
    the share of the second half's games at tau >= 0.9; and
    ``duplicate_against_unpaired``: the share of games duplicate sets save. With
    ``per_match_too``, both kinds again rated match by match (``Ladder.per_match``),
    ``duplicate_per_match_against_unpaired_per_match`` and
    ``duplicate_against_unpaired_per_match`` (this arena against a ladder without
    sets: unpaired deals, each rated alone)."""
    ordered = sorted(epsilons)
    sides = len(ladder_sides(LadderInfo(0, game, players, {})))
    checks = []
    for k, (strong, weak) in enumerate(itertools.pairwise(ordered)):
        match = head_to_head(game, players, strong, weak, reference_deals, seed + k)
        score, played = match.score, match.games
        low, high = wilson(score, played)
        checks.append(
            {
                "stronger": round(strong, 4),
                "weaker": round(weak, 4),
                "games": played,
                "share": round(score / played, 4) if played else None,
                "wilson95": [round(low, 4), round(high, 4)],
                "hand_correlation": None
                if match.hand_correlation is None
                else round(match.hand_correlation, 3),
            }
        )
        progress(f"known order: {strong:.3f} against {weak:.3f}: {score}/{played}")
    seeds = [seed + r for r in range(runs)]
    kinds = ["duplicate", "unpaired"]
    if per_match_too:  # the arena before it rated sets whole, on the same seeds
        kinds += ["duplicate_per_match", "unpaired_per_match"]
    settled: dict[str, list[int | None]] = {k: [] for k in kinds}
    held: dict[str, list[int | None]] = {k: [] for k in kinds}
    share: dict[str, list[float]] = {k: [] for k in kinds}
    for run_seed in seeds:
        entrants = entrants_for(ordered, run_seed)
        for kind in kinds:
            taus = drill(
                game,
                players,
                entrants,
                games,
                run_seed,
                kind.startswith("duplicate"),
                per_match=kind.endswith("per_match"),
            )
            settled[kind].append(settled_at(taus))
            held[kind].append(held_at(taus, hold))
            half = taus[len(taus) // 2 :]
            share[kind].append(sum(t >= TAU for t in half) / max(1, len(half)))
            progress(
                f"seed {run_seed} {kind}: settled at {settled[kind][-1]}, "
                f"held from {held[kind][-1]}, second half {share[kind][-1]:.3f}"
            )
    out: dict[str, object] = {
        "game": game,
        "players": players,
        "epsilons": [round(e, 4) for e in ordered],
        "known_order": {
            "adjacent": checks,
            # Above an even share: one half with two sides (partners count as one).
            "verified": all(c["wilson95"][0] > 1 / sides for c in checks),  # type: ignore[index]
        },
        "tau": TAU,
        "queue": QUEUE,
        "runs": runs,
        "games_per_run": games,
        "hold": hold,
        "seeds": seeds,
    }
    if not runs:  # the known order checked alone (its deals can take longer than runs)
        return out
    for name, values in (("settled", settled), ("held", held)):
        figures: dict[str, object] = {k: summary(values[k], games) for k in kinds}
        pairs = list(zip(kinds[::2], kinds[1::2], strict=True))
        if per_match_too:  # this arena against a ladder of unpaired matches rated alone
            pairs.append(("duplicate", "unpaired_per_match"))
        for dup, unp in pairs:
            figures[f"{dup}_against_{unp}"] = _compare(values[dup], values[unp], games)
        out[name] = figures
    out["second_half_share"] = {
        k: {
            "per_run": [round(x, 3) for x in share[k]],
            "mean": round(statistics.fmean(share[k]), 3),
        }
        for k in kinds
    }
    return out


def _compare(
    duplicate: Sequence[int | None], unpaired: Sequence[int | None], games: int
) -> dict[str, object]:
    """The share of games the first kind saves on the second (mean, median), and in
    how many runs it needed fewer."""
    dup, unp = summary(duplicate, games), summary(unpaired, games)
    pairs = zip(duplicate, unpaired, strict=True)
    return {
        "reduction": {
            "mean": _reduction(dup["mean"], unp["mean"]),
            "median": _reduction(dup["median"], unp["median"]),
        },
        "fewer_in_runs": sum(
            (games if d is None else d) < (games if u is None else u) for d, u in pairs
        ),
    }


def _reduction(duplicate: object, unpaired: object) -> float | None:
    """1 - duplicate / unpaired: the share of games duplicate sets save."""
    if not isinstance(duplicate, int | float) or not isinstance(unpaired, int | float):
        return None
    return round(1 - duplicate / unpaired, 4) if unpaired else None
