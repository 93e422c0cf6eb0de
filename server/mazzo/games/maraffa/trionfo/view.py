"""What one seat may know in Trionfo (maraffa-forms.md A.11): one function.

The secret of the form is the partner: until the called card is played, nobody but
its holder knows who the *amico* is (the declarer too, when he called his own card).
So the view copies public fields only and adds the amico under the three conditions
of A.11.3; no field of it is computed from where the called card lies, and no
count, flag or score that could tell it apart is given either.
"""

from __future__ import annotations

from typing import NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa.cards import BIT, cards_of
from mazzo.games.maraffa.state import Trick
from mazzo.games.maraffa.tricks import winning_index
from mazzo.games.maraffa.trionfo.scoring import amico_of, auction_of, called_card_played
from mazzo.games.maraffa.trionfo.state import (
    NO_SEAT,
    SEATS,
    TPhase,
    TrionfoState,
    TrionfoTable,
)


class TrionfoView(NamedTuple):
    """A seat's information set. Hands are card tuples in canonical order."""

    seat: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: Every speech of the auction so far: (seat, contract level or 0 for a pass).
    speeches: tuple[tuple[int, int], ...]
    #: NO_SEAT and 0 until the auction is over.
    declarer: int
    contract: int
    trump: int
    #: Public once declared (A.4.2); 0 when no card is called.
    called_card: int
    #: NO_SEAT unless this seat may know it (A.11.3).
    amico: int
    trick: Trick
    tricks: tuple[Trick, ...]
    #: The public match fields; the generator's seed and counter are zeroed.
    table: TrionfoTable
    phase: TPhase
    to_act: int

    @property
    def totals(self) -> tuple[int, ...]:
        return self.table.totals


def amico_visible(state: TrionfoState, seat: int) -> bool:
    """A.11.3: the called card has been played, or ``seat`` holds it, or the deal is over."""
    called = state.called_card
    if not called:
        return False
    return (
        state.phase is TPhase.OVER
        or called_card_played(state)
        or bool(state.hands[seat] & BIT[called])
    )


def _tricks(state: TrionfoState) -> tuple[tuple[Trick, ...], Trick]:
    played, signals = state.played, state.signals
    leader = state.table.first_speaker
    tricks = []
    complete = len(played) // SEATS * SEATS
    for k in range(0, complete, SEATS):
        winner = (leader + winning_index(played[k : k + SEATS], state.trump)) % SEATS
        tricks.append(Trick(leader, played[k : k + SEATS], signals[k : k + SEATS], winner))
        leader = winner
    return tuple(tricks), Trick(leader, played[complete:], signals[complete:], NO_SEAT)


def view(state: TrionfoState, seat: int) -> TrionfoView:
    """The view of ``seat``."""
    if not 0 <= seat < SEATS:
        raise InvalidArgument("seat", f"seat must be 0..{SEATS - 1}")
    auction = auction_of(state)
    declared = auction.over and auction.high > 0
    tricks, trick = _tricks(state)
    return TrionfoView(
        seat=seat,
        hand=cards_of(state.hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        speeches=tuple(zip(auction.speakers, state.bids, strict=True)),
        declarer=auction.declarer if declared else NO_SEAT,
        contract=auction.high if declared else 0,
        trump=state.trump,
        called_card=state.called_card,
        amico=amico_of(state) if amico_visible(state, seat) else NO_SEAT,
        trick=trick,
        tricks=tricks,
        table=state.table._replace(seed=0, counter=0),
        phase=state.phase,
        to_act=state.to_act,
    )
