"""``mazzo replay``: re-check every move of every record against the rules.

A record is re-dealt from its game, options, players and seed; the deal hash must
match, and the revealed salt must open the deal's commitment (records since
commitments), then every move must be by the seat to act, legal, and cause exactly the
recorded events, and the final score must be the recorded one. The first
divergence is reported with where it happened and what differs. Any hand of a
record can be printed: every seat's cards at its start and its moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format

from mazzo.core import fair
from mazzo.core.errors import RulesError
from mazzo.core.rules import AnyRules
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.referee.records import Json, deal_hash, events_json, to_json
from mazzo.v1 import game_pb2, game_service_pb2

_EVENTS = game_service_pb2.ApplyMoveResponse.DESCRIPTOR.fields_by_name["events"].number


@dataclass(frozen=True)
class Divergence:
    record: str
    ply: int | None
    what: str

    def __str__(self) -> str:
        where = "at the deal" if self.ply is None else f"at ply {self.ply}"
        if self.ply == -1:
            where = "at the end"
        return f"{self.record} {where}: {self.what}"


@dataclass
class Replayed:
    """One record played again: its states at the start of each hand, and the moves."""

    record: Json
    rules: AnyRules
    #: (ply where the hand starts, the state then)
    hands: list[tuple[int, Any]]
    #: the domain move of every ply
    moves: list[Any]
    divergence: Divergence | None = None
    #: the state after the last recorded move (None if the replay stopped before it)
    end: Any = None


def _wire_state(codec: Any, rules: AnyRules, state: Any) -> game_pb2.GameState:
    msg = game_pb2.GameState()
    codec.state_to_wire(state, 0 if rules.finished(state) else rules.to_act(state), msg)
    return msg


#: Called by ``replay`` with each state it reaches: the number of moves applied so far
#: (0: the deal), the state, and the move and its events' JSON (None, [] at the deal).
Visit = Callable[[int, Any, Any, list[Json]], None]


def replay(record: Json, visit: Visit | None = None) -> Replayed:
    """Play a record again; ``divergence`` is the first disagreement, or None. ``visit``
    sees every state reached, in order (the viewer's frames are built from them)."""
    rid = str(record.get("id", "?"))
    game = record["game"]
    rules, codec = rules_for(game), CODECS[game]
    hooks = GAMES[game].hooks
    out = Replayed(record, rules, [], [])

    def diverged(ply: int | None, what: str) -> Replayed:
        out.divergence = Divergence(rid, ply, what)
        return out

    try:
        options = codec.options(json_format.ParseDict(record["options"], game_pb2.GameOptions()))
        state, _ = rules.deal(options, record["players"], record["seed"])
    except (RulesError, json_format.ParseError) as e:
        return diverged(None, f"cannot deal: {e}")
    why = check_deal(record, deal_hash(_wire_state(codec, rules, state)))
    if why is not None:
        return diverged(None, why)
    out.hands.append((0, state))
    if visit is not None:
        visit(0, state, None, [])
    for ply, entry in enumerate(record["moves"]):
        if rules.finished(state):
            return diverged(ply, "a move after the end of the match")
        seat = rules.to_act(state)
        if entry["seat"] != seat:
            return diverged(ply, f"recorded for seat {entry['seat']}, but seat {seat} is to act")
        try:
            move = codec.move_from_wire(
                json_format.ParseDict(entry["move"], game_pb2.Move()), "move"
            )
        except (RulesError, json_format.ParseError) as e:
            return diverged(ply, f"not a move: {e}")
        if move not in rules.legal_moves(state):
            return diverged(ply, f"{move} is not a legal move for seat {seat}")
        state, events = rules.apply(state, move)
        out.moves.append(move)
        found = events_json(codec.events_bytes(events, _EVENTS))
        if found != entry["events"]:
            return diverged(ply, f"{move} caused {found}, the record says {entry['events']}")
        if visit is not None:
            visit(ply + 1, state, move, found)
        if hooks.hand_dealt(found) and not rules.finished(state):
            out.hands.append((ply + 1, state))
    out.end = state
    return _check_end(out, state, diverged)


def check_deal(record: Json, dealt_hash: str) -> str | None:
    """What is wrong with a record's deal, given the hash of the deal its seed deals:
    the deal hash (every record), and the commitment opened by the revealed salt
    (records since commitments; older ones have none)."""
    if "deal_commitment" not in record:
        if record.get("deal_hash") != dealt_hash:
            return "the deal differs from the published deal hash"
        return None
    if record.get("deal_hash", dealt_hash) != dealt_hash:
        return "the deal differs from the recorded deal hash"
    if "deal_salt" not in record:
        return "the commitment's salt is not revealed (deal_salt)"
    try:
        salt = fair.from_hex(record["deal_salt"], "deal_salt", fair.SALT_BYTES)
        committed = fair.from_hex(record["deal_commitment"], "deal_commitment", fair.DIGEST_BYTES)
    except ValueError as e:
        return str(e)
    if not fair.commitment_matches(committed, salt, record["seed"], bytes.fromhex(dealt_hash)):
        return "the deal, its seed and the revealed salt do not open the published commitment"
    sealed = record.get("sealed")
    if isinstance(sealed, dict) and "deal_salt" in sealed:  # a match played sealed, to its end
        try:
            salt = fair.from_hex(sealed["deal_salt"], "sealed.deal_salt", fair.SALT_BYTES)
            committed = fair.from_hex(
                sealed.get("deal_commitment"), "sealed.deal_commitment", fair.DIGEST_BYTES
            )
        except ValueError as e:
            return str(e)
        if not fair.commitment_matches(committed, salt, record["seed"], bytes.fromhex(dealt_hash)):
            return "the service's deal commitment is not opened by the salt it revealed"
    return None


def _check_end(out: Replayed, state: Any, diverged: Callable[[int, str], Replayed]) -> Replayed:
    record, rules = out.record, out.rules
    result = record["result"]
    if result.get("forfeit") is None and not rules.finished(state):
        return diverged(-1, "the record ends before the match does, with no forfeit")
    report = rules.score(state)
    codec = CODECS[record["game"]]
    response = game_service_pb2.ScoreResponse(finished=report.finished, winners=report.winners)
    for side in report.sides:
        msg = response.sides.add(side=side.side, seats=side.seats, match_total=side.match_total)
        codec.side_score_to_wire(side.detail, getattr(msg, codec.options_field))
    if to_json(response) != result["score"]:
        return diverged(-1, f"the score is {to_json(response)}, the record says {result['score']}")
    totals = [side.match_total for side in report.sides]
    if result.get("match_totals", totals) != totals:
        return diverged(-1, f"the totals are {totals}, the record says {result['match_totals']}")
    if result.get("forfeit") is None and list(report.winners) != result["winners"]:
        return diverged(
            -1, f"winners are {list(report.winners)}, the record says {result['winners']}"
        )
    return out


def check_all(records: Iterable[Json]) -> tuple[int, int, Divergence | None]:
    """(records checked, moves checked, the first divergence) over records in order."""
    count = moves = 0
    for record in records:
        done = replay(record)
        count += 1
        moves += len(done.moves)
        if done.divergence is not None:
            return count, moves, done.divergence
    return count, moves, None


def show_hand(done: Replayed, hand: int) -> str:
    """Hand ``hand`` (from 1) of a replayed record: the cards dealt, then every move."""
    if not 1 <= hand <= len(done.hands):
        raise ValueError(f"{done.record['id']} has hands 1..{len(done.hands)}")
    start, state = done.hands[hand - 1]
    end = done.hands[hand][0] if hand < len(done.hands) else len(done.moves)
    hooks = GAMES[done.record["game"]].hooks
    lines = [f"{done.record['id']} hand {hand} (plies {start}..{end - 1})"]
    lines.append(hooks.describe(state, done.rules))
    for ply in range(start, end):
        entry = done.record["moves"][ply]
        note = f"  [{entry['fault']}]" if "fault" in entry else ""
        lines.append(
            f"  {ply:4d}  seat {entry['seat']}: {done.moves[ply]}  ({entry['ms']} ms){note}"
        )
    return "\n".join(lines)
