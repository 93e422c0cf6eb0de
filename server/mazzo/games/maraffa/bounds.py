"""Maraffa: the bound of every repeated field of its states, views and moves, from the
rules (maraffa.md; maraffa-forms.md for Trionfo, A, and the 39-card form, B).

Every form plays with at most 40 cards and 5 seats, so every list is short: a bound is
the largest of the forms, each said with the form that reaches it.
"""

from __future__ import annotations

from typing import Final

from mazzo.codec.bound import Bound
from mazzo.games.maraffa.cards import DECK

#: The pack: 40 cards (39 in the 3-player form B).
PACK: Final = len(DECK)
#: Seats at the table: 2, 3 (39 cards), 4 (also 3 players with a dummy), 5 (Trionfo).
SEATS: Final = 5
#: Sides: two teams, two players, three players alone (form B); one per seat in
#: Trionfo, where the sides' lists of the table are not used.
SIDES: Final = 3
#: The most cards a seat is dealt: 13 in the 39-card form (10 with 2 and 4 seats, 8 in
#: Trionfo); a hand never grows (with 2 players each trick's draw makes up the card played).
HAND: Final = 13
#: Match totals: one per side, one per seat in Trionfo.
MATCH_SIDES: Final[int] = SEATS
#: 2 players: 10 cards each, the other 20 are the stock (§2.3).
STOCK: Final = PACK - 2 * 10
#: The most tricks of a hand: 20 with 2 players (40 cards, 2 a trick).
TRICKS: Final = PACK // 2
#: Trionfo's four bids rise strictly and a pass is final, and the highest bidder never
#: passed (maraffa-forms.md A.3.3): at most 4 bids and 4 passes (5 passes, no bid).
AUCTION: Final = 4 + 4
#: Redeals: the rules set no limit (§3.2.4), but a hand is weak enough
#: with probability about 1.9 %: 32 redeals in a row have probability about 1e-55.
REDEALS: Final = 32

#: The cards drawn from the 2-player stock.
_DRAWN: Final = Bound(STOCK, "cards", "2 players: every card of the stock")
_M: Final = "mazzo.v1."

BOUNDS: Final[dict[str, Bound]] = {
    # The table: shared by the state and every view.
    _M + "MaraffaTable.games_won": Bound(
        SIDES, "sides", "one per side: at most 3, the 39-card form's three players"
    ),
    _M + "MaraffaTable.redeal_requests": Bound(
        REDEALS,
        "seats",
        "no limit in the rules (§3.2.4), but a redeal needs a hand worth under "
        "4 thirds (about 1.9 %): 32 in a row have probability about 1e-55",
    ),
    _M + "MaraffaTable.last_hand_scores": Bound(
        SIDES, "sides", "one per side: at most 3 (not used in Trionfo)"
    ),
    _M + "MaraffaTrionfoDeal.payments": Bound(SEATS, "seats", "Trionfo: one per seat, 5"),
    # The state.
    _M + "MaraffaState.hands": Bound(SEATS, "hands", "one per seat: at most 5 (Trionfo)"),
    _M + "MaraffaHand.cards": Bound(
        HAND,
        "cards",
        "the most a seat is dealt: 13 in the 39-card form (10 with 2 and 4 seats, 8 in "
        "Trionfo); a hand never grows",
    ),
    _M + "MaraffaState.played": Bound(PACK, "cards", "every card of the 40-card pack at most"),
    _M + "MaraffaState.signals": Bound(PACK, "signals", "parallel to played: 40 at most"),
    _M + "MaraffaState.stock": Bound(STOCK, "cards", "2 players: the 20 cards not dealt (§2.3)"),
    _M + "MaraffaState.drawn": _DRAWN,
    _M + "MaraffaTrionfo.auction": Bound(
        AUCTION,
        "speeches",
        "bids rise strictly over 4 levels, a pass is final and the highest bidder never "
        "passed (forms spec A.3): 4 bids and 4 passes",
    ),
    # The view.
    _M + "MaraffaView.hand": Bound(HAND, "cards", "the viewer's hand: 13 at most, as a state's"),
    _M + "MaraffaView.dummy_hand": Bound(
        10, "cards", "3 players with a dummy: the dummy is dealt 10 cards"
    ),
    _M + "MaraffaView.hand_sizes": Bound(SEATS, "seats", "one per seat: at most 5"),
    _M + "MaraffaView.drawn": _DRAWN,
    _M + "MaraffaView.tricks": Bound(
        TRICKS, "tricks", "the tricks of a hand: 20 with 2 players (40 cards, 2 a trick)"
    ),
    _M + "MaraffaTrick.cards": Bound(SEATS, "cards", "one per seat: at most 5"),
    _M + "MaraffaTrick.signals": Bound(SEATS, "signals", "parallel to cards: at most 5"),
    _M + "MaraffaTrionfoView.auction": Bound(
        AUCTION, "speeches", "as the state's auction: 4 bids and 4 passes"
    ),
}
