"""States this process has produced, by their wire bytes.

A client playing a match sends back, unchanged, the state the last response gave
it. Such a state is valid by construction, so decoding and checking it again is
wasted work: the memo maps its exact bytes to the decoded state. It is a pure
speed-up and not shared state: a miss (another replica produced the state, the
client changed a field, the entry was evicted) takes the full path of decoding and
validation and answers exactly the same. Any byte that differs is a miss.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

DEFAULT_ENTRIES = 4096


class StateMemo:
    """A bounded LRU map from serialized ``GameState`` bytes to a decoded state."""

    def __init__(self, entries: int = DEFAULT_ENTRIES) -> None:
        self._entries: OrderedDict[bytes, Any] = OrderedDict()
        self._limit = entries
        self.hits = 0
        self.misses = 0

    def get(self, data: bytes) -> Any | None:
        value = self._entries.get(data)
        if value is None:
            self.misses += 1
            return None
        self._entries.move_to_end(data)
        self.hits += 1
        return value

    def put(self, data: bytes, value: Any) -> None:
        self._entries[data] = value
        self._entries.move_to_end(data)
        if len(self._entries) > self._limit:
            self._entries.popitem(last=False)
