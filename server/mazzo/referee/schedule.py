"""Who plays whom, with which deal, in which seats: the matches of a tournament.

Every pairing plays the same deals (deal ``d`` has one seed for all pairings), so
results compare across pairings. With duplicate deals each deal is played once in
every rotation of the sides, so every entrant holds every side's cards once and
luck of the deal cancels out in the paired difference; without, the rotation
moves on deal by deal (seat rotation). The order is deal by deal across pairings,
so a run stopped early has played every pairing about equally.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from mazzo.core import fair
from mazzo.referee.match import Entrant, MatchSpec


@dataclass(frozen=True)
class Job:
    spec: MatchSpec
    #: Entrant per side, in side order (already rotated).
    lineup: tuple[Entrant, ...]
    pairing: int
    deal: int
    orientation: int


def deal_seed(base: int, deal: int) -> int:
    """The seed of deal ``deal``: spread over 64 bits so nearby deals share nothing."""
    data = f"mazzo-deal:{base}:{deal}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def pairings(
    entrants: Sequence[Entrant], sides: int, fmt: str, challengers: Sequence[str] = ()
) -> list[tuple[Entrant, ...]]:
    """Round-robin: every group of ``sides`` entrants; gauntlet: each challenger with
    every group of ``sides - 1`` others."""
    if len(entrants) < sides:
        raise ValueError(f"{sides} sides need at least {sides} entrants, not {len(entrants)}")
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ValueError("entrant names must differ")
    if fmt == "round-robin":
        return list(combinations(entrants, sides))
    if fmt == "gauntlet":
        if not challengers:
            raise ValueError("a gauntlet needs challengers")
        unknown = set(challengers) - set(names)
        if unknown:
            raise ValueError(f"unknown challengers: {', '.join(sorted(unknown))}")
        out = []
        for name in challengers:
            me = next(e for e in entrants if e.name == name)
            others = [e for e in entrants if e.name not in challengers]
            out += [(me, *group) for group in combinations(others, sides - 1)]
        return out
    raise ValueError(f"unknown format {fmt!r}: round-robin or gauntlet")


def schedule(
    groups: Sequence[tuple[Entrant, ...]],
    deals: int,
    base_seed: int,
    game: str,
    players: int,
    options: dict[str, object],
    duplicate: bool,
    mixed: bytes | None = None,
) -> list[Job]:
    """Every match of the run. ``mixed``: the entrants' revealed entropy
    (``fair.mix``), which then goes into every deal's seed (``fair.mixed_seed``)."""
    jobs = []
    for d in range(deals):
        seed = deal_seed(base_seed, d) if mixed is None else fair.mixed_seed(base_seed, d, mixed)
        for p, group in enumerate(groups):
            n = len(group)
            rotations = range(n) if duplicate else (d % n,)
            for o in rotations:
                lineup = group[o:] + group[:o]
                spec = MatchSpec(f"p{p}.d{d}.o{o}", game, seed, players, dict(options))
                jobs.append(Job(spec, lineup, p, d, o))
    return jobs
