"""What the referee tells whoever watches a match as it is played (the live view): the
contract, not the drawing. The referee never imports the viewer; the CLI passes the
viewer's ``Watcher`` (``viewer.watch``) to ``play_match`` and ``run_tournament``.

The referee hands a watch the deal, every applied move and the end, with the rules'
own states; the watch decides what is public and shows only that. A watch that fails
marks itself ``broken`` and is told nothing more; a match never stops for it.
"""

from __future__ import annotations

from typing import Any, Protocol

from mazzo.codec import GameCodec
from mazzo.core.rules import AnyRules
from mazzo.games.declaration import GameHooks
from mazzo.referee.records import Json


class MatchWatch(Protocol):
    """One match watched."""

    @property
    def broken(self) -> bool:
        """The watch failed: the referee tells it nothing more."""
        ...

    def dealt(self, state: Any) -> None: ...

    def moved(self, ply: int, entry: Json, before: Any, state: Any, at: float) -> None:
        """Move ``ply`` (from 1) was applied at ``at`` (``time.time()``): ``entry`` is
        its record line, ``before`` and ``state`` the positions around it."""
        ...

    def ended(self, record: Json, state: Any) -> None:
        """The match is over; ``record`` is its whole record."""
        ...


class Watcher(Protocol):
    """Who watches matches: one ``MatchWatch`` per match."""

    @property
    def pace(self) -> float:
        """Seconds the referee waits after each move, so people can follow it by eye
        (the bots' clocks do not run meanwhile)."""
        ...

    def watch(
        self, header: Json, rules: AnyRules, codec: GameCodec, hooks: GameHooks
    ) -> MatchWatch:
        """The watch of one match, from its record's header (before the first move)."""
        ...
