"""What one seat may know (maraffa.md §7): one function, so no secret leaks elsewhere.

A ``View`` copies only public fields out of the state; it holds no reference to the
state, the other hands, the stock order or the generator.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa.cards import cards_of
from mazzo.games.maraffa.options import Options
from mazzo.games.maraffa.rules import to_act
from mazzo.games.maraffa.state import ClaimResult, HandScore, Phase, State, Trick


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
    options: Options
    dealer: int
    battezzante: int
    hand_number: int
    game_number: int
    games_won: tuple[int, ...]
    totals: tuple[int, ...]
    effective_target: int
    phase: Phase
    trump: int
    to_act: int
    marafona_seat: int
    redeal_requests: tuple[int, ...]
    last_hand: tuple[HandScore, ...]
    last_claim: ClaimResult | None


def hidden_seat(state: State) -> int | None:
    """The seat whose cards nobody may see: from hand 2, during the trump phase, the
    battezzante's partner (§3.2.3; 4-seat forms only)."""
    table = state.table
    if table.seats == 4 and table.hand_number > 1 and state.phase is Phase.TRUMP:
        return (table.battezzante + 2) % 4
    return None


def dummy_of(state: State) -> int | None:
    """The dummy's seat in the 3-player form, else None."""
    return state.table.options.dummy_seat if state.table.players == 3 else None


def controller_of(dummy: int) -> int:
    return (dummy + 2) % 4


def view(state: State, seat: int) -> View:
    """The view of ``seat``; for the dummy's seat, its controller's view (§2.2.3)."""
    table = state.table
    if not 0 <= seat < table.seats:
        raise InvalidArgument("seat", f"seat must be 0..{table.seats - 1}")
    dummy = dummy_of(state)
    viewer = controller_of(dummy) if dummy is not None and seat == dummy else seat
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
        trick=state.trick,
        tricks=state.tricks,
        options=table.options,
        dealer=table.dealer,
        battezzante=table.battezzante,
        hand_number=table.hand_number,
        game_number=table.game_number,
        games_won=table.games_won,
        totals=table.totals,
        effective_target=table.effective_target,
        phase=state.phase,
        trump=state.trump,
        to_act=to_act(state),
        marafona_seat=state.marafona_seat,
        redeal_requests=table.redeal_requests,
        last_hand=table.last_hand,
        last_claim=table.last_claim,
    )
