"""``make drops``: dial-in bots whose connections are cut in the middle of decisions.

Issue 33's measure: "1,000 induced drops of 0.5 to 8 s in the middle of decisions: 0
moves lost, 0 applied twice, 0 forfeits of a bot with time left; drops past the grace
adjudicated and recorded."

Two processes, as in a real run. This one is the referee: a gateway on a free port
(grace ``--grace``, 10 s by default) and a two-player Briscola match (one hand) for
each pair of bots, all at once, with ``--on-fault forfeit`` so that any fault at all
would end a match and show. The other (scripts/drops_bots.py, started from here) holds the
bots, each dialing in through its own TCP proxy, which is the chaos: when a bot's
planned decision arrives, the proxy kills its connection (both directions, with a
reset) and holds the bot's new connections until the drop's length is over. Half the
cuts come before the answer is written, half just after it (the answer then may or may
not have reached the gateway, and the bot sends it again once back, as a client that
delivers at least once would). A bot dials again every 0.1 s, so it is back soon after
its drop ends; each proxy reaches the gateway from its own loopback address, so the
gateway's per-address limit sees one bot per address, as it would on the internet.
Every ``--http-every``-th bot dials in over the HTTP door instead (its stream and its
answers' POSTs all through its proxy, so a cut takes them all).

A few more pairs each have one bot that stays away past the grace (``--past-grace``,
``--past-grace-seconds``): its match must end with its forfeit and a ``crash`` in the
record. Every other bot has the clock ``--move-time`` plus ``--bank``, enough that only
a lost decision could fault it.

The check, from the records and the bots' own logs: each bot's moves in its record are
exactly the moves it chose for the sequences it was sent, in order (none lost, none
twice, none another decision's), no fault and no forfeit in any match without a
past-grace drop, and one ``crash`` recorded for each drop past the grace. The grace
is the gateway's: from its noticing the drop to the bot's next Hello. On a busy machine
a bot may take longer than that to get back in from a drop shorter than it (the dial
goes through two loaded event loops and the proxy); such a "late return" must be a
recorded ``crash`` too, and is counted apart (``late_returns``). Prints a JSON summary
(``--out`` writes it too); exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from drops_bots import ANSWER_PATH, JOIN_PATH, Lag
from mazzo.gateway import http
from mazzo.gateway.http import HttpDoor
from mazzo.gateway.server import Connection, Gateway, Limits, Seat
from mazzo.gateway.tokens import TokenBook
from mazzo.referee.match import (
    FaultRules,
    MatchSpec,
    OnFault,
    TimeControl,
    options_json,
    run_match,
)
from mazzo.referee.verify import verify

# The bots' process speaks to the door by these, without importing it.
if (JOIN_PATH, ANSWER_PATH) != (http.JOIN_PATH, http.ANSWER_PATH):
    raise SystemExit("scripts/drops_bots.py: the HTTP door's paths have changed")

GAME, PLAYERS = "briscola", 2
#: One hand: 20 decisions a bot.
OPTIONS = options_json(GAME, ["hands_to_win=1"])
#: A bot's decisions that may be cut: not the first (it has just dialed in), and early
#: enough that the drops of both bots of a match fit in its 20.
CUTTABLE = range(2, 19)


class WatchedSeat(Seat):
    """A seat that notes when its bot was away, as the gateway saw it: from the moment
    it noticed the drop to the new connection's Hello, which is what the grace is
    counted against (a bot dialing through a busy machine may take longer to come back
    than its drop lasted)."""

    def __init__(self, name: str, limits: Limits) -> None:
        super().__init__(name, limits)
        #: [gone, back] in loop time; back is -1 while away.
        self.absences: list[list[float]] = []

    def attach(self, conn: Connection) -> None:
        if self.absences and self.absences[-1][1] < 0:
            self.absences[-1][1] = asyncio.get_running_loop().time()
        super().attach(conn)

    def detach(self, conn: Connection) -> None:
        was = self.conn is conn
        super().detach(conn)
        if was:
            self.absences.append([asyncio.get_running_loop().time(), -1.0])

    def longest_absence(self, now: float) -> float:
        """The longest time away, until ``now`` for an absence still running."""
        return max(((now if b < 0 else b) - a for a, b in self.absences), default=0.0)


# The referee's side.


def make_plan(args: argparse.Namespace, rng: random.Random) -> list[dict[str, Any]]:
    """Each main bot: ``--drops-per-bot`` cuts at distinct decisions, lengths uniform
    in [min, max]; each past-grace pair: its first bot cut once for the long drop."""
    bots = []
    for i in range(args.bots):
        ordinals = rng.sample(CUTTABLE, args.drops_per_bot)
        drops = [
            {
                "ordinal": o,
                "hold": rng.uniform(args.min, args.max),
                "kind": "before" if (i + k) % 2 == 0 else "in_flight",
            }
            for k, o in enumerate(sorted(ordinals))
        ]
        door = "http" if args.http_every and i % args.http_every == 1 else "grpc"
        bots.append({"name": f"b{i:04d}", "door": door, "drops": drops})
    for j in range(args.past_grace):
        drop = {
            "ordinal": rng.choice(CUTTABLE),
            "hold": args.past_grace_seconds,
            "kind": "before",
            "past_grace": True,
        }
        door = "http" if args.http_every and j % 2 else "grpc"
        bots.append({"name": f"g{j:04d}", "door": door, "drops": [drop]})
        bots.append({"name": f"h{j:04d}", "door": "grpc", "drops": []})
    return bots


async def referee(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Play the matches, the bots' process beside; the summary (``work``: its files)."""
    rng = random.Random(args.seed)
    bots = make_plan(args, rng)
    book = TokenBook()
    for b in bots:
        b["token"] = book.new(b["name"])
    gateway = Gateway(book, Limits(grace=args.grace))
    watched = {b["name"]: WatchedSeat(b["name"], gateway.limits) for b in bots}
    gateway.seats.update(watched)
    ports = {"grpc": await gateway.start("127.0.0.1", 0)}
    door = HttpDoor(gateway)
    ports["http"] = await door.start("127.0.0.1", 0)
    plan_path, log_path = work / "plan.json", work / "bots.json"
    plan_path.write_text(json.dumps({"ports": ports, "bots": bots}))
    bots_script = Path(__file__).with_name("drops_bots.py")
    child = subprocess.Popen(
        [sys.executable, str(bots_script), str(plan_path), str(log_path)],
        stdin=subprocess.PIPE,
        text=True,
    )
    clock = TimeControl(move=args.move_time, bank=args.bank)
    rules = FaultRules(on_fault=OnFault(args.on_fault))
    started = time.perf_counter()
    lag = Lag()
    watching = asyncio.create_task(lag.watch())
    try:
        pairs = [(bots[k]["name"], bots[k + 1]["name"]) for k in range(0, len(bots), 2)]
        records = await asyncio.gather(
            *(
                run_match(
                    MatchSpec(
                        id=f"drops-{a}-{b}", game=GAME, seed=k, players=PLAYERS, options=OPTIONS
                    ),
                    [f"connect:{a}", f"connect:{b}"],
                    clock=clock,
                    rules=rules,
                    gateway=gateway,
                    dial_in_wait=60,
                )
                for k, (a, b) in enumerate(pairs)
            )
        )
        played = time.perf_counter() - started
        # before the run's end takes every bot away
        now = asyncio.get_running_loop().time()
        away = {name: seat.longest_absence(now) for name, seat in watched.items()}
        watching.cancel()
        await gateway.stop(1.0)
        await door.stop()
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
    if args.records:
        with open(args.records, "w") as f:
            for record in records:
                f.write(json.dumps(record) + "\n")
    logs = json.loads(log_path.read_text())
    seats = {name: seat for name, seat in gateway.seats.items()}
    logs["referee_loop_lag"] = lag.figures()
    return judge(args, list(records), logs, seats, away, played)


def judge(
    args: argparse.Namespace,
    records: list[dict[str, Any]],
    logs: dict[str, Any],
    seats: dict[str, Any],
    away: dict[str, float],
    played: float,
) -> dict[str, Any]:
    """The figures, from the records against what the bots chose and were sent."""
    by_name = {b["name"]: b for b in logs["bots"]}
    lost = twice = applied = faults_in_grace = forfeits_in_grace = 0
    decisions = answers = late_crashes = 0
    crashes_recorded = past_forfeits = 0
    undone = 0
    for record in records:
        names = [bot.removeprefix("connect:") for bot in record["seat_bots"]]
        faults = record["faults"]
        if any(d["past_grace"] for n in names for d in by_name[n]["drops"]):
            crashes = [f for f in faults if f["class"] == "crash" and "grace" in f["detail"]]
            crashes_recorded += len(crashes) == 1 and len(faults) == 1
            forfeit = record["result"]["forfeit"]
            past_forfeits += forfeit is not None and forfeit["reason"].startswith("crash")
            continue
        # A crash is the gateway's due when the bot was away longer than the grace as
        # the gateway saw it (a planned drop, with the bot slow to get back in).
        late = {
            f["seat"]
            for f in faults
            if f["class"] == "crash"
            and "grace" in f["detail"]
            and away[names[f["seat"]]] > args.grace
        }
        late_crashes += len(late)
        faults_in_grace += sum(1 for f in faults if f["seat"] not in late)
        forfeit = record["result"]["forfeit"]
        forfeits_in_grace += forfeit is not None and forfeit["seat"] not in late
        for seat, name in enumerate(names):
            log = by_name[name]
            if late:  # the match ended at the late return: later drops never came
                undone += log["undone"]
            made = [
                m["move"]
                for m in record["moves"]
                if m["seat"] == seat and "fault" not in m and not m.get("auto")
            ]
            # the decision the bot was away from when adjudicated: chosen, not made
            chosen = log["chosen"][: len(log["chosen"]) - (seat in late)]
            applied += len(made)
            decisions += len(chosen)
            answers += log["answered"]
            same = sum(1 for a, b in zip(made, chosen, strict=False) if a == b)
            # a chosen move that is not the record's at its place: lost; a move the
            # record has beyond the decisions the bot was sent: applied twice
            lost += len(chosen) - same
            twice += max(0, len(made) - len(chosen))
    drops = [d for b in logs["bots"] for d in b["drops"]]
    within = [d for d in drops if not d["past_grace"]]
    past = [d for d in drops if d["past_grace"]]
    holds = [d["hold"] for d in within]
    resent = [d for d in within if d["resent"]]
    wanted_drops = args.bots * args.drops_per_bot
    summary = {
        "bots": len(logs["bots"]),
        "matches": len(records),
        "grace_s": args.grace,
        "clock": {"move_s": args.move_time, "bank_s": args.bank, "on_fault": args.on_fault},
        "drops": len(within),
        "drops_planned": wanted_drops,
        # planned drops of matches that a late return (below) had ended
        "drops_not_reached": undone,
        "drop_s": {
            "min": round(min(holds, default=0), 3),
            "mean": round(statistics.fmean(holds), 3) if holds else 0,
            "max": round(max(holds, default=0), 3),
        },
        "drop_kinds": dict(Counter(d["kind"] for d in within)),
        "drops_by_door": dict(
            Counter(b["door"] for b in logs["bots"] for d in b["drops"] if not d["past_grace"])
        ),
        "away_s_max": round(max((d["away"] for d in within), default=0), 3),
        # the drops back more than 1 s after their end, and why their dials failed
        "slow_returns": [
            {
                "door": door,
                "hold": round(d["hold"], 2),
                "away": round(d["away"], 2),
                **d["dials"],
                "late": d["late"],
            }
            for b in logs["bots"]
            for door in [b["door"]]
            for d in b["drops"]
            if not d["past_grace"] and d["away"] > d["hold"] + 1
        ][:20],
        "resent_with_same_sequence": len(resent),
        # cut before its answer: the decision must come again, with its number
        "unanswered_resent": f"{sum(d['kind'] == 'before' for d in resent)}"
        f" of {sum(d['kind'] == 'before' for d in within)}",
        "answered_before_the_cut": len(within) - len(resent),
        "min_time_left_on_resend_s": round(
            min((d["time_left_on_resend"] for d in resent), default=0), 3
        ),
        "decisions": decisions,
        "answers_sent": answers,
        # how many decisions were answered once, twice, three times
        "answers_per_decision": dict(
            sum((Counter(b["answer_counts"]) for b in logs["bots"]), Counter())
        ),
        "decisions_received_again": sum(b["received_again"] for b in logs["bots"]),
        "moves_applied": applied,
        "moves_lost": lost,
        "applied_twice": twice,
        "duplicates_refused": sum(s.duplicates for s in seats.values()),
        "answers_refused_as_faults": sum(s.refused for s in seats.values()),
        "faults_within_grace": faults_in_grace,
        "forfeits_with_time_left": forfeits_in_grace,
        # drops within the grace from which the bot took longer than the grace to be
        # back in (a loaded machine), each adjudicated a crash: the grace's due
        "late_returns": {
            "seats": sum(1 for n, s in away.items() if n.startswith("b") and s > args.grace),
            "crash_recorded": late_crashes,
        },
        "past_grace": {
            "drops": len(past),
            "hold_s": args.past_grace_seconds,
            "crash_recorded": crashes_recorded,
            "forfeited": past_forfeits,
        },
        # `mazzo verify`: fair deals, and every move legal and by the seat to act
        "records_verified": verify(records).code == 0,
        "loop_lag": {"referee": logs["referee_loop_lag"], "bots": logs["loop_lag"]},
        "bot_errors": logs["errors"],
        "play_s": round(played, 1),
    }
    summary["ok"] = (
        len(within) + undone == wanted_drops
        # (a bot back a hair past the grace while the gateway's loop ran late is let in)
        and summary["late_returns"]["seats"] >= late_crashes
        # cut before its answer, the decision comes again (unless the bot came too late)
        and sum(not d["resent"] for d in within if d["kind"] == "before") <= late_crashes
        and lost == 0
        and twice == 0
        and applied == decisions
        and faults_in_grace == 0
        and forfeits_in_grace == 0
        and summary["answers_refused_as_faults"] == 0
        and (not resent or summary["min_time_left_on_resend_s"] >= args.move_time)
        and crashes_recorded == len(past) == args.past_grace
        and summary["records_verified"]
        and not logs["errors"]
    )
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=200, help="bots that drop (even)")
    parser.add_argument("--drops-per-bot", type=int, default=5)
    parser.add_argument("--min", type=float, default=0.5, help="shortest drop, s")
    parser.add_argument("--max", type=float, default=8.0, help="longest drop, s")
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("--past-grace", type=int, default=10, help="drops past the grace")
    parser.add_argument("--past-grace-seconds", type=float, default=12.0)
    parser.add_argument("--move-time", type=float, default=2.0)
    parser.add_argument("--bank", type=float, default=30.0)
    parser.add_argument(
        "--http-every", type=int, default=4, help="every K-th bot dials in over HTTP (0: none)"
    )
    parser.add_argument("--on-fault", choices=["forfeit", "random"], default="forfeit")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--records", help="write the matches' records here")
    parser.add_argument("--out", help="write the JSON summary here too")
    args = parser.parse_args()
    if args.bots % 2:
        parser.error("--bots: an even number (they play in pairs)")
    if args.drops_per_bot > len(CUTTABLE):
        parser.error(f"--drops-per-bot: at most {len(CUTTABLE)}")
    with tempfile.TemporaryDirectory(prefix="mazzo-drops-") as work:
        summary = asyncio.run(referee(args, Path(work)))
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
