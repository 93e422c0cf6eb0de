"""Tricks from the flat list of plays: who led, who won (maraffa.md §3.3)."""

from __future__ import annotations

from typing import Final

from mazzo.games.maraffa.cards import STRENGTH, SUIT
from mazzo.games.maraffa.state import NO_SEAT, State, Trick

#: Added to a trump's strength so that any trump beats any card of the led suit.
TRUMP_BONUS: Final = 20


def _key(card: int, trump: int, led: int) -> int:
    if SUIT[card] == trump:
        return TRUMP_BONUS + STRENGTH[card]
    return STRENGTH[card] if SUIT[card] == led else 0


#: WIN_KEYS[trump][led][card]: how strongly a card stands in a trick (0: it cannot win).
WIN_KEYS: Final = tuple(
    tuple([_key(c, trump, led) for c in range(54)] for led in range(4)) for trump in range(4)
)


def winning_index(cards: tuple[int, ...], trump: int) -> int:
    """Highest trump, else highest card of the led suit (§3.3.4): its index in the trick."""
    keys = list(map(WIN_KEYS[trump][SUIT[cards[0]]].__getitem__, cards))
    return keys.index(max(keys))


def trick_leaders(state: State) -> list[int]:
    """The leader of every trick of the hand, the one being played included: trick 0 is
    led by the battezzante, each later trick by the winner of the one before."""
    seats = state.table.seats
    played, trump = state.played, state.trump
    leader = state.table.battezzante
    leaders = [leader]
    for k in range(0, len(played) // seats * seats, seats):
        leader = (leader + winning_index(played[k : k + seats], trump)) % seats
        leaders.append(leader)
    return leaders


def seat_of_play(leaders: list[int], index: int, seats: int) -> int:
    """Who made play number ``index`` of the hand."""
    return (leaders[index // seats] + index % seats) % seats


def completed_tricks(state: State, leaders: list[int] | None = None) -> tuple[Trick, ...]:
    """The completed tricks of the hand with their leaders and winners (``leaders``:
    ``trick_leaders(state)`` when the caller has it already)."""
    seats = state.table.seats
    played, signals = state.played, state.signals
    if leaders is None:
        leaders = trick_leaders(state)
    return tuple(
        Trick(
            leaders[k],
            played[k * seats : (k + 1) * seats],
            signals[k * seats : (k + 1) * seats],
            leaders[k + 1],
        )
        for k in range(len(leaders) - 1)
    )


def current_trick(state: State, leaders: list[int] | None = None) -> Trick:
    """The trick being played (no winner yet)."""
    seats = state.table.seats
    start = len(state.played) // seats * seats
    if not start:
        leader = state.table.battezzante
    else:
        leader = (leaders if leaders is not None else trick_leaders(state))[-1]
    return Trick(leader, state.played[start:], state.signals[start:], NO_SEAT)


def fallen(state: State) -> tuple[int, ...]:
    """Cards of the completed tricks of this hand."""
    seats = state.table.seats
    return state.played[: len(state.played) // seats * seats]
