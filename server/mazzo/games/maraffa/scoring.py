"""Hand scores, claim values and the end of a game (maraffa.md §3.6, §4)."""

from __future__ import annotations

from typing import Final

from mazzo.games.maraffa.cards import ACES, THIRDS
from mazzo.games.maraffa.options import ClaimRule, Options
from mazzo.games.maraffa.state import (
    ClaimResult,
    HandScore,
    State,
    Trick,
    side_of,
    sides_of,
)
from mazzo.games.maraffa.tricks import winning_index

LAST_TRICK_THIRDS: Final = 3
#: Per card id: 256 for an ace, 1 for a card worth one third (3, 2, K, Q, J), so one
#: sum over a trick counts both.
COUNT: Final = [256 if c in ACES else THIRDS[c] for c in range(54)]
#: Added to the tally (``State.won``) of the side that won a hand's last trick.
LAST_TRICK: Final = 1 << 16
MARAFONA_POINTS: Final = 3


#: Tricks in a hand by number of seats: 20 with two (stock), 13 with three (39 cards).
TRICKS_PER_HAND: Final = (0, 0, 20, 13, 10)


def tricks_per_hand(seats: int) -> int:
    return TRICKS_PER_HAND[seats]


def trick_thirds(trick: Trick) -> int:
    return sum(THIRDS[c] for c in trick.cards)


def tally(state: State) -> tuple[int, ...]:
    """Per side, what its tricks of this hand hold: ``LAST_TRICK * last-trick +
    aces * 256 + third-cards``, counted from ``played`` (``State.won`` keeps the same
    figure up to date move by move)."""
    table = state.table
    seats = table.seats
    trump = state.trump
    played = state.played
    counts = [0] * sides_of(seats)
    leader = table.battezzante
    for k in range(0, len(played) // seats * seats, seats):
        cards = played[k : k + seats]
        leader = (leader + winning_index(cards, trump)) % seats
        counts[side_of(leader, seats)] += sum(map(COUNT.__getitem__, cards))
    if played and len(played) == seats * TRICKS_PER_HAND[seats]:
        counts[side_of(leader, seats)] += LAST_TRICK
    return tuple(counts)


def hand_scores(state: State) -> tuple[HandScore, ...]:
    """Each side's score for the hand so far; final once every trick is played."""
    counts = state.won or tally(state)
    marafona = side_of(state.marafona_seat, state.table.seats) if state.marafona_seat >= 0 else -1
    options = state.table.options
    return tuple(
        _side_score(options, count >> 8 & 255, count & 255, count >> 16, marafona == side)
        for side, count in enumerate(counts)
    )


def _side_score(
    options: Options, aces: int, third_cards: int, last_trick: int, marafona: bool
) -> HandScore:
    thirds = 3 * aces + third_cards + LAST_TRICK_THIRDS * last_trick
    card_points = thirds // 3
    if options.keep_thirds:
        bonus = 3 * MARAFONA_POINTS if marafona else 0
        score = thirds + bonus
    else:
        bonus = MARAFONA_POINTS if marafona else 0
        score = card_points + bonus
    # HandScore(...) without NamedTuple's Python-level __new__: once per side and hand.
    return tuple.__new__(
        HandScore, (aces, third_cards, last_trick, thirds, card_points, bonus, score)
    )


def claim_result(state: State, seat: int) -> ClaimResult:
    """Value a claim by ``seat`` for its side (maraffa.md §3.6.3, §3.6.4)."""
    table = state.table
    options = table.options
    team = side_of(seat, table.seats)
    score = hand_scores(state)[team]
    total = table.totals[team]
    target = table.effective_target
    if options.claim_rule is ClaimRule.STRICT_ONE_THIRD:
        # In thirds, marafona not counted, at least one third over the target.
        if options.keep_thirds:
            value, needed = total + score.thirds, target + 1
        else:
            value, needed = 3 * total + score.thirds, 3 * target + 1
    elif options.keep_thirds:
        value, needed = total + score.thirds + score.marafona_bonus, target
    else:
        value, needed = total + score.card_points + score.marafona_bonus, target
    return ClaimResult(seat, team, value, needed, value >= needed)


def game_winner(totals: tuple[int, ...], target: int) -> int | None:
    """The side that wins the game after a hand, or None (§4.2, maraffa-forms.md B.3.3):
    once a side reaches the target, the highest total wins; a tie at the top goes on."""
    if len(totals) == 2:
        first, second = totals
        if (first >= target or second >= target) and first != second:
            return 0 if first > second else 1
        return None
    best = max(totals)
    if best < target:
        return None
    leaders = [t for t, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


def target_units(options: Options, game_number: int) -> int:
    """A game's starting target in match units."""
    points = options.game_target(game_number)
    return 3 * points if options.keep_thirds else points
