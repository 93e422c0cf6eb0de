"""The arena's live tables: the matches this process's workers play, each watchable on
its own live page (``viewer.live``'s page and event stream, not a copy).

The workers' ``play_match`` is given ``LiveTables.watcher()``, the referee's watch
contract (``viewer.watch``): public payloads only, the position every seat at the
table sees. Each match gets a ``LiveHub`` of its own from its first payload to its
end, so a page follows one table.

**Less than the referee's live view.** The matches of a duplicate set share one deal
(``arena.queries``): the hands of a match shown when its hand is over would be the
hidden hands of the set's next match. So the watch shows no hand (``Watcher.hands``
False: no ``reveal``, no record nor full last table at the end), and what comes here
beyond the public position is dropped again before any page can hold it: a
``reveal``, and of the ``end`` the record, the last table and a forfeit's reason
(which may name a card); a page says so. Hands are shown by the replay viewer once
the whole set is over, as the pages' rule is.

**Drawn for its watchers.** Drawing every seat's view after each move is most of the
time of a fast match, so a table is drawn at its deal and then only while a page
follows it (``Watcher.watching``): a page opened mid-match shows the deal's position
until the next move brings the whole position, and the moves from then on.

**One process.** A hub lives in the process whose worker plays the match: a page of
another arena process sharing the database relays its events from here
(``arena.live_relay``), as one more page of the hub however many pages follow it there.
"""

from __future__ import annotations

import threading

from mazzo.referee.records import Json
from mazzo.viewer.live import LiveHub
from mazzo.viewer.watch import Watcher

#: What an arena live page says it shows (the hub's ``privacy``).
PRIVACY = (
    "This table shows public information only: what every seat sees. No hand is shown, "
    "not even when a hand is over (the other matches of its duplicate set deal the same "
    "cards): the replay shows them once the whole set is over."
)
#: Of a match's end, what is sent on (the rest would tell the deal).
END_FIELDS = ("type", "id", "winners", "totals", "moves", "faults", "at")


def public_end(payload: Json) -> Json:
    """The end of a match as an arena page may show it: who won, the totals, how many
    moves and faults; of a forfeit, whose, not why."""
    end = {k: payload[k] for k in END_FIELDS if k in payload}
    forfeit = payload.get("forfeit")
    end["forfeit"] = {"entrant": forfeit.get("entrant")} if isinstance(forfeit, dict) else None
    return end


class LiveTables:
    """The live tables of this process: a ``LiveHub`` per match in play, by match id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hubs: dict[str, LiveHub] = {}

    def watcher(self) -> Watcher:
        """The watcher the workers give ``play_match``: no hand ever, and the moves of a
        table drawn only while a page watches it."""
        return Watcher(self.send, hands=False, watching=self.watched)

    def watched(self, match_id: str) -> bool:
        """A page follows the table of ``match_id`` now."""
        found = self.hub(match_id)
        return found is not None and found.pages() > 0

    def send(self, payload: Json) -> None:
        """A public payload of a match (``viewer.watch``), passed to its table's hub
        less what a duplicate set keeps hidden (module docstring). Never blocks."""
        kind = payload.get("type")
        match_id = str(payload.get("id"))
        if kind == "reveal":
            return
        if kind == "match":
            entrants = [str(e) for e in payload.get("entrants", [])]
            title = f"match {match_id}: {payload.get('game')}, {' vs '.join(entrants)}"
            hub = LiveHub(title, entrants, 1)
            hub.privacy = PRIVACY
            with self._lock:
                self._hubs[match_id] = hub
        with self._lock:
            found = self._hubs.get(match_id)
        if found is None:
            return
        if kind != "end":
            found.send(payload)
            return
        with self._lock:
            self._hubs.pop(match_id, None)
        found.send(public_end(payload))
        found.done = 1
        found.finish()  # the open pages are told it is over, and stop listening

    def close(self, match_id: str) -> None:
        """``match_id`` is no longer played here (finished, or voided with no end sent):
        its open pages are told it is over."""
        with self._lock:
            found = self._hubs.pop(match_id, None)
        if found is not None:
            found.finish()

    def hub(self, match_id: str) -> LiveHub | None:
        """The live table of ``match_id``, while this process plays it."""
        with self._lock:
            return self._hubs.get(match_id)

    def playing(self) -> set[str]:
        """The matches in play in this process, by id."""
        with self._lock:
            return set(self._hubs)
