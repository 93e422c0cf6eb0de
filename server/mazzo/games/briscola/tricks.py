"""Tricks from the flat list of plays (briscola.md §3): leaders, winners, the draws,
and each side's points."""

from __future__ import annotations

from typing import Final

from mazzo.games.briscola.cards import POINTS, SUIT, TOTAL_POINTS, winning_index
from mazzo.games.briscola.options import side_of, sides_of
from mazzo.games.briscola.state import NO_SEAT, NO_SIDE, HandScore, State, Trick

HAND_SIZE: Final = 3
#: Cards in the pack by players: 40, but 39 with three (one two taken out).
DECK_SIZE: Final = {2: 40, 3: 39, 4: 40}
#: Tricks in a hand: 20, 13, 10.
TRICKS: Final = {n: DECK_SIZE[n] // n for n in (2, 3, 4)}
#: Tricks after which everyone draws: all but the last three (17, 10, 7).
DRAW_ROUNDS: Final = {n: TRICKS[n] - HAND_SIZE for n in (2, 3, 4)}
#: Cards in the stock after the deal, the face-up trump card included (34, 30, 28).
STOCK_SIZE: Final = {n: DECK_SIZE[n] - HAND_SIZE * n for n in (2, 3, 4)}
#: A side wins the hand with more than half the points (§4.1).
WINNING_POINTS: Final = TOTAL_POINTS // 2 + 1


def first_leader(dealer: int, players: int) -> int:
    """The player to the dealer's right, ``next(dealer)``, leads trick 1 (§3.2)."""
    return (dealer + 1) % players


def leaders(played: tuple[int, ...], trump: int, first: int, players: int) -> list[int]:
    """The leader of every trick of the hand, the one being played included."""
    leader = first
    out = [leader]
    for k in range(0, len(played) // players * players, players):
        leader = (leader + winning_index(played[k : k + players], trump)) % players
        out.append(leader)
    return out


def trick_leaders(state: State) -> list[int]:
    table = state.table
    first = first_leader(table.dealer, table.players)
    return leaders(state.played, SUIT[state.trump_card], first, table.players)


def completed_tricks(state: State, lead: list[int]) -> tuple[Trick, ...]:
    n = state.table.players
    played = state.played
    return tuple(
        Trick(lead[k], played[k * n : (k + 1) * n], lead[k + 1]) for k in range(len(played) // n)
    )


def current_trick(state: State, lead: list[int]) -> Trick:
    n = state.table.players
    done = len(state.played) // n * n
    return Trick(lead[-1], state.played[done:])


def trump_card_taker(lead: list[int], players: int) -> int:
    """Who drew the face-up trump card: the last to draw after the last draw round, the
    seat before that trick's winner (§3.4); NO_SEAT while it is under the stock."""
    rounds = DRAW_ROUNDS[players]
    if len(lead) <= rounds:
        return NO_SEAT
    return (lead[rounds] - 1) % players


def side_points(state: State, lead: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per side, the card points and the number of tricks it has taken so far."""
    n = state.table.players
    sides = sides_of(n)
    points = [0] * sides
    tricks = [0] * sides
    played = state.played
    for k in range(len(played) // n):
        side = side_of(lead[k + 1], n)
        tricks[side] += 1
        for c in played[k * n : (k + 1) * n]:
            points[side] += POINTS[c]
    return tuple(points), tuple(tricks)


def hand_winner(points: tuple[int, ...]) -> int:
    """The side that wins a finished hand, or NO_SIDE for a draw (§4.1): with two
    sides 61 or more wins and 60-60 is a draw; with three players the most points
    win, and a tie at the top is a draw."""
    best = max(points)
    if points.count(best) > 1:
        return NO_SIDE
    return points.index(best)


def hand_scores(points: tuple[int, ...], tricks: tuple[int, ...]) -> tuple[HandScore, ...]:
    winner = hand_winner(points)
    return tuple(
        HandScore(points[s], tricks[s], 1 if s == winner else 0) for s in range(len(points))
    )
