"""Signals and the marafona: which annotations a play may carry (maraffa.md §3.4, §3.5)."""

from __future__ import annotations

from typing import Final

from mazzo.games.maraffa.cards import (
    BIT,
    DECK,
    LOW_FOR_STRISCIO,
    MARAFONA,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    TRUMP_ACE,
    cards_of,
)
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import MarafonaRule, Options, SignalSet
from mazzo.games.maraffa.state import State
from mazzo.games.maraffa.tricks import fallen

CORE: Final = frozenset({Signal.BUSSO, Signal.STRISCIO, Signal.VOLO, Signal.TAGLIO})
EXTENDED: Final = CORE | {Signal.FUORI_TUTTO, Signal.TAGLIA, Signal.RISTRISCIO, Signal.BUONA}
LEADER_SIGNALS: Final = (
    Signal.BUSSO,
    Signal.STRISCIO,
    Signal.VOLO,
    Signal.FUORI_TUTTO,
    Signal.TAGLIA,
    Signal.RISTRISCIO,
    Signal.BUONA,
)


_ENABLED: Final = {
    SignalSet.NONE: frozenset[Signal](),
    SignalSet.CORE: CORE,
    SignalSet.EXTENDED: EXTENDED,
}
_NO_SIGNALS: Final = frozenset[Signal]()
#: Three players with 39 cards: core without BUSSO (there is no partner to ask), and
#: only core (maraffa-forms.md B.2.4, B.4); extended is refused with the options.
DECK39_CORE: Final = frozenset({Signal.STRISCIO, Signal.VOLO, Signal.TAGLIO})
_DECK39_ENABLED: Final = {SignalSet.NONE: _NO_SIGNALS, SignalSet.CORE: DECK39_CORE}


def enabled(options: Options, seats: int) -> frozenset[Signal]:
    """The signals in force: none at all with two players (there is no partner); with
    three (39 cards), at most STRISCIO, VOLO and TAGLIO."""
    if seats == 4:
        return _ENABLED[options.signals]
    return _NO_SIGNALS if seats == 2 else _DECK39_ENABLED[options.signals]


def signal_error(state: State, hand: int, card: int, signal: Signal) -> str | None:
    """Why ``signal`` may not go with this play of ``card``, or None if it may.

    ``hand`` is the player's hand (a mask) before the play; the trick is ``state.trick``.
    """
    if signal is Signal.NONE:
        return None
    options = state.table.options
    if signal not in enabled(options, state.table.seats):
        return f"signal {signal.name} is not enabled"
    cards = state.trick_cards
    leading = not cards
    trump = state.trump
    if signal is Signal.TAGLIO:
        if leading:
            return "TAGLIO is for a player who cuts, not for the leader"
        led = SUIT[cards[0]]
        if led == trump or SUIT[card] != trump or hand & SUIT_MASK[led]:
            return "TAGLIO goes only with a trump played while void in a non-trump led suit"
        return None
    if not leading:
        return f"only the leader may signal {signal.name}"
    suit = SUIT[card]
    if signal is Signal.FUORI_TUTTO:
        if suit != trump:
            return "FUORI_TUTTO goes only with a trump lead"
        if any(BIT[c] & MARAFONA[trump] for c in fallen(state)):
            return "FUORI_TUTTO is not allowed once a top trump has fallen"
    if signal is Signal.TAGLIA and suit == trump:
        return "TAGLIA goes only with a non-trump lead"
    if options.signals_checked:
        return _falsehood(state, hand, card, signal)
    return None


def _falsehood(state: State, hand: int, card: int, signal: Signal) -> str | None:
    """Why a leader's signal is false (``signals_checked``), or None if it is true."""
    suit = SUIT[card]
    rest = cards_of(hand & SUIT_MASK[suit] & ~BIT[card])
    if signal is Signal.STRISCIO and not any(c in LOW_FOR_STRISCIO for c in rest):
        return "false STRISCIO: no card of the suit from K down is left"
    if signal is Signal.VOLO and rest:
        return "false VOLO: cards of the suit are left"
    if signal is Signal.RISTRISCIO and len(rest) < 2:
        return "false RISTRISCIO: fewer than two cards of the suit are left"
    if signal is Signal.FUORI_TUTTO and (hand | BIT[card]) & MARAFONA[state.trump]:
        return "false FUORI_TUTTO: a 3, 2 or A of trumps is held or led"
    if signal is Signal.BUONA:
        gone = set(fallen(state))
        stronger = [
            c for c in DECK if SUIT[c] == suit and STRENGTH[c] > STRENGTH[card] and c not in gone
        ]
        if any(not hand & BIT[c] for c in stronger):
            return "false BUONA: another seat may hold a stronger card of the suit"
    return None


def marafona_error(state: State, seat: int, hand: int, card: int) -> str | None:
    """Why this play may not declare the marafona, or None if it may (§3.4)."""
    table = state.table
    rule = table.options.marafona_rule
    if rule is MarafonaRule.OFF:
        return "the marafona is off in this match"
    if len(state.played) >= table.seats:
        return "the marafona may be declared only during trick 1"
    trump = state.trump
    if hand & MARAFONA[trump] != MARAFONA[trump]:
        return "the marafona needs the 3, 2 and A of trumps in hand"
    if rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK and seat != table.battezzante:
        return "only the battezzante may declare the marafona"
    if rule is MarafonaRule.BATTEZZANTE_ACE_LEAD and (
        state.trick_cards or card != TRUMP_ACE[trump]
    ):
        return "the marafona must be declared by leading the ace of trumps"
    return None
