"""Ramino: the hidden cards of a view, dealt anew

Placeholder of the search work (issue 15): the sampler is being written.
"""

from __future__ import annotations

from mazzo.games.ramino.state import State
from mazzo.games.ramino.view import View


def determinize(view: View, count: int, seed: int) -> list[State]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``)."""
    raise NotImplementedError


def moves_bound(state: State, to_match_end: bool) -> int:
    """An upper bound on the moves to the end of the hand, or of the match."""
    raise NotImplementedError
