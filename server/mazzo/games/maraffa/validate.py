"""Checks of a state that came from outside (maraffa.md §8).

A state is plain data that a client may build by hand, so nothing in it is trusted:
every card exactly once, sizes that fit the trick count, tricks with their true
winners, a seat to act that matches the phase. Errors name the wire field at fault
(``state.maraffa.hands[2].cards``) so the service can report a field violation.
"""

from __future__ import annotations

from collections.abc import Iterable

from mazzo.core.cards import code
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.maraffa.cards import BIT, DECK, FOUR_OF_COINS, IN_DECK, MARAFONA
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import Series
from mazzo.games.maraffa.rules import check_options, to_act, trick_winner
from mazzo.games.maraffa.scoring import LAST_TRICK_THIRDS, target_units, tricks_per_hand
from mazzo.games.maraffa.signals import enabled
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, HandScore, Phase, State

FULL_DECK = sum(BIT[c] for c in DECK)
P = "state.maraffa."


def hand_mask(cards: Iterable[int], field: str) -> int:
    """The mask of a hand given as a card list; rejects foreign and repeated cards."""
    mask = 0
    for c in cards:
        if c not in IN_DECK:
            raise InvalidState(field, f"card {c} is not in the Maraffa pack")
        bit = BIT[c]
        if mask & bit:
            raise InvalidState(field, f"{code(c)} appears twice")
        mask |= bit
    return mask


def validate(state: State, claimed_to_act: int | None = None) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant."""
    table = state.table
    seats = table.seats
    options = table.options
    try:
        check_options(options, table.players)
    except InvalidArgument as e:
        raise InvalidState(P + e.field.removeprefix("options.maraffa."), e.reason) from e
    if seats != (2 if table.players == 2 else 4):
        raise InvalidState("state.players", "players must be 2, 3 or 4")
    _check_table(state)
    _check_cards(state)
    _check_tricks(state)
    _check_marafona(state)
    if state.phase is not Phase.OVER and claimed_to_act is not None:
        expected = to_act(state)
        if claimed_to_act != expected:
            raise InvalidState("state.to_act", f"seat {expected} is to act, not {claimed_to_act}")


def _seat(value: int, seats: int, field: str) -> None:
    if not 0 <= value < seats:
        raise InvalidState(field, f"seat {value} is out of range 0..{seats - 1}")


def _check_table(state: State) -> None:
    table = state.table
    seats = table.seats
    options = table.options
    if not 0 <= table.seed < 2**64:
        raise InvalidState(P + "rng.seed", "the seed must fit in 64 bits")
    if table.counter < 1:
        raise InvalidState(P + "rng.counter", "the generator counter starts at 1 after a deal")
    _seat(table.dealer, seats, P + "dealer")
    _seat(table.battezzante, seats, P + "battezzante")
    if table.hand_number < 1:
        raise InvalidState(P + "hand_number", "hand numbers start at 1")
    if table.hand_number > 1 and table.battezzante != (table.dealer + 1) % seats:
        raise InvalidState(P + "battezzante", "from hand 2 the battezzante is next(dealer)")
    if table.hand_number == 1 and seats == 4 and _four_of_coins_holder(state) != table.battezzante:
        raise InvalidState(P + "battezzante", "in hand 1 the holder of 4D is the battezzante")
    best_of_three = options.series is Series.BEST_OF_THREE
    if not 1 <= table.game_number <= (3 if best_of_three else 1):
        raise InvalidState(P + "game_number", "game number out of range for the series")
    won = table.games_won
    if len(won) != 2 or min(won) < 0:
        raise InvalidState(P + "games_won", "games_won needs one count per side")
    needed = 2 if best_of_three else 1
    over = state.phase is Phase.OVER
    if over:
        if max(won) != needed or min(won) >= needed or sum(won) != table.game_number:
            raise InvalidState(P + "games_won", "a finished match needs one side with its games")
    elif max(won) >= needed or sum(won) != table.game_number - 1:
        raise InvalidState(P + "games_won", "games won do not match the game number")
    if len(table.totals) != 2 or min(table.totals) < 0:
        raise InvalidState("state.match_score", "match_score needs one total >= 0 per side")
    start = target_units(options, table.game_number)
    if table.effective_target < start:
        raise InvalidState(P + "effective_target", f"effective_target is below {start}")
    if not over and max(table.totals) >= table.effective_target:
        raise InvalidState("state.match_score", "a total at the target would have ended the game")
    if table.redeal_requests and not options.redeal_weak_hand:
        raise InvalidState(P + "redeal_requests", "redeals are off in this match")
    for i, s in enumerate(table.redeal_requests):
        _seat(s, seats, f"{P}redeal_requests[{i}]")
    if len(table.last_hand) not in (0, 2):
        raise InvalidState(P + "last_hand_scores", "last hand scores need one entry per side")
    for i, score in enumerate(table.last_hand):
        _check_hand_score(score, state, f"{P}last_hand_scores[{i}]")
    claim = table.last_claim
    if claim is not None:
        _seat(claim.seat, seats, P + "last_claim.seat")
        if claim.team != claim.seat % 2 or claim.valid != (claim.value >= claim.needed):
            raise InvalidState(P + "last_claim", "the claim result is inconsistent")
    if state.phase is Phase.TRUMP:
        if state.trump != NO_SUIT:
            raise InvalidState(P + "trump", "trump is set only after it is declared")
    elif state.phase is Phase.PLAY and not 0 <= state.trump < 4:
        raise InvalidState(P + "trump", "the play phase needs a trump suit")


def _four_of_coins_holder(state: State) -> int | None:
    """Who was dealt 4D (4 seats): the seat holding it, or the seat that played it."""
    for s, hand in enumerate(state.hands):
        if hand & BIT[FOUR_OF_COINS]:
            return s
    for trick in (*state.tricks, state.trick):
        if FOUR_OF_COINS in trick.cards:
            return (trick.leader + trick.cards.index(FOUR_OF_COINS)) % state.table.seats
    return None


def _check_hand_score(score: HandScore, state: State, field: str) -> None:
    options = state.table.options
    thirds = 3 * score.aces + score.third_cards + LAST_TRICK_THIRDS * score.last_trick
    bonus_unit = 9 if options.keep_thirds else 3
    expected = (thirds if options.keep_thirds else thirds // 3) + score.marafona_bonus
    if (
        score.aces > 4
        or score.third_cards > 20
        or score.last_trick > 1
        or score.thirds != thirds
        or score.card_points != thirds // 3
        or score.marafona_bonus not in (0, bonus_unit)
        or score.hand_score != expected
    ):
        raise InvalidState(field, "the hand score's components do not add up")


def _check_cards(state: State) -> None:
    """Each of the 40 cards exactly once; sizes that fit the trick count (§8)."""
    table = state.table
    seats = table.seats
    seen = 0

    def take(c: int, field: str) -> None:
        nonlocal seen
        if c not in IN_DECK:
            raise InvalidState(field, f"card {c} is not in the Maraffa pack")
        if seen & BIT[c]:
            raise InvalidState(field, f"{code(c)} appears more than once in the state")
        seen |= BIT[c]

    if len(state.hands) != seats:
        raise InvalidState(P + "hands", f"there must be {seats} hands")
    for s, hand in enumerate(state.hands):
        if hand & seen:
            raise InvalidState(f"{P}hands[{s}].cards", "a card appears more than once in the state")
        seen |= hand
    for i, c in enumerate(state.trick_cards):
        take(c, f"{P}current_trick.cards[{i}]")
    for t, trick in enumerate(state.tricks):
        for i, c in enumerate(trick.cards):
            take(c, f"{P}tricks[{t}].cards[{i}]")
    for i, c in enumerate(state.stock):
        take(c, f"{P}stock[{i}]")
    if seen != FULL_DECK:
        missing = " ".join(code(c) for c in DECK if not seen & BIT[c])
        raise InvalidState(P + "hands", f"cards missing from the state: {missing}")

    completed = len(state.tricks)
    if seats == 2:
        base = 10 if completed <= 10 else 20 - completed
        stock_size = 20 - 2 * min(completed, 10)
        if len(state.stock) != stock_size:
            raise InvalidState(P + "stock", f"the stock must hold {stock_size} cards")
        if len(state.drawn) != 2 * min(completed, 10):
            raise InvalidState(P + "drawn", "drawn cards do not match the tricks played")
        for i, c in enumerate(state.drawn):
            if c not in IN_DECK or c in state.stock or state.drawn.index(c) != i:
                raise InvalidState(f"{P}drawn[{i}]", "a drawn card must be a distinct card")
    else:
        base = 10 - completed
        if state.stock or state.drawn:
            raise InvalidState(P + "stock", "only the 2-player form has a stock")
    for s, hand in enumerate(state.hands):
        played = (s - state.leader) % seats < len(state.trick_cards)
        expected = base - (1 if played else 0)
        if hand.bit_count() != expected:
            raise InvalidState(
                f"{P}hands[{s}].cards",
                f"seat {s} must hold {expected} cards, not {hand.bit_count()}",
            )


def _check_tricks(state: State) -> None:
    table = state.table
    seats = table.seats
    phase = state.phase
    completed = len(state.tricks)
    per_hand = tricks_per_hand(seats)
    if phase is Phase.TRUMP and (completed or state.trick_cards):
        raise InvalidState(P + "tricks", "no card is played before trump is declared")
    if completed > per_hand or (completed == per_hand and phase is not Phase.OVER):
        raise InvalidState(P + "tricks", f"a hand has {per_hand} tricks")
    allowed = enabled(table.options, seats)
    leader = table.battezzante
    for t, trick in enumerate(state.tricks):
        field = f"{P}tricks[{t}]"
        if trick.leader != leader:
            raise InvalidState(field + ".leader", f"trick {t + 1} was led by seat {leader}")
        if len(trick.cards) != seats:
            raise InvalidState(field + ".cards", f"a completed trick has {seats} cards")
        if not 0 <= state.trump < 4:
            raise InvalidState(P + "trump", "tricks were played, so trump must be set")
        winner = trick_winner(trick, state.trump, seats)
        if trick.winner != winner:
            raise InvalidState(field + ".winner", f"trick {t + 1} was won by seat {winner}")
        _check_signals(trick.signals, len(trick.cards), allowed, field)
        leader = winner
    if state.leader != leader:
        raise InvalidState(P + "current_trick.leader", f"seat {leader} leads this trick")
    if len(state.trick_cards) >= seats:
        raise InvalidState(P + "current_trick.cards", "the current trick is already complete")
    _check_signals(state.trick_signals, len(state.trick_cards), allowed, P + "current_trick")
    if phase is not Phase.TRUMP and state.trick_cards and not 0 <= state.trump < 4:
        raise InvalidState(P + "trump", "cards were played, so trump must be set")


def _check_signals(
    signals: tuple[int, ...], n: int, allowed: frozenset[Signal], field: str
) -> None:
    if len(signals) > n:
        raise InvalidState(field + ".signals", "more signals than cards")
    for i, s in enumerate(signals):
        if s and s not in allowed:
            raise InvalidState(f"{field}.signals[{i}]", f"signal {s} is not enabled")


def _check_marafona(state: State) -> None:
    seat = state.marafona_seat
    if seat == NO_SEAT:
        return
    _seat(seat, state.table.seats, P + "marafona_seat")
    if not 0 <= state.trump < 4:
        raise InvalidState(P + "marafona_seat", "no marafona before trump is declared")
    top = MARAFONA[state.trump]
    held = state.hands[seat] & top
    seats = state.table.seats
    for trick in (*state.tricks, state.trick):
        for i, c in enumerate(trick.cards):
            if (trick.leader + i) % seats == seat:
                held |= BIT[c] & top
    if held != top:
        raise InvalidState(P + "marafona_seat", f"seat {seat} did not hold the marafona")
