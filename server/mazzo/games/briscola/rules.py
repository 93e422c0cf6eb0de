"""The Briscola engine: deal, legal moves and apply, exactly per briscola.md.

Pure functions over immutable ``State`` values. ``apply`` checks every move and
carries out every step that needs no decision: completing a trick, the draws from
the stock, scoring the hand, ending the match or dealing the next hand (README §4.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.briscola import events as ev
from mazzo.games.briscola.cards import POINTS, SUIT, TWOS, deck_of, winning_index
from mazzo.games.briscola.moves import PLAYS, Move, PlayCard
from mazzo.games.briscola.options import (
    MAX_HANDS_TO_WIN,
    PLAYER_COUNTS,
    TWO_OF_CLUBS,
    Options,
    sides_of,
)
from mazzo.games.briscola.state import NO_SIDE, Phase, State, Table
from mazzo.games.briscola.tricks import (
    HAND_SIZE,
    TRICKS,
    first_leader,
    hand_scores,
    hand_winner,
    side_points,
    trick_leaders,
)

F: Final = "options.briscola."


def check_options(options: Options, players: int) -> None:
    """Reject options out of their allowed ranges (briscola.md §5)."""
    if players not in PLAYER_COUNTS:
        raise InvalidArgument("players", f"Briscola is for 2, 3 or 4 players, not {players}")
    if not 1 <= options.hands_to_win <= MAX_HANDS_TO_WIN:
        raise InvalidArgument(F + "hands_to_win", f"hands_to_win must be 1..{MAX_HANDS_TO_WIN}")
    if options.removed_two not in TWOS:
        raise InvalidArgument(F + "removed_two", "removed_two must be 2S, 2H, 2D or 2C")
    if players != 3 and options.removed_two != TWO_OF_CLUBS:
        raise InvalidArgument(F + "removed_two", "removed_two is for 3 players only")
    if players != 4 and options.partners_show_hands:
        raise InvalidArgument(F + "partners_show_hands", "partners_show_hands is for 4 players")
    if options.first_dealer is not None and not 0 <= options.first_dealer < players:
        raise InvalidArgument(F + "first_dealer", f"first_dealer must be 0..{players - 1}")


# --------------------------------------------------------------------------- deal


def deal(options: Options, players: int, seed: int) -> tuple[State, list[ev.Event]]:
    """A new match: the first dealer by the seed (draw 0) unless fixed, then hand 1."""
    check_options(options, players)
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    dealer = draw_below(seed, 0, players) if options.first_dealer is None else options.first_dealer
    table = Table(
        options=options,
        players=players,
        seed=seed,
        counter=1,
        dealer=dealer,
        hand_number=1,
        hands_won=(0,) * sides_of(players),
    )
    return deal_hand(table)


def deal_hand(table: Table) -> tuple[State, list[ev.Event]]:
    """Shuffle with the table's counter and deal the hand (§3.1)."""
    deck = shuffled(deck_of(table.players, table.options.removed_two), table.seed, table.counter)
    return lay_out(table._replace(counter=table.counter + 1), deck)


def lay_out(table: Table, deck: Sequence[int]) -> tuple[State, list[ev.Event]]:
    """Deal a shuffled deck (index 0 the top, §3.1): three cards at a time to each seat
    from ``next(dealer)``; the next card face up as the trump card, under the rest of
    the stock, so that it is drawn last."""
    n = table.players
    hands: list[tuple[int, ...]] = [()] * n
    for i in range(n):
        seat = (table.dealer + 1 + i) % n
        hands[seat] = tuple(sorted(deck[HAND_SIZE * i : HAND_SIZE * (i + 1)]))
    trump_card = deck[HAND_SIZE * n]
    stock = (*deck[HAND_SIZE * n + 1 :], trump_card)
    leader = first_leader(table.dealer, n)
    state = State(table, Phase.PLAY, leader, trump_card, tuple(hands), stock, ())
    return state, [ev.HandDealt(table.hand_number, table.dealer, leader, trump_card)]


# --------------------------------------------------------------------------- moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Any card of the hand, in canonical order: there is no obligation to follow suit
    nor to trump (§3.3); none once the match is over."""
    if state.phase is not Phase.PLAY:
        return ()
    out: list[Move] = []
    for c in state.hands[state.to_act]:
        move = PLAYS[c]
        assert move is not None
        out.append(move)
    return tuple(out)


def verify(state: State, move: Move) -> None:
    """Raise ``IllegalMove`` (or ``NotAllowedNow``) with the reason if ``move`` is illegal."""
    if state.phase is Phase.OVER:
        raise NotAllowedNow("move", "the match is over")
    if type(move) is not PlayCard:
        raise IllegalMove("move", f"not a Briscola move: {move!r}")
    if move.card not in state.hands[state.to_act]:
        raise IllegalMove("move.briscola.play_card.card", f"{move}: the card is not in hand")


def apply(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """The state after ``move`` and the events it caused; raises if it is illegal."""
    verify(state, move)
    assert isinstance(move, PlayCard)
    table = state.table
    n = table.players
    seat = state.to_act
    c = move.card
    hands = list(state.hands)
    hands[seat] = tuple(x for x in hands[seat] if x != c)
    played = state.played + (c,)  # noqa: RUF005 (concatenation: one copy)
    events: list[ev.Event] = [ev.CardPlayed(seat, c)]
    in_trick = len(played) % n
    if in_trick:
        next_seat = (seat + 1) % n
        new = State(
            table, Phase.PLAY, next_seat, state.trump_card, tuple(hands), state.stock, played
        )
        return new, events
    # The trick is complete: the highest trump, else the highest card of the suit led.
    cards = played[-n:]
    leader = (seat + 1) % n
    winner = (leader + winning_index(cards, SUIT[state.trump_card])) % n
    number = len(played) // n
    points = 0
    for x in cards:
        points += POINTS[x]
    events.append(ev.TrickWon(number, winner, points))
    stock = state.stock
    if stock:
        # Each draws one card, the winner first, then in playing order (§3.4).
        for i in range(n):
            drawer = (winner + i) % n
            hands[drawer] = tuple(sorted(hands[drawer] + (stock[i],)))
            if len(stock) == n and i == n - 1:
                events.append(ev.TrumpCardTaken(drawer, stock[i]))
            else:
                events.append(ev.Drew(drawer))
        stock = stock[n:]
    new = State(table, Phase.PLAY, winner, state.trump_card, tuple(hands), stock, played)
    if number == TRICKS[n]:
        return _end_hand(new, events)
    return new, events


def _end_hand(state: State, events: list[ev.Event]) -> tuple[State, list[ev.Event]]:
    """Score the hand; the match ends, or the next hand is dealt (§4)."""
    table = state.table
    points, tricks = side_points(state, trick_leaders(state))
    scores = hand_scores(points, tricks)
    winner = hand_winner(points)
    won = list(table.hands_won)
    if winner != NO_SIDE:
        won[winner] += 1
    hands_won = tuple(won)
    events.append(ev.HandScored(scores, winner, hands_won))
    table = table._replace(hands_won=hands_won, last_hand=scores)
    if winner != NO_SIDE and hands_won[winner] >= table.options.hands_to_win:
        events.append(ev.MatchWon(winner, hands_won))
        return state._replace(table=table, phase=Phase.OVER), events
    # A drawn hand is dealt again by the same dealer; otherwise the deal passes on.
    dealer = table.dealer if winner == NO_SIDE else (table.dealer + 1) % table.players
    table = table._replace(dealer=dealer, hand_number=table.hand_number + 1)
    new, dealt = deal_hand(table)
    events.extend(dealt)
    return new, events


# --------------------------------------------------------------------------- queries


def finished(state: State) -> bool:
    return state.phase is Phase.OVER


def match_winner(state: State) -> int | None:
    """The side that won the match, once it is over."""
    if state.phase is not Phase.OVER:
        return None
    won = state.table.hands_won
    return won.index(max(won))
