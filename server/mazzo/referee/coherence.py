"""The records of one file, together: each match once, and a tournament's records
those of one schedule.

A record can be proven in itself (its deal, moves and result) and still not belong:
a copy of another, a match of another run or of no schedule slot, seating that
contradicts the other matches of its pairing. A records file holds single matches
(``mazzo match``) or the matches of one tournament (``mazzo tournament`` writes its
own file); these are the checks that need the other records.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from math import comb

from mazzo.referee.outcome import BEFORE_THE_MATCH
from mazzo.referee.records import Json

#: A tournament's settings every one of its records repeats: its config's (the last
#: two, the seed's inputs, in every record since commitments).
TAG_FIELDS = ("name", "duplicate", "base_seed", "entropy")
PLAY_FIELDS = ("game", "players", "options", "time_control", "fault_rules")

Problems = Iterator[tuple[int, str]]


def duplicates(records: Sequence[Json]) -> Problems:
    """Each match once: no id twice, and no deal commitment twice (a commitment's salt
    is fresh for every match played, so the same one is the same match copied)."""
    ids: dict[str, int] = {}
    commitments: dict[str, int] = {}
    for i, record in enumerate(records):
        first = ids.setdefault(record["id"], i)
        if first != i:
            yield i, f"its id is record {first + 1}'s too: a match appears once in a file"
            continue
        if "deal_commitment" in record:
            first = commitments.setdefault(record["deal_commitment"], i)
            if first != i:
                yield i, f"it is record {first + 1} again (the same deal commitment)"


def is_tournament(records: Sequence[Json], published: Mapping[str, Json] | None) -> bool:
    """Any record, or any line published for the file, places a match in a tournament."""
    lines = published.values() if published is not None else ()
    return any("tournament" in r for r in records) or any("tournament" in e for e in lines)


def tournament_problems(records: Sequence[Json], published: Mapping[str, Json] | None) -> Problems:
    """In a tournament's file, every record is one of its scheduled matches."""
    if not is_tournament(records, published):
        return
    for i, record in enumerate(records):
        if "tournament" not in record:
            yield i, "it has no tournament block, in a tournament's records file"
    tagged = [(i, r) for i, r in enumerate(records) if "tournament" in r]
    yield from _one_tournament(tagged)
    for i, record in tagged:
        problem = _slot_problem(record)
        if problem is not None:
            yield i, problem
    yield from _entrants(tagged)
    yield from _pairings(tagged)
    yield from _disqualifications(tagged)


def _usual(values: Sequence[str]) -> str:
    """The value most records show (on a tie, the first of them): what a record that
    differs is blamed against, so that one edited record is the one named."""
    return Counter(values).most_common(1)[0][0]


def _setting(record: Json, key: str) -> str:
    """A setting of the tournament as a record shows it, as JSON text (to count). A
    seat's own clock is its bot's (a person's, wherever the schedule seats them)."""
    value = record["tournament"].get(key) if key in TAG_FIELDS else record[key]
    if key == "time_control" and "seats" in value:
        bots = record["seat_bots"]
        own = [[_bot_at(bots, c["seat"]), c["move"], c["bank"]] for c in value["seats"]]
        value = {**value, "seats": sorted(own, key=json.dumps)}
    return json.dumps(value, sort_keys=True)


def _bot_at(bots: Sequence[str], seat: int) -> str | None:
    """The bot deciding for ``seat``, None for a seat the record does not have."""
    return bots[seat] if 0 <= seat < len(bots) else None


def _one_tournament(tagged: Sequence[tuple[int, Json]]) -> Problems:
    """One config: every record shows its name, duplicate deals, game, players,
    options, time control and fault rules; and, every record since commitments, its
    base seed and entropy (older records did not name them)."""
    seeded = [(i, r) for i, r in tagged if "base_seed" in r["tournament"]]
    checks = [(key, tagged) for key in (*TAG_FIELDS[:2], *PLAY_FIELDS)]
    for key, group in [*checks, *((key, seeded) for key in TAG_FIELDS[2:] if seeded)]:
        usual = _usual([_setting(record, key) for _, record in group])
        for i, record in group:
            if _setting(record, key) != usual:
                yield i, f"its {key} is not that of its tournament's other records"


def _slot_problem(record: Json) -> str | None:
    """The id, deal, pairing and orientation are of one slot of the schedule
    (``schedule.schedule``): ``pP.dD.oO``, and an orientation the sides allow."""
    tag, sides = record["tournament"], len(record["sides"])
    slot = f"p{tag['pairing']}.d{tag['deal']}.o{tag['orientation']}"
    if record["id"] != slot:
        return f"its id is not its schedule slot's, {slot}"
    if not sides or tag["orientation"] >= sides:
        return f"orientation {tag['orientation']} does not exist for {sides} sides"
    if not tag["duplicate"] and tag["orientation"] != tag["deal"] % sides:
        turn = tag["deal"] % sides
        return f"without duplicate deals, deal {tag['deal']} is played in orientation {turn}"
    return None


def _entrants(tagged: Sequence[tuple[int, Json]]) -> Problems:
    """An entrant plays with the same bots in every match, and every entrant gave its
    entropy when the tournament has some (the config requires it of all)."""
    bots: dict[str, list[str]] = {}
    for _, record in tagged:
        for side in record["sides"]:
            bots.setdefault(side["entrant"], []).append(json.dumps(side["bots"]))
    usual = {name: _usual(theirs) for name, theirs in bots.items()}
    for i, record in tagged:
        committed = {e["entrant"] for e in record["tournament"].get("entropy") or ()}
        for side in record["sides"]:
            name = side["entrant"]
            if json.dumps(side["bots"]) != usual[name]:
                yield i, f"{name} plays with other bots than in its other matches"
            elif "entropy" in record["tournament"] and name not in committed:
                yield i, f"{name} is not an entrant of the tournament's entropy"


def _group(record: Json) -> list[str]:
    """The entrants of a record's pairing, in the order before the rotation of its
    orientation (``schedule.schedule``: the lineup is ``group[o:] + group[:o]``)."""
    names = [side["entrant"] for side in record["sides"]]
    back = len(names) - record["tournament"]["orientation"] % max(1, len(names))
    return names[back:] + names[:back]


def _pairings(tagged: Sequence[tuple[int, Json]]) -> Problems:
    """Every match of a pairing seats one group of entrants, rotated by its
    orientation; pairings are different groups, no more of them than groups of the
    tournament's entrants."""
    groups: dict[int, list[str]] = {}
    for _, record in tagged:
        groups.setdefault(record["tournament"]["pairing"], []).append(json.dumps(_group(record)))
    usual = {pairing: json.loads(_usual(seen)) for pairing, seen in groups.items()}
    entrants = {name for group in usual.values() for name in group}
    entrants |= {e["entrant"] for _, r in tagged for e in r["tournament"].get("entropy") or ()}
    for i, record in tagged:
        pairing, group = record["tournament"]["pairing"], _group(record)
        if group != usual[pairing]:
            yield i, f"its seating is not that of the other matches of pairing {pairing}"
        elif pairing >= comb(len(entrants), len(group)):
            yield i, f"pairing {pairing} does not exist for {len(entrants)} entrants"
        elif any(set(g) == set(group) for p, g in usual.items() if p < pairing):
            yield i, f"pairing {pairing} seats the entrants of another pairing"


def _disqualifications(tagged: Sequence[tuple[int, Json]]) -> Problems:
    """An entrant forfeits before a match only once disqualified: its faults reached
    the limit in the file's records, or it was disqualified during one of them."""
    faults: dict[str, int] = {}
    during: set[str] = set()
    for _, record in tagged:
        for fault in record["faults"]:
            faults[fault["entrant"]] = faults.get(fault["entrant"], 0) + 1
        forfeit = record["result"]["forfeit"]
        if forfeit is not None and forfeit["reason"].startswith("disqualified after"):
            during.add(forfeit["entrant"])
    for i, record in tagged:
        forfeit, limit = record["result"]["forfeit"], record["fault_rules"]["disqualify_after"]
        if forfeit is None or forfeit["reason"] != BEFORE_THE_MATCH:
            continue
        name = forfeit["entrant"]
        if name not in during and faults.get(name, 0) < limit:
            yield i, f"{name} forfeits as disqualified, with {faults.get(name, 0)} faults recorded"
