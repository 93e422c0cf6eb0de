"""Checks of a state that came from outside (maraffa.md §8).

A state is plain data that a client may build by hand, so nothing in it is trusted:
every card exactly once, sizes that fit the trick count, tricks with their true
winners, a seat to act that matches the phase. Errors name the wire field at fault
(``state.maraffa.hands[2].cards``) so the service can report a field violation.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final, NoReturn

from mazzo.core.cards import code
from mazzo.core.checks import check_dealing, check_hand_number, check_seat, check_state_options
from mazzo.core.errors import InvalidState
from mazzo.games.maraffa.cards import BIT, DECK, FOUR_OF_COINS, IN_DECK, MARAFONA, SUIT, TRUMP_ACE
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import MarafonaRule, Series, seats_for
from mazzo.games.maraffa.rules import check_options
from mazzo.games.maraffa.scoring import LAST_TRICK_THIRDS, target_units, tricks_per_hand
from mazzo.games.maraffa.signals import enabled
from mazzo.games.maraffa.state import (
    NO_SEAT,
    NO_SUIT,
    HandScore,
    Phase,
    State,
    Table,
    side_of,
    sides_of,
)
from mazzo.games.maraffa.tricks import seat_of_play, trick_leaders

FULL_DECK: Final = sum(BIT[c] for c in DECK)
P = "state.maraffa."
T = P + "table."


def hand_mask(cards: Collection[int], field: str) -> int:
    """The mask of a hand given as a card list; rejects foreign and repeated cards."""
    if IN_DECK.issuperset(cards):
        mask = sum(map(BIT.__getitem__, cards))
        if mask.bit_count() == len(cards):
            return mask
    mask = 0
    for c in cards:
        if c not in IN_DECK:
            raise InvalidState(field, f"card {c} is not in the Maraffa pack")
        if mask & BIT[c]:
            raise InvalidState(field, f"{code(c)} appears twice")
        mask |= BIT[c]
    return mask


def validate(state: State) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant."""
    table = state.table
    check_table(table)
    over = state.phase is Phase.OVER
    won = table.games_won
    needed = 2 if table.options.series is Series.BEST_OF_THREE else 1
    if over:
        if max(won) != needed or sum(won) != table.game_number:
            raise InvalidState(T + "games_won", "a finished match needs one side with its games")
    elif max(won) >= needed or sum(won) != table.game_number - 1:
        raise InvalidState(T + "games_won", "games won do not match the game number")
    if not over and max(table.totals) >= table.effective_target:
        raise InvalidState("state.match_score", "a total at the target would have ended the game")
    if state.phase is Phase.TRUMP:
        if state.trump != NO_SUIT:
            raise InvalidState(P + "trump", "trump is set only after it is declared")
    elif (state.phase is Phase.PLAY or state.played) and not 0 <= state.trump < 4:
        raise InvalidState(P + "trump", "cards are played, so trump must be set")
    _check_cards(state)
    leaders = trick_leaders(state)
    _check_play(state, leaders)
    _check_sizes(state, leaders[-1])
    if table.hand_number == 1 and _first_battezzante(state, leaders) != table.battezzante:
        raise InvalidState(
            T + "battezzante", "in hand 1 the battezzante is the seat dealt 4D (§3.2.1, §2.3.4)"
        )
    _check_marafona(state, leaders)


# A table changes once a hand: a few new ones a second under load; 256 is four times
# the 64 matches in flight of the soak and the bench (codec.common.TABLE_ENTRIES).
@lru_cache(maxsize=256)
def check_table(table: Table) -> None:
    """Checks of the match-level fields. Memoised: they change at most once a hand, and
    a ``Table`` is an immutable value."""
    seats = table.seats
    options = table.options
    if table.players not in (2, 3, 4):
        raise InvalidState("state.players", "players must be 2, 3 or 4")
    check_state_options(check_options, options, table.players, T, "maraffa")
    if seats != seats_for(options, table.players):
        raise InvalidState(
            "state.players",
            f"players must be 2, 3 or 4 and fit the table: {seats} seats for {table.players}",
        )
    sides = sides_of(seats)
    check_dealing(table, seats, P)
    check_seat(table.battezzante, seats, T + "battezzante")
    check_hand_number(table.hand_number, T + "hand_number")
    if table.hand_number > 1 and table.battezzante != (table.dealer + 1) % seats:
        raise InvalidState(T + "battezzante", "from hand 2 the battezzante is next(dealer)")
    best_of_three = options.series is Series.BEST_OF_THREE
    # Two wins end a series: within three games with two sides, four with three (1-1-1).
    if not 1 <= table.game_number <= (sides + 1 if best_of_three else 1):
        raise InvalidState(T + "game_number", "game number out of range for the series")
    won = table.games_won
    if len(won) != sides or min(won) < 0:
        raise InvalidState(T + "games_won", "games_won needs one count per side")
    if len(table.totals) != sides or min(table.totals) < 0:
        raise InvalidState("state.match_score", "match_score needs one total >= 0 per side")
    start = target_units(options, table.game_number)
    if table.effective_target < start:
        raise InvalidState(T + "effective_target", f"effective_target is below {start}")
    if table.redeal_requests and not options.redeal_weak_hand:
        raise InvalidState(T + "redeal_requests", "redeals are off in this match")
    for i, s in enumerate(table.redeal_requests):
        check_seat(s, seats, f"{T}redeal_requests[{i}]")
    if len(table.last_hand) not in (0, sides):
        raise InvalidState(T + "last_hand_scores", "last hand scores need one entry per side")
    for i, score in enumerate(table.last_hand):
        _check_hand_score(score, options.keep_thirds, f"{T}last_hand_scores[{i}]")
    claim = table.last_claim
    if claim is not None:
        check_seat(claim.seat, seats, T + "last_claim.seat")
        if claim.team != side_of(claim.seat, seats) or claim.valid != (claim.value >= claim.needed):
            raise InvalidState(T + "last_claim", "the claim result is inconsistent")


def _first_battezzante(state: State, leaders: list[int]) -> int:
    """The battezzante of hand 1: the seat dealt 4D, or next(dealer) when 4D was dealt to
    the stock (2 players). Hands change only by plays and, with 2 players, draws."""
    seats = state.table.seats
    four = FOUR_OF_COINS
    if four in state.stock or four in state.drawn:
        return (state.table.dealer + 1) % seats
    if four in state.played:
        return seat_of_play(leaders, state.played.index(four), seats)
    return next(s for s, hand in enumerate(state.hands) if hand & BIT[four])


def _check_hand_score(score: HandScore, keep_thirds: bool, field: str) -> None:
    if not hand_score_adds_up(score, keep_thirds, marafona=True):
        raise InvalidState(field, "the hand score's components do not add up")


def hand_score_adds_up(score: HandScore, keep_thirds: bool, marafona: bool) -> bool:
    """Whether a hand's recorded score is what its components make: the thirds of the
    aces, the third cards and the last trick; the points of those thirds (kept, or
    dropped each hand); and the marafona's bonus, in the forms that have it (Trionfo
    has none)."""
    thirds = 3 * score.aces + score.third_cards + LAST_TRICK_THIRDS * score.last_trick
    bonus_unit = 9 if keep_thirds else 3
    expected = (thirds if keep_thirds else thirds // 3) + score.marafona_bonus
    return not (
        score.aces > 4
        or score.third_cards > 20
        or score.last_trick > 1
        or score.thirds != thirds
        or score.card_points != thirds // 3
        or score.marafona_bonus not in ((0, bonus_unit) if marafona else (0,))
        or score.hand_score != expected
    )


def _check_cards(state: State) -> None:
    """Each of the 40 cards (39 in the form for three) exactly once across hands, played
    cards and stock (§8, maraffa-forms.md B.6)."""
    seats = state.table.seats
    if len(state.hands) != seats:
        raise InvalidState(P + "hands", f"there must be {seats} hands")
    held = 0
    for hand in state.hands:
        if held & hand:
            _find_card_error(state)
        held |= hand
    rest = state.played + state.stock
    # rest holds no foreign card (the codec checks), so with no repeat its sum is its union.
    rest_mask = sum(map(BIT.__getitem__, rest))
    full = FULL_DECK if seats != 3 else FULL_DECK ^ BIT[state.table.options.removed_four]
    if len(set(rest)) != len(rest) or held & rest_mask or held | rest_mask != full:
        _find_card_error(state)


def _find_card_error(state: State) -> None:
    """The slow path of ``_check_cards``: name the first field at fault."""
    removed = BIT[state.table.options.removed_four] if state.table.seats == 3 else 0
    out = f"{code(state.table.options.removed_four)} is out of the 39-card deck (removed_four)"
    card_error(state.hands, (("played", state.played), ("stock", state.stock)), removed, out)


def card_error(
    hands: Sequence[int],
    lists: Sequence[tuple[str, Sequence[int]]],
    removed: int = 0,
    out: str = "",
) -> NoReturn:
    """The slow path of a check of the cards, in either form: the first field at fault
    among the hands (masks) and the ``lists`` of cards (field name, cards), named;
    ``removed`` are the cards out of the pack, refused with ``out``."""
    seen = 0
    for s, hand in enumerate(hands):
        if hand & seen:
            raise InvalidState(f"{P}hands[{s}].cards", "a card appears more than once in the state")
        if hand & removed:
            raise InvalidState(f"{P}hands[{s}].cards", out)
        seen |= hand
    for field, cards in lists:
        for i, c in enumerate(cards):
            bit = BIT[c] if c in IN_DECK else 0
            if not bit:
                raise InvalidState(f"{P}{field}[{i}]", f"card {c} is not in the Maraffa pack")
            if seen & bit:
                raise InvalidState(f"{P}{field}[{i}]", f"{code(c)} appears more than once")
            if bit & removed:
                raise InvalidState(f"{P}{field}[{i}]", out)
            seen |= bit
    missing = " ".join(code(c) for c in DECK if not (seen | removed) & BIT[c])
    raise InvalidState(P + "hands", f"cards missing from the state: {missing}")


def _check_sizes(state: State, leader: int) -> None:
    """Hand, stock and drawn sizes that fit the trick count (§8)."""
    table = state.table
    seats = table.seats
    completed = len(state.played) // seats
    if seats == 2:
        base = 10 if completed <= 10 else 20 - completed
        stock_size = 20 - 2 * min(completed, 10)
        if len(state.stock) != stock_size:
            raise InvalidState(P + "stock", f"the stock must hold {stock_size} cards")
        if len(state.drawn) != 2 * min(completed, 10):
            raise InvalidState(P + "drawn", "drawn cards do not match the tricks played")
        stock = set(state.stock)
        if len(set(state.drawn)) != len(state.drawn) or stock.intersection(state.drawn):
            raise InvalidState(P + "drawn", "drawn cards must be distinct and out of the stock")
    else:
        base = tricks_per_hand(seats) - completed
        if state.stock or state.drawn:
            raise InvalidState(P + "stock", "only the 2-player form has a stock")
    in_trick = len(state.played) - completed * seats
    for s, hand in enumerate(state.hands):
        expected = base - (1 if (s - leader) % seats < in_trick else 0)
        if hand.bit_count() != expected:
            raise InvalidState(
                f"{P}hands[{s}].cards",
                f"seat {s} must hold {expected} cards, not {hand.bit_count()}",
            )


def _check_play(state: State, leaders: list[int]) -> None:
    """Trick structure, the seat to act, the signals (§8)."""
    table = state.table
    seats = table.seats
    phase = state.phase
    played = state.played
    completed = len(played) // seats
    per_hand = tricks_per_hand(seats)
    if phase is Phase.TRUMP and played:
        raise InvalidState(P + "played", "no card is played before trump is declared")
    if completed > per_hand or (completed == per_hand and phase is not Phase.OVER):
        raise InvalidState(P + "played", f"a hand has {per_hand} tricks")
    if len(state.signals) != len(played):
        raise InvalidState(P + "signals", "one signal (or none) per card played")
    allowed = enabled(table.options, seats)
    for i, s in enumerate(state.signals):
        if s:
            why = _signal_error(Signal(s), allowed, played, i, seats, state.trump)
            if why:
                raise InvalidState(f"{P}signals[{i}]", why)
    expected = (leaders[-1] + len(played) - completed * seats) % seats
    if phase is not Phase.OVER and state.to_act != expected:
        raise InvalidState("state.to_act", f"seat {expected} is to act, not {state.to_act}")


def _signal_error(
    signal: Signal,
    allowed: frozenset[Signal],
    played: tuple[int, ...],
    i: int,
    seats: int,
    trump: int,
) -> str | None:
    """Why the signal of play ``i`` cannot have been made, by what the plays show
    (§3.5): enabled, by the leader (TAGLIO by a player cutting), on a suit it fits."""
    if signal not in allowed:
        return f"signal {signal.name} is not enabled here"
    lead = played[i - i % seats]
    card = played[i]
    if signal is Signal.TAGLIO:
        if i % seats == 0:
            return "TAGLIO is for a player who cuts, not for the leader"
        if SUIT[lead] == trump or SUIT[card] != trump:
            return "TAGLIO goes only with a trump played on a non-trump lead"
        return None
    if i % seats:
        return f"only the leader may signal {signal.name}"
    if signal is Signal.FUORI_TUTTO and SUIT[card] != trump:
        return "FUORI_TUTTO goes only with a trump lead"
    if signal is Signal.TAGLIA and SUIT[card] == trump:
        return "TAGLIA goes only with a non-trump lead"
    return None


def _check_marafona(state: State, leaders: list[int]) -> None:
    seat = state.marafona_seat
    if seat == NO_SEAT:
        return
    seats = state.table.seats
    check_seat(seat, seats, P + "marafona_seat")
    if not 0 <= state.trump < 4:
        raise InvalidState(P + "marafona_seat", "no marafona before trump is declared")
    table = state.table
    rule = table.options.marafona_rule
    if rule is MarafonaRule.OFF:
        raise InvalidState(P + "marafona_seat", "the marafona is off in this match")
    if rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK and seat != table.battezzante:
        raise InvalidState(P + "marafona_seat", "only the battezzante may declare the marafona")
    if rule is MarafonaRule.BATTEZZANTE_ACE_LEAD and (
        not state.played or state.played[0] != TRUMP_ACE[state.trump]
    ):
        raise InvalidState(P + "marafona_seat", "the marafona needs the ace of trumps led first")
    top = MARAFONA[state.trump]
    if any(BIT[c] & top for c in state.drawn):
        # Draws come after trick 1, the only time a declaration can be made.
        raise InvalidState(P + "marafona_seat", "a top trump was drawn after trick 1")
    held = state.hands[seat] & top
    for i, c in enumerate(state.played):
        if BIT[c] & top and seat_of_play(leaders, i, seats) == seat:
            held |= BIT[c]
    if held != top:
        raise InvalidState(P + "marafona_seat", f"seat {seat} did not hold the marafona")
