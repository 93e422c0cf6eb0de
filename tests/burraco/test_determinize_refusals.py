"""Determinize for Burraco: what it refuses, ``moves_bound``, and the gRPC call.

1. A malformed view (bad or surplus cards, lists longer than the rules allow, seats
   out of range, sizes that do not add up to the deck) is INVALID_ARGUMENT naming the
   wire field (``view_from_wire``). A well-formed view that no deal can give (a hand
   that lacks the cards its owner took with the pile, a history that does not lead to
   the table, sizes no deal has, a seat to act who could hold no legal discard) is
   INVALID_ARGUMENT too, naming a field of the view.
2. ``moves_bound``: over random matches of every form, the moves actually played to
   the end of the hand, and of the match, never exceed the bound computed at any
   point; the printed figures compare the hand bound with real hand lengths.
3. Through gRPC: every state Determinize returns gives back, through GetView, the
   very bytes of the view it was given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import grpc
import pytest

from mazzo.core.cards import card
from mazzo.core.errors import InvalidArgument
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import wire as codec
from mazzo.games.burraco.determinize import determinize, moves_bound
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.view import View, view
from mazzo.service.game_service import MAX_SAMPLES
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco.determinize_support import FORMS, play
from tests.burraco.test_determinize_uniform import POSITIONS, position
from tests.burraco.wire import wire_state
from tests.grpc_helpers import field_violations


def some_views() -> list[tuple[State, View]]:
    """Views of a 4-player hand late enough to have melds and pick-ups."""
    rnd = random.Random("refusals")
    out = []
    for hand in play(FORMS[3], rnd, 0.9):
        for state in hand[::7]:
            if not state.finished:
                out.append((state, view(state, (state.to_act + 1) % 4)))
    return out


def mid_hand() -> tuple[State, View]:
    """A view whose seat holds cards he took with the pile, with melds on the table."""
    for state, v in some_views():
        took = [e for e in v.history if isinstance(e, ev.PileTaken) and e.seat == v.seat]
        if v.melds and took and set(took[-1].cards) & set(v.hand) and len(v.pile) > 1:
            return state, v
    raise AssertionError("no such view")


def wire(v: View) -> game_pb2.GameView:
    msg = game_pb2.GameView()
    codec.view_to_wire(v, msg)
    return msg


def refused(msg: game_pb2.GameView, field: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        codec.view_from_wire(msg, "view")
    assert caught.value.field == field, caught.value


Edit = Callable[[game_pb2.GameView], None]


def _extend_hand(m: game_pb2.GameView) -> None:
    m.burraco.hand.extend([1] * 109)


def _third_copy(m: game_pb2.GameView) -> None:
    # The viewer's hand shows a card twice and the pile shows it once more.
    c = m.burraco.hand[0]
    m.burraco.hand.append(c)
    m.burraco.hand.append(c)
    m.burraco.discard_pile.append(c)
    m.burraco.hand_sizes[m.seat] += 2
    m.burraco.stock_size -= 3


def _long_history(m: game_pb2.GameView) -> None:
    for _ in range(codec.MAX_HISTORY + 1 - len(m.burraco.history)):
        m.burraco.history.add().drew.seat = 0


MALFORMED: list[tuple[str, Edit, str]] = [
    ("no detail", lambda m: m.ClearField("burraco"), "view.burraco"),
    ("five players", lambda m: setattr(m, "players", 5), "view.players"),
    ("seat out of range", lambda m: setattr(m, "seat", 4), "view.seat"),
    ("to_act out of range", lambda m: setattr(m, "to_act", 7), "view.to_act"),
    ("not a card", lambda m: m.burraco.hand.__setitem__(0, 99), "view.burraco.hand[0]"),
    ("too many cards in hand", _extend_hand, "view.burraco.hand"),
    ("a third copy", _third_copy, "view.burraco.discard_pile"),
    ("hand sizes: one missing", lambda m: m.burraco.hand_sizes.pop(), "view.burraco.hand_sizes"),
    (
        "the viewer's hand size",
        lambda m: m.burraco.hand_sizes.__setitem__(m.seat, m.burraco.hand_sizes[m.seat] + 1),
        "view.burraco.hand_sizes[{seat}]",
    ),
    (
        "sizes not adding up to the deck",
        lambda m: setattr(m.burraco, "stock_size", m.burraco.stock_size + 1),
        "view.burraco.stock_size",
    ),
    (
        "a pozzetto of 19",
        lambda m: setattr(m.burraco.pozzetti[0], "size", 19),
        "view.burraco.pozzetti[0].size",
    ),
    ("three pozzetti", lambda m: m.burraco.pozzetti.add(size=0), "view.burraco.pozzetti"),
    (
        "too many pick-up turns",
        lambda m: setattr(m.burraco, "pickup_turns", 13),
        "view.burraco.pickup_turns",
    ),
    (
        "a meld of two wilds",
        lambda m: m.burraco.melds[0].cards.extend([53, 53]),
        "view.burraco.melds[0].cards",
    ),
    ("a meld seat", lambda m: setattr(m.burraco.melds[0], "seat", 4), "view.burraco.melds[0].seat"),
    ("a history too long", _long_history, "view.burraco.history"),
    (
        "an event's seat",
        lambda m: setattr(m.burraco.history[1].drew, "seat", 9),
        "view.burraco.history[1].drew.seat",
    ),
    (
        "the solo seat",
        lambda m: setattr(m.burraco, "solo_seat", 5),
        "view.burraco.solo_seat",
    ),
    (
        "the dealer",
        lambda m: setattr(m.burraco.table, "dealer", 4),
        "view.burraco.table.dealer",
    ),
    ("match totals", lambda m: m.match_score.append(0), "view.match_score"),
]


@pytest.mark.parametrize("name, edit, field", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_views_are_refused(name: str, edit: Edit, field: str) -> None:
    _, v = mid_hand()
    assert isinstance(v.history[1], ev.Drew)
    msg = wire(v)
    edit(msg)
    refused(msg, field.format(seat=v.seat))


def test_a_view_round_trips() -> None:
    for _, v in some_views():
        assert codec.view_from_wire(wire(v), "view") == v


def unsatisfiable(v: View, field_prefix: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        determinize(v, 3, 7)
    assert caught.value.field.startswith(field_prefix), caught.value


def test_a_hand_lacking_the_cards_taken_with_the_pile() -> None:
    _, v = mid_hand()
    took = next(e for e in reversed(v.history) if isinstance(e, ev.PileTaken))
    kept = next(c for c in took.cards if c in v.hand)
    seen = list(v.hand) + list(v.pile) + [c for m in v.melds for c in m.cards]
    other = next(c for c in range(1, 53) if seen.count(c) == 0)
    hand = list(v.hand)
    hand.remove(kept)
    unsatisfiable(v._replace(hand=tuple(sorted([*hand, other]))), "view.burraco.hand")


def test_a_history_that_does_not_lead_to_the_table() -> None:
    _, v = mid_hand()
    i = next(i for i, e in enumerate(v.history) if isinstance(e, ev.Discarded))
    e = v.history[i]
    assert isinstance(e, ev.Discarded)
    changed = ev.Discarded(e.seat, card("KS") if e.card != card("KS") else card("QS"))
    history = (*v.history[:i], changed, *v.history[i + 1 :])
    unsatisfiable(v._replace(history=history), "view.burraco.")


def test_sizes_no_deal_has() -> None:
    # One card moved from the stock to another seat's hand: counts still add up.
    _, v = mid_hand()
    other = (v.seat + 1) % 4
    sizes = list(v.hand_sizes)
    sizes[other] += 1
    unsatisfiable(v._replace(hand_sizes=tuple(sizes), stock_size=v.stock_size - 1), "view.burraco.")


def test_a_seat_to_act_without_a_legal_discard() -> None:
    # The seat to act holds one unseen card and his side has its pozzetto; under
    # closing_needs_clean he would need a clean burraco to discard it, and has none.
    p = next(p for p in POSITIONS if p.form == 1 and p.single)
    state = position(p)
    v = view(state, p.seat)
    options = replace(v.table.options, closing_needs_clean=True)
    assert not state.table.options.closing_needs_clean
    unsatisfiable(
        v._replace(table=v.table._replace(options=options)),
        f"view.burraco.hand_sizes[{state.to_act}]",
    )


def test_a_history_without_its_deal() -> None:
    _, v = mid_hand()
    unsatisfiable(v._replace(history=v.history[1:]), "view.burraco.history")


# --------------------------------------------------------------------------- moves_bound


@pytest.mark.parametrize("form", FORMS, ids=[f.name for f in FORMS])
def test_moves_bound_holds(form: object) -> None:
    rnd = random.Random(f"bound {form}")
    lengths = []
    ratios = []
    for _ in range(6):
        hands = play(form, rnd)  # type: ignore[arg-type]
        flat = [s for hand in hands for s in hand]
        # Moves from each state to the end of its hand and of the match.
        for h, hand in enumerate(hands):
            lengths.append(len(hand) - (0 if hand[-1].finished else 1))
            for k, state in enumerate(hand):
                left_in_hand = len(hand) - 1 - k + (0 if hand[-1].finished else 1)
                assert left_in_hand <= moves_bound(state, False), (h, k)
        for k, state in enumerate(flat):
            assert len(flat) - 1 - k <= moves_bound(state, True)
        ratios.append(moves_bound(hands[0][0], False) / max(1, len(hands[0]) - 1))
        assert moves_bound(flat[-1], True) == 0
    print(
        f"\n{form}: hand lengths {min(lengths)}-{max(lengths)}, "
        f"bound at the deal / real length {min(ratios):.1f}-{max(ratios):.1f}"
    )


def test_moves_bound_of_a_finished_match_is_zero() -> None:
    hands = play(FORMS[0], random.Random(3))
    assert hands[-1][-1].stage is Stage.OVER
    assert moves_bound(hands[-1][-1], False) == moves_bound(hands[-1][-1], True) == 0


# --------------------------------------------------------------------------- gRPC


async def test_determinize_through_grpc(stub: GameServiceStub) -> None:
    state, _ = mid_hand()
    seat = (state.to_act + 2) % 4
    got = await stub.GetView(gs.GetViewRequest(state=wire_state(state), seat=seat))
    reply = await stub.Determinize(gs.DeterminizeRequest(view=got.view, count=5, seed=11))
    assert len(reply.states) == 5
    for sample in reply.states:
        again = await stub.GetView(gs.GetViewRequest(state=sample, seat=seat))
        assert again.view.SerializeToString() == got.view.SerializeToString()
    twice = await stub.Determinize(gs.DeterminizeRequest(view=got.view, count=5, seed=11))
    assert twice == reply


async def test_determinize_refusals_through_grpc(stub: GameServiceStub) -> None:
    _, v = mid_hand()
    msg = wire(v)
    msg.burraco.hand_sizes[(v.seat + 1) % 4] += 1
    msg.burraco.stock_size -= 1
    for request, field in [
        (gs.DeterminizeRequest(view=msg, count=2, seed=1), "view.burraco."),
        (gs.DeterminizeRequest(view=wire(v), count=MAX_SAMPLES + 1, seed=1), "count"),
    ]:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.Determinize(request)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        fields = [f for f, _ in field_violations(caught.value)]
        assert len(fields) == 1 and fields[0].startswith(field), fields
