"""What a seat sees (briscola.md §7): its own cards and the public ones, nothing else."""

from __future__ import annotations

import random

import pytest

from mazzo.core.errors import InvalidArgument
from mazzo.games.briscola.cards import POINTS
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import NO_SEAT, State
from mazzo.games.briscola.view import View, view
from tests.briscola.helpers import dealt, random_play


def shown_cards(v: View) -> set[int]:
    out = {*v.hand, *v.partner_hand, v.trump_card, *v.trick.cards}
    for t in v.tricks:
        out.update(t.cards)
    return out


def positions() -> list[State]:
    out = []
    for players in (2, 3, 4):
        for seed in range(6):
            options = Options(partners_show_hands=players == 4 and seed % 2 == 0)
            rng = random.Random(seed)
            state = dealt(players, seed, options)
            for _ in range(12):
                out.append(state)
                state = random_play(state, rng.randrange(1, 8), rng)
                if state.finished:
                    break
    return out


def test_no_hidden_card_leaks() -> None:
    for state in positions():
        n = state.table.players
        for seat in range(n):
            v = view(state, seat)
            partner = (seat + 2) % 4
            shown_partner = bool(v.partner_hand)
            hidden = set(state.stock[:-1])
            for s in range(n):
                if s != seat and not (shown_partner and s == partner):
                    hidden.update(c for c in state.hands[s] if c != state.trump_card)
            assert not hidden & shown_cards(v)
            assert v.hand == state.hands[seat]
            assert v.table.seed == 0 and v.table.counter == 0
            assert v.hand_sizes == tuple(len(h) for h in state.hands)
            assert v.stock_size == len(state.stock)
            if shown_partner:
                assert n == 4 and not state.stock and v.partner_hand == state.hands[partner]
                assert state.table.options.partners_show_hands


def test_the_view_is_the_same_whatever_the_hidden_cards() -> None:
    """Swapping a hidden card of another hand with one of the stock changes no view but
    that hand's owner's."""
    for state in positions():
        if len(state.stock) < 2 or not state.hands[1]:
            continue
        hands = list(state.hands)
        a, b = hands[1][0], state.stock[0]
        hands[1] = tuple(sorted((*hands[1][1:], b)))
        stock = (a, *state.stock[1:])
        other = state._replace(hands=tuple(hands), stock=stock)
        for seat in range(state.table.players):
            if seat != 1:
                assert view(other, seat) == view(state, seat)


def test_the_trump_card_and_its_taker_are_public() -> None:
    state = random_play(dealt(2, 4), 34, random.Random(4))  # after trick 17
    assert not state.stock
    taker = next(s for s in (0, 1) if state.trump_card in state.hands[s])
    for seat in (0, 1):
        v = view(state, seat)
        assert v.trump_card == state.trump_card and v.trump_card_taker == taker
    assert view(dealt(2, 4), 0).trump_card_taker == NO_SEAT


def test_partners_see_each_other_only_once_the_stock_is_empty() -> None:
    options = Options(partners_show_hands=True)
    state = dealt(4, 9, options)
    rng = random.Random(9)
    state = random_play(state, 7 * 4 - 1, rng)
    assert state.stock and view(state, 0).partner_hand == ()
    state = random_play(state, 1, rng)
    assert not state.stock
    for seat in range(4):
        assert view(state, seat).partner_hand == state.hands[(seat + 2) % 4]
    plain = random_play(dealt(4, 9), 28, random.Random(9))
    assert view(plain, 0).partner_hand == ()


def test_points_in_the_view_follow_from_the_tricks() -> None:
    for state in positions():
        v = view(state, 0)
        assert sum(v.points) == sum(sum(POINTS[c] for c in t.cards) for t in v.tricks)
        assert sum(v.tricks_won) == len(v.tricks)


def test_a_seat_out_of_range_is_refused() -> None:
    with pytest.raises(InvalidArgument) as caught:
        view(dealt(3), 3)
    assert caught.value.field == "seat"
