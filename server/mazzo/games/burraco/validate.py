"""Checks of a state that came from outside (burraco.md §8).

A state is plain data that a client may build by hand, so nothing in it is trusted:
two copies of each card and four jokers across all zones, valid melds, pozzetti of
the right sizes taken in order and at most one per side, a stage that fits the pile,
the stock and the flags, and a player to act who has a legal move. Errors name the
wire field at fault (``state.burraco.hands[2].cards``) so the service can report a
field violation.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Final

from mazzo.core.cards import code
from mazzo.core.checks import check_dealing, check_seat, check_state_options
from mazzo.core.errors import InvalidState
from mazzo.games.burraco.cards import COPIES, DECK
from mazzo.games.burraco.melds import COMBINATION, interpret, signature
from mazzo.games.burraco.options import THREE_PLAYER_SWITCH
from mazzo.games.burraco.rules import (
    PICK_UP_TURNS_PER_SEAT,
    check_options,
    discard_error,
)
from mazzo.games.burraco.scoring import credits, match_result
from mazzo.games.burraco.state import (
    NO_CARD,
    NO_SEAT,
    HandScore,
    Stage,
    State,
    Table,
    match_sides,
    side_mask,
)

P = "state.burraco."
T = P + "table."
_SORTED_DECK: Final = sorted(DECK)
POZZETTO_SIZE: Final = 11
THREE_PLAYER_P1: Final = 18


def validate(state: State) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant."""
    table = state.table
    check_table(table)
    _check_match(state)
    _check_cards(state)
    _check_pozzetti(state)
    _check_melds(state)
    _check_turn(state)


# A table changes once a hand: a few new ones a second under load; 256 is four times
# the 64 matches in flight of the soak and the bench (codec.common.TABLE_ENTRIES).
@lru_cache(maxsize=256)
def check_table(table: Table) -> None:
    """Checks of the match-level fields. Memoised: they change at most once a hand, and
    a ``Table`` is an immutable value."""
    n = table.players
    if n not in (2, 3, 4):
        raise InvalidState("state.players", "Burraco is for 2, 3 or 4 players")
    check_state_options(check_options, table.options, n, T, "burraco")
    check_dealing(table, n, P)
    if table.hand_number < 1:
        raise InvalidState(T + "hand_number", "hand numbers start at 1")
    options = table.options
    limit = options.hands or options.max_hands
    if table.hand_number > limit:
        raise InvalidState(T + "hand_number", f"the match has at most {limit} hands")
    if len(table.totals) != len(match_sides(table)):
        raise InvalidState(
            "state.match_score", f"match_score needs {len(match_sides(table))} totals"
        )
    if table.three_pozzetti and (n != 3 or not options.three_player_phase_switch):
        raise InvalidState(
            T + "three_pozzetti",
            "three pozzetti of 11 are only for 3 players with three_player_phase_switch",
        )
    if table.three_pozzetti and table.hand_number == 1:
        raise InvalidState(T + "three_pozzetti", "the first hand is played with 18 + 11")
    for i, score in enumerate(table.last_hand):
        _check_hand_score(score, n, f"{T}last_hand_scores[{i}]")
    if table.last_hand:
        sides = sorted(score.seats for score in table.last_hand)
        allowed = (
            [[(0, 2), (1, 3)]]
            if n == 4
            else [[(s,) for s in range(n)]]
            + (
                [sorted([(solo,), tuple(x for x in range(3) if x != solo)]) for solo in range(3)]
                if n == 3
                else []
            )
        )
        if sides not in allowed:
            raise InvalidState(
                T + "last_hand_scores", "the sides of the last hand are not a hand's sides"
            )
        if table.last_credits != credits(table, table.last_hand):
            raise InvalidState(
                T + "last_hand_credits",
                "the credits must follow from the last hand's scores (§2.4.4)",
            )
    elif table.last_credits:
        raise InvalidState(T + "last_hand_credits", "credits without a last hand")


def _check_hand_score(score: HandScore, players: int, field: str) -> None:
    parts = score.melded + score.bonuses + score.closing - score.in_hand - score.no_pozzetto
    bonuses = 200 * score.pulito + 150 * score.semipulito + 100 * score.sporco
    if (
        not score.seats
        or any(not 0 <= s < players for s in score.seats)
        or score.closing not in (0, 100)
        or score.no_pozzetto not in (0, 100)
        or min(score.melded, score.in_hand, score.pulito, score.semipulito, score.sporco) < 0
        or score.score != parts
        or score.bonuses not in (bonuses, bonuses - 50 * score.semipulito)
    ):
        raise InvalidState(field, "the hand score's components do not add up")


def _check_match(state: State) -> None:
    """A live match has not ended yet; a finished one has (§4.3)."""
    table = state.table
    if state.stage is Stage.OVER:
        over, _ = match_result(table, table.totals)
        if not over:
            raise InvalidState("state.finished", "the match is not over by its totals and hands")
        if state.to_act != 0:
            raise InvalidState("state.to_act", "a finished match has to_act 0")
        return
    if table.hand_number == 1 and table.last_hand:
        raise InvalidState(T + "last_hand_scores", "hand 1 has no hand before it")
    if table.hand_number > 1:
        previous = table._replace(hand_number=table.hand_number - 1)
        over, _ = match_result(previous, table.totals)
        if over:
            raise InvalidState("state.match_score", "these totals would have ended the match")
    if (
        table.players == 3
        and table.options.three_player_phase_switch
        and not table.three_pozzetti
        and table.hand_number > 1
        and max(table.totals) >= THREE_PLAYER_SWITCH
    ):
        raise InvalidState(
            T + "three_pozzetti", "a total of 1000 or more switches to three pozzetti (§2.4.5)"
        )


def _check_cards(state: State) -> None:
    """Two copies of each code and four jokers across all zones (§8)."""
    n = state.table.players
    if len(state.hands) != n:
        raise InvalidState(P + "hands", f"there must be {n} hands")
    everything: list[int] = []
    for hand in state.hands:
        everything.extend(hand)
    everything.extend(state.stock)
    everything.extend(state.pile)
    for meld in state.melds:
        everything.extend(meld.cards)
    for pozzetto in state.pozzetti:
        everything.extend(pozzetto)
    everything.sort()
    if everything == _SORTED_DECK:
        return
    counts = Counter(everything)
    for c in sorted(counts):
        if not 1 <= c <= 53:
            raise InvalidState(P + "hands", f"card {c} is not in the Burraco deck")
        if counts[c] > COPIES[c]:
            raise InvalidState(
                _where(state, c), f"{code(c)} appears {counts[c]} times; the deck has {COPIES[c]}"
            )
    missing = " ".join(code(c) for c in range(1, 54) for _ in range(COPIES[c] - counts[c]))
    raise InvalidState(P + "stock", f"cards missing from the state: {missing}")


def _where(state: State, c: int) -> str:
    """The last field holding ``c``, to point at when it appears too often."""
    where = P + "hands"
    for i, hand in enumerate(state.hands):
        if c in hand:
            where = f"{P}hands[{i}].cards"
    if c in state.stock:
        where = P + "stock"
    if c in state.pile:
        where = P + "discard_pile"
    for i, meld in enumerate(state.melds):
        if c in meld.cards:
            where = f"{P}melds[{i}].cards"
    for i, pozzetto in enumerate(state.pozzetti):
        if c in pozzetto:
            where = f"{P}pozzetti[{i}].cards"
    return where


def _check_pozzetti(state: State) -> None:
    """Sizes, order of taking, one per side, the 3-player solo player (§2.3, §2.4, §3.4)."""
    table = state.table
    n = table.players
    three = n == 3 and not table.three_pozzetti
    count = 3 if table.three_pozzetti else 2
    if len(state.pozzetti) != count or len(state.takers) != count:
        raise InvalidState(P + "pozzetti", f"this hand has {count} pozzetti")
    untaken_seen = False
    sides_taken = 0
    for i, (cards, taker) in enumerate(zip(state.pozzetti, state.takers, strict=True)):
        field = f"{P}pozzetti[{i}]"
        size = THREE_PLAYER_P1 if three and i == 0 else POZZETTO_SIZE
        if taker == NO_SEAT:
            untaken_seen = True
            if len(cards) != size:
                raise InvalidState(field + ".cards", f"an untaken pozzetto holds {size} cards")
            continue
        check_seat(taker, n, field + ".taken_by")
        if untaken_seen:
            raise InvalidState(field + ".taken_by", "pozzetti are taken in order, P1 first (§3.4)")
        if cards:
            raise InvalidState(field + ".cards", "a taken pozzetto's cards are in its taker's hand")
        side = side_mask(state, taker)
        if sides_taken & side:
            raise InvalidState(field + ".taken_by", "a side takes at most one pozzetto (§3.4)")
        sides_taken |= side
    if three:
        if state.solo != state.takers[0]:
            raise InvalidState(
                P + "solo_seat", "the taker of P1 plays alone, and nobody else does (§2.4.3)"
            )
    elif state.solo != NO_SEAT:
        raise InvalidState(P + "solo_seat", "only the 3-player 18 + 11 phase has a solo player")
    for seat in range(n):
        if not state.locked >> seat & 1:
            continue
        if seat not in state.takers:
            raise InvalidState(P + "locked_seats", f"seat {seat} took no pozzetto")
        index = state.takers.index(seat)
        size = THREE_PLAYER_P1 if three and index == 0 else POZZETTO_SIZE
        if len(state.hands[seat]) != size:
            raise InvalidState(
                P + "locked_seats",
                f"seat {seat} has not seen his pozzetto, so his hand is exactly its {size} cards",
            )
    if state.locked >> n:
        raise InvalidState(P + "locked_seats", "a locked seat is out of range")


def _check_melds(state: State) -> None:
    """Each meld valid and of a seat; one combination per rank and side (§3.2, §2.4.3)."""
    n = state.table.players
    combinations: dict[tuple[int, int], list[int]] = {}
    for i, meld in enumerate(state.melds):
        field = f"{P}melds[{i}]"
        check_seat(meld.seat, n, field + ".seat")
        sig = signature(meld.cards)
        if isinstance(sig, str):
            raise InvalidState(field + ".cards", sig)
        interp = interpret(sig)
        if isinstance(interp, str):
            raise InvalidState(field + ".cards", interp)
        if sig != meld.sig or list(meld.cards) != sorted(meld.cards):
            raise InvalidState(field + ".cards", "the meld's cards must be in canonical order")
        if sig[0] is COMBINATION:
            side = side_mask(state, meld.seat)
            openers = combinations.setdefault((side, sig[1]), [])
            # A 3-player pair may keep one each from before it was formed (§2.4.3).
            if openers and (n != 3 or meld.seat in openers or len(openers) > 1):
                raise InvalidState(
                    field + ".cards", "a side holds at most one combination of a rank (§3.2 rule 4)"
                )
            openers.append(meld.seat)


def _check_turn(state: State) -> None:
    """The seat to act, the stage, the stock, the pile and the flags fit together (§3, §8)."""
    table = state.table
    n = table.players
    stage = state.stage
    limit = PICK_UP_TURNS_PER_SEAT * n
    if not 0 <= state.pickups <= limit:
        raise InvalidState(P + "pickup_turns", f"pickup_turns must be 0..{limit}")
    if state.forbidden != NO_CARD and not 1 <= state.forbidden <= 53:
        raise InvalidState(P + "forbidden_discard", "not a card")
    if len(state.stock) < 2:
        raise InvalidState(P + "stock", "the last two cards of the stock are never drawn (§3.6)")
    if stage is Stage.OVER:
        return
    check_seat(state.to_act, n, "state.to_act")
    seat = state.to_act
    for s, hand in enumerate(state.hands):
        if not hand:
            raise InvalidState(
                f"{P}hands[{s}].cards",
                "an emptied hand takes a pozzetto or ends the hand: a live hand is never empty",
            )
    if state.locked >> seat & 1:
        raise InvalidState(
            P + "locked_seats", "a pozzetto is seen before its taker's next turn (§3.4)"
        )
    if stage is Stage.ACQUIRE:
        if state.forbidden != NO_CARD:
            raise InvalidState(P + "forbidden_discard", "only after PICK_UP of a one-card pile")
        if state.last_turn:
            raise InvalidState(P + "last_turn", "the last turn begins with its DRAW")
        if not state.pile:
            raise InvalidState(P + "discard_pile", "every turn ends with a discard")
        if len(state.stock) < 3:
            raise InvalidState(
                P + "stock", "a turn begins with 3 or more cards in the stock (§3.6)"
            )
        return
    picked = not state.pile
    if picked != (state.pickups > 0):
        raise InvalidState(
            P + "pickup_turns",
            "in the MELD stage the pile is empty exactly when the turn began with PICK_UP",
        )
    if state.forbidden != NO_CARD and (not picked or not table.options.single_card_pile_rule):
        raise InvalidState(
            P + "forbidden_discard",
            "set only by PICK_UP of a one-card pile (single_card_pile_rule)",
        )
    if state.last_turn != (len(state.stock) == 2):
        raise InvalidState(
            P + "last_turn", "last_turn is set exactly when a DRAW left 2 cards in the stock"
        )
    if state.last_turn and picked:
        raise InvalidState(P + "last_turn", "the last turn began with DRAW")
    hand = state.hands[seat]
    if len(hand) >= 2:
        if state.forbidden == NO_CARD or hand.count(state.forbidden) < len(hand):
            return
    elif discard_error(state, hand[0]) is None:
        return
    raise InvalidState(
        f"{P}hands[{seat}].cards",
        "the player to act has no legal DISCARD, so no legal move (README §4.2, §8)",
    )
