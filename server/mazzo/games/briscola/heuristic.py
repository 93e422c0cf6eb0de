"""``builtin:heuristic`` for Briscola: a simple card player, reading only the ActRequest.

What a beginner is taught first: lead a worthless card (a *liscio*, not a trump);
when a partner (four players) holds the trick, give him points (a *carico*) if no
one after can take it back cheaply, else a liscio; take a trick with a card of the
suit led when one wins it, with the most points when no one plays after, else the
lowest; cut with the lowest winning trump only when the trick holds a carico; and
when the trick is lost, throw the cheapest card, keeping trumps and carichi.
Deterministic, and far stronger than random.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.core.cards import card
from mazzo.games.briscola.cards import POINTS, STRENGTH, SUIT, winning_index
from mazzo.v1 import bot_pb2

#: Cutting with a trump is worth it from this many points in the trick (a 3 or an ace).
CUT_FOR_POINTS = 10
#: A partner's ace or 3 of the suit led is beaten only by a trump or the ace.
_THREE = STRENGTH[card("3S")]


def choose(request: bot_pb2.ActRequest) -> int:
    """The index of the chosen legal move."""
    plays = {int(m.briscola.play_card.card): i for i, m in enumerate(request.legal_moves)}
    hand = list(plays)
    if not hand:
        return 0
    view = request.view
    detail = view.briscola
    trump = SUIT[detail.trump_card] if 0 < detail.trump_card < len(SUIT) else -1
    trick = tuple(detail.current_trick.cards)
    return plays[_card(hand, trick, trump, view.seat, view.players, detail.current_trick.leader)]


def _cheapest(hand: Sequence[int], trump: int) -> int:
    """The card that costs least to give away: no points, not a trump, low."""
    return min(hand, key=lambda c: (POINTS[c], SUIT[c] == trump, STRENGTH[c], c))


def _card(
    hand: Sequence[int], trick: tuple[int, ...], trump: int, seat: int, players: int, leader: int
) -> int:
    if not trick:
        return _cheapest(hand, trump)
    best = (leader + winning_index(trick, trump)) % players
    at_stake = sum(POINTS[c] for c in trick)
    last = len(trick) == players - 1
    if players == 4 and best == (seat + 2) % 4:
        winning = trick[winning_index(trick, trump)]
        safe = last or SUIT[winning] == trump or STRENGTH[winning] >= _THREE
        plain = [c for c in hand if SUIT[c] != trump and POINTS[c]]
        if safe and plain:
            return max(plain, key=lambda c: (POINTS[c], c))
        return _cheapest(hand, trump)
    winners = [c for c in hand if winning_index((*trick, c), trump) == len(trick)]
    plain = [c for c in winners if SUIT[c] != trump]
    if plain:
        if last:
            return max(plain, key=lambda c: (POINTS[c], STRENGTH[c], c))
        return min(plain, key=lambda c: (STRENGTH[c], c))
    trumps = [c for c in winners if SUIT[c] == trump]
    if trumps and at_stake >= CUT_FOR_POINTS:
        return min(trumps, key=lambda c: (POINTS[c], STRENGTH[c], c))
    return _cheapest(hand, trump)
