"""Hand scores, claim values and the end of a game (maraffa.md §3.6, §4)."""

from __future__ import annotations

from mazzo.games.maraffa.cards import ACES, THIRDS
from mazzo.games.maraffa.options import ClaimRule, Options
from mazzo.games.maraffa.state import (
    ClaimResult,
    HandScore,
    State,
    Trick,
    side_of,
    sides_of,
    team_of,
)
from mazzo.games.maraffa.tricks import winning_index

LAST_TRICK_THIRDS = 3
#: Per card id: 256 for an ace, 1 for a card worth one third (3, 2, K, Q, J), so one
#: sum over a trick counts both.
_COUNT = [256 if c in ACES else THIRDS[c] for c in range(54)]
MARAFONA_POINTS = 3


#: Tricks in a hand by number of seats: 20 with two (stock), 13 with three (39 cards).
TRICKS_PER_HAND = (0, 0, 20, 13, 10)


def tricks_per_hand(seats: int) -> int:
    return TRICKS_PER_HAND[seats]


def trick_thirds(trick: Trick) -> int:
    return sum(THIRDS[c] for c in trick.cards)


def hand_scores(state: State) -> tuple[HandScore, ...]:
    """Each side's score for the hand so far; final once every trick is played."""
    table = state.table
    seats = table.seats
    if seats == 3:
        return _hand_scores_each_alone(state)
    trump = state.trump
    played = state.played
    counts = [0, 0]  # per side: aces * 256 + third-cards
    leader = winner = table.battezzante
    for k in range(0, len(played) // seats * seats, seats):
        cards = played[k : k + seats]
        winner = (leader + winning_index(cards, trump)) % seats
        counts[winner & 1] += sum(map(_COUNT.__getitem__, cards))
        leader = winner
    last = [0, 0]
    if len(played) == seats * tricks_per_hand(seats):
        last[team_of(winner)] = 1
    marafona_team = team_of(state.marafona_seat) if state.marafona_seat >= 0 else -1
    options = table.options
    return (
        _side_score(options, counts[0] >> 8, counts[0] & 255, last[0], marafona_team == 0),
        _side_score(options, counts[1] >> 8, counts[1] & 255, last[1], marafona_team == 1),
    )


def _hand_scores_each_alone(state: State) -> tuple[HandScore, ...]:
    """``hand_scores`` with three seats (39 cards): one side per seat (B.3.1)."""
    table = state.table
    seats = table.seats
    trump = state.trump
    played = state.played
    sides = sides_of(seats)
    counts = [0] * sides  # per seat: aces * 256 + third-cards
    leader = winner = table.battezzante
    for k in range(0, len(played) // seats * seats, seats):
        cards = played[k : k + seats]
        winner = (leader + winning_index(cards, trump)) % seats
        counts[winner] += sum(map(_COUNT.__getitem__, cards))
        leader = winner
    last = [0] * sides
    if len(played) == seats * tricks_per_hand(seats):
        last[side_of(winner, seats)] = 1
    marafona = side_of(state.marafona_seat, seats) if state.marafona_seat >= 0 else -1
    options = table.options
    return tuple(
        _side_score(options, counts[t] >> 8, counts[t] & 255, last[t], marafona == t)
        for t in range(sides)
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
    return HandScore(aces, third_cards, last_trick, thirds, card_points, bonus, score)


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
