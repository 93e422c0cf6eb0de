"""What a running match shows to people watching: the live view's ``Watcher``, which
the CLI passes to the referee (``referee.watch`` is the contract it plays to).

The referee tells a ``MatchWatch`` of the deal and of every applied move. The watch
draws the position as *every* seat sees it (each deciding seat's ``GetView``, drawn
by ``viewer.tables``, and only what all of them show kept: no hand, no card one seat
alone may know), and hands that, and nothing else, to the ``Watcher``'s ``send``. So
the contract of the hook is that everything it is given is public: an operator
watching learns nothing his bot may not know.

Hands are shown when a hand ends (the hands as dealt and as they were before its last
move), or, when the operator asks for it, every position in full ``reveal_after``
moves late (``--ui-delay``). A fault is sent by its class only: its detail may quote
a card the bot holds.

``send`` must not block (``viewer.live.LiveHub.send`` only queues); whatever it
raises, and any bug here, turns the watch off for the match and never stops it.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mazzo.codec import GameCodec
from mazzo.core.rules import AnyRules
from mazzo.games.declaration import GameHooks
from mazzo.games.registry import GAMES
from mazzo.referee.records import Json, to_json
from mazzo.v1 import game_pb2
from mazzo.viewer.tables import table_of
from mazzo.viewer.texts import event_text, move_text
from mazzo.viewer.words import cards

#: The logger's name from before the module moved here: operators' log filters keep working.
log = logging.getLogger("mazzo.referee.watch")


@dataclass(frozen=True)
class Watcher:
    """Who watches matches, and how: ``send`` gets public payloads (JSON objects)."""

    send: Callable[[Json], None]
    #: Show every position in full this many moves late; None: hands only once the
    #: hand is over. 0 shows everything at once (for a table no bot's operator watches).
    reveal_after: int | None = None
    #: Seconds the referee waits after each move, so people can follow it by eye
    #: (the bots' clocks do not run meanwhile).
    pace: float = 0.0
    #: False: no hand is ever shown, not even when a hand is over (the arena's duplicate
    #: sets deal the same cards again); only with ``reveal_after`` None.
    hands: bool = True
    #: Whether anyone watches the match of this id now; None: always. A move nobody
    #: watches is not drawn (drawing every seat's view is most of a fast match's time):
    #: a page that opens gets the whole position with the next move.
    watching: Callable[[str], bool] | None = None

    def __post_init__(self) -> None:
        if not self.hands and self.reveal_after is not None:
            raise ValueError("a watcher that shows no hand shows no position late either")

    def watch(
        self, header: Json, rules: AnyRules, codec: GameCodec, hooks: GameHooks
    ) -> MatchWatch:
        """The watch of one match, from its record's header."""
        return MatchWatch(self, header, rules, codec, hooks)


def view_json(rules: AnyRules, codec: GameCodec, state: Any, seat: int, game: str) -> Json:
    """``seat``'s ``GetView`` of ``state`` as wire JSON, without Burraco's history (the
    events say it): what tables are drawn from, for everyone's table and a person's."""
    view = game_pb2.GameView()
    codec.view_to_wire(rules.view(state, seat), view)
    detail = getattr(view, game)
    if "history" in detail.DESCRIPTOR.fields_by_name:  # Burraco's: the events say it
        detail.ClearField("history")
    return to_json(view)


def deciding_seats(rules: AnyRules, state: Any, seats: int) -> list[int]:
    """The seats with a view of their own (a dummy sees through its controller)."""
    return [s for s in range(seats) if rules.controller(state, s) == s]


def common_table(tables: Sequence[Json]) -> Json:
    """What every one of ``tables`` shows: no hand face up, the notes, areas and facts
    found in all of them. A seat's own cards, the dummy's hand its controller sees,
    Trionfo's amico known to its holder: each is in one seat's table only, so none of
    them is kept. No rule of any game is needed to decide it."""
    first = tables[0]
    seats = []
    for k, seat in enumerate(first["seats"]):
        notes = [n for n in seat["notes"] if all(n in t["seats"][k]["notes"] for t in tables)]
        seats.append({"seat": seat["seat"], "hand": None, "count": seat["count"], "notes": notes})
    areas = [a for a in first["areas"] if all(a in t["areas"] for t in tables[1:])]
    facts = [f for f in first["facts"] if all(f in t["facts"] for t in tables[1:])]
    return {"seats": seats, "areas": areas, "facts": facts}


def public_table(game: str, rules: AnyRules, codec: GameCodec, state: Any, seats: int) -> Json:
    """The table as everyone at it sees it, from each deciding seat's ``GetView``."""
    return _public(game, rules, codec, state, seats)[0]


def _public(
    game: str, rules: AnyRules, codec: GameCodec, state: Any, seats: int
) -> tuple[Json, Json]:
    """The public table, and one seat's view (for the fields every view has alike)."""
    views = [view_json(rules, codec, state, s, game) for s in deciding_seats(rules, state, seats)]
    return common_table([table_of(game, [v], None) for v in views]), views[0]


def full_table(game: str, rules: AnyRules, codec: GameCodec, state: Any) -> Json:
    """Everything: every hand face up (the replay viewer's table of everyone)."""
    view = view_json(rules, codec, state, 0, game)
    return table_of(game, [view], _state_json(state, rules, codec, game))


def _state_json(state: Any, rules: AnyRules, codec: GameCodec, game: str) -> Json:
    wire = game_pb2.GameState()
    codec.state_to_wire(state, 0 if rules.finished(state) else rules.to_act(state), wire)
    detail = getattr(wire, game)
    if "history" in detail.DESCRIPTOR.fields_by_name:
        detail.ClearField("history")
    return to_json(wire)


def hands_of(game: str, rules: AnyRules, codec: GameCodec, state: Any) -> list[list[str]]:
    hands = _state_json(state, rules, codec, game).get(game, {}).get("hands", [])
    return [cards(h.get("cards")) for h in hands]


class MatchWatch:
    """One match watched: built by ``play_match`` when it has a ``Watcher``."""

    def __init__(
        self, watcher: Watcher, header: Json, rules: AnyRules, codec: GameCodec, hooks: GameHooks
    ) -> None:
        self.watcher = watcher
        self.id = str(header["id"])
        self.game = str(header["game"])
        self.rules, self.codec, self.hooks = rules, codec, hooks
        self.seats = len(header["seat_bots"])
        self.header = header
        self.hand = 1
        self.broken = False
        self._dealt: list[list[str]] = []
        delay = watcher.reveal_after
        self._late: deque[tuple[int, Json]] = deque(maxlen=None if delay is None else delay + 1)

    def _send(self, payload: Json) -> None:
        try:
            self.watcher.send(payload)
        except Exception:
            log.exception("the live view's observer failed: match %s is no longer watched", self.id)
            self.broken = True

    def _position(self, state: Any) -> Json:
        """The public fields of a position (``to_act``, score) and its public table."""
        rules = self.rules
        finished = bool(rules.finished(state))
        table, view = _public(self.game, rules, self.codec, state, self.seats)
        return {
            "toAct": None if finished else int(rules.to_act(state)),
            "finished": finished,
            "matchScore": [int(x) for x in view.get("matchScore", [])],
            "hand": self.hand,
            "table": table,
        }

    def dealt(self, state: Any) -> None:
        if self.broken:
            return
        try:
            sides = self.header["sides"]
            names = ["?"] * self.seats
            for side in sides:
                for seat in side["seats"]:
                    names[seat] = f"seat {seat}: {side['entrant']}"
            if self.watcher.hands:
                self._dealt = hands_of(self.game, self.rules, self.codec, state)
            payload: Json = {
                "type": "match",
                "id": self.id,
                "game": self.game,
                "players": self.header["players"],
                "names": names,
                "deck": GAMES[self.game].presentation.deck,
                "entrants": [side["entrant"] for side in sides],
                "ply": 0,
                "at": time.time(),
            }
            payload.update(self._position(state))
            self._send(payload)
            self._hold(0, state)
        except Exception:
            log.exception("the live view of match %s failed at the deal", self.id)
            self.broken = True

    def moved(self, ply: int, entry: Json, before: Any, state: Any, at: float) -> None:
        """Move ``ply`` (from 1) was applied at ``at`` (``time.time()``): ``entry`` is
        its record line, ``before`` and ``state`` the positions around it."""
        if self.broken:
            return
        try:
            self._moved(ply, entry, before, state, at)
        except Exception:
            log.exception("the live view of match %s failed at move %d", self.id, ply)
            self.broken = True

    def _moved(self, ply: int, entry: Json, before: Any, state: Any, at: float) -> None:
        events = entry["events"]
        watching = self.watcher.watching
        if watching is not None and not watching(self.id):  # drawn for nobody: only counted
            if self.hooks.hand_dealt(events) and not self.rules.finished(state):
                self.hand += 1
            return
        ended = self.hooks.hand_points(events) is not None
        payload: Json = {
            "type": "move",
            "id": self.id,
            "ply": ply,
            "seat": entry["seat"],
            "move": move_text(entry["move"]),
            "fault": entry.get("fault"),
            "events": [event_text(e) for e in events],
            "at": at,
        }
        payload.update(self._position(state))
        self._send(payload)
        if ended and self.watcher.hands:
            self._late.clear()  # the hand is over: all of it is shown now
            self._send(
                {
                    "type": "reveal",
                    "id": self.id,
                    "ply": ply - 1,
                    "hand": self.hand,
                    "reason": f"hand {self.hand} is over",
                    "dealt": self._dealt,
                    "table": full_table(self.game, self.rules, self.codec, before),
                    "at": time.time(),
                }
            )
        if self.hooks.hand_dealt(events) and not self.rules.finished(state):
            self.hand += 1
            if self.watcher.hands:
                self._dealt = hands_of(self.game, self.rules, self.codec, state)
        self._hold(ply, state)

    def _hold(self, ply: int, state: Any) -> None:
        """``--ui-delay``: keep the full table of this position; send the one now late
        enough."""
        delay = self.watcher.reveal_after
        if delay is None or self.rules.finished(state):
            return
        self._late.append((ply, full_table(self.game, self.rules, self.codec, state)))
        if len(self._late) > delay:
            late_ply, table = self._late.popleft()
            self._send(
                {
                    "type": "reveal",
                    "id": self.id,
                    "ply": late_ply,
                    "hand": self.hand,
                    "reason": f"{delay} moves late",
                    "table": table,
                    "at": time.time(),
                }
            )

    def ended(self, record: Json, state: Any) -> None:
        """The match is over: its record is public now (the replay viewer opens it)."""
        if self.broken:
            return
        try:
            result = record["result"]
            names = [s["entrant"] for s in record["sides"]]
            end: Json = {
                "type": "end",
                "id": self.id,
                "winners": [names[w] for w in result["winners"]],
                "totals": result["match_totals"],
                "forfeit": result["forfeit"],
                "moves": len(record["moves"]),
                "faults": len(record["faults"]),
                "at": time.time(),
            }
            if self.watcher.hands:  # the record, and every hand of the last position
                end["table"] = full_table(self.game, self.rules, self.codec, state)
                end["record"] = record
            self._send(end)
        except Exception:
            log.exception("the live view of match %s failed at its end", self.id)
            self.broken = True
