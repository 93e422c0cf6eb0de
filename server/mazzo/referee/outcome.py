"""A record's account of its match besides the moves, checked against its replay:
who sat where, every hand's points, whether the match finished, its faults and its
forfeit.

``replay`` proves the moves legal and the final score. The standings read these
fields as well (winners, hands, faults, forfeits: ``ratings``), so each must be the
one the moves and the sides give: otherwise a record that replays could still credit
the loser, or points nobody scored. What a fault was (the bot's answer) and which
legal move replaced it are the referee's word; how they fit the match is checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mazzo.core.rules import AnyRules
from mazzo.games.registry import GAMES
from mazzo.referee.match import seat_slots
from mazzo.referee.records import Json
from mazzo.referee.replay import Replayed
from mazzo.referee.transports import Fault

FAULT_CLASSES = frozenset(str(f) for f in Fault)
#: ``match.play_match``'s reasons for a forfeit.
BEFORE_THE_MATCH = "disqualified before the match"
DISQUALIFIED = re.compile(r"disqualified after (\d+) faults \((\w+)\)")


class Refused(Exception):
    """What is wrong with a record, as ``mazzo verify`` prints it."""


@dataclass(frozen=True)
class Table:
    """The seats as the rules deal them: each seat's deciding seat (``Rules.controller``),
    and each deciding seat's (side, bot slot of the side's entrant)."""

    controller: dict[int, int]
    slots: dict[int, tuple[int, int]]

    def bot_of(self, seat: int) -> tuple[int, int]:
        return self.slots[self.controller[seat]]

    def side_of(self, seat: int) -> int:
        return self.bot_of(seat)[0]


def seating(record: Json, rules: AnyRules, dealt: Any) -> Table:
    """Who sat where: the record's sides are the rules' (their seats, in side order),
    no entrant is on two sides, and each seat's bot is the one its side gives it (so
    names, bots and seats cannot be swapped apart)."""
    sides = [list(side.seats) for side in rules.score(dealt).sides]
    recorded = [side["seats"] for side in record["sides"]]
    if recorded != sides:
        raise Refused(f"its sides sit at {recorded}, but the rules' sides are {sides}")
    names = [side["entrant"] for side in record["sides"]]
    if len(set(names)) != len(names):
        raise Refused(f"an entrant is on two sides: {names}")
    seats = sorted(seat for side in sides for seat in side)
    controller = {seat: rules.controller(dealt, seat) for seat in seats}
    lineup = [(side["entrant"], side["bots"]) for side in record["sides"]]
    try:
        table = Table(controller, seat_slots(sides, sorted(set(controller.values())), lineup))
        expected = [lineup[side][1][slot] for side, slot in map(table.bot_of, seats)]
    except (ValueError, IndexError) as e:
        raise Refused(f"its sides' bots do not fit its seats: {e}") from None
    if record["seat_bots"] != expected:
        raise Refused(f"its seat bots are {record['seat_bots']}, its sides give {expected}")
    return table


def check_hands(record: Json) -> None:
    """The points of every hand are those its moves' events scored."""
    hooks = GAMES[record["game"]].hooks
    scored = [p for m in record["moves"] if (p := hooks.hand_points(m["events"])) is not None]
    if record["hands"] != scored:
        raise Refused(f"its hands' points are {record['hands']}, its moves scored {scored}")


def check_faults(record: Json, table: Table) -> dict[int, Json]:
    """Every fault sits at a ply, once, and names the seat, entrant and bot that was to
    act there and the class its move is marked with; every marked move has its fault.
    A move the referee played for a dead bot (``auto``) follows a fault of that bot,
    and every later move of it is one, as is every move of a bot after its crash.
    Returns the faults by ply."""
    moves, sides = record["moves"], record["sides"]
    faults: dict[int, Json] = {}
    for fault in record["faults"]:
        ply, seat = fault["ply"], fault["seat"]
        if faults and ply <= [*faults][-1]:
            raise Refused(f"its faults are not one per ply, in order (ply {ply})")
        if fault["class"] not in FAULT_CLASSES or ply > len(moves) or seat not in table.controller:
            raise Refused(f"its fault at ply {ply} is no fault of a seat of the match")
        named = (fault["entrant"], fault["bot"])
        if named != (sides[table.side_of(seat)]["entrant"], record["seat_bots"][seat]):
            raise Refused(f"its fault at ply {ply} names {named}, not seat {seat}'s entrant, bot")
        if ply < len(moves) and (
            (moves[ply]["seat"], moves[ply].get("fault"), moves[ply]["ms"])
            != (seat, fault["class"], fault["ms"])
        ):
            raise Refused(f"its fault at ply {ply} is not the one its move is marked with")
        faults[ply] = fault
    faulty: set[tuple[int, int]] = set()
    dead: set[tuple[int, int]] = set()
    for ply, entry in enumerate(moves):
        bot, auto = table.bot_of(entry["seat"]), entry.get("auto", False)
        if "fault" in entry and ply not in faults:
            raise Refused(f"its move at ply {ply} is marked {entry['fault']!r}, with no fault")
        if auto and ("fault" in entry or bot not in faulty):
            raise Refused(f"its move at ply {ply} is said played for a dead bot that had no fault")
        if bot in dead and not auto:
            raise Refused(f"its move at ply {ply} is said its bot's own, but the bot was dead")
        if auto or faults.get(ply, {}).get("class") == Fault.CRASH:
            dead.add(bot)
        if ply in faults:
            faulty.add(bot)
    return faults


def check_forfeit(
    record: Json, table: Table, rules: AnyRules, end: Any, faults: dict[int, Json]
) -> None:
    """A forfeit stops a match before its end, lost by the side of the seat to act,
    whose fault ends the moves (or of an entrant disqualified before the match), for
    a reason the record's fault rules give; the winners are then every other side.
    With no forfeit, no fault under ``on_fault = "forfeit"`` went unpunished."""
    result, moves = record["result"], record["moves"]
    forfeit, policy = result["forfeit"], record["fault_rules"]
    last = faults.get(len(moves))
    if forfeit is None:
        if last is not None:
            raise Refused("a fault ends its moves, but it has no forfeit")
        if policy["on_fault"] == "forfeit" and faults:
            raise Refused('it has a fault under on_fault = "forfeit", but no forfeit')
        return
    if rules.finished(end):
        raise Refused("it has a forfeit, but its match was played to the end")
    side = forfeit["side"]
    if side >= len(record["sides"]) or forfeit["entrant"] != record["sides"][side]["entrant"]:
        raise Refused("its forfeit's side and entrant are not one of its sides")
    others = [i for i in range(len(record["sides"])) if i != side]
    if result["winners"] != others:
        raise Refused(f"winners are {others} by the forfeit, the record says {result['winners']}")
    if forfeit["seat"] == -1:
        if moves or faults or forfeit["reason"] != BEFORE_THE_MATCH:
            raise Refused("its forfeit before the match has moves, faults or another reason")
        if policy["disqualify_after"] == 0:
            raise Refused("its entrant is disqualified, but its fault rules disqualify no one")
        return
    if last is None or not forfeit["seat"] == last["seat"] == rules.to_act(end):
        raise Refused("its forfeit is not by the seat to act, whose fault ends the moves")
    if table.side_of(last["seat"]) != side:
        raise Refused("its forfeit is not by the side of the seat whose fault caused it")
    if not reason_fits(forfeit["reason"], policy, last):
        raise Refused(f"its forfeit's reason {forfeit['reason']!r} is not its fault rules'")


def reason_fits(reason: str, policy: Json, fault: Json) -> bool:
    """``reason`` is one ``play_match`` gives for a forfeit caused by ``fault``: the
    fault itself under ``on_fault = "forfeit"``, or a disqualification at the limit
    (or past it: faults in matches played at once count as they come)."""
    if policy["on_fault"] == "forfeit" and reason == f"{fault['class']}: {fault['detail']}":
        return True
    found = DISQUALIFIED.fullmatch(reason)
    limit = policy["disqualify_after"]
    return bool(found and 0 < limit <= int(found[1]) and found[2] == fault["class"])


def account_problem(record: Json, done: Replayed) -> str | None:
    """What in a replayed record's account of its match is not what its moves and
    sides give (None if nothing)."""
    rules, end = done.rules, done.end
    try:
        table = seating(record, rules, done.hands[0][1])
        check_hands(record)
        finished = bool(rules.finished(end))
        if record["result"]["finished"] != finished:
            raise Refused(f"it says finished is {not finished}, the match's is {finished}")
        check_forfeit(record, table, rules, end, check_faults(record, table))
    except Refused as e:
        return str(e)
    return None
