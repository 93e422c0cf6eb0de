"""Checks of a state that came from outside (briscola.md §8).

A state is plain data that a client may build by hand, so nothing in it is trusted:
every card exactly once, sizes that fit the trick count, the trump card where the
draws put it, a seat to act that matches the tricks. Errors name the wire field at
fault (``state.briscola.hands[2].cards``) so the service can report a field violation.
Lists are checked for their length before their contents.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from mazzo.core.cards import code
from mazzo.core.checks import check_dealing, check_hand_number, check_state_options
from mazzo.core.errors import InvalidState
from mazzo.games.briscola.cards import IN_DECK, TOTAL_POINTS, deck_of
from mazzo.games.briscola.options import sides_of
from mazzo.games.briscola.rules import check_options
from mazzo.games.briscola.state import HandScore, Phase, State, Table
from mazzo.games.briscola.tricks import (
    DECK_SIZE,
    DRAW_ROUNDS,
    HAND_SIZE,
    STOCK_SIZE,
    TRICKS,
    hand_winner,
    trick_leaders,
    trump_card_taker,
)

P: Final = "state.briscola."
T: Final = P + "table."


@lru_cache(maxsize=256)
def check_table(table: Table) -> None:
    """Checks of the match-level fields. Memoised: they change at most once a hand, and
    a ``Table`` is an immutable value."""
    n = table.players
    if n not in DECK_SIZE:
        raise InvalidState("state.players", "players must be 2, 3 or 4")
    check_state_options(check_options, table.options, n, T, "briscola")
    check_dealing(table, n, P)
    check_hand_number(table.hand_number, T + "hand_number")
    sides = sides_of(n)
    won = table.hands_won
    if len(won) != sides:
        raise InvalidState(T + "hands_won", f"hands_won needs one count per side: {sides}")
    for i, w in enumerate(won):
        if not 0 <= w <= table.options.hands_to_win:
            raise InvalidState(
                f"{T}hands_won[{i}]", f"hands won must be 0..{table.options.hands_to_win}"
            )
    if sum(won) >= table.hand_number + (1 if max(won) == table.options.hands_to_win else 0):
        raise InvalidState(T + "hands_won", "more hands won than hands finished")
    if len(table.last_hand) not in (0, sides):
        raise InvalidState(T + "last_hand", "the last hand's scores need one entry per side")
    if table.last_hand:
        _check_hand_scores(table.last_hand, n)


def _check_hand_scores(scores: tuple[HandScore, ...], players: int) -> None:
    points = tuple(s.points for s in scores)
    for i, s in enumerate(scores):
        if not 0 <= s.points <= TOTAL_POINTS or not 0 <= s.tricks <= TRICKS[players]:
            raise InvalidState(f"{T}last_hand[{i}]", "points or tricks out of range")
    if sum(points) != TOTAL_POINTS or sum(s.tricks for s in scores) != TRICKS[players]:
        raise InvalidState(
            T + "last_hand", f"a hand's points add up to {TOTAL_POINTS} in {TRICKS[players]} tricks"
        )
    winner = hand_winner(points)
    for i, s in enumerate(scores):
        if s.won != (1 if i == winner else 0):
            raise InvalidState(f"{T}last_hand[{i}].won", "the winner is the side with most points")


def validate(state: State) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant."""
    table = state.table
    if len(state.hands) != table.players and table.players in DECK_SIZE:
        # Before the table's counts per side: the player count is what disagrees.
        raise InvalidState(
            "state.players", f"{table.players} players, but there are {len(state.hands)} hands"
        )
    check_table(table)
    n = table.players
    over = state.phase is Phase.OVER
    if state.phase not in (Phase.PLAY, Phase.OVER):
        raise InvalidState("state.phase", "the phase is PLAY or OVER")
    check_match(table, over)
    _check_cards(state)
    lead = trick_leaders(state)
    completed = len(state.played) // n
    in_trick = len(state.played) % n
    if over:
        if completed != TRICKS[n] or in_trick:
            raise InvalidState(P + "played", "a finished match keeps its last hand, all played")
    elif completed >= TRICKS[n]:
        raise InvalidState(P + "played", f"a hand has {TRICKS[n]} tricks, then it is scored")
    _check_sizes(state, lead[-1], completed, in_trick)
    _check_trump_card(state, lead)
    expected = (lead[-1] + in_trick) % n
    if not over and state.to_act != expected:
        raise InvalidState("state.to_act", f"seat {expected} is to act, not {state.to_act}")


def check_match(table: Table, over: bool) -> None:
    """The hands won fit the phase: one side has its hands exactly when it is over."""
    won = table.hands_won
    needed = table.options.hands_to_win
    if over:
        if won.count(needed) != 1:
            raise InvalidState(T + "hands_won", "a finished match has one side with its hands")
        if not table.last_hand or table.last_hand[won.index(needed)].won != 1:
            raise InvalidState(T + "last_hand", "the match ends with a hand its winner won")
    else:
        if max(won) >= needed:
            raise InvalidState(T + "hands_won", "a side with its hands would have ended the match")
        if bool(table.last_hand) != (table.hand_number > 1):
            raise InvalidState(
                T + "last_hand", "the last hand's scores are there from hand 2 on, only"
            )


def _check_cards(state: State) -> None:
    """Each card of the pack (39 with three players) exactly once across the hands, the
    stock and the cards played (§8); hands in canonical order; lists within bounds."""
    table = state.table
    n = table.players
    if state.trump_card not in IN_DECK:
        raise InvalidState(P + "trump_card", f"card {state.trump_card} is not in the pack")
    if len(state.stock) > STOCK_SIZE[n]:
        raise InvalidState(P + "stock", f"the stock holds at most {STOCK_SIZE[n]} cards")
    if len(state.played) > DECK_SIZE[n]:
        raise InvalidState(P + "played", f"a hand plays at most {DECK_SIZE[n]} cards")
    deck = deck_of(n, table.options.removed_two)
    pack = frozenset(deck)
    seen: set[int] = set()

    def place(c: int, field: str) -> None:
        if c not in pack:
            why = "it was taken out" if c in IN_DECK else "it is not in the pack"
            raise InvalidState(field, f"card {c} cannot be here: {why}")
        if c in seen:
            raise InvalidState(field, f"{code(c)} appears more than once in the state")
        seen.add(c)

    for s, hand in enumerate(state.hands):
        field = f"{P}hands[{s}].cards"
        if len(hand) > HAND_SIZE:
            raise InvalidState(field, f"a hand holds at most {HAND_SIZE} cards")
        for c in hand:
            place(c, field)
        if list(hand) != sorted(hand):
            raise InvalidState(field, "a hand is listed in canonical card order")
    for i, c in enumerate(state.stock):
        place(c, f"{P}stock[{i}]")
    for i, c in enumerate(state.played):
        place(c, f"{P}played[{i}]")
    if len(seen) != len(deck):
        missing = " ".join(code(c) for c in deck if c not in seen)
        raise InvalidState(P + "hands", f"cards missing from the state: {missing}")


def _check_sizes(state: State, leader: int, completed: int, in_trick: int) -> None:
    """Hand and stock sizes that fit the trick count (§8)."""
    n = state.table.players
    rounds = DRAW_ROUNDS[n]
    stock_size = STOCK_SIZE[n] - n * min(completed, rounds)
    if len(state.stock) != stock_size:
        raise InvalidState(P + "stock", f"the stock must hold {stock_size} cards")
    base = HAND_SIZE - max(0, completed - rounds)
    for s, hand in enumerate(state.hands):
        expected = base - (1 if (s - leader) % n < in_trick else 0)
        if len(hand) != expected:
            raise InvalidState(
                f"{P}hands[{s}].cards", f"seat {s} must hold {expected} cards, not {len(hand)}"
            )


def _check_trump_card(state: State, lead: list[int]) -> None:
    """At the bottom of the stock while there is one; then with the seat that drew it
    last, until that seat plays it (§3.4)."""
    n = state.table.players
    trump = state.trump_card
    if state.stock:
        if state.stock[-1] != trump:
            raise InvalidState(P + "stock", f"the trump card {code(trump)} lies under the stock")
        return
    taker = trump_card_taker(lead, n)
    if trump in state.played:
        i = state.played.index(trump)
        if i < DRAW_ROUNDS[n] * n or (lead[i // n] + i % n) % n != taker:
            raise InvalidState(
                f"{P}played[{i}]", f"the trump card was drawn by seat {taker}, after the stock"
            )
    elif trump not in state.hands[taker]:
        raise InvalidState(
            f"{P}hands[{taker}].cards", f"seat {taker} drew the trump card {code(trump)} last"
        )
