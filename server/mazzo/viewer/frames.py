"""A match record as frames for the viewer: every state the match went through, drawn
as plain JSON by the engine, so the page holds no rules of any game.

A record is played again by ``mazzo replay``'s own code (``referee.replay``), which
checks every move; frame k is the position after k moves (frame 0: the deal). Each
frame carries the table seen by everyone (every hand face up), the table seen by each
seat (built from that seat's ``GetView`` and nothing else), each seat's ``GetView``
itself, the move and its events as sentences (``viewer.texts``; the move also in the
engine's notation), and the match score. The tables are
one shape for every game (``viewer.tables``), which the page draws.

A posted record may be anything: ``check_record`` refuses what is not a record's
shape before any rules run, and a record's length is bounded (``MAX_MOVES``), so the
work per request is bounded too.
"""

from __future__ import annotations

from typing import Any

from mazzo.codec import CODECS
from mazzo.core.errors import InvalidArgument
from mazzo.games.registry import rules_for
from mazzo.referee.games import hooks_for
from mazzo.referee.records import FORMAT, Json, to_json
from mazzo.referee.replay import replay
from mazzo.v1 import game_pb2
from mazzo.viewer.tables import table_of
from mazzo.viewer.texts import event_text, move_text

#: The most moves a record may hold: a long Burraco match to 2005 is a few thousand.
MAX_MOVES = 20_000
#: The most seats: every game here seats at most six.
MAX_SEATS = 6


def check_record(record: Any) -> Json:
    """The record, if it has a record's shape; else ``InvalidArgument`` on ``record``."""

    def bad(field: str, why: str) -> InvalidArgument:
        return InvalidArgument(f"record.{field}" if field else "record", why)

    if not isinstance(record, dict):
        raise bad("", "a match record is a JSON object (one line of a records file)")
    if record.get("mazzo_record") != FORMAT:
        raise bad("mazzo_record", f"not a Mazzo record of format {FORMAT}")
    game = record.get("game")
    if not isinstance(game, str) or game not in CODECS:
        raise bad("game", f"unknown game {str(game)[:40]!r}; known: {', '.join(sorted(CODECS))}")
    players = record.get("players")
    if type(players) is not int or not 2 <= players <= MAX_SEATS:
        raise bad("players", f"players must be 2..{MAX_SEATS}")
    if type(record.get("seed")) is not int:
        raise bad("seed", "the seed must be an integer")
    if not isinstance(record.get("options"), dict):
        raise bad("options", "options must be an object")
    if not isinstance(record.get("result"), dict) or not isinstance(
        record["result"].get("score"), dict
    ):
        raise bad("result", "a record ends with its result and score")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise bad("moves", "moves must be a list")
    if len(moves) > MAX_MOVES:
        raise bad("moves", f"{len(moves)} moves; the viewer shows records of {MAX_MOVES} or fewer")
    for k, entry in enumerate(moves):
        if not (
            isinstance(entry, dict)
            and type(entry.get("seat")) is int
            and isinstance(entry.get("move"), dict)
            and isinstance(entry.get("events"), list)
        ):
            raise bad(f"moves[{k}]", "a move is an object with seat, move and events")
    return record


def _seat_count(wire: game_pb2.GameState, game: str) -> int:
    """Seats at the table: one per hand (Maraffa for three seats a dummy too)."""
    return len(getattr(wire, game).hands)


def _names(record: Json, players: int) -> list[str]:
    """Who sat where: the seat's bot, when the record says."""
    bots = record.get("seat_bots")
    if isinstance(bots, list) and len(bots) == players:
        return [f"seat {s}: {str(b)[:60]}" for s, b in enumerate(bots)]
    return [f"seat {s}" for s in range(players)]


def _without_history(message: Any, game: str) -> Any:
    """The message without Burraco's history of the hand: the record has every event
    already, and written out again in every frame it would make a match's frames grow
    with the square of its length."""
    detail = getattr(message, game)
    if "history" in detail.DESCRIPTOR.fields_by_name:
        detail.ClearField("history")
    return message


def frames_of(record: Any, with_views: bool = False) -> Json:
    """The frames of one record (``InvalidArgument`` when it is not one, or when the
    rules disagree with it: the message says where, as ``mazzo replay`` would). With
    ``with_views`` each frame also holds every seat's ``GetView`` as sent over the
    API (large: a Burraco view carries the hand's history)."""
    record = check_record(record)
    game = record["game"]
    codec = CODECS[game]
    hooks = hooks_for(game)
    players = int(record["players"])
    frames: list[Json] = []
    hand_starts: list[int] = [0]
    scores: list[Json] = []

    rules = rules_for(game)

    def visit(ply: int, state: Any, move: Any, events: list[Json]) -> None:
        points = hooks.hand_points(events) if events else None
        if points is not None:
            scores.append({"ply": ply, "hand": len(hand_starts), "points": points})
        if ply > 0 and hooks.hand_dealt(events) and not rules.finished(state):
            hand_starts.append(ply)
        finished = bool(rules.finished(state))
        to_act = None if finished else int(rules.to_act(state))
        wire = game_pb2.GameState()
        codec.state_to_wire(state, 0 if to_act is None else to_act, wire)
        views: list[Json] = []
        raw: list[Json] = []
        seats: list[Json | None] = []
        for seat in range(_seat_count(wire, game)):
            if rules.controller(state, seat) != seat:  # a dummy: it sees through its controller
                seats.append(None)
                continue
            view = game_pb2.GameView()
            codec.view_to_wire(rules.view(state, seat), view)
            if with_views:
                raw.append(to_json(view))
            views.append(to_json(_without_history(view, game)))
            seats.append(table_of(game, [views[-1]], None))
        full = to_json(_without_history(wire, game))
        match_score = [int(x) for x in wire.match_score]
        entry = record["moves"][ply - 1] if ply > 0 else None
        if points is not None:
            scores[-1]["totals"] = match_score
        frames.append(
            {
                "ply": ply,
                "hand": len(hand_starts),
                "seat": None if entry is None else entry["seat"],
                "move": None if entry is None else move_text(entry["move"]),
                "notation": None if move is None else str(move),
                "fault": None if entry is None else entry.get("fault"),
                "events": [event_text(e) for e in events],
                "toAct": to_act,
                "finished": finished,
                "matchScore": match_score,
                "table": table_of(game, views, full),
                "seats": seats,
            }
        )
        if with_views:
            frames[-1]["views"] = raw

    try:
        done = replay(record, visit)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise InvalidArgument("record", f"not a readable match record: {e!r}"[:300]) from e
    if done.divergence is not None:
        d = done.divergence
        field = "record" if d.ply is None or d.ply < 0 else f"record.moves[{d.ply}]"
        raise InvalidArgument(field, f"the rules disagree with the record: {d.what}"[:600])
    return {
        "id": str(record.get("id", "")),
        "game": game,
        "players": players,
        "names": _names(record, len(frames[0]["table"]["seats"]) if frames else players),
        "deck": "italian" if game == "maraffa" else "french",
        "handStarts": hand_starts,
        "scores": scores,
        "result": record["result"],
        "frames": frames,
    }
