"""Match records: one JSON object per line, written as each match ends.

Moves, events and scores are stored in the proto3 JSON mapping of the wire
messages, so a record is readable by any language and replays against any build
of the rules. Moves and events recur endlessly (a Maraffa match is forty card
plays a hand), so their JSON is memoised on their wire bytes, and the same objects are shared by
every record that holds them: records are values, never mutated in place.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from google.protobuf import json_format
from google.protobuf.message import Message

from mazzo.core import fair
from mazzo.referee.shapes import check_commitment
from mazzo.v1 import game_pb2, game_service_pb2

Json = dict[str, Any]
#: Bumped when a field changes meaning; readers refuse what they do not know.
FORMAT = 1


#: One printer for every conversion: ``MessageToDict`` builds a new one per call, and
#: each new printer looks up the enum-value JSON extension again (a failing descriptor
#: pool search, tens of microseconds) at the first enum it meets. Same output.
_PRINTER: Any = getattr(json_format, "_Printer", None)
_PRINTER = _PRINTER() if _PRINTER is not None else None


def to_json(message: Message) -> Json:
    if _PRINTER is not None:
        result: Json = _PRINTER._MessageToJsonObject(message)
        return result
    return json_format.MessageToDict(message)


@lru_cache(maxsize=1 << 16)
def _move_json(data: bytes) -> Json:
    return to_json(game_pb2.Move.FromString(data))


def move_json(move: game_pb2.Move) -> Json:
    """The JSON of a move. Memoised and shared between records: never mutate it."""
    return _move_json(move.SerializeToString())


@lru_cache(maxsize=1 << 16)
def _events_json(data: bytes) -> list[Json]:
    return [to_json(e) for e in game_service_pb2.ApplyMoveResponse.FromString(data).events]


def events_json(data: bytes) -> list[Json]:
    """The JSON of a move's events, from the bytes of ``ApplyMoveResponse.events``.
    Memoised and shared between records: never mutate it."""
    return _events_json(data)


def deal_hash(state: game_pb2.GameState) -> str:
    """BLAKE2b-256 of the dealt state's wire bytes: every card of the deal (and the
    generator's seed). Records before commitments published it before the first move;
    it is now the input of the salted commitment (``fair.commitment``), and recorded at
    the end for older readers."""
    return fair.deal_hash(state.SerializeToString(deterministic=True)).hex()


def deal_commitment(seed: int, dealt_hash: str, salt: bytes) -> str:
    """The record's ``deal_commitment``: hex of ``fair.commitment``."""
    return fair.commitment(salt, seed, bytes.fromhex(dealt_hash)).hex()


class RecordWriter:
    """Appends records, one line each, flushed as written: an interrupted run loses at
    most the line being written, which ``read_records`` then skips. (Flushed to the
    operating system, not synced to disk: Ctrl-C and crashes of the referee are the
    interruptions that matter, and a sync per match would cost more than the match.)"""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] = path.open("a", encoding="utf-8")

    def write(self, record: Json) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: The first key of a line of a commitments file (``commitments_path``), its format.
COMMITMENT_FORMAT = 1


def commitments_path(records: Path) -> Path:
    """Where a tournament publishes each match's deal commitment before its first move:
    beside its records, ``r.jsonl`` -> ``r.commitments.jsonl`` (docs/fair-deals.md)."""
    return records.with_name(f"{records.stem}.commitments{records.suffix}")


#: The header fields a published line repeats: what the match is and who sits where,
#: all fixed before its first move (``match.play_match``'s header).
PUBLISHED_FIELDS = (
    "game",
    "players",
    "options",
    "sides",
    "seat_bots",
    "time_control",
    "fault_rules",
)


def published_commitment(header: Json, tournament: Json | None = None) -> Json:
    """The line published for a match before its first move: its id and deal
    commitment (and, played ``--seal``, the service's match id and commitment), who
    sits where, and its slot in the ``tournament``. No salt, which only the record
    reveals at the end, and nothing the deal can be made from: not the seed, nor the
    base seed and the entrants' secrets (the commitment pins the seed all the same)."""
    line: Json = {
        "mazzo_commitment": COMMITMENT_FORMAT,
        "id": header["id"],
        "deal_commitment": header["deal_commitment"],
    }
    line.update((k, header[k]) for k in PUBLISHED_FIELDS if k in header)
    if tournament is not None:
        secret = ("entropy", "base_seed")
        line["tournament"] = {k: v for k, v in tournament.items() if k not in secret}
    sealed = header.get("sealed")
    if isinstance(sealed, dict):
        line["sealed"] = {k: sealed[k] for k in ("match_id", "deal_commitment") if k in sealed}
    return line


def abandoned(match_id: str) -> Json:
    """The line that says a published match will have no record: it was in play when
    its run stopped (a resumed run plays it anew, under a new line)."""
    return {"mazzo_commitment": COMMITMENT_FORMAT, "id": match_id, "abandoned": True}


def read_commitments(path: Path) -> dict[str, Json]:
    """A commitments file's lines by match id; a match published again (a match
    played anew after an interrupted run) keeps its last line. A torn last line (an
    interrupted write) is skipped; any other line that does not read, or is not of the
    documented shape, is an error (``ValueError``)."""
    published: dict[str, Json] = {}
    with path.open(encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    for i, line in enumerate(lines):
        try:
            entry = loads(line)
        except json.JSONDecodeError:
            if i == len(lines) - 1 and not line.endswith("\n"):
                break
            raise ValueError(f"{path}: line {i + 1} is not JSON") from None
        except ValueError as e:
            raise ValueError(f"{path}: line {i + 1}: {e}") from None
        if not isinstance(entry, dict) or entry.get("mazzo_commitment") != COMMITMENT_FORMAT:
            raise ValueError(f"{path}: line {i + 1} is not a published commitment")
        check_commitment(entry, f"{path}: line {i + 1}")
        published[entry["id"]] = entry
    return published


#: Three times as deep as any record (Burraco's and Ramino's nest 10 deep): a line
#: nested more is refused as it is read, before anything recurses into it.
MAX_DEPTH = 32


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number of a record")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 40:
        raise ValueError(f"an integer of {len(text)} digits")
    return int(text)


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def loads(line: str) -> Any:
    """One line's JSON; ``json.JSONDecodeError`` if it is not JSON, ``ValueError`` if it
    is JSON no record holds: NaN or infinite numbers, an integer of over 40 digits,
    lists or objects nested more than ``MAX_DEPTH`` deep."""
    try:
        value = json.loads(
            line, parse_constant=_refuse_constant, parse_float=_finite, parse_int=_int
        )
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return value


def iter_records(lines: Iterable[str], torn_ok: bool = True) -> Iterator[Json]:
    """Records of a JSON-lines text; a torn last line (an interrupted write) is skipped,
    or with ``torn_ok`` false refused."""
    pending: str | None = None
    for number, line in enumerate(lines, 1):
        if pending is not None:
            raise ValueError(f"line {number - 1}: a record is not valid JSON: {pending[:80]!r}")
        if not line.strip():
            continue
        try:
            record = loads(line)
        except json.JSONDecodeError:
            pending = line
            continue
        except ValueError as e:
            raise ValueError(f"line {number}: not a record: {e}") from None
        if not isinstance(record, dict) or record.get("mazzo_record") != FORMAT:
            raise ValueError(f"line {number}: not a Mazzo record (format {FORMAT}): {line[:80]!r}")
        yield record
    if pending is not None and not torn_ok:
        raise ValueError(f"the last record is cut off (an interrupted write?): {pending[:80]!r}")


def read_records(path: Path) -> list[Json]:
    """A run's records so far (none if the file is not there yet)."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as f:
        return list(iter_records(f))


def read_whole_records(path: Path) -> list[Json]:
    """Every record of a finished file, for checking it: a missing or empty file, or
    a record cut off at the end, is an error (``OSError``, ``ValueError``)."""
    try:
        with path.open(encoding="utf-8") as f:
            records = list(iter_records(f, torn_ok=False))
    except ValueError as e:  # also a UnicodeDecodeError: bytes that are not UTF-8
        raise ValueError(f"{path}: {e}") from None
    if not records:
        raise ValueError(f"{path}: no records")
    return records


def repair(path: Path) -> None:
    """Cut a torn last line, so that appending starts on a line of its own."""
    if not path.exists():
        return
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with path.open("r+b") as f:
            f.truncate(end)
