"""Hand scores, claim values and the end of a game (maraffa.md §3.6, §4)."""

from __future__ import annotations

from mazzo.games.maraffa.cards import ACES, THIRDS
from mazzo.games.maraffa.options import ClaimRule, Options
from mazzo.games.maraffa.state import ClaimResult, HandScore, State, Trick, team_of
from mazzo.games.maraffa.tricks import winning_index

LAST_TRICK_THIRDS = 3
#: Per card id: 256 for an ace, 1 for a card worth one third (3, 2, K, Q, J), so one
#: sum over a trick counts both.
_COUNT = [256 if c in ACES else THIRDS[c] for c in range(54)]
MARAFONA_POINTS = 3


def tricks_per_hand(seats: int) -> int:
    return 20 if seats == 2 else 10


def trick_thirds(trick: Trick) -> int:
    return sum(THIRDS[c] for c in trick.cards)


def hand_scores(state: State) -> tuple[HandScore, HandScore]:
    """Each side's score for the hand so far; final once every trick is played."""
    table = state.table
    seats = table.seats
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
    team = team_of(seat)
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
    """The side that wins the game after a hand, or None (§4.2); ties go on."""
    reached = [t for t in (0, 1) if totals[t] >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def target_units(options: Options, game_number: int) -> int:
    """A game's starting target in match units."""
    points = options.game_target(game_number)
    return 3 * points if options.keep_thirds else points
