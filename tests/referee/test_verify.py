"""``mazzo verify`` and fair deals: commitments, revealed salts, entrants' entropy.

A tournament with entrants' entropy is played once; verify accepts every record, and
each kind of tampering (a card, a move, a score, a salt, a seed, a commitment, an
entropy secret) is caught, with what is wrong named. Older records (no commitment)
still replay, and verify says they are unproven.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from mazzo.cli import main
from mazzo.core import fair
from mazzo.games.registry import CODECS, rules_for
from mazzo.referee.match import Entrant, MatchSpec
from mazzo.referee.records import (
    RecordWriter,
    commitments_path,
    read_commitments,
    read_records,
)
from mazzo.referee.replay import _wire_state, replay
from mazzo.referee.schedule import deal_seed
from mazzo.referee.tournament import Config, LocalBackend, run_tournament
from mazzo.referee.verify import FAILED, OK, UNPROVEN, verify
from mazzo.v1 import bot_pb2
from tests.referee.conftest import ScriptedBot, ServeBot

H, R = "builtin:heuristic", "builtin:random"
SECRETS = {"heuristic": bytes(range(32)), "random": bytes(range(100, 132))}


def entropy_config(**kw: Any) -> Config:
    base: dict[str, Any] = {
        "name": "fair",
        "game": "maraffa",
        "entrants": [{"name": "heuristic", "bot": H}, {"name": "random", "bot": R}],
        "deals": 2,
        "seed": 7,
        "options": {"target": 21},
        "entropy": {n: fair.entropy_commitment(s).hex() for n, s in SECRETS.items()},
    }
    base.update(kw)
    return Config.from_dict(base)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The records file of one tournament with entropy (its commitments beside it)."""
    path = tmp_path_factory.mktemp("verify") / "r.jsonl"
    config = entropy_config().with_reveals({n: s.hex() for n, s in SECRETS.items()})
    asyncio.run(run_tournament(config, path, progress=False))
    return path


@pytest.fixture(scope="module")
def records(played: Path) -> list[dict[str, Any]]:
    return read_records(played)


def problems(record: dict[str, Any]) -> list[str]:
    verdict = verify([record])
    assert verdict.code == (FAILED if verdict.failures else OK)
    return [what for _, what in verdict.failures]


def test_every_record_of_a_tournament_with_entropy_is_proven(
    records: list[dict[str, Any]],
) -> None:
    verdict = verify(records)
    assert (verdict.code, verdict.failures, verdict.unproven) == (OK, [], [])
    assert verdict.records == 4 and verdict.moves == sum(len(r["moves"]) for r in records)
    for record in records:
        tag = record["tournament"]
        assert tag["base_seed"] == 7 and [e["entrant"] for e in tag["entropy"]] == [
            "heuristic",
            "random",
        ]
        # The seed is the entropy's, not the base seed's alone.
        assert record["seed"] != deal_seed(7, tag["deal"])


def test_the_commitment_is_the_documented_hash(records: list[dict[str, Any]]) -> None:
    """docs/fair-deals.md byte for byte, with hashlib alone."""
    record = records[0]
    expected = hashlib.blake2b(
        b"mazzo.v1 deal commitment\x00"
        + bytes.fromhex(record["deal_salt"])
        + record["seed"].to_bytes(8, "little")
        + bytes.fromhex(record["deal_hash"]),
        digest_size=32,
    ).hexdigest()
    assert record["deal_commitment"] == expected
    mixed = bytearray(b"mazzo.v1 tournament entropy\x00")
    for name in ("heuristic", "random"):
        secret = SECRETS[name]
        committed = hashlib.blake2b(b"mazzo.v1 entrant entropy\x00" + secret, digest_size=32)
        mixed += len(name).to_bytes(2, "big") + name.encode() + committed.digest() + secret
    mix = hashlib.blake2b(bytes(mixed), digest_size=32).digest()
    deal = record["tournament"]["deal"]
    seed_input = b"mazzo.v1 deal seed\x00" + (7).to_bytes(8, "little") + deal.to_bytes(4, "little")
    seed = int.from_bytes(hashlib.blake2b(seed_input + mix, digest_size=32).digest()[:8], "big")
    assert record["seed"] == seed


def _first_play(record: dict[str, Any]) -> int:
    return next(i for i, m in enumerate(record["moves"]) if i > 4 and "playCard" in str(m))


def test_a_changed_card_is_caught(records: list[dict[str, Any]]) -> None:
    """A card in what a move caused (the events), the move left alone."""
    record = copy.deepcopy(records[0])
    ply = _first_play(record)
    event = next(e for e in record["moves"][ply]["events"] if "cardPlayed" in e["maraffa"])
    played = event["maraffa"]["cardPlayed"]["card"]
    event["maraffa"]["cardPlayed"]["card"] = "CARD_AS" if played != "CARD_AS" else "CARD_2S"
    [what] = problems(record)
    assert f"at ply {ply}:" in what and "the record says" in what


def test_a_changed_move_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[1])
    ply = _first_play(record)
    card = record["moves"][ply]["move"]["maraffa"]["playCard"]
    card["card"] = "CARD_AS" if card["card"] != "CARD_AS" else "CARD_2S"
    [what] = problems(record)
    assert f"at ply {ply}:" in what


def test_a_changed_score_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[2])
    side = record["result"]["score"]["sides"][0]
    side["matchTotal"] = str(int(side.get("matchTotal", "0")) + 1)
    [what] = problems(record)
    assert what.startswith("at the end: the score is")
    totals = copy.deepcopy(records[2])
    totals["result"]["match_totals"][1] += 1
    [what] = problems(totals)
    assert what.startswith("at the end: the totals are")
    winners = copy.deepcopy(records[2])
    winners["result"]["winners"] = [1 - w for w in winners["result"]["winners"]]
    [what] = problems(winners)
    assert what.startswith("at the end: winners are")


def test_a_changed_salt_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[3])
    salt = bytearray.fromhex(record["deal_salt"])
    salt[0] ^= 1
    record["deal_salt"] = salt.hex()
    assert problems(record) == [
        "at the deal: the deal, its seed and the revealed salt do not open the published commitment"
    ]
    record["deal_salt"] = "zz"
    assert problems(record) == ["at the deal: deal_salt: not hex"]
    del record["deal_salt"]
    assert problems(record) == ["at the deal: the commitment's salt is not revealed (deal_salt)"]


def test_a_changed_commitment_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[0])
    record["deal_commitment"] = fair.commitment(
        bytes(32), record["seed"], bytes.fromhex(record["deal_hash"])
    ).hex()
    [what] = problems(record)
    assert "do not open the published commitment" in what


def test_a_changed_seed_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[0])
    record["seed"] += 1
    assert problems(record) == ["at the deal: the deal differs from the recorded deal hash"]
    # A forger who also rewrites the deal hash and the commitment (with the record's
    # salt) to the new seed's deal: the recorded moves no longer fit its cards.
    forged = copy.deepcopy(records[0])
    forged["seed"] ^= 1 << 40
    rules, codec = rules_for("maraffa"), CODECS["maraffa"]
    options = codec.options(MatchSpec("x", "maraffa", 0, 4, forged["options"]).options_message())
    state, _ = rules.deal(options, 4, forged["seed"])
    wire = _wire_state(codec, rules, state)
    forged["deal_hash"] = fair.deal_hash(wire.SerializeToString(deterministic=True)).hex()
    forged["deal_commitment"] = fair.commitment(
        bytes.fromhex(forged["deal_salt"]), forged["seed"], bytes.fromhex(forged["deal_hash"])
    ).hex()
    [what] = problems(forged)
    assert what.startswith("at ply "), what


def test_a_seed_not_of_the_schedule_is_caught(records: list[dict[str, Any]]) -> None:
    """Every record consistent in itself, but its deal is not the schedule's."""
    record = copy.deepcopy(records[0])
    record["tournament"]["deal"] += 1
    assert problems(record) == [
        f"the seed is not the schedule's for deal {record['tournament']['deal']} "
        "(base seed and entropy)"
    ]


def test_a_changed_entropy_secret_is_caught(records: list[dict[str, Any]]) -> None:
    record = copy.deepcopy(records[0])
    record["tournament"]["entropy"][1]["secret"] = bytes(32).hex()
    assert problems(record) == ["random's entropy secret does not open its commitment"]
    # A new secret with a new commitment to it: consistent in itself, but another
    # record of the same tournament shows the entrant's real commitment.
    other = copy.deepcopy(records[1])
    secrets = {"heuristic": SECRETS["heuristic"], "random": bytes(32)}
    for entry in other["tournament"]["entropy"]:
        entry["secret"] = secrets[entry["entrant"]].hex()
        entry["commitment"] = fair.entropy_commitment(secrets[entry["entrant"]]).hex()
    verdict = verify([records[0], other])
    assert [w for _, w in verdict.failures] == [
        "the seed is not the schedule's for deal "
        f"{other['tournament']['deal']} (base seed and entropy)"
    ]


def test_records_from_before_commitments_replay_but_are_unproven(
    records: list[dict[str, Any]],
) -> None:
    old = copy.deepcopy(records[0])
    del old["deal_commitment"], old["deal_salt"], old["tournament"]["base_seed"]
    del old["tournament"]["entropy"]
    assert replay(old).divergence is None
    verdict = verify([old, records[1]])
    assert (verdict.code, verdict.failures, verdict.unproven) == (UNPROVEN, [], [old["id"]])
    old["deal_hash"] = "00" * 32
    assert "published deal hash" in problems(old)[0]


def test_the_mazzo_verify_command_and_its_exit_codes(
    records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def write(name: str, rows: list[dict[str, Any]]) -> Path:
        path = tmp_path / name
        with RecordWriter(path) as out:
            for row in rows:
                out.write(row)
        return path

    assert main(["verify", str(write("good.jsonl", records))]) == 0
    assert "4 records" in capsys.readouterr().out
    bad = copy.deepcopy(records[2])
    bad["seed"] += 1
    assert main(["verify", str(write("bad.jsonl", [records[0], bad]))]) == 1
    out = capsys.readouterr().out
    assert f"bad.jsonl: {bad['id']}: at the deal:" in out and "1 FAILED" in out
    old = {k: v for k, v in records[0].items() if k not in ("deal_commitment", "deal_salt")}
    assert main(["verify", str(write("old.jsonl", [old]))]) == 3
    assert "no deal commitment" in capsys.readouterr().out
    assert main(["verify", str(tmp_path / "missing.jsonl")]) == 2
    (tmp_path / "torn.jsonl").write_text(json.dumps(records[0]) + '\n{"mazzo_rec')
    assert main(["verify", str(tmp_path / "torn.jsonl")]) == 2
    assert "cut off" in capsys.readouterr().err


def test_entropy_must_come_from_every_entrant_and_open_its_commitment() -> None:
    with pytest.raises(ValueError, match="missing: random"):
        entropy_config(entropy={"heuristic": fair.entropy_commitment(SECRETS["heuristic"]).hex()})
    with pytest.raises(ValueError, match=r"entropy\.random: 3 bytes, not 32"):
        entropy_config(entropy={"heuristic": "00" * 32, "random": "abcdef"})
    config = entropy_config()
    with pytest.raises(ValueError, match="give --entropy FILE"):
        config.jobs()
    wrong = {"heuristic": SECRETS["heuristic"].hex(), "random": SECRETS["heuristic"].hex()}
    with pytest.raises(ValueError, match=r"opens the commitment of random$"):
        config.with_reveals(wrong)
    with pytest.raises(ValueError, match="not entrants: eve"):
        config.with_reveals({**{n: s.hex() for n, s in SECRETS.items()}, "eve": "00" * 16})
    seeds = {
        j.spec.seed for j in config.with_reveals({n: s.hex() for n, s in SECRETS.items()}).jobs()
    }
    plain = {j.spec.seed for j in entropy_config(entropy={}).jobs()}
    assert len(seeds) == 2 and not seeds & plain


def test_the_mazzo_entropy_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["entropy"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert len(bytes.fromhex(made["secret"])) == 32
    assert main(["entropy", "--secret", made["secret"]]) == 0
    assert json.loads(capsys.readouterr().out) == made
    assert main(["entropy", "--secret", "abcd"]) == 2


async def test_a_tournament_publishes_each_commitment_before_the_first_move(
    tmp_path: Path, grpc_bot: ServeBot
) -> None:
    """A bot reads the commitments file on each match's first decision it gets: the
    match's line is there (written and flushed), with the commitment its record has
    at the end, and no salt."""
    path = tmp_path / "r.jsonl"
    seen: dict[str, str] = {}

    def first_move(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        lines = commitments_path(path).read_text(encoding="utf-8").splitlines()
        ended = len(path.read_text().splitlines()) if path.exists() else 0
        # One match at a time: the ended ones' lines, and the line of the match in play.
        assert len(lines) == ended + 1
        for line in lines:
            entry = json.loads(line)
            seen.setdefault(entry["id"], entry["deal_commitment"])
            assert "deal_salt" not in entry
        seen.setdefault("calls", "")
        seen["calls"] += "."
        return bot_pb2.ActResponse(index=0)

    bot = await grpc_bot(ScriptedBot(first_move))
    config = Config(
        name="published",
        game="maraffa",
        entrants=(Entrant("reader", (bot,)), Entrant("random", (R,))),
        deals=2,
        options={"maraffa": {"target": 11}},
    )
    await run_tournament(config, path, progress=False)
    records = read_records(path)
    assert len(records) == 4 and seen.pop("calls")
    # Every match's commitment was in the file at the reader's first decision in it
    # (seen then), and is the record's.
    assert seen == {r["id"]: r["deal_commitment"] for r in records}
    published = read_commitments(commitments_path(path))
    assert set(published) == set(seen)
    # Nothing a player could deal the match from: no seed, no base seed (issue 36).
    for line in published.values():
        assert "seed" not in line and "base_seed" not in line["tournament"]
        assert str(next(r["seed"] for r in records if r["id"] == line["id"])) not in (
            json.dumps(line)
        )
    assert verify(records, published).code == OK
    # Lines written before seeds were kept out still verify, and their seed is checked.
    older = {
        i: {**line, "seed": r["seed"]}
        for r in records
        for i, line in published.items()
        if i == r["id"]
    }
    assert verify(records, older).code == OK
    older[records[0]["id"]]["seed"] += 1
    assert verify(records, older).code != OK


def test_verify_rejects_a_record_whose_commitment_was_not_the_published_one(
    played: Path, records: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published = read_commitments(commitments_path(played))
    assert set(published) == {r["id"] for r in records}
    assert verify(records, published).code == OK
    # The whole match dealt again with another salt after the commitment was
    # published: the record opens its own commitment, not the published one.
    changed = copy.deepcopy(published)
    changed[records[1]["id"]]["deal_commitment"] = "00" * 32
    verdict = verify(records, changed)
    assert verdict.failures == [
        (records[1]["id"], "its deal commitment is not the one published before its first move")
    ]
    missing = {k: v for k, v in published.items() if k != records[2]["id"]}
    assert [what for _, what in verify(records, missing).failures] == [
        "its deal commitment was not published before its first move"
    ]
    # mazzo verify finds the file beside the records, or takes --commitments.
    assert main(["verify", str(played)]) == OK
    assert "checked against the commitments published in" in capsys.readouterr().out
    forged = tmp_path / "forged.jsonl"
    with RecordWriter(forged) as out:
        for entry in changed.values():
            out.write(entry)
    assert main(["verify", str(played), "--commitments", str(forged)]) == FAILED
    assert "not the one published before its first move" in capsys.readouterr().out


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in commitments_path(path).read_text().splitlines()]


class StallsOn(LocalBackend):
    """Plays a match to its end but never keeps its record: still in play when the run
    stops."""

    def __init__(self, match_id: str) -> None:
        super().__init__()
        self.match_id = match_id

    async def keep(self, record: dict[str, Any]) -> None:
        if record["id"] == self.match_id:
            await asyncio.Event().wait()
        await super().keep(record)


async def test_a_stopped_run_says_which_published_matches_it_abandoned(tmp_path: Path) -> None:
    """Two matches at a time, stopped once one is recorded: the other was published
    and is in play, so a line says it is abandoned, and the files verify; resumed, the
    run plays it anew under a new line, and the whole run verifies."""
    path = tmp_path / "r.jsonl"
    config = entropy_config(concurrency=2).with_reveals({n: s.hex() for n, s in SECRETS.items()})
    backend = StallsOn("p0.d0.o1")
    await run_tournament(config, path, progress=False, stop_after=1, backend=backend)
    [recorded] = read_records(path)
    lines = _lines(path)
    left = backend.match_id
    assert [e["id"] for e in lines] == [recorded["id"], left, left]
    assert lines[-1] == {"mazzo_commitment": 1, "id": left, "abandoned": True}
    assert verify([recorded], read_commitments(commitments_path(path))).code == OK
    # Without that line, the match published with no record is a record dropped.
    commitments_path(path).write_text("".join(json.dumps(e) + "\n" for e in lines[:-1]))
    verdict = verify([recorded], read_commitments(commitments_path(path)))
    assert verdict.unrecorded == [left] and verdict.code == FAILED
    # A crash writes no such line: the run that resumes writes it before its first deal.
    await run_tournament(config, path, resume=True, progress=False)
    records = read_records(path)
    assert (
        len(records) == 4 and verify(records, read_commitments(commitments_path(path))).code == OK
    )
    again = [e for e in _lines(path) if e["id"] == left]
    assert [e.get("abandoned", False) for e in again] == [False, True, False]
    # Each line names the match's seating and slot, not the entrants' secrets.
    record = next(r for r in records if r["id"] == left)
    assert again[-1]["sides"] == record["sides"] and again[-1]["seat_bots"] == record["seat_bots"]
    slot = {k: v for k, v in record["tournament"].items() if k not in ("entropy", "base_seed")}
    assert again[-1]["tournament"] == slot


def test_verify_reads_older_published_lines(records: list[dict[str, Any]], played: Path) -> None:
    """Lines written before seating was published hold the commitment and seed only:
    checked for those, a swap of the sides then shows only against the other records."""
    published = read_commitments(commitments_path(played))
    seeds = {r["id"]: r["seed"] for r in records}
    older = {
        rid: {k: line[k] for k in ("mazzo_commitment", "id", "deal_commitment")}
        | {"seed": seeds[rid]}
        for rid, line in published.items()
    }
    assert verify(records, older).code == OK
    swapped = copy.deepcopy(records)
    for side in swapped[0]["sides"]:
        side["entrant"] = {"heuristic": "random", "random": "heuristic"}[side["entrant"]]
    assert verify(swapped, published).failures[0] == (
        swapped[0]["id"],
        "its field sides is not the one published before its first move",
    )
    assert (
        verify(swapped, older).failures[0][1]
        == "random plays with other bots than in its other matches"
    )
