"""The worked examples BR-2, BR-3, BR-4 and BR-6 of docs/rules/briscola.md §6, through
the gRPC API.

Positions are laid out as in ``test_worked_examples.py`` (a deck's first cards, the
rest in canonical order) and sent as a client would; every check reads the responses
of LegalMoves, ApplyMove, GetView and Score. An illegal move comes back
INVALID_ARGUMENT with a field violation naming the move's card; a move after the end
FAILED_PRECONDITION.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
import pytest

from mazzo.core.cards import card, code, codes
from mazzo.games.briscola.options import Options
from mazzo.v1 import briscola_pb2, game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.briscola.helpers import lay
from tests.briscola.test_worked_examples import BR3
from tests.briscola.wire import move_text, wire_move, wire_state
from tests.grpc_helpers import field_violations

Stub = GameServiceStub


async def play(
    stub: Stub, state: game_pb2.GameState, cards: Iterable[str]
) -> tuple[gs.ApplyMoveResponse, list[briscola_pb2.BriscolaEvent]]:
    """Play cards one after the other; the last reply and every event on the way."""
    reply = None
    events: list[briscola_pb2.BriscolaEvent] = []
    for c in cards:
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("play " + c)))
        events.extend(e.briscola for e in reply.events)
        state = reply.state
    assert reply is not None
    return reply, events


def of_kind(events: Iterable[briscola_pb2.BriscolaEvent], name: str) -> list:  # type: ignore[type-arg]
    return [getattr(e, name) for e in events if e.WhichOneof("event") == name]


def hands(state: game_pb2.GameState) -> list[str]:
    return [codes(h.cards) for h in state.briscola.hands]


async def test_br2_two_players_three_tricks_with_the_draws(stub: Stub) -> None:
    state = wire_state(lay(2, "AS 7H 2D 3S KC 4D 5C QS JH 2S 4S 5S 6S", dealer=0))
    legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
    assert legal.seat == 1 and [move_text(m) for m in legal.moves] == [
        "play AS",
        "play 7H",
        "play 2D",
    ]
    rows = [
        ("7H KC", 0, 4, [0, 1], ["3S QS 4D", "AS JH 2D"]),
        ("3S AS", 1, 21, [1, 0], ["4S QS 4D", "2S JH 2D"]),
        ("2D QS", 1, 3, [1, 0], ["4S 6S 4D", "2S 5S JH"]),
    ]
    for number, (plays, winner, points, drawers, after) in enumerate(rows, 1):
        reply, events = await play(stub, state, plays.split())
        (won,) = of_kind(events, "trick_won")
        assert (won.trick, won.seat, won.points) == (number, winner, points)
        assert [d.seat for d in of_kind(events, "card_drawn")] == drawers
        state = reply.state
        assert hands(state) == after and reply.seat == winner
    view = (await stub.GetView(gs.GetViewRequest(state=state, seat=0))).view.briscola
    assert view.stock_size == 28 and code(view.trump_card) == "5C"
    assert list(view.points) == [4, 24] and list(view.tricks_won) == [1, 2]
    assert [codes(t.cards) for t in view.tricks] == ["7H KC", "3S AS", "2D QS"]
    assert [t.winner for t in view.tricks] == [0, 1, 1]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("play 4S")))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "move.briscola.play_card.card"


async def test_br3_four_players_a_whole_hand(stub: Stub) -> None:
    state = wire_state(lay(4, "3C 7S 4H AC 2S 5H KD 6S QH JS AD 2H 4C", dealer=3))
    assert hands(state) == ["7S 4H 3C", "2S 5H AC", "6S QH KD", "JS 2H AD"]
    for number, (leader, plays, winner, points, after) in enumerate(BR3, 1):
        legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
        assert legal.seat == leader
        reply, events = await play(stub, state, plays.split())
        (won,) = of_kind(events, "trick_won")
        assert (won.trick, won.seat, won.points) == (number, winner, points)
        state = reply.state
        assert hands(state) == after
        if number == 7:
            (taken,) = of_kind(events, "trump_card_taken")
            assert (taken.seat, code(taken.card)) == (2, "4C")
            view = (await stub.GetView(gs.GetViewRequest(state=state, seat=0))).view.briscola
            assert view.trump_card_taker == 2 and view.stock_size == 0
    assert state.finished and list(state.match_score) == [0, 1]
    (scored,) = of_kind(events, "hand_scored")
    assert [(s.points, s.tricks, s.won) for s in scored.scores] == [(30, 2, False), (90, 8, True)]
    assert scored.winner == 1
    (match,) = of_kind(events, "match_won")
    assert match.side == 1 and list(match.hands_won) == [0, 1]
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished and list(score.winners) == [1]
    assert [list(s.seats) for s in score.sides] == [[0, 2], [1, 3]]
    assert [s.briscola.last_hand.points for s in score.sides] == [30, 90]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move("play KC")))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_br4_three_players_39_cards(stub: Stub) -> None:
    state = wire_state(lay(3, "AH 3H KH 2S 7D QC AS 3S JD 6C", dealer=1))
    assert hands(state) == ["2S 7D QC", "AS 3S JD", "AH 3H KH"]
    assert len(state.briscola.stock) == 30 and card("2C") not in state.briscola.stock
    tricks = 0
    reply = None
    while not state.finished:
        legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=legal.moves[0]))
        for e in reply.events:
            kind = e.briscola.WhichOneof("event")
            tricks += kind == "trick_won"
            if kind == "trump_card_taken":
                taken = e.briscola.trump_card_taken
                assert tricks == 10 and (taken.seat, code(taken.card)) == (2, "6C")
        state = reply.state
    assert tricks == 13
    scores = state.briscola.table.last_hand
    assert [(s.points, s.tricks, s.won) for s in scores] == [
        (46, 8, True),
        (31, 3, False),
        (43, 2, False),
    ]


async def test_br6_a_match_of_two_hands_won_is_dealt_and_rotated(stub: Stub) -> None:
    """hands_to_win = 2 through Deal: every hand is scored, the winner's count rises,
    a drawn hand keeps the dealer and any other passes the deal on (§4.2)."""
    request = gs.DealRequest(game="briscola", players=2, seed=3)
    request.options.briscola.hands_to_win = 2
    request.options.briscola.first_dealer = 0
    reply = await stub.Deal(request)
    state = reply.state
    assert state.briscola.table.options.hands_to_win == 2
    dealer, won, hands_seen = 0, [0, 0], 1
    while not state.finished:
        legal = await stub.LegalMoves(gs.LegalMovesRequest(state=state))
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=legal.moves[-1]))
        for e in reply.events:
            kind = e.briscola.WhichOneof("event")
            if kind == "hand_scored":
                scored = e.briscola.hand_scored
                if scored.HasField("winner"):
                    won[scored.winner] += 1
                    dealer = 1 - dealer
                assert list(scored.hands_won) == won
            elif kind == "hand_dealt":
                hands_seen += 1
                assert e.briscola.hand_dealt.dealer == dealer
                assert e.briscola.hand_dealt.hand_number == hands_seen
        state = reply.state
    assert max(won) == 2 and list(state.match_score) == won and hands_seen >= 2


def test_the_options_of_the_examples_are_the_defaults() -> None:
    assert Options() == Options(hands_to_win=1, removed_two=card("2C"))
