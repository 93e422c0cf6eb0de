"""What one seat may know (briscola.md §7): one function, so no secret leaks elsewhere.

A ``View`` copies only public fields out of the state; it holds no reference to the
state, the other hands, the stock's order or the generator.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.briscola.state import NO_SEAT, Phase, State, Table, Trick
from mazzo.games.briscola.tricks import (
    completed_tricks,
    current_trick,
    side_points,
    trick_leaders,
    trump_card_taker,
)


class View(NamedTuple):
    """A seat's information set. Hands are card tuples in canonical order."""

    seat: int
    players: int
    hand: tuple[int, ...]
    #: Four players with ``partners_show_hands``, once the stock is empty: the
    #: partner's cards (§2.3.3); otherwise empty.
    partner_hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: Cards left in the stock, the face-up trump card included.
    stock_size: int
    #: The face-up card that made trumps: seen by everyone, drawn last.
    trump_card: int
    #: Who drew the trump card, the last of the stock (NO_SEAT while it is still there).
    trump_card_taker: int
    trick: Trick
    tricks: tuple[Trick, ...]
    #: Per side, the card points and the tricks taken this hand: they follow from
    #: ``tricks``, which are public (§7.3).
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    #: The public match fields; the generator's seed and counter are zeroed.
    table: Table
    phase: Phase
    to_act: int


def partner_shown(state: State) -> bool:
    """Whether partners see each other's cards now (§2.3.3)."""
    table = state.table
    return (
        table.players == 4
        and table.options.partners_show_hands
        and state.phase is Phase.PLAY
        and not state.stock
    )


def view(state: State, seat: int) -> View:
    """The view of ``seat``."""
    table = state.table
    n = table.players
    if not 0 <= seat < n:
        raise InvalidArgument("seat", f"seat must be 0..{n - 1}")
    lead = trick_leaders(state)
    points, tricks_won = side_points(state, lead)
    taker = NO_SEAT if state.stock else trump_card_taker(lead, n)
    return View(
        seat=seat,
        players=n,
        hand=state.hands[seat],
        partner_hand=state.hands[(seat + 2) % 4] if partner_shown(state) else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        trump_card=state.trump_card,
        trump_card_taker=taker,
        trick=current_trick(state, lead),
        tricks=completed_tricks(state, lead),
        points=points,
        tricks_won=tricks_won,
        table=table._replace(seed=0, counter=0),
        phase=state.phase,
        to_act=state.to_act,
    )
