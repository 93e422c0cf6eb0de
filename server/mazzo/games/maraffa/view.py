"""What one seat may know (maraffa.md §7): one function, so no secret leaks elsewhere.

A ``View`` copies only public fields out of the state; it holds no reference to the
state, the other hands, the stock order or the generator.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa.cards import cards_of
from mazzo.games.maraffa.state import Phase, State, Table, Trick
from mazzo.games.maraffa.tricks import completed_tricks, current_trick, trick_leaders


class View(NamedTuple):
    """A seat's information set. Hands are card tuples in canonical order."""

    seat: int
    players: int
    dummy_seat: int | None
    #: The viewer's own cards; empty while hidden.
    hand: tuple[int, ...]
    hand_hidden: bool
    #: The controller's view in the 3-player form: the dummy's cards, when visible.
    dummy_hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    drawn: tuple[int, ...]
    trick: Trick
    tricks: tuple[Trick, ...]
    #: The public match fields; the generator's seed and counter are zeroed.
    table: Table
    phase: Phase
    trump: int
    to_act: int
    marafona_seat: int

    @property
    def totals(self) -> tuple[int, ...]:
        return self.table.totals


def hidden_seat(state: State) -> int | None:
    """The seat whose cards nobody may see: from hand 2, during the trump phase, the
    battezzante's partner (§3.2.3; 4-seat forms only)."""
    table = state.table
    if table.seats == 4 and table.hand_number > 1 and state.phase is Phase.TRUMP:
        return (table.battezzante + 2) % 4
    return None


def dummy_of(state: State) -> int | None:
    """The dummy's seat in the 3-player form with a dummy (four seats), else None."""
    table = state.table
    return table.options.dummy_seat if table.players == 3 and table.seats == 4 else None


def controller_of(dummy: int) -> int:
    return (dummy + 2) % 4


def controller(state: State, seat: int) -> int:
    """Who decides for ``seat``: the dummy's partner for the dummy (§2.2.2), every other
    seat for itself, the 39-card form included (it has no dummy). The referee gives
    bots their seats by this, and ``view`` shows the dummy's seat its controller's view,
    so the two cannot disagree."""
    dummy = dummy_of(state)
    return controller_of(dummy) if dummy is not None and seat == dummy else seat


def view(state: State, seat: int) -> View:
    """The view of ``seat``; for the dummy's seat, its controller's view (§2.2.3)."""
    table = state.table
    if not 0 <= seat < table.seats:
        raise InvalidArgument("seat", f"seat must be 0..{table.seats - 1}")
    leaders = trick_leaders(state)  # once for both the completed and the current trick
    tricks = completed_tricks(state, leaders)
    dummy = dummy_of(state)
    viewer = controller(state, seat)
    hidden = hidden_seat(state)
    dummy_hand: tuple[int, ...] = ()
    if dummy is not None and viewer == controller_of(dummy) and hidden != dummy:
        dummy_hand = cards_of(state.hands[dummy])
    return View(
        seat=seat,
        players=table.players,
        dummy_seat=dummy,
        hand=() if hidden == viewer else cards_of(state.hands[viewer]),
        hand_hidden=hidden == viewer,
        dummy_hand=dummy_hand,
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        drawn=state.drawn,
        trick=current_trick(state, leaders),
        tricks=tricks,
        table=table._replace(seed=0, counter=0),
        phase=state.phase,
        trump=state.trump,
        to_act=state.to_act,
        marafona_seat=state.marafona_seat,
    )
