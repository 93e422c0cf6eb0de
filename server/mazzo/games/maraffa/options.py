"""Maraffa's options (maraffa.md §5, maraffa-forms.md A.9 and B.4), resolved: every
default filled in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from mazzo.core.cards import card
from mazzo.core.rules import Reduced, reduce_frozen


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
    #: "The form's default": core, but none in the 39-card form (maraffa-forms.md B.4).
    #: ``Options`` resolves it when built, so no state ever carries it.
    FORM_DEFAULT = 0
    NONE = 1
    CORE = 2
    EXTENDED = 3


class Series(IntEnum):
    SINGLE = 1
    BEST_OF_THREE = 2


class ThreePlayerForm(IntEnum):
    """``players = 3``: four seats with a dummy (maraffa.md §2.2), or 39 cards each
    for himself (maraffa-forms.md B)."""

    DUMMY = 1
    DECK39 = 2


class TrionfoAuction(IntEnum):
    """Five players: how the auction goes round (maraffa-forms.md A.3.3-4)."""

    CONTINUOUS = 1
    SINGLE_ROUND = 2


PLAYER_COUNTS: Final = (2, 3, 4, 5)
DEFAULT_PLAYERS: Final = 4
FOUR_OF_SPADES: Final = card("4S")
FIVE_OF_SWORDS: Final = card("5S")


@dataclass(frozen=True, slots=True)
class Options:
    """The rules in force for one match. ``first_dealer`` None means: by the seed."""

    target: int = 41
    fractions: Fractions = Fractions.FLOOR_PER_HAND
    marafona_rule: MarafonaRule = MarafonaRule.ANY_HOLDER_FIRST_TRICK
    marafona_auto_declare: bool = False
    claim_rule: ClaimRule = ClaimRule.REACH_TARGET
    #: FORM_DEFAULT (the default) is resolved when the options are built.
    signals: SignalSet = SignalSet.FORM_DEFAULT
    signals_checked: bool = False
    redeal_weak_hand: bool = False
    series: Series = Series.SINGLE
    bella_target: int | None = None
    two_player_must_follow: bool = True
    dummy_seat: int = 2
    first_dealer: int | None = None
    # players = 3 (maraffa-forms.md B.4)
    three_player_form: ThreePlayerForm = ThreePlayerForm.DUMMY
    #: The Four taken out of the 39-card deck (a card id).
    removed_four: int = FOUR_OF_SPADES
    # players = 5, Trionfo (maraffa-forms.md A.9)
    #: Deal 1's first speaker is the seat dealt this card (a card id).
    trionfo_first_speaker_card: int = FIVE_OF_SWORDS
    trionfo_deal_batch: int = 4
    trionfo_auction: TrionfoAuction = TrionfoAuction.CONTINUOUS
    trionfo_signals: SignalSet = SignalSet.NONE
    trionfo_stop_when_decided: bool = False
    match_deals: int = 10
    count_thrown_in: bool = True

    def __reduce__(self) -> Reduced:
        return reduce_frozen(self)

    def __post_init__(self) -> None:
        """Resolve the form-dependent defaults, so that a state (and the hot path) only
        ever sees a real signal set."""
        if self.signals is SignalSet.FORM_DEFAULT:
            deck39 = self.three_player_form is ThreePlayerForm.DECK39
            resolved = SignalSet.NONE if deck39 else SignalSet.CORE
            object.__setattr__(self, "signals", resolved)
        if self.trionfo_signals is SignalSet.FORM_DEFAULT:
            object.__setattr__(self, "trionfo_signals", SignalSet.NONE)

    @property
    def deck39(self) -> bool:
        """The 39-card form for three (maraffa-forms.md B)."""
        return self.three_player_form is ThreePlayerForm.DECK39

    @property
    def keep_thirds(self) -> bool:
        return self.fractions is Fractions.KEEP_THIRDS

    @property
    def unit(self) -> int:
        """Thirds per match unit: 1 when totals are kept in thirds, else 3."""
        return 1 if self.fractions is Fractions.KEEP_THIRDS else 3

    def game_target(self, game_number: int) -> int:
        """The target of a game in whole points: la bella may have its own (from game 3
        on: with three players a series may need a fourth game)."""
        if game_number >= 3 and self.bella_target is not None:
            return self.bella_target
        return self.target


#: Options of maraffa.md that do not apply to Trionfo (A.9), and those of the forms.
MARAFFA_ONLY: Final = (
    "three_player_form",
    "removed_four",
    "target",
    "fractions",
    "marafona_rule",
    "marafona_auto_declare",
    "claim_rule",
    "signals",
    "signals_checked",
    "redeal_weak_hand",
    "series",
    "bella_target",
    "two_player_must_follow",
    "dummy_seat",
)
TRIONFO_ONLY: Final = (
    "trionfo_first_speaker_card",
    "trionfo_deal_batch",
    "trionfo_auction",
    "trionfo_signals",
    "trionfo_stop_when_decided",
    "match_deals",
    "count_thrown_in",
)
DECK39_ONLY: Final = ("removed_four",)
#: removed_four may be any Four but 4D, which picks the first battezzante (B.1.1).
REMOVABLE_FOURS: Final = (FOUR_OF_SPADES, card("4H"), card("4C"))
_DEFAULTS: Final = Options()


def seats_for(options: Options, players: int) -> int:
    """Seats at the table: 2 and 5 as the players; with 3, four seats (one a dummy)
    or, with 39 cards, three; with 4, four."""
    if players == 3:
        return 3 if options.deck39 else 4
    return players


def changed(options: Options, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` set to something other than its default, or None."""
    for name in names:
        if getattr(options, name) != getattr(_DEFAULTS, name):
            return name
    return None
