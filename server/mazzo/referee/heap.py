"""The referee's garbage collector, once its dial-in bots are seated.

A referee with many tables holds, for the whole run, a connection, a stream, a queue
and a seat per dial-in bot: about 200 objects the collector tracks per bot, 190,000
with 1,000 bots. CPython's full collection walks every one of them each time it runs,
and at that size a full collection paused the referee's loop 145 to 264 ms, which
every decision in flight waited out (docs/referee.md, the gateway bench). What is
there once every bot has dialed in lives as long as the run: ``settle`` collects once,
freezes it out of the collector's view (``gc.freeze``), and makes full collections
rarer. Young collections keep their default, so short-lived garbage (a move's
request, its coroutines) goes as soon as before.
"""

from __future__ import annotations

import gc
from typing import Final

#: Collections of the middle generation between two full ones (CPython's own: 10).
#: Cycles that outlive the young generations wait longer to be freed; what a referee
#: makes per move dies young or by reference counting.
FULL_EVERY: Final = 100
#: From this many dial-in bots on: with fewer, a full collection is short anyway.
MANY_BOTS: Final = 100


def settle() -> None:
    """Freeze what the referee holds now and make full collections rare: call once
    the bots of a run are seated, before its first deal."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)
