"""One match: seats and teams, the dummy's controller, faults by policy, local = remote."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mazzo.referee import shapes
from mazzo.referee.engine import LocalEngine, RemoteEngine
from mazzo.referee.match import (
    Entrant,
    FaultLedger,
    FaultRules,
    MatchSpec,
    OnFault,
    Pools,
    TimeControl,
    controllers_of,
    entrants_for_bots,
    options_json,
    play_match,
    run_match,
    table_of,
)
from mazzo.referee.records import read_records
from mazzo.service.server import start_server, stop_server
from mazzo.v1 import bot_pb2, game_pb2
from tests.referee.conftest import ScriptedBot, ServeBot, fault_bot

H, R = "builtin:heuristic", "builtin:random"
#: What the clock decides, and the deal commitment's salt (fresh random bytes for
#: every match, so the commitment differs too).
TIMING = ("ms", "time_used_ms", "started", "duration_s", "deal_commitment", "deal_salt")


def untimed(value: Any) -> Any:
    """A record without what the clock decides."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


async def play(spec: MatchSpec, lineup: list[Entrant], **kw: Any) -> dict[str, Any]:
    pools = Pools()
    try:
        return await play_match(spec, lineup, LocalEngine(), pools, **kw)
    finally:
        await pools.close()


async def test_a_match_is_played_to_the_end_and_recorded() -> None:
    record = await play(MatchSpec("m1", "maraffa", 11), [Entrant("H", (H,)), Entrant("R", (R,))])
    result = record["result"]
    assert result["finished"] and result["forfeit"] is None
    assert len(result["winners"]) == 1
    assert [s["seats"] for s in record["sides"]] == [[0, 2], [1, 3]]
    assert record["seat_bots"] == [H, R, H, R]
    assert record["moves"] and not record["faults"]
    # Every move names its seat, the move itself and what it caused.
    for move in record["moves"]:
        assert set(move) >= {"seat", "move", "ms", "events"}
        assert move["events"]
    # The last move's events include the end of the match.
    assert any("matchWon" in e["maraffa"] for e in record["moves"][-1]["events"])
    again = await play(MatchSpec("m1", "maraffa", 11), [Entrant("H", (H,)), Entrant("R", (R,))])
    assert untimed(again) == untimed(record)


async def test_seat_bots_per_seat_and_per_side() -> None:
    sides, deciders = table_of("maraffa", 4, game_pb2.GameOptions())
    assert sides == [[0, 2], [1, 3]] and deciders == [0, 1, 2, 3]
    per_side = entrants_for_bots([H, R], sides, deciders)
    assert [e.bots for e in per_side] == [(H,), (R,)]
    per_seat = entrants_for_bots([H, R, R, H], sides, deciders)
    assert [e.bots for e in per_seat] == [(H, R), (R, H)]
    record = await play(MatchSpec("m", "maraffa", 3), per_seat)
    assert record["seat_bots"] == [H, R, R, H]
    with pytest.raises(ValueError):
        entrants_for_bots([H, R, R], sides, deciders)
    dummy_at_1 = game_pb2.GameOptions()
    dummy_at_1.maraffa.dummy_seat = 1
    assert table_of("maraffa", 3, dummy_at_1)[1] == [0, 2, 3]


async def test_the_dummy_is_played_by_its_controllers_bot(grpc_bot: ServeBot) -> None:
    """3 players, dummy at seat 2: seat 0's bot is asked for seats 0 and 2."""
    seen: list[int] = []

    def controller(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        seen.append(request.seat)
        return bot_pb2.ActResponse(index=0)

    spec_text = await grpc_bot(ScriptedBot(controller))
    sides, deciders = table_of("maraffa", 3, game_pb2.GameOptions())
    assert deciders == [0, 1, 3]
    lineup = entrants_for_bots([spec_text, R, R], sides, deciders)
    record = await play(MatchSpec("d", "maraffa", 5, players=3), lineup)
    assert not record["faults"]
    assert record["seat_bots"] == [spec_text, R, spec_text, R]
    assert {m["seat"] for m in record["moves"]} >= {0, 1, 2, 3}
    assert set(seen) == {0, 2}
    assert seen.count(2) == sum(m["seat"] == 2 for m in record["moves"])

    # A team given two bots (as a tournament entrant may be) plays the dummy's side
    # with its first: only seat 0 decides there.
    lineup = [Entrant("pair", (spec_text, H)), Entrant("R", (R,))]
    record = await play(MatchSpec("d2", "maraffa", 5, players=3), lineup)
    assert record["seat_bots"] == [spec_text, R, spec_text, R] and not record["faults"]


async def test_a_bot_on_a_clock_of_its_own_gets_it_for_every_seat_it_decides_for(
    grpc_bot: ServeBot,
) -> None:
    """A person's minutes at a table of bots (the arena's person table): the seats the
    slow player decides for (its own and the dummy's) are on its clock, the bot beside
    it still on the table's. Both take 0.15 s for their first three answers; the
    table's clock gives 0.05 s, the slow player's 3 s."""
    told: dict[str, list[float]] = {"person": [], "bot": []}

    def slow_at_first(name: str) -> ScriptedBot:
        async def answer(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
            told[name].append(request.time_left.ToTimedelta().total_seconds())
            if len(told[name]) <= 3:
                await asyncio.sleep(0.15)
            return bot_pb2.ActResponse(index=0)

        return ScriptedBot(answer)

    person, bot = await grpc_bot(slow_at_first("person")), await grpc_bot(slow_at_first("bot"))
    sides, deciders = table_of("maraffa", 3, game_pb2.GameOptions())
    lineup = entrants_for_bots([person, bot, R], sides, deciders)
    spec = MatchSpec("own", "maraffa", 5, 3, {"maraffa": {"target": 1}})
    table, persons = TimeControl(0.05, 0.0), TimeControl(1.0, 2.0)
    record = await play(spec, lineup, clock=table, own_clocks={person: persons})
    assert record["time_control"] == {
        "move": 0.05,
        "bank": 0.0,
        "seats": [{"seat": 0, "move": 1.0, "bank": 2.0}],  # seat 0 decides for the dummy too
    }
    assert {(f["seat"], f["class"]) for f in record["faults"]} == {(1, "timeout")}
    assert len(record["faults"]) == 3
    assert told["person"][0] == pytest.approx(3.0) and told["bot"][0] == pytest.approx(0.05)
    shapes.check_record(record, "the record")  # mazzo verify reads the seats' clocks
    with pytest.raises(ValueError, match="not at the table: builtin:heuristic"):
        await play(spec, lineup, clock=table, own_clocks={H: persons})


#: Every game and form, each as short as its options allow: (game, players, options).
EVERY_FORM: list[tuple[str, int, dict[str, Any]]] = [
    ("maraffa", 2, {"maraffa": {"target": 11}}),
    ("maraffa", 3, {"maraffa": {"target": 11}}),
    ("maraffa", 3, {"maraffa": {"target": 11, "dummySeat": 0}}),
    (
        "maraffa",
        3,
        {"maraffa": {"target": 11, "threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39"}},
    ),
    ("maraffa", 4, {"maraffa": {"target": 11}}),
    ("maraffa", 5, {"maraffa": {"matchDeals": 1}}),
    ("burraco", 2, {"burraco": {"hands": 1}}),
    ("burraco", 3, {"burraco": {"hands": 1}}),
    ("burraco", 4, {"burraco": {"hands": 1}}),
    ("ramino", 2, {"ramino": {"matchHands": 1}}),
    ("ramino", 4, {"ramino": {"matchHands": 1}}),
    ("ramino", 6, {"ramino": {"matchHands": 1}}),
]


@pytest.mark.parametrize(("game", "players", "options"), EVERY_FORM)
async def test_each_bot_decides_for_the_seats_its_player_controls_and_no_other(
    grpc_bot: ServeBot, game: str, players: int, options: dict[str, Any]
) -> None:
    """One bot per deciding seat: each is asked only for seats that the rules'
    ``controller`` gives its seat, and shown a view of one of them; every bot plays."""
    spec = MatchSpec(f"{game}{players}", game, 2, players, options)
    controllers = controllers_of(game, players, spec.options_message(), spec.seed)
    sides, deciders = table_of(game, players, spec.options_message())
    asked: dict[int, list[tuple[int, int]]] = {d: [] for d in deciders}

    def recorder(decider: int) -> ScriptedBot:
        def answer(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
            asked[decider].append((request.seat, request.view.seat))
            return bot_pb2.ActResponse(index=0)

        return ScriptedBot(answer)

    bots = [await grpc_bot(recorder(d)) for d in deciders]
    record = await play(spec, entrants_for_bots(bots, sides, deciders))
    assert not record["faults"] and record["moves"]
    for decider, seen in asked.items():
        assert seen, f"seat {decider}'s bot was never asked"
        assert all(controllers[seat] == decider and view == seat for seat, view in seen)
    by_decider = dict(zip(deciders, bots, strict=True))
    assert record["seat_bots"] == [by_decider[controllers[s]] for s in sorted(controllers)]
    assert sum(len(seen) for seen in asked.values()) == len(record["moves"])


async def test_the_39_card_form_gives_every_seat_its_own_bot() -> None:
    """maraffa-forms B.6: the 39-card form has no dummy, whatever ``dummy_seat`` says of
    the four-seat form. The command of issue 13 item 1, as a match."""
    options = {"maraffa": {"threePlayerForm": "MARAFFA_THREE_PLAYER_FORM_DECK39"}}
    spec = MatchSpec("deck39", "maraffa", 2, 3, options)
    assert controllers_of("maraffa", 3, spec.options_message(), 2) == {0: 0, 1: 1, 2: 2}
    sides, deciders = table_of("maraffa", 3, spec.options_message())
    assert sides == [[0], [1], [2]] and deciders == [0, 1, 2]
    lineup = entrants_for_bots([H, R, R], sides, deciders)
    record = await play(spec, lineup)
    assert record["seat_bots"] == [H, R, R]


@pytest.mark.parametrize(
    ("mode", "fault"),
    [("illegal", "illegal"), ("lie", "illegal"), ("garbage", "malformed"), ("crash", "crash")],
)
async def test_a_fault_forfeits_the_match_under_the_forfeit_policy(mode: str, fault: str) -> None:
    lineup = [Entrant("bad", (fault_bot(mode, 3),)), Entrant("R", (R,))]
    rules = FaultRules(OnFault.FORFEIT)
    record = await play(MatchSpec("f", "maraffa", 2), lineup, rules=rules)
    assert [f["class"] for f in record["faults"]] == [fault]
    forfeit = record["result"]["forfeit"]
    assert forfeit["entrant"] == "bad" and forfeit["side"] == 0
    assert record["result"]["winners"] == [1] and not record["result"]["finished"]
    # The faulty answer was the third the bot gave; nothing after it was played.
    bad_moves = [m for m in record["moves"] if m["seat"] in (0, 2)]
    assert len(bad_moves) == 2


async def test_faults_become_random_moves_and_strikes_under_the_random_policy() -> None:
    lineup = [Entrant("bad", (fault_bot("illegal", 4),)), Entrant("R", (R,))]
    record = await play(MatchSpec("r", "maraffa", 2), lineup)
    faults = record["faults"]
    assert len(faults) >= 2 and {f["class"] for f in faults} == {"illegal"}
    assert record["result"]["finished"] and record["result"]["forfeit"] is None
    faulted = [i for i, m in enumerate(record["moves"]) if "fault" in m]
    assert [f["ply"] for f in faults] == faulted


async def test_a_crashed_bot_plays_at_random_for_the_rest_of_the_match() -> None:
    lineup = [Entrant("bad", (fault_bot("crash", 5),)), Entrant("R", (R,))]
    record = await play(MatchSpec("c", "maraffa", 4), lineup)
    assert [f["class"] for f in record["faults"]] == ["crash"]
    assert record["result"]["finished"]
    auto = [m for m in record["moves"] if m.get("auto")]
    assert auto and all(m["seat"] in (0, 2) for m in auto)


async def test_timeouts_spend_the_bank_then_count() -> None:
    lineup = [Entrant("slow", (fault_bot("slow", 6),)), Entrant("R", (R,))]
    # Generous enough that the bot's other answers are in time on a busy machine.
    clock = TimeControl(move=0.4, bank=0.4)
    ledger = FaultLedger(disqualify_after=2)
    record = await play(
        MatchSpec("t", "maraffa", 4), lineup, clock=clock, rules=FaultRules(), ledger=ledger
    )
    assert [f["class"] for f in record["faults"]] == ["timeout", "timeout"]
    # The first timeout waited for the allowance and the whole bank, the second
    # (bank spent) for the allowance alone.
    assert [f["ms"] >= t for f, t in zip(record["faults"], (800, 400), strict=True)] == [True] * 2
    assert "disqualified after 2 faults" in record["result"]["forfeit"]["reason"]
    assert ledger.disqualified("slow")
    # A disqualified player forfeits its next match before a move is played.
    later = await play(MatchSpec("t2", "maraffa", 5), lineup, ledger=ledger)
    assert later["moves"] == [] and later["result"]["winners"] == [1]


async def test_a_remote_game_service_gives_the_same_record() -> None:
    server, port = await start_server("127.0.0.1", 0)
    target = f"127.0.0.1:{port}"
    spec = MatchSpec("x", "maraffa", 21, options=options_json("maraffa", ["target=21"]))
    lineup = [Entrant("H", (H,)), Entrant("R", (R, H))]
    local = await play(spec, lineup)
    engine = RemoteEngine(target)
    pools = Pools()
    try:
        remote = await play_match(spec, lineup, engine, pools)
    finally:
        await pools.close()
        await engine.close()
        await stop_server(server, grace=0.5, quiet=0)
    assert untimed(remote) == untimed(local)
    assert local["options"] == {"maraffa": {"target": 21}}


async def test_run_match_takes_bots_in_cli_form(tmp_path: Path) -> None:
    spec = MatchSpec("cli", "maraffa", 8, players=2)
    record = await run_match(spec, [H, R], clock=TimeControl(1.0, 5.0))
    assert [s["seats"] for s in record["sides"]] == [[0], [1]]
    assert record["players"] == 2 and record["result"]["finished"]


def test_mazzo_match_command_writes_one_record_line(tmp_path: Path) -> None:
    out = tmp_path / "records.jsonl"
    for seed in (1, 2):
        command = [sys.executable, "-m", "mazzo", "match", "--game", "maraffa"]
        command += ["--seed", str(seed), "--bot", H, "--bot", fault_bot("illegal", 1000)]
        command += ["--records", str(out), "--option", "target=11"]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "won" in done.stdout
        assert f"maraffa-{seed}: deal commitment " in done.stdout.splitlines()[0]
    records = read_records(out)
    assert [r["seed"] for r in records] == [1, 2]
    assert all(r["options"] == {"maraffa": {"target": 11}} for r in records)
    assert json.loads(out.read_text().splitlines()[0])["id"] == "maraffa-1"


def test_mazzo_match_refuses_a_wrong_number_of_bots() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mazzo", "match", "--game", "maraffa", "--bot", H],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--bot" in done.stderr
