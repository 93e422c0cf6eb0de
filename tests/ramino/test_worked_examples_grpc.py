"""The worked examples RA-1 .. RA-17 of docs/rules/ramino.md §6, through the gRPC API.

Positions are built with ``position(...)`` (as in ``test_worked_examples.py``) and sent
as a client would; deals go through ``Deal``. Every check reads the responses of
LegalMoves, ApplyMove, GetView and Score. Illegal moves come back INVALID_ARGUMENT
with a field violation naming the move field; moves after the end FAILED_PRECONDITION.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
import pytest

from mazzo.core.cards import card, code
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.positions import position
from mazzo.v1 import game_pb2, ramino_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations
from tests.ramino.test_worked_examples import (
    CLOSURES,
    DOUBLE_TEN,
    RA9,
    RA10,
    RA11,
    ROYAL_TEN,
    drawn_card,
)
from tests.ramino.wire import move_text, wire_move, wire_state

Stub = GameServiceStub
TYPES = {1: "SIMPLE", 2: "DOUBLE", 3: "TRIPLE", 5: "ROYAL", 6: "SEXTUPLE"}


async def legal(stub: Stub, state: game_pb2.GameState) -> list[str]:
    reply = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
    return [move_text(m) for m in reply.moves]


async def play(
    stub: Stub, state: game_pb2.GameState, moves: Iterable[str]
) -> tuple[gs.ApplyMoveResponse, list[ramino_pb2.RaminoEvent]]:
    """Apply moves one after the other; the last reply and every event on the way."""
    reply = None
    events: list[ramino_pb2.RaminoEvent] = []
    for move in moves:
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move(move)))
        events.extend(e.ramino for e in reply.events)
        state = reply.state
    assert reply is not None
    return reply, events


def of_kind(events: Iterable[ramino_pb2.RaminoEvent], name: str) -> list:  # type: ignore[type-arg]
    return [getattr(e, name) for e in events if e.WhichOneof("event") == name]


async def rejected(
    stub: Stub, state: game_pb2.GameState, move: str, field: str, because: str
) -> None:
    assert move not in await legal(stub, state)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move(move)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations = field_violations(caught.value)
    assert [f for f, _ in violations] == [field]
    assert because in violations[0][1]


async def deal(stub: Stub, players: int, seed: int, **options: object) -> gs.DealResponse:
    request = gs.DealRequest(game="ramino", players=players, seed=seed)
    request.options.ramino.CopyFrom(ramino_pb2.RaminoOptions(**options))  # type: ignore[arg-type]
    return await stub.Deal(request)


# --------------------------------------------------------------------------- RA-1 .. RA-9


@pytest.mark.parametrize(
    ("ten", "kind", "joker", "stands_for"), [pytest.param(*c[1:], id=c[0]) for c in CLOSURES]
)
async def test_closures(
    stub: Stub, ten: str, kind: object, joker: str | None, stands_for: str | None
) -> None:
    """RA-1 .. RA-8: CLOSE is listed and pays k x S; the closure is shown with its type
    and the joker the engine reports."""
    extra = drawn_card(ten)
    state = wire_state(
        position(players=2, bids=["open 1", "accept"], hands={1: ten}, stock=extra, then=["draw"])
    )
    assert f"close {extra}" in await legal(stub, state)
    reply, events = await play(stub, state, [f"close {extra}"])
    (closed,) = of_kind(events, "hand_closed")
    k = int(kind)  # type: ignore[call-overload]
    assert (
        ramino_pb2.RaminoClosureType.Name(closed.closure.type) == f"RAMINO_CLOSURE_TYPE_{TYPES[k]}"
    )
    assert (code(closed.closure.joker) if closed.closure.joker else None) == joker
    assert (code(closed.closure.stands_for) if closed.closure.stands_for else None) == stands_for
    (ended,) = of_kind(events, "hand_ended")
    assert list(ended.result.net) == [-k, k]
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert [s.ramino.last_hand_net for s in score.sides] == [-k, k]
    assert sum(s.match_total for s in score.sides) == 200


async def test_ra9_not_a_closure(stub: Stub) -> None:
    state = wire_state(
        position(players=2, bids=["open 1", "accept"], hands={1: RA9}, stock="QC", then=["draw"])
    )
    moves = await legal(stub, state)
    assert len(moves) == 11 and all(m.startswith("discard ") for m in moves)
    for c in [*RA9.split(), "QC"]:
        await rejected(stub, state, f"close {c}", "move.ramino.close.discard", "not a closure")


# --------------------------------------------------------------------------- RA-10 .. RA-13


async def test_ra10_bidding_and_payout(stub: Stub) -> None:
    dealt = await deal(stub, 4, 10, first_dealer=0)
    state = dealt.state
    assert dealt.seat == 1
    for seat, move, stake, pot in RA10:
        assert state.to_act == seat
        reply, _ = await play(stub, state, [move])
        state = reply.state
        assert (state.ramino.bets.stake, state.ramino.bets.pot) == (stake, pot)
    assert state.ramino.phase == ramino_pb2.RAMINO_PHASE_PLAY and reply.seat == 1
    for ten, nets in ((DOUBLE_TEN, [-3, -10, 13, 0]), (ROYAL_TEN, [-3, -25, 28, 0])):
        start = wire_state(position(bids=[m for _, m, _, _ in RA10], hands={2: ten}, stock="2D 3D"))
        reply, events = await play(stub, start, ["draw", "discard 2D", "draw", "close 3D"])
        (ended,) = of_kind(events, "hand_ended")
        assert list(ended.result.net) == nets
        assert list(reply.state.match_score) == [100 + n for n in nets]


async def test_ra11_buio(stub: Stub) -> None:
    dealt = await deal(stub, 4, 11, first_dealer=0, dealer_tax=1, max_stake=6)
    state = dealt.state
    assert [move_text(m) for m in dealt.legal_moves] == ["buio", "no-buio"]
    blind = await stub.GetView(gs.GetViewRequest(state=state, seat=1))
    assert blind.view.ramino.hand_hidden and not blind.view.ramino.hand
    for seat, move, stake, pot in RA11:
        assert state.to_act == seat
        if seat == 2 and move == "accept" and stake == 2:
            await rejected(stub, state, "raise 3", "move.ramino.raise_bid.amount", "blocked")
        reply, _ = await play(stub, state, [move])
        state = reply.state
        assert (state.ramino.bets.stake, state.ramino.bets.pot) == (stake, pot)
    seen = await stub.GetView(gs.GetViewRequest(state=state, seat=1))
    assert len(seen.view.ramino.hand) == 10
    payout = wire_state(
        position(
            options=Options(dealer_tax=1, max_stake=6),
            bids=[m for _, m, _, _ in RA11],
            hands={1: "4S 5S 6S 7S 9H 9D 9C QS QH QC"},
            stock="2D",
        )
    )
    _, events = await play(stub, payout, ["draw", "close 2D"])
    (ended,) = of_kind(events, "hand_ended")
    assert list(ended.result.net) == [-3, 9, -6, 0]


async def test_ra12_uncontested_and_void(stub: Stub) -> None:
    dealt = await deal(stub, 4, 12, first_dealer=0)
    reply, events = await play(stub, dealt.state, ["open 2", "pass", "pass", "pass"])
    (ended,) = of_kind(events, "hand_ended")
    assert ended.result.outcome == ramino_pb2.RAMINO_OUTCOME_UNCONTESTED
    assert ended.result.winner == 1 and list(ended.result.net) == [0, 0, 0, 0]
    assert reply.state.ramino.table.dealer == 1
    reply, events = await play(stub, dealt.state, ["pass"] * 4)
    (ended,) = of_kind(events, "hand_ended")
    assert ended.result.outcome == ramino_pb2.RAMINO_OUTCOME_VOID
    assert reply.state.ramino.table.dealer == 1 and reply.state.ramino.bets.pot == 0


async def test_ra13_royal_three_participants(stub: Stub) -> None:
    state = wire_state(
        position(
            dealer=3, bids=["open 2", "accept", "accept", "pass"], hands={0: ROYAL_TEN}, stock="2D"
        )
    )
    _, events = await play(stub, state, ["draw", "close 2D"])
    (ended,) = of_kind(events, "hand_ended")
    assert list(ended.result.net) == [20, -10, -10, 0]


# --------------------------------------------------------------------------- RA-14 .. RA-17


async def test_ra14_re_discarding(stub: Stub) -> None:
    bids = ["open 1", "accept", "pass", "pass"]
    taken = wire_state(position(dealer=1, bids=bids, pile="9H", then=["take"]))
    await rejected(stub, taken, "discard 9H", "move.ramino.discard.card", "just taken")
    drawn = wire_state(position(dealer=1, bids=bids, stock="9H", then=["draw"]))
    reply, _ = await play(stub, drawn, ["discard 9H"])
    assert reply.state.ramino.pile[-1] == card("9H")


async def test_ra15_nine_card_tables(stub: Stub) -> None:
    state = wire_state(
        position(
            players=2,
            options=Options(hand_size=9),
            bids=["open 1", "accept"],
            hands={1: "4S 5S 6S 9H 9D 9C QS QH QC"},
            stock="7S",
            then=["draw"],
        )
    )
    assert (await legal(stub, state))[-1] == "close"
    _, events = await play(stub, state, ["close"])
    (closed,) = of_kind(events, "hand_closed")
    assert closed.closure.type == ramino_pb2.RAMINO_CLOSURE_TYPE_SIMPLE
    assert not closed.closure.discard


async def test_ra16_endless_voids(stub: Stub) -> None:
    dealt = await deal(stub, 4, 16, dealer_tax=1, buio=False, match_hands=12)
    state, voids = dealt.state, 0
    events: list[ramino_pb2.RaminoEvent] = []
    while not state.finished:
        reply, caused = await play(stub, state, ["pass"])
        state = reply.state
        events.extend(caused)
    assert len(of_kind(events, "hand_ended")) == 12
    (refund,) = of_kind(events, "pot_refunded")
    assert list(refund.refunds) == [3, 3, 3, 3]
    assert list(state.match_score) == [100] * 4
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished and list(score.winners) == [0, 1, 2, 3]
    voids = state.ramino.table.void_streak
    assert voids == 12 and state.ramino.table.end == ramino_pb2.RAMINO_MATCH_END_VOID_HANDS
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("pass")))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_ra17_no_endless_taking(stub: Stub) -> None:
    state = wire_state(
        position(
            players=2,
            bids=["open 1", "accept"],
            hands={1: "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", 0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"},
            pile="KD",
            turns=[
                "take KD discard AS",
                "take AS discard AH",
                "take AH discard 2S",
                "take 2S discard 2H",
                "take 2H discard 3S",
                "take 3S discard 3H",
            ],
        )
    )
    assert await legal(stub, state) == ["draw"]
    await rejected(stub, state, "take", "move.ramino.take_discard", "three turns in a row")


# --------------------------------------------------------------------------- §8 over the wire


async def test_a_move_by_a_seat_other_than_to_act(stub: Stub) -> None:
    """§8: the request has no seat, so another seat's move is a state whose to_act is
    not the seat to act: refused as an inconsistent state."""
    state = wire_state(position(bids=["open 1"]))
    state.to_act = 3
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("accept")))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["state.to_act"]


async def test_a_play_move_by_a_folded_player(stub: Stub) -> None:
    state = wire_state(position(bids=["open 1", "accept", "pass", "pass"]))
    state.to_act = 3  # folded
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("draw")))
    assert [f for f, _ in field_violations(caught.value)] == ["state.to_act"]


async def test_a_broken_state_names_the_field(stub: Stub) -> None:
    state = wire_state(position(bids=["open 1"]))
    state.ramino.bets.pot += 1
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.LegalMoves(gs.LegalMovesRequest(state=state))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["state.match_score"]


async def test_a_bad_deal_names_the_option(stub: Stub) -> None:
    for options, field in (
        ({"dealer_tax": 3, "max_stake": 5}, "options.ramino.buio"),
        ({"hand_size": 8}, "options.ramino.hand_size"),
        ({"max_stake": 1001}, "options.ramino.max_stake"),
        ({"buio_seat": 7}, "options.ramino.buio_seat"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await deal(stub, 4, 1, **options)
        assert [f for f, _ in field_violations(caught.value)] == [field], options
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(gs.DealRequest(game="ramino", players=7))
    assert [f for f, _ in field_violations(caught.value)] == ["players"]


async def test_list_games_describes_ramino(stub: Stub) -> None:
    reply = await stub.ListGames(gs.ListGamesRequest())
    ramino = {g.id: g for g in reply.games}["ramino"]
    assert list(ramino.player_counts) == [2, 3, 4, 5, 6] and ramino.default_players == 4
    names = {o.name for o in ramino.options}
    assert {"hand_size", "buio", "max_stake", "match_hands", "allow_credit"} <= names
    assert ramino.defaults.ramino.max_stake == 5 and ramino.defaults.ramino.hand_size == 10
