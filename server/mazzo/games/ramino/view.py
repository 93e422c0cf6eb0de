"""What one seat may know (ramino.md §7): one function, so no secret leaks elsewhere.

A ``View`` copies only public fields out of the state, and the viewer's own hand
unless he is the buio seat still deciding blind. It holds no other hand, no stock
order and no generator state.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.ramino.state import Bets, Phase, Source, State, Table, Turn


class View(NamedTuple):
    seat: int
    players: int
    to_act: int
    phase: Phase
    #: The public match fields; the generator's seed and counter are zeroed.
    table: Table
    #: Chips and bidding: all public (§7.2). ``bets.balances`` are the match scores.
    bets: Bets
    #: The viewer's own cards in canonical order; empty while hidden.
    hand: tuple[int, ...]
    hand_hidden: bool
    hand_sizes: tuple[int, ...]
    stock_size: int
    #: The whole discard pile, bottom first.
    pile: tuple[int, ...]
    turns: tuple[Turn, ...]
    taken: Source
    #: The card taken from the pile this turn (public), else 0.
    taken_card: int
    reshuffles: int

    @property
    def balances(self) -> tuple[int, ...]:
        return self.bets.balances


def view(state: State, seat: int) -> View:
    """The information set of ``seat`` (§7)."""
    table = state.table
    if not 0 <= seat < table.players:
        raise InvalidArgument("seat", f"seat must be 0..{table.players - 1}")
    hidden = state.phase is Phase.BUIO_DECISION and seat == state.to_act
    return View(
        seat=seat,
        players=table.players,
        to_act=state.to_act,
        phase=state.phase,
        table=table._replace(seed=0, counter=0),
        bets=state.bets,
        hand=() if hidden else state.hands[seat],
        hand_hidden=hidden,
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        pile=state.pile,
        turns=state.turns,
        taken=state.taken,
        taken_card=state.taken_card,
        reshuffles=state.reshuffles,
    )
