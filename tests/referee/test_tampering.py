"""``mazzo verify`` against whoever edits a tournament's files after the run.

One small tournament is played (three entrants with entropy, one of them faulty:
faults, a crash and its bot's moves played by the referee, a disqualification during
a match and forfeits before two), with its commitments published. The files verify
(exit 0). Each attack below edits a copy, and ``mazzo verify`` must refuse it: exit 1,
a record fails, or exit 2, the file is not a records file (one line, no traceback).
The few edits docs/fair-deals.md says cannot be told from the files are listed apart,
with the words of the docs that say why.
"""

from __future__ import annotations

import asyncio
import copy
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mazzo.cli import main
from mazzo.core import fair
from mazzo.games.registry import CODECS, rules_for
from mazzo.referee.engine import LocalEngine
from mazzo.referee.match import (
    Entrant,
    FaultRules,
    MatchSpec,
    OnFault,
    Pools,
    TimeControl,
    play_match,
)
from mazzo.referee.records import commitments_path, deal_hash
from mazzo.referee.replay import _wire_state
from mazzo.referee.tournament import Config, run_tournament
from mazzo.referee.verify import FAILED, OK, UNREADABLE
from tests.referee.conftest import ROOT, fault_bot

Json = dict[str, Any]
H, R = "builtin:heuristic", "builtin:random"
SECRETS = {
    n: bytes(range(i, i + 32)) for n, i in (("heuristic", 0), ("random", 100), ("faulty", 50))
}
#: The matches of the run (round-robin of heuristic, random, faulty; one deal, played
#: in both orientations; faulty is disqualified at its fifth fault).
PLAIN, PLAIN_TURNED = "p0.d0.o0", "p0.d0.o1"  # heuristic and random
FAULTS = "p1.d0.o0"  # faulty's faults, one a crash; the referee plays for the dead bot
DISQUALIFIED = "p1.d0.o1"  # faulty forfeits at its fifth fault
BEFORE = "p2.d0.o0"  # faulty forfeits before the match (p2.d0.o1 too)


@dataclass
class Files:
    """A records file and its commitments file, as JSON values, to be edited."""

    records: list[Any]
    published: list[Any]
    #: The plain match played again by the same bots, from a seed the operator chose.
    chosen: Json
    commitments: bool = True
    #: Text replacements made once the records are written (for what JSON values
    #: cannot hold: numbers out of range, bytes that are not UTF-8), and bytes cut off.
    raw: list[tuple[str, str]] = field(default_factory=list)
    cut: int = 0

    def record(self, rid: str) -> Json:
        return next(r for r in self.records if isinstance(r, dict) and r.get("id") == rid)

    def line(self, rid: str) -> Json:
        return next(e for e in reversed(self.published) if e.get("id") == rid)

    def write(self, folder: Path) -> Path:
        path = folder / "r.jsonl"
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.records)
        data = text.encode()
        for old, new in self.raw:
            assert old.encode() in data, old
            data = data.replace(old.encode(), new.encode("utf-8", "surrogateescape"))
        path.write_bytes(data[: len(data) - self.cut])
        if self.commitments:
            lines = "".join(json.dumps(e) + "\n" for e in self.published)
            commitments_path(path).write_text(lines, encoding="utf-8")
        return path


def _config() -> Config:
    faulty = [fault_bot("illegal", 9), fault_bot("crash", 6)]  # a bot for each seat
    return Config.from_dict(
        {
            "name": "tampered",
            "game": "maraffa",
            "entrants": [
                {"name": "heuristic", "bot": H},
                {"name": "random", "bot": R},
                {"name": "faulty", "bots": faulty},
            ],
            "deals": 1,
            "seed": 11,
            "options": {"target": 11},
            "faults": {"disqualify_after": 5},
            "entropy": {n: fair.entropy_commitment(s).hex() for n, s in SECRETS.items()},
        }
    ).with_reveals({n: s.hex() for n, s in SECRETS.items()})


async def _play_at(record: Json, seed: int) -> Json:
    """The record's match, its players in the same seats and under the same rules,
    dealt from ``seed``."""
    spec = MatchSpec(record["id"], record["game"], seed, record["players"], record["options"])
    lineup = [Entrant(s["entrant"], tuple(s["bots"])) for s in record["sides"]]
    clock = TimeControl(**record["time_control"])
    rules = record["fault_rules"]
    faults = FaultRules(OnFault(rules["on_fault"]), rules["disqualify_after"])
    pools = Pools()
    try:
        return await play_match(spec, lineup, LocalEngine(), pools, clock, faults)
    finally:
        await pools.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Files:
    path = tmp_path_factory.mktemp("tampering") / "r.jsonl"
    asyncio.run(run_tournament(_config(), path, progress=False))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    published = [json.loads(line) for line in commitments_path(path).read_text().splitlines()]
    plain = next(r for r in records if r["id"] == PLAIN)
    files = Files(records, published, asyncio.run(_play_at(plain, 12345)))
    # The run has what the attacks edit.
    assert [r["id"] for r in records] == [e["id"] for e in published]
    assert len(records) == 6 and not plain["faults"]
    faults = files.record(FAULTS)
    assert [f["class"] for f in faults["faults"]] == ["crash", "illegal"]
    assert any(m.get("auto") for m in faults["moves"]) and faults["result"]["forfeit"] is None
    assert files.record(DISQUALIFIED)["result"]["forfeit"]["seat"] >= 0
    assert files.record(BEFORE)["result"]["forfeit"]["seat"] == -1
    return files


def verify_files(files: Files, folder: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """``mazzo verify`` of the files: its exit code, once its output is checked to be
    one line on stderr if unreadable, and a summary that says FAILED if failed."""
    path = files.write(folder)
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if code == UNREADABLE:
        assert len(err.strip().splitlines()) == 1, err
    elif code == FAILED:
        assert "FAILED" in out.splitlines()[-1], out
    return code


# ------------------------------------------------------------------- the edits

Edit = Callable[[Files], Any]


def _on(rid: str, change: Callable[[Json], Any]) -> Edit:
    return lambda files: change(files.record(rid))


def _node(root: Any, path: str) -> tuple[Any, Any]:
    """The container of the field at ``path`` (keys and indexes, dotted), and its key."""
    *parents, last = path.split(".")
    for key in parents:
        root = root[int(key)] if isinstance(root, list) else root[key]
    return root, int(last) if isinstance(root, list) else last


def _set(rid: str, path: str, value: Any) -> Edit:
    def edit(files: Files) -> None:
        node, key = _node(files.record(rid), path)
        node[key] = copy.deepcopy(value)

    return edit


def _drop(rid: str, path: str) -> Edit:
    def edit(files: Files) -> None:
        node, key = _node(files.record(rid), path)
        del node[key]

    return edit


def _both(*edits: Edit) -> Edit:
    def edit(files: Files) -> None:
        for one in edits:
            one(files)

    return edit


def _unpublished(files: Files) -> None:
    files.commitments = False


def _everywhere(change: Callable[[Json], Any]) -> Edit:
    """The same edit to the fault rules of every record and published line."""

    def edit(files: Files) -> None:
        for item in [*files.records, *files.published]:
            change(item["fault_rules"])

    return edit


def _every_tag(change: Callable[[Json], Any]) -> Edit:
    """The same edit to the tournament block of every record and published line."""

    def edit(files: Files) -> None:
        for item in [*files.records, *files.published]:
            change(item["tournament"])

    return edit


def _on_fault(change: Callable[[Json], Any]) -> Edit:
    """An edit of the last fault of the match with faults (faulty's illegal answer)."""
    return lambda files: change(files.record(FAULTS)["faults"][-1])


def _raw(rid: str, key: str, text: str) -> Edit:
    """``key`` of a record made to read ``text`` in the file, whatever that is."""

    def edit(files: Files) -> None:
        files.record(rid)[key] = marker = f"@@{key}@@"
        files.raw.append((json.dumps(marker), text))

    return edit


def _nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _flip_hex(text: str) -> str:
    return f"{int(text[0], 16) ^ 1:x}{text[1:]}"


def _swap(items: list[Any], i: int = 0, j: int = 1) -> None:
    items[i], items[j] = items[j], items[i]


def _deal_again(record: Json, seed: int) -> None:
    """A new seed, with the deal hash and commitment made to fit it."""
    record["seed"] = seed
    rules, codec = rules_for(record["game"]), CODECS[record["game"]]
    options = codec.options(MatchSpec("", "", 0, 0, record["options"]).options_message())
    state, _ = rules.deal(options, record["players"], seed)
    record["deal_hash"] = deal_hash(_wire_state(codec, rules, state))
    _commit_again(record, bytes.fromhex(record["deal_salt"]))


def _commit_again(record: Json, salt: bytes | None = None) -> None:
    """A new salt and the commitment it opens: the match as if dealt anew."""
    salt = salt if salt is not None else secrets.token_bytes(32)
    record["deal_salt"] = salt.hex()
    committed = fair.commitment(salt, record["seed"], bytes.fromhex(record["deal_hash"]))
    record["deal_commitment"] = committed.hex()


def _first_play(record: Json) -> Json:
    move: Json = next(m for i, m in enumerate(record["moves"]) if i > 4 and "playCard" in str(m))
    return move


def _other_card(card: str) -> str:
    return "CARD_AS" if card != "CARD_AS" else "CARD_2S"


def _change_event_card(record: Json) -> None:
    event = next(e for e in _first_play(record)["events"] if "cardPlayed" in e["maraffa"])
    played = event["maraffa"]["cardPlayed"]
    played["card"] = _other_card(played["card"])


def _change_move_card(record: Json) -> None:
    play = _first_play(record)["move"]["maraffa"]["playCard"]
    play["card"] = _other_card(play["card"])


def _add_forfeit(record: Json, loser: int) -> None:
    record["result"]["forfeit"] = {
        "side": loser,
        "entrant": record["sides"][loser]["entrant"],
        "seat": record["moves"][-1]["seat"],
        "reason": "timeout: too slow",
    }
    record["result"]["winners"] = [1 - loser]


def _move_forfeit(record: Json) -> None:
    """The forfeit given to the other side, and the win with it."""
    forfeit = record["result"]["forfeit"]
    record["result"]["winners"] = [forfeit["side"]]
    forfeit["side"] = 1 - forfeit["side"]
    forfeit["entrant"] = record["sides"][forfeit["side"]]["entrant"]


def _fault_renamed(kind: str) -> Edit:
    """The last fault's class, and its move's mark, both made ``kind``."""

    def edit(files: Files) -> None:
        record = files.record(FAULTS)
        fault = record["faults"][-1]
        fault["class"] = record["moves"][fault["ply"]]["fault"] = kind

    return edit


def _unmark_last_fault(files: Files) -> None:
    record = files.record(FAULTS)
    del record["moves"][record["faults"][-1]["ply"]]["fault"]


def _erase_last_fault(files: Files) -> None:
    _unmark_last_fault(files)
    files.record(FAULTS)["faults"].pop()


def _unmark_auto(record: Json) -> None:
    del next(m for m in record["moves"] if m.get("auto"))["auto"]


def _make_up_fault(record: Json) -> None:
    """A fault of the bot whose move ply 10 is, recorded as the referee would have."""
    move = record["moves"][10]
    side = next(i for i, s in enumerate(record["sides"]) if move["seat"] in s["seats"])
    move["fault"] = "timeout"
    fault = {"ply": 10, "seat": move["seat"], "entrant": record["sides"][side]["entrant"]}
    fault.update(bot=record["seat_bots"][move["seat"]], detail="made up", ms=move["ms"])
    fault["class"] = "timeout"
    record["faults"] = [fault]


def _swap_names(record: Json, bots: bool = False) -> None:
    a, b = record["sides"]
    a["entrant"], b["entrant"] = b["entrant"], a["entrant"]
    if bots:
        a["bots"], b["bots"] = b["bots"], a["bots"]


def _swap_seating(record: Json) -> None:
    """Entrants, their bots and the seats' bots exchanged, consistently in the record:
    each side now said to be the other entrant's."""
    _swap_names(record, bots=True)
    bots = record["seat_bots"]
    record["seat_bots"] = bots[1:] + bots[:1]


def _relabel_pairing(with_lines: bool) -> Edit:
    """Every match of the plain pairing seated the other way round (and, if
    ``with_lines``, its published lines made to say so too)."""

    def edit(files: Files) -> None:
        for rid in (PLAIN, PLAIN_TURNED):
            record = files.record(rid)
            _swap_seating(record)
            if with_lines:
                files.line(rid).update(sides=record["sides"], seat_bots=record["seat_bots"])

    return edit


def _change_bot(record: Json, bot: str) -> None:
    side = record["sides"][0]
    side["bots"] = [bot]
    for seat in side["seats"]:
        record["seat_bots"][seat] = bot


def _relocate(record: Json, **slot: int) -> None:
    """The record moved to another slot of the schedule, its id with it."""
    tag = record["tournament"]
    tag.update(slot)
    record["id"] = f"p{tag['pairing']}.d{tag['deal']}.o{tag['orientation']}"


def _copy_to_deal(deal: int) -> Edit:
    def edit(files: Files) -> None:
        record = copy.deepcopy(files.record(PLAIN))
        _relocate(record, deal=deal)
        files.records.append(record)

    return edit


def _append_single_match(files: Files) -> None:
    """A match of no tournament (as ``mazzo match`` writes one) added to the file."""
    record = copy.deepcopy(files.record(PLAIN))
    del record["tournament"]
    record["id"] = f"maraffa-{record['seed']}"
    _commit_again(record)
    files.records.append(record)


def _exchange_slots(files: Files) -> None:
    a, b = files.record(PLAIN), files.record(PLAIN_TURNED)
    a["id"], b["id"] = b["id"], a["id"]
    a["tournament"], b["tournament"] = b["tournament"], a["tournament"]


def _chosen_seed(keep_tag: bool, publish: bool) -> Edit:
    """The plain match replaced by the one the operator dealt from a seed of his own;
    with ``publish``, its line in the commitments file rewritten to match."""

    def edit(files: Files) -> None:
        original = files.record(PLAIN)
        forged = copy.deepcopy(files.chosen)
        if keep_tag:
            forged["tournament"] = original["tournament"]
        files.records[files.records.index(original)] = forged
        if publish:
            line = files.line(PLAIN)
            line.update(seed=forged["seed"], deal_commitment=forged["deal_commitment"])
            del line["tournament"]

    return edit


def _drop_record(rid: str) -> Edit:
    return lambda files: files.records.remove(files.record(rid))


def _abandoned(rid: str) -> Json:
    """The line a run writes for a published match it stopped in play."""
    return {"mazzo_commitment": 1, "id": rid, "abandoned": True}


def _say_abandoned(rid: str) -> Edit:
    return lambda files: files.published.append(_abandoned(rid))


def _play_again(files: Files) -> None:
    """The plain match dealt anew (a new salt) and published again after a note that
    the first was abandoned: a run resumed after a stop looks so."""
    record, first = files.record(PLAIN), files.line(PLAIN)
    _commit_again(record)
    files.published.append(_abandoned(PLAIN))
    files.published.append(dict(first, deal_commitment=record["deal_commitment"]))


def _publish_stranger(files: Files) -> None:
    files.published.append(dict(files.line(PLAIN), id="p0.d1.o0"))


# ----------------------------------------------------------------- the attacks


@dataclass(frozen=True)
class Attack:
    name: str
    edit: Edit
    #: FAILED: a record fails; UNREADABLE: not a records file
    code: int = FAILED


A, UN = Attack, UNREADABLE
ATTACKS = [
    # The deal and its seed.
    A("seed plus one", _on(PLAIN, lambda r: r.update(seed=r["seed"] + 1))),
    A(
        "seed changed, deal hash and commitment made to fit",
        _on(PLAIN, lambda r: _deal_again(r, 99)),
    ),
    A("salt changed", _on(PLAIN, lambda r: r.update(deal_salt=_flip_hex(r["deal_salt"])))),
    A("salt removed", _drop(PLAIN, "deal_salt")),
    A("salt not hex", _set(PLAIN, "deal_salt", "zz")),
    A("commitment changed", _set(PLAIN, "deal_commitment", "00" * 32)),
    A("dealt anew with a new salt, commitment and all", _on(PLAIN, _commit_again)),
    A("deal hash changed", _on(PLAIN, lambda r: r.update(deal_hash=_flip_hex(r["deal_hash"])))),
    A("options changed", _set(PLAIN, "options", {"maraffa": {"target": 21}})),
    A("player count changed", _set(PLAIN, "players", 2)),
    A("game changed", _set(PLAIN, "game", "burraco")),
    A("deal number changed", _set(PLAIN, "tournament.deal", 1)),
    A("base seed changed", _set(PLAIN, "tournament.base_seed", 12)),
    A("base seed removed", _drop(PLAIN, "tournament.base_seed")),
    A("an entropy secret changed", _set(PLAIN, "tournament.entropy.1.secret", "00" * 32)),
    A("an entrant's entropy removed", _drop(PLAIN, "tournament.entropy.2")),
    A(
        "an entrant's entropy given twice",
        _on(PLAIN, lambda r: r["tournament"]["entropy"].append(r["tournament"]["entropy"][0])),
    ),
    A(
        "an entrant's entropy replaced, commitment and all",
        _both(
            _set(PLAIN, "tournament.entropy.1.secret", "11" * 32),
            _set(
                PLAIN,
                "tournament.entropy.1.commitment",
                fair.entropy_commitment(b"\x11" * 32).hex(),
            ),
        ),
    ),
    A("entropy removed from every record", _every_tag(lambda tag: tag.pop("entropy", None))),
    A(
        "a match replaced by one from a chosen seed, block removed",
        _chosen_seed(keep_tag=False, publish=False),
    ),
    A(
        "a match replaced by one from a chosen seed, block kept",
        _chosen_seed(keep_tag=True, publish=False),
    ),
    A(
        "a match replaced by one from a chosen seed, and published",
        _chosen_seed(keep_tag=False, publish=True),
    ),
    # The moves.
    A("a card in an event changed", _on(PLAIN, _change_event_card)),
    A("a move's card changed", _on(PLAIN, _change_move_card)),
    A("a move dropped", _drop(PLAIN, "moves.10")),
    A("the last move dropped", _on(PLAIN, lambda r: r["moves"].pop())),
    A("every move dropped", _set(PLAIN, "moves", [])),
    A("a move played twice", _on(PLAIN, lambda r: r["moves"].insert(10, r["moves"][10]))),
    A("two moves swapped", _on(PLAIN, lambda r: _swap(r["moves"], 10, 11))),
    A("a move's seat changed", _set(PLAIN, "moves.10.seat", 3)),
    A("a move after the end", _on(PLAIN, lambda r: r["moves"].append(r["moves"][-1]))),
    # The result.
    A("a hand's points edited", _set(PLAIN, "hands.0.0", 11)),
    A("a hand's points swapped between the sides", _on(PLAIN, lambda r: _swap(r["hands"][0]))),
    A("a hand dropped", _set(PLAIN, "hands", [])),
    A("a hand added", _on(PLAIN, lambda r: r["hands"].append([11, 0]))),
    A("totals edited", _set(PLAIN, "result.match_totals", [11, 0])),
    A(
        "winners flipped",
        _on(PLAIN, lambda r: r["result"].update(winners=[1 - r["result"]["winners"][0]])),
    ),
    A("winners emptied (a draw)", _set(PLAIN, "result.winners", [])),
    A("finished flipped", _set(PLAIN, "result.finished", False)),
    A("finished flipped on a forfeited match", _set(DISQUALIFIED, "result.finished", True)),
    A("the score's total edited", _set(PLAIN, "result.score.sides.0.matchTotal", "99")),
    # Forfeits.
    A(
        "a forfeit added to a finished match, the win moved",
        _on(PLAIN, lambda r: _add_forfeit(r, r["result"]["winners"][0])),
    ),
    A(
        "a forfeit added by the loser of a finished match",
        _on(PLAIN, lambda r: _add_forfeit(r, 1 - r["result"]["winners"][0])),
    ),
    A("a forfeit removed", _set(DISQUALIFIED, "result.forfeit", None)),
    A("a forfeit moved to the other side", _on(DISQUALIFIED, _move_forfeit)),
    A("a forfeit's entrant changed", _set(DISQUALIFIED, "result.forfeit.entrant", "heuristic")),
    A("a forfeit's seat changed", _set(DISQUALIFIED, "result.forfeit.seat", 1)),
    A("a forfeit's reason changed", _set(DISQUALIFIED, "result.forfeit.reason", "timeout: slow")),
    A(
        "a disqualification under the limit",
        _set(DISQUALIFIED, "result.forfeit.reason", "disqualified after 2 faults (illegal)"),
    ),
    A("a forfeit before the match moved to an entrant with no faults", _on(BEFORE, _move_forfeit)),
    A(
        "a forfeit before the match given a fault's reason",
        _set(BEFORE, "result.forfeit.reason", "crash: exit 3"),
    ),
    A(
        "the disqualification limit raised everywhere",
        _everywhere(lambda rules: rules.update(disqualify_after=9)),
    ),
    A(
        "disqualification turned off everywhere",
        _everywhere(lambda rules: rules.update(disqualify_after=0)),
    ),
    A(
        "every fault made to forfeit, everywhere",
        _everywhere(lambda rules: rules.update(on_fault="forfeit")),
    ),
    A("one record's fault rules changed", _set(FAULTS, "fault_rules.on_fault", "forfeit")),
    # Faults.
    A("a move marked faulty, with no fault", _set(PLAIN, "moves.10.fault", "timeout")),
    A("a fault's move unmarked", _unmark_last_fault),
    A("a fault removed, its move still marked", _on(FAULTS, lambda r: r["faults"].pop())),
    A("a fault recorded twice", _on(FAULTS, lambda r: r["faults"].append(r["faults"][-1]))),
    A("a fault's class changed", _on_fault(lambda f: f.update({"class": "timeout"}))),
    A("a fault blamed on the other entrant", _on_fault(lambda f: f.update(entrant="heuristic"))),
    A("a fault blamed on another bot", _on_fault(lambda f: f.update(bot=H))),
    A("a fault moved to another seat", _on_fault(lambda f: f.update(seat=(f["seat"] + 1) % 4))),
    A("a fault moved to another ply", _on_fault(lambda f: f.update(ply=f["ply"] + 1))),
    A("a fault's time changed", _on_fault(lambda f: f.update(ms=f["ms"] + 1))),
    A("a fault of no known class", _fault_renamed("cheating")),
    A("a move said played for a bot that never faulted", _set(PLAIN, "moves.10.auto", True)),
    A("a crashed bot's move said to be its own", _on(FAULTS, _unmark_auto)),
    # Who sat where.
    A("entrants swapped between the sides (the loser credited)", _on(PLAIN, _swap_names)),
    A("entrants and their bots swapped", _on(PLAIN, lambda r: _swap_names(r, bots=True))),
    A("entrants, bots and seat bots swapped in a record", _on(PLAIN, _swap_seating)),
    A(
        "entrants, bots and seat bots swapped, with no commitments file",
        _both(_on(PLAIN, _swap_seating), _unpublished),
    ),
    A("a whole pairing seated the other way round", _relabel_pairing(with_lines=False)),
    A("sides swapped, seats and all", _on(PLAIN, lambda r: _swap(r["sides"]))),
    A("seat bots swapped between the sides", _on(PLAIN, lambda r: _swap(r["seat_bots"]))),
    A(
        "seat bots swapped within a side of two bots",
        _on(FAULTS, lambda r: _swap(r["seat_bots"], 1, 3)),
    ),
    A("an entrant renamed", _set(PLAIN, "sides.0.entrant", "champion")),
    A("an entrant's bot changed", _on(PLAIN, lambda r: _change_bot(r, "builtin:pimc"))),
    A("a side's seats changed", _set(PLAIN, "sides.0.seats", [0, 1])),
    A("an entrant on both sides", _set(PLAIN, "sides.1.entrant", "heuristic")),
    A("no sides at all", _set(PLAIN, "sides", [])),
    # Which matches, each once.
    A("a record duplicated", lambda f: f.records.append(f.record(PLAIN))),
    A("a record copied into another slot", _copy_to_deal(1)),
    A("a record dropped, its commitment published", _drop_record(FAULTS)),
    A("the last record dropped", lambda f: f.records.pop()),
    A("every record but one dropped", lambda f: f.records.__delitem__(slice(1, None))),
    A("a match of no tournament added", _append_single_match),
    A("a tournament block removed", _drop(PLAIN, "tournament")),
    A(
        "a tournament block removed, with no commitments file",
        _both(_drop(PLAIN, "tournament"), _unpublished),
    ),
    A("a tournament renamed in one record", _set(PLAIN, "tournament.name", "other")),
    A("a pairing number changed", _set(PLAIN, "tournament.pairing", 1)),
    A(
        "a match moved to a pairing that does not exist",
        _on(PLAIN, lambda r: _relocate(r, pairing=5)),
    ),
    A(
        "a match moved to no pairing, with no commitments file",
        _both(_on(PLAIN, lambda r: _relocate(r, pairing=5)), _unpublished),
    ),
    A("an orientation changed", _set(PLAIN, "tournament.orientation", 1)),
    A(
        "a match moved to an orientation that does not exist",
        _on(PLAIN, lambda r: _relocate(r, orientation=2)),
    ),
    A("two matches' slots exchanged", _exchange_slots),
    A("duplicate deals turned off in one record", _set(PLAIN, "tournament.duplicate", False)),
    A("duplicate deals turned off everywhere", _every_tag(lambda tag: tag.update(duplicate=False))),
    A("an id changed", _set(PLAIN, "id", "final")),
    A("the time control changed", _set(PLAIN, "time_control.move", 60.0)),
    # The lines published before each first move.
    A("a published seed changed", lambda f: f.line(PLAIN).update(seed=1)),
    A("a published line removed", lambda f: f.published.remove(f.line(PLAIN))),
    A("a line published for a match with no record", _publish_stranger),
    A("published seating swapped", lambda f: _swap(f.line(PLAIN)["sides"])),
    A("a published slot changed", lambda f: f.line(PLAIN)["tournament"].update(orientation=1)),
    A("a recorded match said abandoned", _say_abandoned(PLAIN)),
    A(
        "a published line that is not one",
        lambda f: f.published.append({"mazzo_commitment": 1}),
        UN,
    ),
    A("a published line nested without end", lambda f: f.published.append({"id": _nested(40)}), UN),
    # Not a records file at all.
    A("result null", _set(PLAIN, "result", None), UN),
    A("result a list", _set(PLAIN, "result", []), UN),
    A("a record that is a list", lambda f: f.records.append([1, 2]), UN),
    A("a record that is a number", lambda f: f.records.insert(0, 7), UN),
    A("JSON nested a hundred thousand deep", _raw(PLAIN, "options", "[" * 10**5 + "]" * 10**5), UN),
    A("options nested 40 deep", _set(PLAIN, "options", _nested(40)), UN),
    A("a seed of 100 bits", _set(PLAIN, "seed", 2**100), UN),
    A("a seed as text", _set(PLAIN, "seed", "123"), UN),
    A("a negative seed", _set(PLAIN, "seed", -1), UN),
    A("a fractional seed", _set(PLAIN, "seed", 1.5), UN),
    A("NaN for a time", _set(PLAIN, "duration_s", float("nan")), UN),
    A("a number out of range", _raw(PLAIN, "duration_s", "1e999"), UN),
    A("an integer of 5,000 digits", _raw(PLAIN, "players", "9" * 5000), UN),
    A("moves not a list", _set(PLAIN, "moves", {}), UN),
    A("a move not an object", _set(PLAIN, "moves.3", "play"), UN),
    A("events not a list", _set(PLAIN, "moves.3.events", None), UN),
    A("sides missing", _drop(PLAIN, "sides"), UN),
    A("a hand's points as text", _set(PLAIN, "hands.0.0", "8"), UN),
    A("a winner given as true", _set(PLAIN, "result.winners", [True]), UN),
    A("a deal number as text", _set(PLAIN, "tournament.deal", "0"), UN),
    A("a tournament block that is text", _set(PLAIN, "tournament", "x"), UN),
    A("a tournament block that is null", _set(PLAIN, "tournament", None), UN),
    A("entropy not a list", _set(PLAIN, "tournament.entropy", {}), UN),
    A("a forfeit that is text", _set(DISQUALIFIED, "result.forfeit", "yes"), UN),
    A("a fault with no class", _on_fault(lambda f: f.pop("class")), UN),
    A("bytes that are not UTF-8", _raw(PLAIN, "started", '"\udcff"'), UN),
    A("a lone surrogate in an id", _set(PLAIN, "id", "\ud800"), UN),
    A("a record of another format", _set(PLAIN, "mazzo_record", 2), UN),
    A("the last record cut off", lambda f: setattr(f, "cut", 100), UN),
    A("no records", lambda f: f.records.clear(), UN),
    A("no id", _drop(PLAIN, "id"), UN),
    A("no time control", _drop(PLAIN, "time_control"), UN),
]


@dataclass(frozen=True)
class Unprovable:
    """An edit the files cannot show: verified, and ``because`` is what
    docs/fair-deals.md says of it."""

    name: str
    edit: Edit
    because: str


UNPROVABLE = [
    Unprovable(
        "a fault made up, as the referee would record it",
        _on(PLAIN, _make_up_fault),
        "whether a bot's answer was a fault",
    ),
    Unprovable(
        "a fault's class changed, its move's mark too",
        _fault_renamed("timeout"),
        "whether a bot's answer was a fault",
    ),
    Unprovable(
        "a fault erased, its move said the bot's own",
        _erase_last_fault,
        "whether a bot's answer was a fault",
    ),
    Unprovable(
        "a record dropped, its match said abandoned",
        _both(_drop_record(FAULTS), _say_abandoned(FAULTS)),
        "say its match was abandoned",
    ),
    Unprovable(
        "a match played again, published again after a note",
        _play_again,
        "stop a run to play a match again",
    ),
    Unprovable(
        "a whole pairing seated the other way round, its lines too",
        _relabel_pairing(with_lines=True),
        "the copy the players saw",
    ),
    Unprovable(
        "no commitments file, a record dropped",
        _both(_drop_record(FAULTS), _unpublished),
        "withholds the commitments file",
    ),
    Unprovable(
        "two slots of a pairing exchanged, with no commitments file",
        _both(_exchange_slots, _unpublished),
        "seated the other way round",
    ),
    Unprovable("a move's time edited", _set(PLAIN, "moves.10.ms", 0.001), "the clock"),
    Unprovable(
        "the records in another order", lambda f: _swap(f.records), "in the order its matches end"
    ),
]


def test_the_attacks_are_many_and_named_once() -> None:
    names = [a.name for a in ATTACKS] + [u.name for u in UNPROVABLE]
    assert len(ATTACKS) >= 60 and len(set(names)) == len(names)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_verify_refuses(
    attack: Attack, played: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = copy.deepcopy(played)
    attack.edit(files)
    assert verify_files(files, tmp_path, capsys) == attack.code


FAIR_DEALS = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("edit", UNPROVABLE, ids=[u.name for u in UNPROVABLE])
def test_what_the_files_cannot_show_is_documented(
    edit: Unprovable, played: Files, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = copy.deepcopy(played)
    edit.edit(files)
    assert files != played
    assert verify_files(files, tmp_path, capsys) == OK
    assert edit.because in " ".join(FAIR_DEALS.split())
