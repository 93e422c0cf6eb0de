"""State invariants of briscola.md §8, each broken once: ``validate`` must refuse,
naming the field at fault and saying why."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from mazzo.core.cards import card
from mazzo.core.errors import InvalidState
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import HandScore, Phase, State
from mazzo.games.briscola.validate import validate
from tests.briscola.helpers import dealt, play_first, random_play

P = "state.briscola."
T = P + "table."


def mid_trick() -> State:
    """Two players, trick 2 under way: seat to act has 3 cards, the other 2."""
    state = play_first(dealt(2, 5), 3)
    validate(state)
    return state


def stock_empty() -> State:
    """Two players after trick 17: the trump card drawn, then one more card played."""
    state = play_first(dealt(2, 5), 35)
    validate(state)
    assert not state.stock
    return state


def with_table(state: State, **fields: object) -> State:
    return state._replace(table=state.table._replace(**fields))


def move_card(state: State, src: int, dst: int) -> State:
    hands = [list(h) for h in state.hands]
    c = hands[src].pop(0)
    hands[dst] = sorted([*hands[dst], c])
    return state._replace(hands=tuple(tuple(h) for h in hands))


def swap_trump_card(state: State) -> State:
    holder = next(s for s, h in enumerate(state.hands) if state.trump_card in h)
    other = 1 - holder
    hands = [list(h) for h in state.hands]
    c = hands[other][0]
    hands[other][0] = state.trump_card
    hands[holder][hands[holder].index(state.trump_card)] = c
    return state._replace(hands=tuple(tuple(sorted(h)) for h in hands))


def last_hand_off(state: State) -> State:
    scores = state.table.last_hand or (HandScore(60, 10, 0), HandScore(59, 10, 1))
    return with_table(state, last_hand=scores, hand_number=2)


CASES: list[tuple[str, Callable[[], State], str, str]] = [
    # What is broken, the state, the field, part of the reason.
    (
        "a missing card",
        lambda: mid_trick()._replace(stock=mid_trick().stock[1:]),
        P + "hands",
        "missing",
    ),
    (
        "a duplicated card",
        lambda: mid_trick()._replace(stock=(mid_trick().hands[0][0], *mid_trick().stock[1:])),
        P + "stock[0]",
        "more than once",
    ),
    (
        "the removed two",
        lambda: (lambda s: s._replace(stock=(card("2C"), *s.stock[1:])))(dealt(3, 5)),
        P + "stock[0]",
        "taken out",
    ),
    (
        "a card of no pack",
        lambda: mid_trick()._replace(trump_card=9),
        P + "trump_card",
        "not in the pack",
    ),
    (
        "a hand of the wrong size",
        lambda: move_card(mid_trick(), 0, 1),
        P + "hands[0].cards",
        "must hold",
    ),
    (
        "a hand of four cards",
        lambda: move_card(dealt(2, 5), 0, 1),
        P + "hands[1].cards",
        "at most 3",
    ),
    (
        "a stock of the wrong size",
        lambda: (lambda s: s._replace(stock=s.stock[1:], played=(*s.played, s.stock[0])))(
            play_first(dealt(2, 5), 2)
        ),
        P + "stock",
        "must hold",
    ),
    (
        "an oversized stock",
        lambda: (lambda s: s._replace(stock=s.stock + s.stock))(dealt(2, 5)),
        P + "stock",
        "at most",
    ),
    (
        "oversized played",
        lambda: (lambda s: s._replace(played=s.played * 30))(mid_trick()),
        P + "played",
        "at most",
    ),
    (
        "a hand too many",
        lambda: mid_trick()._replace(hands=(*mid_trick().hands, ())),
        "state.players",
        "2 players, but there are 3 hands",
    ),
    (
        "an unsorted hand",
        lambda: (lambda s: s._replace(hands=(s.hands[0][::-1], s.hands[1])))(dealt(2, 5)),
        P + "hands[0].cards",
        "canonical",
    ),
    (
        "the trump card not under the stock",
        lambda: (lambda s: s._replace(stock=s.stock[::-1]))(dealt(2, 5)),
        P + "stock",
        "under the stock",
    ),
    ("the trump card with the wrong seat", lambda: swap_trump_card(stock_empty()), None, "drew"),
    (
        "the seat to act",
        lambda: mid_trick()._replace(to_act=0 if mid_trick().to_act else 1),
        "state.to_act",
        "is to act",
    ),
    (
        "a dealer out of range",
        lambda: with_table(mid_trick(), dealer=2),
        T + "dealer",
        "out of range",
    ),
    (
        "a seat to act out of range",
        lambda: mid_trick()._replace(to_act=7),
        "state.to_act",
        "is to act",
    ),
    (
        "the generator counter",
        lambda: with_table(mid_trick(), counter=0),
        P + "rng.counter",
        "counter",
    ),
    ("the seed", lambda: with_table(mid_trick(), seed=2**64), P + "rng.seed", "64 bits"),
    (
        "an option",
        lambda: with_table(mid_trick(), options=Options(hands_to_win=0)),
        T + "options.hands_to_win",
        "hands_to_win",
    ),
    ("players", lambda: with_table(mid_trick(), players=5), "state.players", "2, 3 or 4"),
    (
        "hands won, too many",
        lambda: with_table(dealt(2, 5, Options(hands_to_win=3)), hands_won=(1, 0)),
        T + "hands_won",
        "more hands won",
    ),
    (
        "hands won, a count short",
        lambda: with_table(mid_trick(), hands_won=(0,)),
        T + "hands_won",
        "one count per side",
    ),
    (
        "a finished match, still playing",
        lambda: with_table(mid_trick(), hands_won=(1, 0), hand_number=2),
        T + "hands_won",
        "would have ended",
    ),
    (
        "a last hand in hand 1",
        lambda: with_table(mid_trick(), last_hand=(HandScore(60, 10, 0), HandScore(60, 10, 0))),
        T + "last_hand",
        "from hand 2 on",
    ),
    (
        "a last hand that does not add up",
        lambda: with_table(
            last_hand_off(mid_trick()), last_hand=(HandScore(60, 10, 0), HandScore(59, 10, 1))
        ),
        T + "last_hand",
        "add up",
    ),
    (
        "a last hand with the wrong winner",
        lambda: with_table(
            last_hand_off(mid_trick()), last_hand=(HandScore(60, 10, 1), HandScore(60, 10, 0))
        ),
        T + "last_hand[0].won",
        "winner",
    ),
    (
        "over with cards left",
        lambda: mid_trick()._replace(phase=Phase.OVER),
        T + "hands_won",
        "one side with its hands",
    ),
    (
        "a hand played out but not scored",
        lambda: (lambda s: s._replace(phase=Phase.PLAY))(play_first(dealt(2, 5), 40)),
        T + "hands_won",
        "would have ended",
    ),
]


@pytest.mark.parametrize(("what", "make", "field", "because"), CASES, ids=[c[0] for c in CASES])
def test_refused(what: str, make: Callable[[], State], field: str | None, because: str) -> None:
    with pytest.raises(InvalidState) as caught:
        validate(make())
    if field is not None:
        assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value


def test_states_of_random_play_are_valid() -> None:
    for players in (2, 3, 4):
        for seed in range(5):
            rng = random.Random(seed)
            state = dealt(players, seed, Options(hands_to_win=2))
            while not state.finished:
                validate(state)
                state = random_play(state, 1, rng)
            validate(state)
