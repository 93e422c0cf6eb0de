"""Burraco's options (burraco.md §5), resolved: every default filled in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mazzo.core.rules import Reduced, reduce_frozen

PLAYER_COUNTS: Final = (2, 3, 4)
DEFAULT_PLAYERS: Final = 4
#: §2.4.5: with three players and the phase switch, the game changes at 1000 and ends at 1505.
THREE_PLAYER_SWITCH: Final = 1000
THREE_PLAYER_TARGET: Final = 1505
#: The spec allows any positive target, hand count and safeguard; a bound keeps totals
#: far inside the wire's integer fields and every match finite in practice.
MAX_TARGET: Final = 1_000_000
MAX_HANDS: Final = 10_000


@dataclass(frozen=True, slots=True)
class Options:
    """The rules in force for one match. ``first_dealer`` None means: by the seed."""

    target: int = 2005
    #: 0: play to ``target``; N > 0: exactly N hands (``target`` is then ignored).
    hands: int = 0
    #: The safeguard of §4.3.4 when ``hands`` is 0.
    max_hands: int = 50
    semipulito: bool = True
    closing_needs_clean: bool = False
    single_card_pile_rule: bool = True
    three_player_phase_switch: bool = True
    first_dealer: int | None = None

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)

    def end_target(self, players: int) -> int:
        """The total that ends a match played to a target (§4.3, §2.4.5)."""
        if players == 3 and self.three_player_phase_switch:
            return THREE_PLAYER_TARGET
        return self.target
