"""The positions of burraco.md §6 (BU-1 … BU-11), shared by the engine and gRPC tests.

Seats: side A is {0, 2}, side B is {1, 3} (4 players). Each builder returns a state
built with ``position(...)``, so it is validated like any state that comes in.
"""

from __future__ import annotations

from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.state import Stage, State

# --------------------------------------------------------------------------- BU-1

#: (cards, valid, kind or None, why) for rows 1-14; 11 and 12 use the whole suit.
FULL_HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH JK"
BU1_ROWS: list[tuple[int, str, bool, str | None]] = [
    (1, "4C 5C 6C 2H 8C", True, "sequence"),
    (2, "6C 6H JK 6C", True, "combination"),
    (3, "7D JK 2C", False, None),
    (4, "2S 2H 2D", False, None),
    (5, "AH 2H 3H", True, "sequence"),
    (6, "QH KH AH", True, "sequence"),
    (7, "KH AH 2H", True, "sequence"),
    (8, "KH AH 2H 3H", False, None),
    (9, "AH 3H JK", True, "sequence"),
    (10, "5H 5H 6H", False, None),
    (11, FULL_HEARTS, True, "sequence"),
    (12, FULL_HEARTS + " 4D", False, None),
    (13, "7S 7S 7H 7H 7D 7D 7C 7C JK", True, "combination"),
    (14, "7S 7S 7H 7H 7D 7D 7C 7C JK 2S", False, None),
]


def meld_from_hand(
    cards: str, extra: str = "8D QD", melds: list[tuple[int, str]] | None = None
) -> State:
    """Seat 0 in its MELD stage holding ``cards`` and ``extra`` (so a card is left to
    discard), side A without a pozzetto."""
    return position(hands=[f"{cards} {extra}", None, None, None], melds=melds or [], pile="9C")


# --------------------------------------------------------------------------- BU-2

#: (meld, kind, bonus, card value)
BU2_ROWS = [
    ("2H 3H 4H 5H 6H 7H 8H", "PULITO", 200, 55),
    ("2H 3H 4H 5H 6H 7H 8H 2C", "SEMIPULITO", 150, 75),
    ("5S 6S 7S 8S 9S TS JS JK", "SEMIPULITO", 150, 85),
    ("3S JK 5S 6S 7S 8S 9S TS JS", "SEMIPULITO", 150, 90),
    ("5S 6S 7S JK 9S TS JS", "SPORCO", 100, 75),
    ("7H 7H 7S 7S 7D 7D 7C", "PULITO", 200, 35),
    ("7H 7H 7S 7S 7D 7D 7C 2D", "SEMIPULITO", 150, 55),
    ("7H 7S 7D 7C 7H 7S JK", "SPORCO", 100, 60),
]


def with_meld(meld: str, options: Options | None = None) -> State:
    """Side A holds ``meld`` on the table, nothing else; seat 0 to discard."""
    return position(
        hands=["KC QD", None, None, None], melds=[(0, meld)], pile="9C", options=options
    )


# --------------------------------------------------------------------------- BU-3

BU3_A_MELDS = ["4H 5H 6H 7H 8H 9H TH", "KS KH KD", "9C TC JK QC"]
BU3_B_MELDS = ["3C 4C 5C 2S 7C", "AS AD AC"]


def bu3() -> State:
    """Side A has its pozzetto (taken by seat 2); seat 0 holds only 9D, in its MELD stage."""
    return position(
        hands=["9D", "QH 2C 9D", "3D 8S", "JK 5D"],
        melds=[(0, m) for m in BU3_A_MELDS] + [(1, m) for m in BU3_B_MELDS],
        pile="KC",
        takers=[2],
    )


# --------------------------------------------------------------------------- BU-4

BU4_A_MELDS = [
    "8H 9H TH JH QH KH AH",
    "KS KH KD KC",
    "QS QD QC QS",
    "JS JD JC",
    "TS TD TC",
    "9S 9D 9C",
    "5S 5D 5C 5H",
    "3S 3D 3C",
    "4S 4D 4C 4H",
]
BU4_B_MELDS = ["AS AD AC", "9C TC JC QC KC", "8S 8D 8C"]
BU4_SEAT1 = "7S 7D 7C 7H 6S 6D 6C 6H"
BU4_TURN = ["draw", "meld 7S 7S 7H 7D 7C", "discard 6H"]


def bu4() -> State:
    """Seat 1 to begin its turn with 3 cards in the stock, the top one 7S."""
    return position(
        hands=["JK QH", BU4_SEAT1, "2D", "JK 2S 2H 5H"],
        melds=[(0, m) for m in BU4_A_MELDS] + [(1, m) for m in BU4_B_MELDS],
        stage=Stage.ACQUIRE,
        to_act=1,
        stock="7S 2C 3H",
        takers=[2],
    )


# --------------------------------------------------------------------------- BU-5


def bu5(seat0: str, players: int = 4) -> State:
    """Seat 0 (no pozzetto yet) to begin its turn holding ``seat0``; the stock's top is 7S."""
    return position(
        hands=[seat0, *[None] * (players - 1)],
        stage=Stage.ACQUIRE,
        to_act=0,
        stock="7S 8D 9D KS QS JS",
        pile="QC",
    )


# --------------------------------------------------------------------------- BU-6

BURRACO = "AD 2D 3D 4D 5D 6D 7D"


def bu6(seat0: str, burraco: bool) -> State:
    """Side A took its pozzetto; seat 0 in its MELD stage, with or without a burraco."""
    melds = [(2, BURRACO)] if burraco else [(2, "AD 2D 3D")]
    return position(hands=[seat0, None, None, None], melds=melds, pile="KC", takers=[2])


def bu6_unreachable(options: Options | None = None) -> State:
    """BU-6 row 4: seat 0 holds only 7D, side A has its pozzetto and no burraco."""
    return position(
        hands=["7D", None, None, None],
        melds=[(2, "AD 2D 3D")],
        pile="KC",
        takers=[2],
        options=options,
        validated=False,
    )


# --------------------------------------------------------------------------- BU-7


def bu7(seat1: str, options: Options | None = None) -> State:
    """Seat 1 to begin its turn; the discard pile is the one card 9D."""
    return position(
        hands=[None, seat1, None, None],
        stage=Stage.ACQUIRE,
        to_act=1,
        pile="9D",
        options=options,
    )


# --------------------------------------------------------------------------- BU-8


def bu8() -> State:
    """Side A's meld 0 is 6C JK 8C; seat 0 holds 7C TC and two more cards."""
    return position(hands=["7C TC KD QD", None, None, None], melds=[(0, "6C JK 8C")], pile="9S")


# --------------------------------------------------------------------------- BU-11


def bu11(pickups: int) -> State:
    """4 players, seat 1 to begin its turn after ``pickups`` turns began with PICK_UP."""
    return position(
        hands=[None, None, None, None],
        stage=Stage.ACQUIRE,
        to_act=1,
        pile="9D 4C",
        pickups=pickups,
    )
