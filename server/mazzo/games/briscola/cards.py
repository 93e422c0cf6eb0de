"""Briscola's 40-card Italian pack: trick strength and card points (briscola.md §1).

Cards are the shared card ids (core/cards.py), as in every game: ranks A 2 3 4 5 6 7
J Q K, where ``J`` is the jack (*fante*), ``Q`` the horse (*cavallo*) and ``K`` the
king (*re*); suits S H D C (swords, cups, coins, clubs). Tables are indexed by card id.
"""

from __future__ import annotations

from typing import Final

from mazzo.core.cards import RANKS, card, rank_of, suit_of

BRISCOLA_RANKS: Final = "A234567JQK"
#: The 40 cards in canonical order: the unshuffled deck.
DECK: Final[tuple[int, ...]] = tuple(
    card(r + s) for s in "SHDC" for r in RANKS if r in BRISCOLA_RANKS
)
IN_DECK: Final = frozenset(DECK)
#: The four twos: with three players one of them is taken out (§2.2).
TWOS: Final[tuple[int, ...]] = tuple(card("2" + s) for s in "SHDC")

#: Strength within a suit, high to low A 3 K Q J 7 6 5 4 2 (§1.2).
_STRENGTH: Final = {"A": 10, "3": 9, "K": 8, "Q": 7, "J": 6, "7": 5, "6": 4, "5": 3, "4": 2, "2": 1}
#: Card points (§1.3): 120 in the pack.
_POINTS: Final = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}
TOTAL_POINTS: Final = 120

#: Per card id: strength within its suit (1..10), its points, its suit (-1: not a card).
STRENGTH: Final[list[int]] = [0] * 54
POINTS: Final[list[int]] = [0] * 54
SUIT: Final[list[int]] = [-1] * 54
for _c in DECK:
    STRENGTH[_c] = _STRENGTH[rank_of(_c)]
    POINTS[_c] = _POINTS[rank_of(_c)]
    SUIT[_c] = suit_of(_c)

#: Added to a trump's strength so that any trump beats any card of the led suit.
_TRUMP_BONUS: Final = 20


def _key(c: int, trump: int, led: int) -> int:
    if SUIT[c] == trump:
        return _TRUMP_BONUS + STRENGTH[c]
    return STRENGTH[c] if SUIT[c] == led else 0


#: WIN_KEYS[trump][led][card]: how strongly a card stands in a trick (0: it cannot win).
WIN_KEYS: Final = tuple(
    tuple([_key(c, trump, led) for c in range(54)] for led in range(4)) for trump in range(4)
)


def deck_of(players: int, removed_two: int) -> tuple[int, ...]:
    """The unshuffled deck: the 40 cards, but with three players without the removed two."""
    if players == 3:
        return tuple(c for c in DECK if c != removed_two)
    return DECK


def winning_index(cards: tuple[int, ...], trump: int) -> int:
    """The highest trump, else the highest card of the suit led (§3.3): its index."""
    keys = WIN_KEYS[trump][SUIT[cards[0]]]
    best = first = 0
    for i, c in enumerate(cards):
        key = keys[c]
        if key > best:
            best, first = key, i
    return first


def points_of(cards: tuple[int, ...]) -> int:
    total = 0
    for c in cards:
        total += POINTS[c]
    return total
