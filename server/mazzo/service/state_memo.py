"""States this process has produced, by their wire bytes.

A client playing a match sends back, unchanged, the state the last response gave
it. Such a state is valid by construction, so decoding and checking it again is
wasted work: the memo maps its exact bytes to the decoded state. It is a pure
speed-up and not shared state: a miss (another replica produced the state, the
client changed a field, the entry was evicted) takes the full path of decoding and
validation and answers exactly the same. Any byte that differs is a miss.

It is bounded in entries and in bytes: the keys together hold at most ``max_bytes``,
and a state longer than ``entry_bytes`` is not kept at all (it is answered as well,
and decoded again when it comes back). Real states are a few kilobytes (the longest
in long random matches of every game: about 3 KB; hands as long as the rules allow:
about 8 KB in Burraco, 18 KB in Ramino with its one reshuffle); a client can make
states far longer that still pass every check (a Burraco history is only checked for
its form and length), and a flood of them must not grow the process. The decoded
states beside the keys take up to about ten times their bytes when nothing is shared
(padded histories): 2 MiB of keys hold a process to about 25 MB more, however many
such states come.

Each entry's decoded state is also objects that Python's cyclic collector walks in
every full collection, which holds the event loop: about 1.5 µs an object in a
serving process (measured: 49-99 ms collections over 40,000-65,000 objects), and a
Burraco history is one object per event, one for every 8 or so bytes of key. So the
bounds are what a collection can afford: 256 entries and 256 KiB of keys (some
30,000 decoded objects at most), still four times the 64 matches in flight of the
soak and the bench; a longer tail of matches only costs decoding.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

DEFAULT_ENTRIES = 256
#: 256 KiB of keys: 128 real states of 2 KB each, 85 of the longest random ones.
DEFAULT_BYTES = 256 * 1024
#: 32 KiB: above every state of the default options (a Ramino hand with many
#: reshuffles, an option, can outgrow it: it is then decoded on each call).
DEFAULT_ENTRY_BYTES = 32 * 1024


class StateMemo:
    """A bounded LRU map from serialized ``GameState`` bytes to a decoded state."""

    def __init__(
        self,
        entries: int = DEFAULT_ENTRIES,
        max_bytes: int = DEFAULT_BYTES,
        entry_bytes: int = DEFAULT_ENTRY_BYTES,
    ) -> None:
        self._entries: OrderedDict[bytes, Any] = OrderedDict()
        self._limit = entries
        self._max_bytes = max_bytes
        self._entry_bytes = min(entry_bytes, max_bytes)
        #: The bytes of the keys held now.
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    @property
    def count(self) -> int:
        """The states held now."""
        return len(self._entries)

    def get(self, data: bytes) -> Any | None:
        value = self._entries.get(data)
        if value is None:
            self.misses += 1
            return None
        self._entries.move_to_end(data)
        self.hits += 1
        return value

    def put(self, data: bytes, value: Any) -> None:
        if len(data) > self._entry_bytes:
            return
        entries = self._entries
        if data not in entries:
            self.bytes += len(data)
        entries[data] = value
        entries.move_to_end(data)
        while len(entries) > self._limit or self.bytes > self._max_bytes:
            key, _ = entries.popitem(last=False)
            self.bytes -= len(key)
