"""``mazzo match --seal``: a match played through a keyed service's sealed tokens.

Each bot is sent the token of the seat it decides for and no other (the 3-player
Maraffa dummy's turns come with its controller's token); the record keeps the
service's commitment and the salt its last move revealed, which ``mazzo verify``
checks beside the referee's own.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mazzo.referee.engine import SealedEngine
from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match, run_match
from mazzo.referee.verify import OK, verify
from mazzo.service.sealing import Key, Sealer, read_header
from mazzo.service.server import start_server, stop_server
from tests.referee.conftest import python_bot

#: An exec: bot that plays the first legal move and logs, for every request, the seat
#: asked for and the seat its token is for (and whether it got one).
LOGGING_BOT = """
import base64, json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    request = json.loads(line)
    token = base64.b64decode(request.get("sealedState", ""))
    log.write(json.dumps([request.get("seat", 0), token.hex()]) + "\\n")
    log.flush()
    print(json.dumps({"index": 0}), flush=True)
"""


@pytest.fixture
async def keyed_service() -> Any:
    server, port = await start_server(
        "127.0.0.1", 0, sealer=Sealer([Key("k1", bytes(range(7, 39)))])
    )
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await stop_server(server)


async def test_each_bot_sees_only_its_own_seats_token(keyed_service: str, tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(LOGGING_BOT)
    logs = [tmp_path / f"seat{s}.log" for s in (0, 1, 3)]  # 3 players: the dummy is seat 2
    spec = MatchSpec("sealed", "maraffa", 5, players=3, options={"maraffa": {"target": 11}})
    bots = [python_bot(script, str(log)) for log in logs]
    record = await run_match(spec, bots, keyed_service, seal=True)
    assert not record["faults"] and record["result"]["finished"]
    asked = 0
    for controller, log in zip((0, 1, 3), logs, strict=True):
        for line in log.read_text().splitlines():
            seat, token = json.loads(line)
            header = read_header(bytes.fromhex(token))
            # Its own seat's token, for the dummy's turns too (seat 0 controls seat 2).
            assert header.seat == controller and seat in {controller, (controller + 2) % 4}
            assert header.match_id.hex() == record["sealed"]["match_id"]
            asked += 1
    assert asked == len(record["moves"])
    sealed = record["sealed"]
    assert len(bytes.fromhex(sealed["deal_salt"])) == 32
    assert sealed["deal_commitment"] != record["deal_commitment"]  # the service's own salt
    assert verify([record]).code == OK
    wrong = copy.deepcopy(record)
    wrong["sealed"]["deal_salt"] = "00" * 32
    assert [w for _, w in verify([wrong]).failures] == [
        "at the deal: the service's deal commitment is not opened by the salt it revealed"
    ]


async def test_a_sealed_match_records_the_same_play_as_a_plain_one(keyed_service: str) -> None:
    spec = MatchSpec("m", "burraco", 4, players=2, options={"burraco": {"hands": 1}})
    lineup = [Entrant("H", ("builtin:heuristic",)), Entrant("R", ("builtin:random",))]
    pools = Pools()
    try:
        engine = SealedEngine(keyed_service)
        try:
            sealed = await play_match(spec, lineup, engine, pools)
        finally:
            await engine.close()
        plain = await run_match(spec, ["builtin:heuristic", "builtin:random"], keyed_service)
    finally:
        await pools.close()
    assert [m["move"] for m in sealed["moves"]] == [m["move"] for m in plain["moves"]]
    assert sealed["result"] == plain["result"] and "sealed" not in plain


def test_seal_needs_a_service(capsys: pytest.CaptureFixture[str]) -> None:
    from mazzo.cli import main

    bots = ["--bot", "builtin:random", "--bot", "builtin:random"]
    assert main(["match", "--game", "maraffa", *bots, "--seal"]) == 2
    assert capsys.readouterr().err == (
        "mazzo: --seal plays through a keyed GameService: give --service too\n"
    )


def test_a_tournament_seals_when_its_config_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mazzo.cli import main
    from mazzo.referee.tournament import Config

    config = tmp_path / "t.toml"
    config.write_text(
        'game = "maraffa"\nseal = true\n[[entrants]]\nname = "a"\nbot = "builtin:random"\n'
        '[[entrants]]\nname = "b"\nbot = "builtin:random"\n'
    )
    assert Config.load(config).seal
    records = str(tmp_path / "r.jsonl")
    assert main(["tournament", str(config), "--records", records, "--no-progress"]) == 2
    assert "--seal plays through a keyed GameService: give --service too" in (
        capsys.readouterr().err
    )


async def test_seal_without_a_seed_draws_one_nobody_can_guess(
    keyed_service: str, tmp_path: Path
) -> None:
    """Issue 36: ``--seal`` used the default seed 1, so anybody could deal its match in
    plain. Without ``--seed`` a sealed match's seed is drawn (and not shown in its id);
    a sealed tournament without ``seed`` draws its base seed, which ``--resume`` reads
    back from the records."""
    import asyncio

    from mazzo.cli import main
    from mazzo.referee.records import read_records

    bots = ["--bot", "builtin:random"] * 2
    seeds = []
    for n in range(2):
        out = tmp_path / f"m{n}.jsonl"
        argv = ["match", "--game", "maraffa", *bots, "--option", "target=11"]
        argv += ["--service", keyed_service, "--seal", "--records", str(out)]
        assert await asyncio.to_thread(main, argv) == 0
        (record,) = read_records(out)
        assert str(record["seed"]) not in record["id"]
        seeds.append(record["seed"])
    assert 1 not in seeds and seeds[0] != seeds[1]

    config = tmp_path / "t.toml"
    config.write_text(
        f'game = "maraffa"\nseal = true\nservice = "{keyed_service}"\ndeals = 1\n'
        "[options]\ntarget = 11\n"
        '[[entrants]]\nname = "a"\nbot = "builtin:random"\n'
        '[[entrants]]\nname = "b"\nbot = "builtin:random"\n'
    )
    records = tmp_path / "t.jsonl"
    run = ["tournament", str(config), "--records", str(records), "--no-progress"]
    assert await asyncio.to_thread(main, run) == 0
    played = read_records(records)
    base = {r["tournament"]["base_seed"] for r in played}
    assert len(base) == 1 and 1 not in base
    assert verify(played).code == OK
    assert await asyncio.to_thread(main, [*run, "--resume"]) == 0  # the same schedule
    assert len(read_records(records)) == len(played)
