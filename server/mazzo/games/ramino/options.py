"""Ramino's options (ramino.md §5), checked and resolved: every default filled in."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Final

from mazzo.core.errors import InvalidArgument
from mazzo.core.rules import Reduced, reduce_frozen


class BuioSeat(IntEnum):
    """Who may open blind (§3.2): di mano, or the seat to the dealer's left."""

    DI_MANO = 1
    DEALER_LEFT = 2


PLAYER_COUNTS: Final = (2, 3, 4, 5, 6)
DEFAULT_PLAYERS: Final = 4
HAND_SIZES: Final = (10, 9)
#: The spec allows any integer; these bounds keep every chip count of a match (balances
#: may go negative on credit, pots grow over void hands) far inside the wire's int64.
MAX_CHIPS: Final = 10**9
#: LegalMoves lists every opening and raise amount, so the stake is kept small.
MAX_STAKE: Final = 1_000
MAX_MATCH_HANDS: Final = 10_000
#: Each reshuffle lets a hand go on for up to 931 more turns (6 players of 9 cards), and
#: every state and view carries the hand's turns: 10 keep the longest hand at 10,259
#: turns, so every call on it stays cheap (codec/ramino_bounds.py).
MAX_RESHUFFLES: Final = 10
FIELD: Final = "options.ramino."


@dataclass(frozen=True, slots=True)
class Options:
    """The rules of one match. ``None`` means the default that depends on other values:
    ``buio`` is on when ``dealer_tax`` > 0, ``match_hands`` is 3 x players,
    ``first_dealer`` is drawn by the seed. A state carries ``resolved`` options."""

    hand_size: int = 10
    imaginary_jokers: int = 1
    min_open: int = 1
    max_stake: int = 5
    dealer_tax: int = 0
    buio: bool | None = None
    buio_seat: BuioSeat = BuioSeat.DI_MANO
    set_duplicate_suits: bool = False
    rediscard_taken_card: bool = False
    max_reshuffles: int = 1
    starting_chips: int = 100
    allow_credit: bool = True
    match_hands: int | None = None
    first_dealer: int | None = None

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)

    @property
    def buio_on(self) -> bool:
        """Blind openings are played: ``buio`` and a dealer's tax (§3.2)."""
        return bool(self.buio) and self.dealer_tax > 0

    def resolved(self, players: int) -> Options:
        """The same rules with the defaults that depend on other values filled in."""
        return replace(
            self,
            buio=self.dealer_tax > 0 if self.buio is None else self.buio,
            match_hands=3 * players if self.match_hands is None else self.match_hands,
        )


def check_options(options: Options, players: int) -> None:
    """Reject options outside their allowed values (§5) with the option's field."""

    def bad(name: str, reason: str) -> InvalidArgument:
        return InvalidArgument(FIELD + name, reason)

    if options.hand_size not in HAND_SIZES:
        raise bad("hand_size", "hand_size must be 10 or 9")
    if options.imaginary_jokers not in (0, 1):
        raise bad("imaginary_jokers", "imaginary_jokers must be 0 or 1")
    if not 1 <= options.min_open <= MAX_STAKE:
        raise bad("min_open", f"min_open must be 1..{MAX_STAKE}")
    if not options.min_open <= options.max_stake <= MAX_STAKE:
        raise bad("max_stake", f"max_stake must be min_open..{MAX_STAKE}")
    if not 0 <= options.dealer_tax <= MAX_CHIPS:
        raise bad("dealer_tax", f"dealer_tax must be 0..{MAX_CHIPS}")
    buio = options.dealer_tax > 0 if options.buio is None else options.buio
    if buio and options.dealer_tax > 0 and 2 * options.dealer_tax > options.max_stake:
        raise bad("buio", "a blind opening needs 2 x dealer_tax <= max_stake (§3.2)")
    if not 0 <= options.max_reshuffles <= MAX_RESHUFFLES:
        raise bad("max_reshuffles", f"max_reshuffles must be 0..{MAX_RESHUFFLES}")
    if not 1 <= options.starting_chips <= MAX_CHIPS:
        raise bad("starting_chips", f"starting_chips must be 1..{MAX_CHIPS}")
    if options.match_hands is not None and not 1 <= options.match_hands <= MAX_MATCH_HANDS:
        raise bad("match_hands", f"match_hands must be 1..{MAX_MATCH_HANDS}")
    if options.first_dealer is not None and not 0 <= options.first_dealer < players:
        raise bad("first_dealer", f"first_dealer must be 0..{players - 1}")
