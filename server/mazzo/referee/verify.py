"""``mazzo verify``: prove a records file's deals fair, its play legal, and its
account of every match the one its moves give.

For every record, on top of what ``mazzo replay`` checks (every move by the seat to
act, legal, with the recorded events, and the recorded score, totals and winners):

- the record carries a deal commitment and its revealed salt, and the deal its seed
  deals (the documented shuffle, ``core/shuffle.py``) opens that commitment;
- who sat where, every hand's points, whether the match finished, its faults and its
  forfeit agree with its moves and the rules (``outcome``);
- its seed is the one the schedule gives (a tournament's base seed and deal number),
  mixed with every entrant's revealed entropy when the tournament committed to some,
  and each secret opens its entrant's commitment;
- each match appears once, and a tournament's records are those of one schedule:
  its slots, seating consistent within each pairing (``coherence``);
- given the lines a tournament published before each match's first move (its
  ``.commitments`` file beside the records), every record's commitment, seed, seating
  and slot are the published ones, and every match published has its record (unless
  a line says it was abandoned when its run stopped).

A file that is not of the record format (a field of the wrong type, JSON nested
without end) is unreadable: ``shapes.Malformed``, exit 2. Older records (before
commitments) replay, but their deals cannot be proven fair: they are counted apart,
and make the exit code 3 rather than 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mazzo.core import fair
from mazzo.core.errors import RulesError
from mazzo.referee.coherence import duplicates, tournament_problems
from mazzo.referee.outcome import account_problem
from mazzo.referee.records import PUBLISHED_FIELDS, Json
from mazzo.referee.replay import replay
from mazzo.referee.schedule import deal_seed
from mazzo.referee.shapes import check_record

#: Exit codes of ``mazzo verify``.
OK, FAILED, UNREADABLE, UNPROVEN = 0, 1, 2, 3


@dataclass
class Verdict:
    records: int = 0
    moves: int = 0
    #: (record id, what is wrong), in file order: a failing record's first problem,
    #: then the published matches with no record
    failures: list[tuple[str, str]] = field(default_factory=list)
    #: positions in the file of the records that fail
    failed: set[int] = field(default_factory=set)
    #: ids of records with no commitment (older records)
    unproven: list[str] = field(default_factory=list)
    #: ids of matches published before their first move that have no record
    unrecorded: list[str] = field(default_factory=list)

    @property
    def code(self) -> int:
        if self.failures:
            return FAILED
        return UNPROVEN if self.unproven else OK


def seed_problem(record: Json) -> str | None:
    """What is wrong with where a record's seed comes from (None if nothing)."""
    tag = record.get("tournament")
    if tag is not None and "base_seed" not in tag and "deal_commitment" in record:
        return "its tournament block does not say what its seed is drawn from (base_seed)"
    if tag is None or "base_seed" not in tag:
        return None  # a single match (mazzo match --seed), or an older tournament record
    base, deal, entries = tag["base_seed"], tag["deal"], tag.get("entropy")
    try:
        if entries is None:
            expected = deal_seed(base, deal)
        else:
            secrets: dict[str, bytes] = {}
            for entry in entries:
                name = entry["entrant"]
                secret = fair.from_hex(entry["secret"], f"the entropy secret of {name}")
                committed = fair.from_hex(entry["commitment"], f"the commitment of {name}")
                if fair.entropy_commitment(secret) != committed:
                    return f"{name}'s entropy secret does not open its commitment"
                if name in secrets:
                    return f"{name}'s entropy is given twice"
                secrets[name] = secret
            expected = fair.mixed_seed(base, deal, fair.mix(secrets))
    except (ValueError, OverflowError) as e:  # OverflowError: a name of over 65,535 bytes
        return f"the tournament's seed inputs do not read: {e}"
    if record["seed"] != expected:
        return f"the seed is not the schedule's for deal {deal} (base seed and entropy)"
    return None


def publication_problem(record: Json, published: Mapping[str, Json]) -> str | None:
    """What differs between a record and the line published before its first move:
    its commitments, seating and schedule slot (None if nothing). A line written
    before seating was published holds only the commitments and the seed, and one
    written before seeds were kept out of the lines, the seed too."""
    entry = published.get(record["id"])
    if entry is None:
        return "its deal commitment was not published before its first move"
    if entry.get("abandoned"):
        return "it has a record, but its last published line says it was abandoned"
    if entry["deal_commitment"] != record.get("deal_commitment"):
        return "its deal commitment is not the one published before its first move"
    if "seed" in entry and entry["seed"] != record["seed"]:  # lines before 2026-12
        return "its seed is not the one published before its first move"
    for key in PUBLISHED_FIELDS:
        if key in entry and entry[key] != record[key]:
            return f"its field {key} is not the one published before its first move"
    slot, tag = entry.get("tournament"), record.get("tournament")
    if slot is not None and (tag is None or any(tag.get(k) != v for k, v in slot.items())):
        return "its tournament slot is not the one published before its first move"
    sealed, early = record.get("sealed"), entry.get("sealed")
    if (sealed is None) != (early is None) or (
        sealed is not None
        and early is not None
        and (sealed.get("match_id"), sealed.get("deal_commitment"))
        != (early.get("match_id"), early.get("deal_commitment"))
    ):
        return "its service's commitment is not the one published before its first move"
    return None


def record_problem(record: Json, published: Mapping[str, Json] | None) -> tuple[int, str | None]:
    """(moves replayed, what is wrong with the record in itself, or None)."""
    try:
        done = replay(record)
    except (KeyError, TypeError, ValueError, IndexError, RulesError) as e:
        return 0, f"not a readable record: {e!r}"
    if done.divergence is not None:
        return len(done.moves), str(done.divergence).removeprefix(f"{record['id']} ")
    problem = account_problem(record, done) or seed_problem(record)
    if problem is None and published is not None:
        problem = publication_problem(record, published)
    return len(done.moves), problem


def verify(records: Iterable[Json], published: Mapping[str, Json] | None = None) -> Verdict:
    """Every record checked in full; every failing record named (not only the first).
    ``published``: the lines published before each match's first move, by match id
    (``records.read_commitments``); each record's must match, and each match published
    have its record. ``shapes.Malformed`` (a ``ValueError``) if a record is not of the
    record format."""
    records = list(records)
    for i, record in enumerate(records):
        rid = record.get("id")
        named = f" ({rid[:40]!r})" if isinstance(rid, str) else ""
        check_record(record, f"record {i + 1}{named}")
    verdict = Verdict(records=len(records))
    problems: dict[int, str] = {}  # by position: a record's first problem, printed
    for i, record in enumerate(records):
        moves, problem = record_problem(record, published)
        verdict.moves += moves
        if problem is not None:
            problems[i] = problem
    for i, problem in [*duplicates(records), *tournament_problems(records, published)]:
        problems.setdefault(i, problem)
    verdict.failed = set(problems)
    verdict.failures = [(records[i]["id"], problems[i]) for i in sorted(problems)]
    if published is not None:
        verdict.unrecorded = unrecorded(records, published)
        for rid in verdict.unrecorded:
            verdict.failures.append(
                (rid, "published before its first move, but the file has no record of it")
            )
    for i, record in enumerate(records):
        if i not in verdict.failed and "deal_commitment" not in record:
            verdict.unproven.append(record["id"])
    return verdict


def unrecorded(records: Sequence[Json], published: Mapping[str, Json]) -> list[str]:
    """Matches whose last published line is a commitment, with no record: dropped, or
    still in play (verify a run once it has stopped: it marks what it abandons)."""
    ids = {record["id"] for record in records}
    return [rid for rid, e in published.items() if not e.get("abandoned") and rid not in ids]


def report(verdict: Verdict, source: str) -> str:
    """What ``mazzo verify`` prints."""
    lines = [f"{source}: {rid}: {what}" for rid, what in verdict.failures]
    proven = verdict.records - len(verdict.failed) - len(verdict.unproven)
    summary = f"{verdict.records} records, {verdict.moves} moves: {proven} proven fair and legal"
    if verdict.failed:
        summary += f", {len(verdict.failed)} FAILED"
    if verdict.unrecorded:
        summary += f", {len(verdict.unrecorded)} published matches with no record (FAILED)"
    if verdict.unproven:
        summary += (
            f", {len(verdict.unproven)} with no deal commitment (written before commitments: "
            f"they replay, but their deals cannot be proven), first {verdict.unproven[0]}"
        )
    return "\n".join([*lines, summary])
