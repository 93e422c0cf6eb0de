"""Build a Maraffa state from readable parts: puzzles, test positions, examples.

    state = position(
        hands=["7S KS AH 3D 4C", "", "", ""],   # unnamed cards are filled in
        played="AS 2S 3S 4S ...",               # every card played this hand, in order
        trump="H",
        battezzante=0,
    )

Cards not named anywhere go to the hands that are short of their size, in
canonical order. The result is checked like any state that comes in
(``validate``), so a position that could not arise by the rules is refused with
the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.core.cards import SUITS, cards
from mazzo.games.maraffa.cards import deck_of, mask_of
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import Options, seats_for
from mazzo.games.maraffa.rules import first_table
from mazzo.games.maraffa.scoring import tally, target_units, tricks_per_hand
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase, State
from mazzo.games.maraffa.tricks import trick_leaders
from mazzo.games.maraffa.validate import validate


def position(
    *,
    hands: Sequence[str],
    played: str = "",
    signals: Sequence[Signal] | None = None,
    trump: str | None = None,
    battezzante: int = 0,
    players: int = 4,
    options: Options | None = None,
    hand_number: int = 2,
    dealer: int | None = None,
    totals: tuple[int, ...] | None = None,
    effective_target: int | None = None,
    marafona_seat: int | None = None,
    stock: str = "",
    drawn: str = "",
    seed: int = 0,
) -> State:
    """A validated state. ``hand_number`` defaults to 2 so that any seat may be
    battezzante (in hand 1 it must be the holder of 4D); ``dealer`` defaults to the
    seat before the battezzante, as the rules have it from hand 2 on."""
    options = options or Options()
    seats = seats_for(options, players)
    named = [list(cards(h)) if h else [] for h in hands]
    play = cards(played) if played else ()
    stock_cards = cards(stock) if stock else ()
    used = {c for h in named for c in h} | set(play) | set(stock_cards)
    spare = [c for c in deck_of(seats, options.removed_four) if c not in used]
    completed = len(play) // seats
    if seats == 2:
        base = 10 if completed <= 10 else 20 - completed
    else:
        base = tricks_per_hand(seats) - completed
    trump_suit = SUITS.index(trump) if trump else NO_SUIT
    if dealer is None:
        dealer = (battezzante - 1) % seats
    target = target_units(options, 1) if effective_target is None else effective_target
    table = first_table(options, players, seed, dealer)
    table = table._replace(
        battezzante=battezzante,
        hand_number=hand_number,
        totals=table.totals if totals is None else tuple(totals),
        effective_target=target,
    )
    phase = Phase.PLAY if trump else Phase.TRUMP
    draft = State(table, phase, battezzante, trump_suit, (0,) * seats, play)
    leader = trick_leaders(draft)[-1] if trump else battezzante
    in_trick = len(play) - completed * seats
    for s in range(seats):
        size = base - (1 if (s - leader) % seats < in_trick else 0)
        while len(named[s]) < size and spare:
            named[s].append(spare.pop(0))
    state = State(
        table=table,
        phase=phase,
        to_act=(leader + in_trick) % seats,
        trump=trump_suit,
        hands=tuple(mask_of(h) for h in named),
        played=play,
        signals=tuple(signals) if signals is not None else (0,) * len(play),
        stock=stock_cards,
        drawn=cards(drawn) if drawn else (),
        marafona_seat=NO_SEAT if marafona_seat is None else marafona_seat,
    )
    state = state._replace(won=tally(state))
    validate(state)
    return state
