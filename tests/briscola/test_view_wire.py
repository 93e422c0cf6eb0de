"""A Briscola view on the wire (briscola.md §7): its own hand, the partner's only as
§2.3.3 allows, the trump card, the tricks; never another seat's cards, the stock's
order or the generator. A view sent back (Determinize) decodes to the view itself."""

from __future__ import annotations

import random

from mazzo.games.briscola import rules
from mazzo.games.briscola import wire as codec
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import State
from mazzo.games.briscola.view import view
from mazzo.v1 import game_pb2


def _states() -> list[State]:
    out = []
    for players, options in (
        (2, Options()),
        (3, Options()),
        (4, Options(partners_show_hands=True)),
    ):
        rnd = random.Random(players)
        state, _ = rules.deal(options, players, players)
        while not state.finished:
            out.append(state)
            state, _ = rules.apply(state, rnd.choice(rules.legal_moves(state)))
        out.append(state)
    return out


def _cards_in(msg: game_pb2.GameView) -> set[int]:
    b = msg.briscola
    shown = {*b.hand, *b.partner_hand, b.trump_card, *b.current_trick.cards}
    for t in b.tricks:
        shown |= set(t.cards)
    return shown


def test_a_view_shows_no_card_it_may_not_and_decodes_to_itself() -> None:
    partner_seen = 0
    for state in _states():
        n = state.players
        for seat in range(n):
            msg = game_pb2.GameView()
            codec.view_to_wire(view(state, seat), msg)
            may = {*state.hands[seat], state.trump_card, *state.played}
            if msg.briscola.partner_hand:
                partner_seen += 1
                assert n == 4 and not state.stock and state.table.options.partners_show_hands
                assert list(msg.briscola.partner_hand) == list(state.hands[(seat + 2) % 4])
                may |= set(state.hands[(seat + 2) % 4])
            assert _cards_in(msg) <= may
            names = {f.name for f, _ in msg.briscola.ListFields()}
            assert "rng" not in names and "stock" not in names
            assert msg.briscola.stock_size == len(state.stock)
            back = codec.view_from_wire(msg)
            again = game_pb2.GameView()
            codec.view_to_wire(back, again)
            assert again == msg
    assert partner_seen
