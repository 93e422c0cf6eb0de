"""Invalid Briscola states and views through the service: every invariant of
briscola.md §8 broken once (the cases of ``test_invalid_states.py``) and the
wire's own faults (a missing detail, an unknown phase, the hands won told two ways)
come back INVALID_ARGUMENT with one field violation naming the field at fault."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.briscola.helpers import dealt, play_first
from tests.briscola.test_invalid_states import CASES, P, T, mid_trick
from tests.briscola.wire import wire_state
from tests.grpc_helpers import field_violations

#: Cases a wire state cannot carry (a seed of 65 bits), or that the wire refuses with
#: its own words before the rules see them.
_UNSENDABLE = {"the seed"}
_WIRE_REASONS = {"a seat to act out of range": "to_act is a seat", "players": "2, 3 or 4"}


async def refusal(stub: GameServiceStub, msg: game_pb2.GameState) -> tuple[str, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.LegalMoves(gs.LegalMovesRequest(state=msg))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    (violation,) = field_violations(caught.value)
    return violation


SENT = [c for c in CASES if c[0] not in _UNSENDABLE]


async def test_every_invalid_state_is_refused_naming_the_field(stub: GameServiceStub) -> None:
    """One server for every case (a server a case made this test slow): the faults
    are collected, then shown together."""
    wrong = []
    for what, make, field, because in SENT:
        got, reason = await refusal(stub, wire_state(make()))
        if (field is not None and got != field) or _WIRE_REASONS.get(what, because) not in reason:
            wrong.append(f"{what}: {got}: {reason}")
    assert not wrong, "\n".join(wrong)
    assert len(SENT) == len(CASES) - 1


def _broken(change: Callable[[game_pb2.GameState], None]) -> game_pb2.GameState:
    msg = wire_state(mid_trick())
    change(msg)
    return msg


WIRE_CASES: list[tuple[str, Callable[[game_pb2.GameState], None], str]] = [
    ("no detail", lambda m: m.ClearField("briscola"), "state.briscola"),
    ("an unknown phase", lambda m: setattr(m.briscola, "phase", 7), P + "phase"),
    ("finished in play", lambda m: setattr(m, "finished", True), "state.finished"),
    ("match score", lambda m: m.match_score.__setitem__(0, 1), "state.match_score"),
    (
        "hands_to_win 0",
        lambda m: setattr(m.briscola.table.options, "hands_to_win", 0),
        T + "options.hands_to_win",
    ),
    (
        "removed_two",
        lambda m: setattr(m.briscola.table.options, "removed_two", 5),
        T + "options.removed_two",
    ),
    ("a card of no enum", lambda m: m.briscola.stock.__setitem__(0, 99), P + "stock[0]"),
    ("a move-less hand", lambda m: m.briscola.hands[0].ClearField("cards"), P + "hands"),
]


async def test_a_broken_wire_state_is_refused_naming_the_field(stub: GameServiceStub) -> None:
    wrong = []
    for what, change, field in WIRE_CASES:
        got, reason = await refusal(stub, _broken(change))
        if got != field:
            wrong.append(f"{what}: {got}: {reason}")
    assert not wrong, "\n".join(wrong)


async def test_bad_deal_options_name_the_option(stub: GameServiceStub) -> None:
    for players, set_option, field in (
        (2, lambda o: setattr(o, "hands_to_win", 0), "options.briscola.hands_to_win"),
        (3, lambda o: setattr(o, "removed_two", 1), "options.briscola.removed_two"),
        (2, lambda o: setattr(o, "removed_two", 15), "options.briscola.removed_two"),
        (
            3,
            lambda o: setattr(o, "partners_show_hands", True),
            "options.briscola.partners_show_hands",
        ),
        (4, lambda o: setattr(o, "first_dealer", 4), "options.briscola.first_dealer"),
        (3, lambda o: setattr(o, "first_dealer", 3), "options.briscola.first_dealer"),
    ):
        request = gs.DealRequest(game="briscola", players=players, seed=1)
        set_option(request.options.briscola)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.Deal(request)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert field_violations(caught.value)[0][0] == field


async def test_an_impossible_view_is_refused_by_determinize(stub: GameServiceStub) -> None:
    state = wire_state(play_first(dealt(2, 5), 6))
    view = (await stub.GetView(gs.GetViewRequest(state=state, seat=0))).view
    good = await stub.Determinize(gs.DeterminizeRequest(view=view, count=3, seed=1))
    assert len(good.states) == 3
    for change, field in (
        (
            lambda v: setattr(v.briscola.tricks[1], "winner", 1 - v.briscola.tricks[1].winner),
            "view.briscola.tricks[1].winner",
        ),
        (lambda v: v.briscola.hand_sizes.__setitem__(1, 1), "view.briscola.hand_sizes[1]"),
        (
            lambda v: v.briscola.current_trick.__setattr__("winner", 0),
            "view.briscola.current_trick.winner",
        ),
        (lambda v: v.briscola.partner_hand.append(1), "view.briscola.partner_hand"),
        (lambda v: setattr(v.briscola, "trump_card_taker", 5), "view.briscola.trump_card_taker"),
        (lambda v: v.match_score.__setitem__(1, 1), "view.match_score"),
        (lambda v: setattr(v.briscola, "phase", 9), "view.briscola.phase"),
    ):
        broken = game_pb2.GameView()
        broken.CopyFrom(view)
        change(broken)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.Determinize(gs.DeterminizeRequest(view=broken, count=1, seed=1))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert field_violations(caught.value)[0][0] == field
