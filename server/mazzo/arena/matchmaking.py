"""Who sits at a ladder's next table: a pure function of the candidates and a
``random.Random`` (no I/O, nothing global), so the scheduler's choices can be tested as
rules and replayed.

The rules (issue 34):

- **Paused bots never**, nor bots that cannot play now (``available``: the scheduler
  says so; a bot already seated in a match scheduled or in play is not available, so a
  new bot is not the anchor of every set queued before its first result).
- **New bots first**: the anchor is the available bot with the fewest games (ties
  drawn by the ``Random``); then the others **nearest to it by rating** (|mu - mu|, then
  fewer games), so the new bot's games are informative and it climbs quickly.
- **Never two bots of one owner as opponents.** Two bots of one owner may sit at one
  table only as partners, and only where they stay partners in every match of the
  duplicate set: the set rotates the seats (``Store.schedule_set``), so a partnership
  holds through the set when seats ``p`` and ``q`` are on one side after every
  rotation (Maraffa 4p: seats 0 and 2 against 1 and 3, rotated by one seat, stay
  together). In a game of one seat per side (Burraco 2p, Ramino 4p) every other seat is
  an opponent, so there it means one bot per owner per table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """A bot on the ladder as the scheduler sees it now."""

    name: str
    owner: str
    mu: float
    sigma: float
    games: int
    #: Able to play now: not in a match already, of a kind this arena plays, connected
    #: (dial-in). Paused bots are left out whatever this says.
    available: bool = True
    paused: bool = False


def teams(sides: Sequence[Sequence[int]], rotations: int | None = None) -> list[list[int]]:
    """The seats of the set's first match that stay on one side in every one of its
    ``rotations`` matches (default: one per seat), in seat order: the seats whose bots
    are partners throughout the set."""
    seats = sorted({s for side in sides for s in side})
    n = len(seats)
    rotations = n if rotations is None else rotations
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    # In the set's match ``r`` the bot of the first match's seat p sits at (p + r) % n.
    signature = {
        p: tuple(side_of[seats[(i + r) % n]] for r in range(rotations)) for i, p in enumerate(seats)
    }
    grouped: dict[tuple[int, ...], list[int]] = {}
    for p in seats:
        grouped.setdefault(signature[p], []).append(p)
    return sorted(grouped.values())


def seating(
    sides: Sequence[Sequence[int]],
    candidates: Sequence[Candidate],
    rng: random.Random,
    rotations: int | None = None,
) -> tuple[str, ...] | None:
    """The bots (by name, in seat order) for the next duplicate set of a table with
    these ``sides`` (the game's, as ``referee.match.table_of`` gives them), or None when
    the available bots cannot fill it under the rules (module docstring)."""
    groups = teams(sides, rotations)
    seats = sum(len(team) for team in groups)
    pool = [c for c in candidates if c.available and not c.paused]
    rng.shuffle(pool)  # ties are drawn, not decided by the order given
    pool.sort(key=lambda c: c.games)  # stable: the shuffle breaks ties
    if len(pool) < seats:
        return None
    anchor, rest = pool[0], pool[1:]
    rest.sort(key=lambda c: (abs(c.mu - anchor.mu), c.games))
    chosen = [anchor]
    for candidate in rest:
        if len(chosen) == seats:
            break
        if _placement([*chosen, candidate], groups) is not None:
            chosen.append(candidate)
    placed = _placement(chosen, groups) if len(chosen) == seats else None
    if placed is None:
        return None
    return tuple(placed[seat].name for seat in sorted(placed))


def _placement(
    chosen: Sequence[Candidate], groups: Sequence[Sequence[int]]
) -> dict[int, Candidate] | None:
    """Seats for ``chosen`` (seat -> bot) with every owner's bots in one team, or None
    when there is no such placement. Owners with most bots are placed first, then in
    the order chosen (the anchor first), each in the team with most room left
    (backtracking: a table has a handful of seats)."""
    by_owner: dict[str, list[Candidate]] = {}
    for c in chosen:
        by_owner.setdefault(c.owner, []).append(c)
    owners = sorted(by_owner.values(), key=lambda bots: -len(bots))
    free = [len(team) for team in groups]
    where: list[int] = []

    def place(i: int) -> bool:
        if i == len(owners):
            return True
        # The roomiest team first: the anchor's nearest rival sits against it, not
        # beside it, and partnerships change from set to set as ratings move.
        for t in sorted(range(len(free)), key=lambda t: (-free[t], t)):
            if free[t] >= len(owners[i]):
                free[t] -= len(owners[i])
                where.append(t)
                if place(i + 1):
                    return True
                where.pop()
                free[t] += len(owners[i])
        return False

    if not place(0):
        return None
    seated: dict[int, Candidate] = {}
    left = [list(team) for team in groups]
    for bots, t in zip(owners, where, strict=True):
        for bot in bots:
            seated[left[t].pop(0)] = bot
    return seated
