"""Burraco: the bound of every repeated field of its states, views and moves, from the
rules (burraco.md).

Most are counts of the table (seats, sides, pozzetti) or of the 108 cards. The one
list that grows with play, a hand's public history, is bounded by the most turns a
hand can have: only a DRAW shortens the stock, the last 2 cards of the stock are never
drawn (§3.6), and at most 3n turns in a row may begin with PICK_UP (§3.1).
"""

from __future__ import annotations

from typing import Final

from mazzo.codec.bound import Bound
from mazzo.games.burraco.cards import DECK
from mazzo.games.burraco.melds import MAX_COMBINATION, MAX_SEQUENCE
from mazzo.games.burraco.rules import HAND_SIZE, PICK_UP_TURNS_PER_SEAT

SEATS: Final = 4
#: Sides of a hand: 2 pairs, 2 players, or 3 players alone (§2.1, §2.4).
SIDES: Final = 3
#: Match totals: per pair with 4 players, per player with 2 or 3.
MATCH_SIDES: Final[int] = 3
#: Seats of one side: a pair.
PAIR: Final = 2
#: P1, P2 and, in the 3-player phase of §2.4.5, P3.
POZZETTI: Final = 3
#: The largest pozzetto: P1 of the 3-player form, 18 cards (§2.4.1).
POZZETTO: Final = 18
#: The stock never has fewer than 2 cards (§3.6): any other place holds at most the rest.
IN_PLAY: Final = len(DECK) - 2
#: A meld holds at least 3 cards, so at most a third of the cards in play are melds.
MELDS: Final = IN_PLAY // 3
#: The longest meld: a sequence of the 13 ranks and a wild (§3.2 rule 3).
MELD: Final = max(MAX_SEQUENCE, MAX_COMBINATION)
#: Cards added by one lay-off: the meld had at least 3 and ends with at most 14.
LAY_OFF: Final = MELD - 3

#: The forms: seats, and the pozzetti's sizes (§2.3, §2.4.1, §2.4.5).
FORMS: Final[tuple[tuple[int, tuple[int, ...]], ...]] = (
    (4, (11, 11)),
    (2, (11, 11)),
    (3, (18, 11)),
    (3, (11, 11, 11)),
)


def hand_turns(seats: int, pozzetti: tuple[int, ...]) -> int:
    """The most turns of one hand: the stock left after the deal, less the 2 cards never
    drawn, is the most DRAWs; before each, at most 3n turns in a row began with PICK_UP
    (§3.1), and the turn of the DRAW that leaves 2 cards is the hand's last (§3.6)."""
    stock = len(DECK) - HAND_SIZE * seats - 1 - sum(pozzetti)
    draws = stock - 2
    return draws * (PICK_UP_TURNS_PER_SEAT * seats + 1)


def history_events(seats: int, pozzetti: tuple[int, ...]) -> int:
    """The most events of a hand's public history (§7.6): HandDealt; per turn, a Drew or
    PileTaken and a Discarded; one LastTurn; one MeldOpened or LaidOff per card melded
    at most (a meld's cards never return to a hand); per pozzetto a PozzettoTaken and a
    PozzettoUnlocked; the 3-player PairFormed; Closed; and, when the hand ends the match,
    HandEnded, HandScored and MatchEnded (a hand that does not end it starts a new
    history)."""
    turns = hand_turns(seats, pozzetti)
    pair = 1 if seats == 3 and len(pozzetti) == 2 else 0
    return 1 + 2 * turns + 1 + IN_PLAY + 2 * len(pozzetti) + pair + 1 + 3


#: 1130, with 4 players (507 turns); 970 with 2; 977 with 3 (18 + 11 pozzetti).
HISTORY: Final = max(history_events(seats, pozzetti) for seats, pozzetti in FORMS)

_HISTORY_WHY: Final = (
    "the events of one hand: HandDealt, two a turn, one a card melded, a few once a hand; "
    "turns: at most (3n + 1) x the stock's DRAWs, as only a DRAW shortens the stock, its "
    "last 2 cards are never drawn (§3.6) and at most 3n turns in a row begin with PICK_UP "
    f"(§3.1): {HISTORY} with 4 players"
)
#: The seats of a side.
_SIDE_SEATS: Final = Bound(PAIR, "seats", "a side is one seat or a pair")
#: One hand per seat.
_HANDS: Final = Bound(SEATS, "hands", "one per seat: at most 4")
#: Any cards but those the stock keeps.
_IN_PLAY_CARDS: Final = Bound(
    IN_PLAY, "cards", "the 108 cards but the 2 the stock always keeps (§3.6)"
)
#: The cards of a meld.
_MELD_CARDS: Final = Bound(MELD, "cards", "a meld holds at most 14 cards (§3.2)")
#: The cards of one lay-off.
_LAY_OFF_CARDS: Final = Bound(
    LAY_OFF, "cards", "a meld holds 3 cards or more and at most 14 (§3.2)"
)
#: One number per side of the hand.
_HAND_SIDES: Final = Bound(SIDES, "sides", "one per side of the hand: at most 3")
#: One number per side of the match.
_MATCH_SIDES: Final = Bound(SIDES, "sides", "one per match side: at most 3")
_M: Final = "mazzo.v1."

BOUNDS: Final[dict[str, Bound]] = {
    # The table: shared by the state and every view.
    _M + "BurracoTable.last_hand_scores": Bound(
        SIDES, "sides", "one per side of the hand: at most 3 (3 players)"
    ),
    _M + "BurracoHandScore.seats": _SIDE_SEATS,
    _M + "BurracoTable.last_hand_credits": Bound(
        SIDES, "sides", "one per match side: at most 3 (3 players)"
    ),
    # The state.
    _M + "BurracoState.hands": _HANDS,
    _M + "BurracoHand.cards": _IN_PLAY_CARDS,
    _M + "BurracoState.stock": Bound(
        len(DECK),
        "cards",
        "a hand's stock holds at most 63 at the deal (2 players, §2.3) and only shrinks, but "
        "positions built by hand, as the spec's BU-3, leave every card nobody holds in it",
    ),
    _M + "BurracoState.discard_pile": _IN_PLAY_CARDS,
    _M + "BurracoState.melds": Bound(
        MELDS, "melds", "a meld holds 3 cards or more, of the 106 the stock does not keep"
    ),
    _M + "BurracoMeld.cards": Bound(
        MELD, "cards", "a sequence of the 13 ranks and a wild; a combination holds 9 (§3.2)"
    ),
    _M + "BurracoState.pozzetti": Bound(POZZETTI, "pozzetti", "P1, P2, and P3 (3 players, §2.4.5)"),
    _M + "BurracoPozzetto.cards": Bound(POZZETTO, "cards", "P1 of the 3-player form: 18 (§2.4.1)"),
    _M + "BurracoState.locked_seats": Bound(
        POZZETTI, "seats", "a locked seat took a pozzetto con lo scarto: at most 3 pozzetti"
    ),
    _M + "BurracoState.history": Bound(HISTORY, "events", _HISTORY_WHY),
    # The events of a history (state and view).
    _M + "BurracoHandDealt.pozzetti": Bound(POZZETTI, "pozzetti", "at most 3 pozzetti"),
    _M + "BurracoPileTaken.cards": Bound(
        IN_PLAY, "cards", "the whole pile: the 108 cards but the 2 the stock keeps"
    ),
    _M + "BurracoMeldOpened.cards": _MELD_CARDS,
    _M + "BurracoLaidOff.cards": _LAY_OFF_CARDS,
    _M + "BurracoPairFormed.pair": Bound(PAIR, "seats", "3 players: the two who pair (§2.4.3)"),
    _M + "BurracoHandEnded.hands": _HANDS,
    _M + "BurracoHandScored.scores": _HAND_SIDES,
    _M + "BurracoHandScored.credits": _MATCH_SIDES,
    _M + "BurracoHandScored.totals": _MATCH_SIDES,
    _M + "BurracoMatchEnded.winners": Bound(
        1, "sides", "the single highest total wins; a tie is a draw (§4.3)"
    ),
    _M + "BurracoMatchEnded.totals": _MATCH_SIDES,
    # The view.
    _M + "BurracoView.hand": Bound(IN_PLAY, "cards", "the viewer's hand, as a state's"),
    _M + "BurracoView.hand_sizes": Bound(SEATS, "seats", "one per seat: at most 4"),
    _M + "BurracoView.side": _SIDE_SEATS,
    _M + "BurracoView.melds": Bound(MELDS, "melds", "as a state's melds"),
    _M + "BurracoMeldView.side": _SIDE_SEATS,
    _M + "BurracoMeldView.cards": _MELD_CARDS,
    _M + "BurracoView.discard_pile": Bound(IN_PLAY, "cards", "as a state's discard pile"),
    _M + "BurracoView.pozzetti": Bound(POZZETTI, "pozzetti", "P1, P2, and P3 (§2.4.5)"),
    _M + "BurracoView.public_scores": _HAND_SIDES,
    _M + "BurracoPublicScore.seats": _SIDE_SEATS,
    _M + "BurracoView.history": Bound(HISTORY, "events", "as a state's history: " + _HISTORY_WHY),
    # Moves.
    _M + "BurracoOpenMeld.cards": _MELD_CARDS,
    _M + "BurracoLayOff.cards": _LAY_OFF_CARDS,
}
