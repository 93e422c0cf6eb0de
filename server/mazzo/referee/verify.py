"""``mazzo verify``: prove a records file's deals fair, and its play legal.

For every record, on top of what ``mazzo replay`` checks (every move by the seat to
act, legal, with the recorded events, and the recorded result):

- the record carries a deal commitment and its revealed salt, and the deal its seed
  deals (the documented shuffle, ``core/shuffle.py``) opens that commitment;
- its seed is the one the schedule gives (a tournament's base seed and deal number),
  mixed with every entrant's revealed entropy when the tournament committed to some,
  and each secret opens its entrant's commitment;
- the records of one tournament agree on its base seed and its entrants' entropy;
- given the commitments a tournament published before each match's first move (its
  ``.commitments`` file beside the records), every record's commitment is the one
  published for its match (and, played ``--seal``, the service's too).

A file that is not of the record format (a field of the wrong type, JSON nested
without end) is unreadable: ``shapes.Malformed``, exit 2. Older records (before
commitments) replay, but their deals cannot be proven fair: they are counted apart,
and make the exit code 3 rather than 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from mazzo.core import fair
from mazzo.referee.records import Json
from mazzo.referee.replay import replay
from mazzo.referee.schedule import deal_seed
from mazzo.referee.shapes import check_record

#: Exit codes of ``mazzo verify``.
OK, FAILED, UNREADABLE, UNPROVEN = 0, 1, 2, 3


@dataclass
class Verdict:
    records: int = 0
    moves: int = 0
    #: (record id, what is wrong), every one found
    failures: list[tuple[str, str]] = field(default_factory=list)
    #: ids of records with no commitment (older records)
    unproven: list[str] = field(default_factory=list)

    @property
    def code(self) -> int:
        if self.failures:
            return FAILED
        return UNPROVEN if self.unproven else OK


def seed_problem(record: Json, seen: dict[str, Json]) -> str | None:
    """What is wrong with where a record's seed comes from (None if nothing)."""
    tag = record.get("tournament")
    if not isinstance(tag, dict) or "base_seed" not in tag:
        return None  # a single match (mazzo match --seed), or an older tournament record
    try:
        base, deal = int(tag["base_seed"]), int(tag["deal"])
        entries = tag.get("entropy")
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
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        # OverflowError: an entrant's name of over 65,535 bytes
        return f"the tournament's seed inputs do not read: {e}"
    if record["seed"] != expected:
        return f"the seed is not the schedule's for deal {deal} (base seed and entropy)"
    name = str(tag.get("name"))
    inputs = {"base_seed": base, "entropy": tag.get("entropy")}
    first = seen.setdefault(name, inputs)
    if first != inputs:
        return f"its base seed or entropy differ from the tournament {name!r}'s other records"
    return None


def publication_problem(record: Json, published: Mapping[str, Json]) -> str | None:
    """What differs between a record's commitments and those published before its
    first move (None if nothing)."""
    entry = published.get(str(record.get("id")))
    if entry is None:
        return "its deal commitment was not published before its first move"
    if entry.get("deal_commitment") != record.get("deal_commitment"):
        return "its deal commitment is not the one published before its first move"
    if entry.get("seed") != record.get("seed"):
        return "its seed is not the one published before its first move"
    sealed, early = record.get("sealed"), entry.get("sealed")
    if (sealed is None) != (early is None) or (
        isinstance(sealed, dict)
        and isinstance(early, dict)
        and (sealed.get("match_id"), sealed.get("deal_commitment"))
        != (early.get("match_id"), early.get("deal_commitment"))
    ):
        return "its service's commitment is not the one published before its first move"
    return None


def verify(records: Iterable[Json], published: Mapping[str, Json] | None = None) -> Verdict:
    """Every record checked in full; every failure kept (not only the first).
    ``published``: the commitments published before each match's first move, by
    match id (``records.read_commitments``); each record's must match.
    ``shapes.Malformed`` (a ``ValueError``) if a record is not of the record format."""
    records = list(records)
    for i, record in enumerate(records):
        rid = record.get("id")
        named = f" ({rid[:40]!r})" if isinstance(rid, str) else ""
        check_record(record, f"record {i + 1}{named}")
    verdict = Verdict()
    seen: dict[str, Json] = {}
    for record in records:
        verdict.records += 1
        rid = str(record.get("id", f"record {verdict.records}"))
        try:
            done = replay(record)
        except (KeyError, TypeError, ValueError) as e:
            verdict.failures.append((rid, f"not a readable record: {e!r}"))
            continue
        verdict.moves += len(done.moves)
        if done.divergence is not None:
            verdict.failures.append((rid, str(done.divergence).removeprefix(f"{rid} ")))
            continue
        problem = seed_problem(record, seen)
        if problem is None and published is not None:
            problem = publication_problem(record, published)
        if problem is not None:
            verdict.failures.append((rid, problem))
        elif "deal_commitment" not in record:
            verdict.unproven.append(rid)
    return verdict


def report(verdict: Verdict, source: str) -> str:
    """What ``mazzo verify`` prints."""
    lines = [f"{source}: {rid}: {what}" for rid, what in verdict.failures]
    proven = verdict.records - len(verdict.failures) - len(verdict.unproven)
    summary = f"{verdict.records} records, {verdict.moves} moves: {proven} proven fair and legal"
    if verdict.failures:
        summary += f", {len(verdict.failures)} FAILED"
    if verdict.unproven:
        summary += (
            f", {len(verdict.unproven)} with no deal commitment (written before commitments: "
            f"they replay, but their deals cannot be proven), first {verdict.unproven[0]}"
        )
    return "\n".join([*lines, summary])
