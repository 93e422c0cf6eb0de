"""Maraffa's options (maraffa.md §5), resolved: every default filled in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Fractions(IntEnum):
    FLOOR_PER_HAND = 1
    KEEP_THIRDS = 2


class MarafonaRule(IntEnum):
    ANY_HOLDER_FIRST_TRICK = 1
    BATTEZZANTE_ONLY = 2
    BATTEZZANTE_ACE_LEAD = 3
    OFF = 4


class ClaimRule(IntEnum):
    REACH_TARGET = 1
    STRICT_ONE_THIRD = 2


class SignalSet(IntEnum):
    NONE = 1
    CORE = 2
    EXTENDED = 3


class Series(IntEnum):
    SINGLE = 1
    BEST_OF_THREE = 2


PLAYER_COUNTS = (2, 3, 4)
DEFAULT_PLAYERS = 4


@dataclass(frozen=True, slots=True)
class Options:
    """The rules in force for one match. ``first_dealer`` None means: by the seed."""

    target: int = 41
    fractions: Fractions = Fractions.FLOOR_PER_HAND
    marafona_rule: MarafonaRule = MarafonaRule.ANY_HOLDER_FIRST_TRICK
    marafona_auto_declare: bool = False
    claim_rule: ClaimRule = ClaimRule.REACH_TARGET
    signals: SignalSet = SignalSet.CORE
    signals_checked: bool = False
    redeal_weak_hand: bool = False
    series: Series = Series.SINGLE
    bella_target: int | None = None
    two_player_must_follow: bool = True
    dummy_seat: int = 2
    first_dealer: int | None = None

    @property
    def keep_thirds(self) -> bool:
        return self.fractions is Fractions.KEEP_THIRDS

    @property
    def unit(self) -> int:
        """Thirds per match unit: 1 when totals are kept in thirds, else 3."""
        return 1 if self.fractions is Fractions.KEEP_THIRDS else 3

    def game_target(self, game_number: int) -> int:
        """The target of a game in whole points: la bella may have its own."""
        if game_number == 3 and self.bella_target is not None:
            return self.bella_target
        return self.target
