"""Briscola: the bound of every repeated field of its states, views and moves, from the
rules (briscola.md).

Every list is short: at most 4 seats, 2 sides (3 with three players), 40 cards and
20 tricks (two players). A Briscola state keeps no history beyond the cards played
this hand, so no list grows with the match.
"""

from __future__ import annotations

from typing import Final

from mazzo.codec.bound import Bound
from mazzo.games.briscola.cards import DECK
from mazzo.games.briscola.tricks import HAND_SIZE, STOCK_SIZE, TRICKS

#: The pack: 40 cards (39 with three players).
PACK: Final = len(DECK)
SEATS: Final = 4
#: Sides: two partnerships with four players, else one per player (3 at most).
SIDES: Final = 3
#: Match totals (hands won): one per side.
MATCH_SIDES: Final[int] = SIDES
#: The stock after the deal, the face-up trump card included: 34 with two players.
STOCK: Final = max(STOCK_SIZE.values())
#: The tricks of a hand: 20 with two players.
HAND_TRICKS: Final = max(TRICKS.values())

#: One number per side.
_PER_SIDE: Final = Bound(SIDES, "sides", "one per side: at most 3")
_M: Final = "mazzo.v1."

BOUNDS: Final[dict[str, Bound]] = {
    # The table: shared by the state and every view.
    _M + "BriscolaTable.hands_won": Bound(
        SIDES, "sides", "one per side: at most 3 (three players, each for himself)"
    ),
    _M + "BriscolaTable.last_hand": _PER_SIDE,
    # The state.
    _M + "BriscolaState.hands": Bound(SEATS, "hands", "one per seat: at most 4"),
    _M + "BriscolaHand.cards": Bound(
        HAND_SIZE, "cards", "a seat holds 3 cards, fewer once the stock is empty (§3.4)"
    ),
    _M + "BriscolaState.stock": Bound(
        STOCK, "cards", "the stock after the deal: 34 with two players (§3.1), then it shrinks"
    ),
    _M + "BriscolaState.played": Bound(PACK, "cards", "every card of the 40-card pack at most"),
    # The view.
    _M + "BriscolaView.hand": Bound(HAND_SIZE, "cards", "the viewer's hand: 3 at most"),
    _M + "BriscolaView.partner_hand": Bound(
        HAND_SIZE, "cards", "4 players, once the stock is empty: the partner's hand (§2.3.3)"
    ),
    _M + "BriscolaView.hand_sizes": Bound(SEATS, "seats", "one per seat: at most 4"),
    _M + "BriscolaView.tricks": Bound(
        HAND_TRICKS, "tricks", "the tricks of a hand: 20 with two players (§2)"
    ),
    _M + "BriscolaTrick.cards": Bound(SEATS, "cards", "one per seat: at most 4"),
    _M + "BriscolaView.points": _PER_SIDE,
    _M + "BriscolaView.tricks_won": _PER_SIDE,
}
