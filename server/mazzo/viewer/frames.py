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
shape before any rules run, and ``check_bounds`` a record whose frames cannot fit the
bounds (``MAX_MOVES``; ``MAX_VIEW_MOVES`` with views; ``MAX_FRAMES_BYTES`` at the
game's smallest frame). Each frame is written out as JSON as soon as it is made and
counted (``FramesOut``): frames that pass ``MAX_FRAMES_BYTES`` are refused there, so
the memory and the work of a request are bounded too.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from mazzo.core.errors import InvalidArgument, RulesError
from mazzo.games.registry import CODECS, GAMES, rules_for
from mazzo.referee.records import FORMAT, Json, to_json
from mazzo.referee.replay import replay
from mazzo.v1 import game_pb2
from mazzo.viewer.tables import table_of
from mazzo.viewer.texts import event_text, move_text

#: The most moves a record may hold: a long Burraco match to 2005 is a few thousand.
MAX_MOVES = 20_000
#: The most seats: every game here seats at most six.
MAX_SEATS = 6
#: The most bytes of frames (JSON, before gzip) one answer holds: a whole Burraco match
#: for four to 2005 of heuristic bots is 2.7 MB, one of random bots (3,371 moves) 24 MB;
#: a browser still reads this many at once, and their building takes some 10 s of CPU.
MAX_FRAMES_BYTES = 32 * 1024 * 1024
#: The most moves of a record whose frames carry every seat's GetView (``views=1``):
#: a Burraco view carries the hand's history, so they grow with the square of a hand's
#: length (a whole match of heuristic bots, 348 moves: 10 MB; of random bots, 3,371
#: moves: 110 MB, over ``MAX_FRAMES_BYTES`` anyway).
MAX_VIEW_MOVES = 2_000


def frame_floor_bytes(game: str) -> int:
    """The fewest bytes a frame takes, per player (``Presentation.frame_floor_bytes``:
    three quarters of the smallest frame seen, the deal's, in every form;
    tests/viewer/test_frames.py checks every frame against it). With the record's moves
    it tells before any replay that frames cannot fit ``MAX_FRAMES_BYTES``."""
    declared = GAMES.get(game)
    return declared.presentation.frame_floor_bytes if declared is not None else 0


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


#: The fields that hold the hand's history so far: Burraco's events, Ramino's turns.
_HISTORY = ("history", "turns")


def _without_history(message: Any, game: str) -> Any:
    """The message without the hand's history (Burraco's events, Ramino's turns): the
    record has every event already, no table shows it, and written out again (or only
    converted to JSON) in every frame it would make a match's frames cost the square of
    its length."""
    detail = getattr(message, game)
    for name in _HISTORY:
        if name in detail.DESCRIPTOR.fields_by_name:
            detail.ClearField(name)
    return message


class FramesOut:
    """The frames' JSON as it is written, frame by frame: counted against ``limit``
    bytes, so a record's frames never exist whole past the bound (``Full`` is raised
    the moment they pass it), and gzipped as they come when the client takes gzip, so
    then only the compressed bytes are kept."""

    class Full(Exception):
        """The frames passed the limit."""

    def __init__(self, limit: int, gzipped: bool) -> None:
        self.limit = limit
        self.size = 0
        self._buffer = bytearray()
        self._zip = zlib.compressobj(5, zlib.DEFLATED, 31) if gzipped else None  # 31: gzip

    def write(self, text: str) -> None:
        data = text.encode()
        self.size += len(data)
        if self.size > self.limit:
            raise FramesOut.Full
        self._buffer += data if self._zip is None else self._zip.compress(data)

    def body(self) -> bytes:
        """Everything written (gzipped when asked)."""
        if self._zip is not None:
            self._buffer += self._zip.flush()
            self._zip = None
        return bytes(self._buffer)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def check_bounds(record: Json, with_views: bool) -> None:
    """Refuse, before any rules run, a checked record whose frames cannot fit: over
    ``MAX_VIEW_MOVES`` moves with views, or more frames than ``MAX_FRAMES_BYTES``
    holds at the game's smallest frame (``frame_floor_bytes`` a seat)."""
    moves, players, game = len(record["moves"]), int(record["players"]), record["game"]
    if with_views and moves > MAX_VIEW_MOVES:
        raise InvalidArgument(
            "record.moves",
            f"{moves} moves; frames with every seat's view (views=1) are built for records "
            f"of {MAX_VIEW_MOVES} moves or fewer (without views, up to {MAX_MOVES})",
        )
    least = (moves + 1) * players * frame_floor_bytes(game)
    if least > MAX_FRAMES_BYTES:
        raise InvalidArgument(
            "record.moves",
            f"{moves} moves of {game} for {players} make over {least} bytes of frames; "
            f"the viewer sends at most {MAX_FRAMES_BYTES} bytes of frames",
        )


def _too_big(with_views: bool, ply: int, moves: int) -> InvalidArgument:
    fewer = "; they are far smaller without views=1" if with_views else ""
    return InvalidArgument(
        "record.moves",
        f"the frames pass {MAX_FRAMES_BYTES} bytes at move {ply} of {moves}; "
        f"the viewer sends at most {MAX_FRAMES_BYTES} bytes of frames{fewer}",
    )


def frames_body(record: Any, with_views: bool = False, gzipped: bool = False) -> bytes:
    """The frames of one record as JSON (gzipped when asked), each frame written as it
    is made, refused past the bounds (``InvalidArgument``, as when the record is not
    one or the rules disagree with it: the message says where, as ``mazzo replay``
    would). With ``with_views`` each frame also holds every seat's ``GetView`` as sent
    over the API (large: a Burraco view carries the hand's history)."""
    record = check_record(record)
    check_bounds(record, with_views)
    out = FramesOut(MAX_FRAMES_BYTES, gzipped)
    built = _Frames(record, with_views, out)
    try:
        built.write_all()
    except FramesOut.Full:
        raise _too_big(with_views, built.ply, len(record["moves"])) from None
    return out.body()


def frames_of(record: Any, with_views: bool = False) -> Json:
    """The frames of one record as a value (``frames_body`` read back)."""
    value: Json = json.loads(frames_body(record, with_views))
    return value


class _Frames:
    """A record's frames written to ``out`` as ``replay`` reaches each state: the match's
    facts first, then the frames, then what is known only at the end (the hands'
    starts and scores)."""

    def __init__(self, record: Json, with_views: bool, out: FramesOut) -> None:
        self.record, self.with_views, self.out = record, with_views, out
        self.game = game = record["game"]
        self.codec, self.rules, self.hooks = CODECS[game], rules_for(game), GAMES[game].hooks
        self.hand_starts: list[int] = [0]
        self.scores: list[Json] = []
        self.seats = int(record["players"])
        self.ply = 0

    def write_all(self) -> None:
        record, game = self.record, self.game
        head = {"id": str(record.get("id", "")), "game": game, "players": int(record["players"])}
        head["deck"] = GAMES[game].presentation.deck
        self.out.write(_dumps(head)[:-1] + ',"frames":[')
        try:
            done = replay(record, self.visit)
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise InvalidArgument("record", f"not a readable match record: {e!r}"[:300]) from e
        if done.divergence is not None:
            d = done.divergence
            field = "record" if d.ply is None or d.ply < 0 else f"record.moves[{d.ply}]"
            raise InvalidArgument(field, f"the rules disagree with the record: {d.what}"[:600])
        tail = {
            "names": _names(record, self.seats),
            "handStarts": self.hand_starts,
            "scores": self.scores,
            "result": record["result"],
        }
        self.out.write("]," + _dumps(tail)[1:])

    def visit(self, ply: int, state: Any, move: Any, events: list[Json]) -> None:
        self.ply = ply
        points = self.hooks.hand_points(events) if events else None
        if points is not None:
            self.scores.append({"ply": ply, "hand": len(self.hand_starts), "points": points})
        if ply > 0 and self.hooks.hand_dealt(events) and not self.rules.finished(state):
            self.hand_starts.append(ply)
        frame = self._frame(ply, state, move, events)
        if points is not None:
            self.scores[-1]["totals"] = frame["matchScore"]
        if ply == 0:
            self.seats = len(frame["table"]["seats"])
        self.out.write(("," if ply else "") + _dumps(frame))

    def _frame(self, ply: int, state: Any, move: Any, events: list[Json]) -> Json:
        game, rules = self.game, self.rules
        finished = bool(rules.finished(state))
        to_act = None if finished else int(rules.to_act(state))
        wire = game_pb2.GameState()
        self.codec.state_to_wire(state, 0 if to_act is None else to_act, wire)
        views, raw, seats = self._views(state, _seat_count(wire, game))
        entry = self.record["moves"][ply - 1] if ply > 0 else None
        frame: Json = {
            "ply": ply,
            "hand": len(self.hand_starts),
            "seat": None if entry is None else entry["seat"],
            "move": None if entry is None else move_text(entry["move"]),
            "notation": None if move is None else str(move),
            "fault": None if entry is None else entry.get("fault"),
            "events": [event_text(e) for e in events],
            "toAct": to_act,
            "finished": finished,
            "matchScore": [int(x) for x in wire.match_score],
            "table": table_of(game, views, to_json(_without_history(wire, game))),
            "seats": seats,
        }
        if self.with_views:
            frame["views"] = raw
        return frame

    def _views(self, state: Any, count: int) -> tuple[list[Json], list[Json], list[Json | None]]:
        """Each deciding seat's GetView without the hand's history, the same whole (as the
        API sends it) when views are asked for, and each seat's table (None: a dummy)."""
        views: list[Json] = []
        raw: list[Json] = []
        seats: list[Json | None] = []
        for seat in range(count):
            if self.rules.controller(state, seat) != seat:  # a dummy sees through its controller
                seats.append(None)
                continue
            view = game_pb2.GameView()
            self.codec.view_to_wire(self.rules.view(state, seat), view)
            if self.with_views:
                raw.append(to_json(view))
            views.append(to_json(_without_history(view, self.game)))
            seats.append(table_of(self.game, [views[-1]], None))
        return views, raw, seats
