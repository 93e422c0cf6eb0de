"""Hand scores, credits and the end of the match (burraco.md §4, §2.4.4).

Scores are exact integers. A hand is scored per side of that hand (a pair, or a
player alone); match totals are kept per match side (pairs with 4 players, each
player with 2 or 3), so with 3 players each member of a pair is credited half the
pair's score, rounded up (§2.4.4).
"""

from __future__ import annotations

from typing import Final

from mazzo.games.burraco.cards import VALUE
from mazzo.games.burraco.melds import BURRACO_SIZE, SEMIPULITO, Burraco
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import HandScore, State, Table, hand_sides, taken_mask

BONUS: Final = {Burraco.PULITO: 200, Burraco.SEMIPULITO: 150, Burraco.SPORCO: 100}
CLOSING_BONUS: Final = 100
NO_POZZETTO: Final = 100


def burraco_of(options: Options, clean: Burraco) -> Burraco:
    """The kind a burraco scores as: with ``semipulito = false`` a semipulito is sporco."""
    if clean is SEMIPULITO and not options.semipulito:
        return Burraco.SPORCO
    return clean


def side_score(state: State, seats: tuple[int, ...], closer: int) -> HandScore:
    """One side's hand score, as if the hand ended now with ``closer`` closing (§4.2)."""
    options = state.table.options
    mask = sum(1 << s for s in seats)
    melded = bonuses = 0
    kinds = {Burraco.PULITO: 0, Burraco.SEMIPULITO: 0, Burraco.SPORCO: 0}
    for meld in state.melds:
        if not mask >> meld.seat & 1:
            continue
        melded += sum(map(VALUE.__getitem__, meld.cards))
        if len(meld.cards) >= BURRACO_SIZE:
            kind = burraco_of(options, meld.interp.clean)
            bonuses += BONUS[kind]
            kinds[kind] += 1
    closing = CLOSING_BONUS if closer in seats else 0
    in_hand = sum(sum(map(VALUE.__getitem__, state.hands[s])) for s in seats)
    no_pozzetto = 0 if taken_mask(state) & mask else NO_POZZETTO
    return HandScore(
        seats,
        melded,
        bonuses,
        closing,
        in_hand,
        no_pozzetto,
        melded + bonuses + closing - in_hand - no_pozzetto,
        kinds[Burraco.PULITO],
        kinds[Burraco.SEMIPULITO],
        kinds[Burraco.SPORCO],
    )


def hand_scores(state: State, closer: int = -1) -> tuple[HandScore, ...]:
    """Every side's score for the hand (final when the hand has ended)."""
    return tuple(side_score(state, seats, closer) for seats in hand_sides(state))


def half_up(score: int) -> int:
    """Half a pair's score, rounded toward +infinity (§2.4.4, BU-10)."""
    return -(-score // 2)


def credits(table: Table, scores: tuple[HandScore, ...]) -> tuple[int, ...]:
    """What each match side is credited for the hand."""
    if table.players != 3:
        return tuple(s.score for s in scores)
    by_seat = [0, 0, 0]
    for s in scores:
        for seat in s.seats:
            by_seat[seat] = half_up(s.score) if len(s.seats) == 2 else s.score
    return tuple(by_seat)


def match_result(table: Table, totals: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    """After hand ``table.hand_number``: is the match over, and who won (§4.3).

    To a target: once a total reaches it, the single highest total wins; a tie at the
    top plays another hand. After ``hands`` hands, or at the ``max_hands`` safeguard,
    the single highest total wins and a tie is a draw (no winner).
    """
    options = table.options
    top = max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == top)
    winners = leaders if len(leaders) == 1 else ()
    if options.hands:
        return table.hand_number >= options.hands, winners
    if top >= options.end_target(table.players) and winners:
        return True, winners
    if table.hand_number >= options.max_hands:
        return True, winners
    return False, ()
