"""Trionfo (5 players): the hidden cards of a view, dealt anew

Placeholder of the search work (issue 15): the sampler is being written.
"""

from __future__ import annotations

from mazzo.games.maraffa.trionfo_state import TrionfoState
from mazzo.games.maraffa.trionfo_view import TrionfoView


def determinize(view: TrionfoView, count: int, seed: int) -> list[TrionfoState]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``)."""
    raise NotImplementedError


def moves_bound(state: TrionfoState, to_match_end: bool) -> int:
    """An upper bound on the moves to the end of the hand, or of the match."""
    raise NotImplementedError
