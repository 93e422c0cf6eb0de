"""Ramino: the bound of every repeated field of its states, views and moves, from the
rules (ramino.md).

Most are counts of the table (2 to 6 seats) or of the 104 cards. Two lists grow with
counters kept beside them, so their bounds do too, each counter clamped to its range
before anything is decoded:

- a hand's bids, with the stake: every opening or raise lifts the stake by a chip at
  least, and between two of them each other player speaks once (§3.3);
- a hand's turns of play, with the reshuffles made: only a DRAW shortens the stock, a
  stock holds at most 103 - n x hand_size cards (the first one, and every one a
  reshuffle makes of the pile under its top card, §3.4.6), and at most 3p turns in a
  row may begin with TAKE_DISCARD (§3.4.7).
"""

from __future__ import annotations

from typing import Any, Final

from mazzo.codec.bound import Bound, clamp
from mazzo.games.ramino.cards import DECK
from mazzo.games.ramino.options import HAND_SIZES, MAX_RESHUFFLES, MAX_STAKE, PLAYER_COUNTS
from mazzo.games.ramino.rules import PILE_TURNS_PER_PLAYER

SEATS: Final[int] = max(PLAYER_COUNTS)
#: Match totals: each player's balance.
MATCH_SIDES: Final[int] = SEATS
#: The fewest cards at the table's seats: 2 players of 9 cards; every seat is dealt,
#: also those who sit out or fold (§4.3), and keeps its cards to the end of the hand.
DEALT: Final = min(PLAYER_COUNTS) * min(HAND_SIZES)
#: Up-card and discards: every card no seat holds (the stock may be empty).
PILE: Final = len(DECK) - DEALT
#: The stock: every card no seat holds but the top of the pile (§2.5, §3.4.6).
STOCK: Final = PILE - 1
#: A hand holds its cards and the one taken (11 with hand_size 10).
HAND: Final = max(HAND_SIZES) + 1
#: The cards a closure shows (§3.5.1).
CLOSURE: Final = 10


def cycle_turns(seats: int, hand_size: int) -> int:
    """The most turns one stock lasts: its DRAWs, each after at most 3p turns begun with
    TAKE_DISCARD (p <= n participants)."""
    stock = len(DECK) - seats * hand_size - 1
    return (PILE_TURNS_PER_PLAYER * seats + 1) * stock


#: 931: 6 players of 9 cards (49 cards a stock, 19 turns a card).
CYCLE: Final = max(cycle_turns(n, h) for n in PLAYER_COUNTS for h in HAND_SIZES)
#: The turns after the last DRAW, all from the pile.
TAIL: Final = PILE_TURNS_PER_PLAYER * SEATS


def _turns(holder: Any) -> int:
    return CYCLE * (clamp(holder.reshuffles, MAX_RESHUFFLES) + 1) + TAIL


def _bids(holder: Any) -> int:
    bound = SEATS * (clamp(holder.stake, MAX_STAKE) + 1) + 2
    if len(holder.bids) > bound:
        # Once the match is over the stake is back to 0 and the last hand's bids stay:
        # the stake they reached is the highest amount an opening or raise set.
        top = max(bid.amount for bid in holder.bids)
        bound = SEATS * (clamp(top, MAX_STAKE) + 1) + 2
    return bound


_TURNS: Final = Bound(
    CYCLE * (MAX_RESHUFFLES + 1) + TAIL,
    "turns",
    "only a DRAW shortens the stock, a stock holds at most 103 - n x hand_size cards "
    "(the first, and each a reshuffle makes, §3.4.6), and at most 3p turns in a row "
    f"begin with TAKE_DISCARD (§3.4.7): {CYCLE * 2 + TAIL} with one reshuffle (the default)",
    _turns,
    f"{CYCLE} x (r + 1) + {TAIL}, r = `reshuffles` (at most {MAX_RESHUFFLES:,}): "
    f"(3n + 1) x (103 - n x hand_size) is at most {CYCLE} (6 players of 9 cards)",
)
#: One number per seat.
_PER_SEAT: Final = Bound(SEATS, "seats", "one per seat: 6 at most")
_M: Final = "mazzo.v1."

BOUNDS: Final[dict[str, Bound]] = {
    # The table: shared by the state and every view.
    _M + "RaminoHandResult.participants": Bound(SEATS, "seats", "the players of a hand: 6 at most"),
    _M + "RaminoHandResult.extra_paid": _PER_SEAT,
    _M + "RaminoHandResult.net": _PER_SEAT,
    _M + "RaminoClosure.cards": Bound(CLOSURE, "cards", "a closure shows ten cards (§3.5.1)"),
    # The bets: shared by the state and every view.
    _M + "RaminoBets.shares": _PER_SEAT,
    _M + "RaminoBets.committed": _PER_SEAT,
    _M + "RaminoBets.statuses": _PER_SEAT,
    _M + "RaminoBets.bids": Bound(
        SEATS * (MAX_STAKE + 1) + 2,
        "bids",
        "BUIO or NO_BUIO once, a PASS per seat, STAND once; every OPEN or RAISE lifts the "
        "stake by a chip at least, and between two of them each other seat speaks once "
        f"(§3.3): {SEATS * 6 + 2} at the default max_stake of 5",
        _bids,
        f"{SEATS} x (S + 1) + 2, S = `stake` (at most {MAX_STAKE:,}; once the match is "
        "over, the highest `amount` of the bids)",
    ),
    # The state.
    _M + "RaminoState.hands": Bound(SEATS, "hands", "one per seat: 6 at most"),
    _M + "RaminoHand.cards": Bound(
        HAND, "cards", "10 dealt (9 with hand_size 9) and the card taken this turn"
    ),
    _M + "RaminoState.stock": Bound(
        STOCK, "cards", "the cards no seat holds, less the pile's top: 85 (2 seats of 9)"
    ),
    _M + "RaminoState.pile": Bound(PILE, "cards", "the cards no seat holds: 86 (2 seats of 9)"),
    _M + "RaminoState.turns": _TURNS,
    # The view.
    _M + "RaminoView.hand": Bound(HAND, "cards", "the viewer's hand, as a state's"),
    _M + "RaminoView.hand_sizes": _PER_SEAT,
    _M + "RaminoView.pile": Bound(PILE, "cards", "as a state's pile: 86"),
    _M + "RaminoView.turns": _TURNS,
    # Moves.
    _M + "RaminoClose.jokers": Bound(
        1, "jokers", "at most one imaginary joker (§3.5.2; option imaginary_jokers is 0 or 1)"
    ),
    _M + "RaminoClose.groups": Bound(
        CLOSURE, "groups", "an arrangement of the ten cards of the closure (§3.5)"
    ),
    _M + "RaminoGroup.cards": Bound(CLOSURE, "cards", "a group of the ten cards of the closure"),
}
