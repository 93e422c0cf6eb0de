"""Finished matches made by hand for the tests of what the arena shows (the pages and
the API): Maraffa 4p records with the parts the store and the reads look at."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.arena.store import Store

Json = dict[str, Any]


def record(
    match_id: str, seed: int, winners: list[int], faults: list[Json], forfeit: Json | None = None
) -> Json:
    """The parts of a Maraffa 4p record the store and the pages read (partners on seats
    0 and 2 against 1 and 3)."""
    return {
        "mazzo_record": 1,
        "id": match_id,
        "seed": seed,
        "deal_commitment": "c0",
        "sides": [
            {"entrant": "north-south", "seats": [0, 2]},
            {"entrant": "east-west", "seats": [1, 3]},
        ],
        "faults": faults,
        "result": {
            "finished": True,
            "winners": winners,
            "forfeit": forfeit,
            "match_totals": [41, 30],
        },
    }


def finish_next(
    store: Store, winners: list[int], faults: Sequence[Json] = (), forfeit: Json | None = None
) -> str:
    claim = store.claim("w1")
    assert claim is not None
    done = record(claim.match_id, claim.seed, winners, list(faults), forfeit)
    store.finish(claim.match_id, "w1", done)
    return claim.match_id
