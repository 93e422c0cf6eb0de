"""Three players with 39 cards (maraffa-forms.md B) through the gRPC API: the worked
examples TT-1 .. TT-6, the option rejects of B.6, and random 39-card matches played to
their end. The positions are those of ``test_deck39.py``, sent as a client would."""

from __future__ import annotations

import random
from collections.abc import Iterable

import grpc
import pytest

from mazzo.core.cards import card
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa.cards import deck_of
from mazzo.games.maraffa.moves import parse
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.maraffa.positions import position
from mazzo.v1 import game_pb2, maraffa_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations, wire_move
from tests.maraffa.forms_helpers import wire
from tests.maraffa.test_deck39 import (
    before_last_play,
    seed_with_4d_at,
    tt4_tricks,
    tt5_tricks,
)

M = maraffa_pb2
DECK39 = M.MARAFFA_THREE_PLAYER_FORM_DECK39


def options(**fields: object) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(
        maraffa=M.MaraffaOptions(three_player_form=DECK39, **fields)  # type: ignore[arg-type]
    )


def of_kind(events: Iterable[maraffa_pb2.MaraffaEvent], name: str) -> list:
    return [getattr(e, name) for e in events if e.WhichOneof("event") == name]


async def last_play(
    stub: GameServiceStub, state: game_pb2.GameState
) -> list[maraffa_pb2.MaraffaEvent]:
    """Play the only card left to play (the legal moves are it and CLAIM)."""
    listed = (await stub.LegalMoves(gs.LegalMovesRequest(state=state))).moves
    [move] = [m for m in listed if m.maraffa.WhichOneof("action") == "play_card"]
    reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
    return [e.maraffa for e in reply.events]


async def test_tt1_tt2_deal_through_deal(stub: GameServiceStub) -> None:
    """TT-1: 39 cards, 13 each, no 4S. TT-2: dealer 0, one card at a time from seat 1;
    with 4D at d[7], seat 2 is battezzante and is asked to name trumps."""
    seed = seed_with_4d_at(7)
    dealt = await stub.Deal(
        gs.DealRequest(game="maraffa", players=3, seed=seed, options=options(first_dealer=0))
    )
    hands = [list(h.cards) for h in dealt.state.maraffa.hands]
    d = shuffled(deck_of(3, card("4S")), seed, 1)
    assert [set(h) for h in hands] == [set(d[2::3]), set(d[0::3]), set(d[1::3])]
    assert [len(h) for h in hands] == [13, 13, 13]
    assert card("4S") not in {c for h in hands for c in h}
    assert dealt.seat == 2 and dealt.state.maraffa.table.battezzante == 2
    assert [m.maraffa.WhichOneof("action") for m in dealt.legal_moves] == ["declare_trump"] * 4 + [
        "claim"
    ]
    opts = dealt.state.maraffa.table.options
    assert opts.three_player_form == DECK39 and opts.removed_four == card("4S")
    assert opts.signals == M.MARAFFA_SIGNAL_SET_NONE, "signals default to none (B.4)"


async def test_tt1_removing_4d_is_invalid_argument(stub: GameServiceStub) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(
            gs.DealRequest(game="maraffa", players=3, options=options(removed_four=card("4D")))
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, why)] = field_violations(caught.value)
    assert field == "options.maraffa.removed_four" and "4D" in why


@pytest.mark.parametrize(
    ("players", "fields", "field"),
    [
        (4, {}, "options.maraffa.three_player_form"),
        (5, {}, "options.maraffa.three_player_form"),
        (3, {"dummy_seat": 1}, "options.maraffa.dummy_seat"),
        (3, {"signals": M.MARAFFA_SIGNAL_SET_EXTENDED}, "options.maraffa.signals"),
        (3, {"removed_four": card("8S")}, "options.maraffa.removed_four"),
    ],
)
async def test_b6_options_rejected_through_deal(
    stub: GameServiceStub, players: int, fields: dict[str, object], field: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(gs.DealRequest(game="maraffa", players=players, options=options(**fields)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == [field]


async def test_tt4_hand_scores_through_score(stub: GameServiceStub) -> None:
    """TT-4: 16 / 11 / 8 thirds -> 5 / 3 / 2 points, one side per player."""
    events = await last_play(stub, wire(before_last_play(tt4_tricks())))
    [scored] = of_kind(events, "hand_scored")
    assert [(s.thirds, s.card_points) for s in scored.scores] == [(16, 5), (11, 3), (8, 2)]
    assert list(scored.totals) == [5, 3, 2]


async def test_tt5_end_of_game_and_tie(stub: GameServiceStub) -> None:
    """TT-5: 36 / 40 / 38 + 5 / 3 / 3 -> seat 1 wins; 38 / 37 / 30 + 4 / 5 / 2 -> a tie
    at 42: the target becomes 43 and a new hand is dealt."""
    state = wire(before_last_play(tt5_tricks("ttc", "ccc", "tt"), totals=(36, 40, 38)))
    events = await last_play(stub, state)
    assert [(g.team, list(g.totals)) for g in of_kind(events, "game_won")] == [(1, [41, 43, 41])]
    [won] = of_kind(events, "match_won")
    assert won.team == 1
    state = wire(before_last_play(tt5_tricks("tt", "ttcc", "cc"), totals=(38, 37, 30)))
    events = await last_play(stub, state)
    assert [t.effective_target for t in of_kind(events, "target_raised")] == [43]
    assert not of_kind(events, "game_won") and of_kind(events, "hand_dealt")


async def test_tt2_rotation_through_apply(stub: GameServiceStub) -> None:
    """TT-2: deal 1 dealer 0 and battezzante 2 (4D at d[7]); deal 2 dealer 2 and
    battezzante 0; deal 3 dealer 0 and battezzante 1."""
    dealt = await stub.Deal(
        gs.DealRequest(
            game="maraffa", players=3, seed=seed_with_4d_at(7), options=options(first_dealer=0)
        )
    )
    state, moves = dealt.state, dealt.legal_moves
    hands = []
    while len(hands) < 2:
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=moves[0]))
        hands += of_kind([e.maraffa for e in reply.events], "hand_dealt")
        state, moves = reply.state, reply.legal_moves
    assert [(h.hand_number, h.dealer, h.battezzante) for h in hands] == [(2, 2, 0), (3, 0, 1)]


async def test_tt3_a_trick_through_apply(stub: GameServiceStub) -> None:
    """TT-3: trump S; seat 1 leads 2C, seat 2 (no clubs) 5S, seat 0 3C: seat 2 wins 2
    thirds with the only trump."""
    seat2 = "5S AH 2H 3H 4H 5H 6H 7H JH QH KH AD 2D"
    state = wire(
        position(
            hands=["3C", "2C", seat2],
            trump="S",
            battezzante=1,
            players=3,
            options=Options(three_player_form=ThreePlayerForm.DECK39),
        )
    )
    events = []
    for move in ("play 2C", "play 5S", "play 3C"):
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=wire_move(parse(move))))
        events += [e.maraffa for e in reply.events]
        state = reply.state
    [won] = of_kind(events, "trick_won")
    assert (won.trick, won.seat, won.thirds) == (1, 2, 2) and reply.seat == 2


async def test_tt6_through_apply(stub: GameServiceStub) -> None:
    """TT-6: 4S is not held by anybody: playing it is refused; a state holding it (40
    cards) is refused naming the hand."""
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=3, seed=2, options=options()))
    declared = await stub.ApplyMove(
        gs.ApplyMoveRequest(state=dealt.state, move=wire_move(parse("trump H")))
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(
            gs.ApplyMoveRequest(state=declared.state, move=wire_move(parse("play 4S")))
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "move.maraffa.play_card.card"
    forty = game_pb2.GameState()
    forty.CopyFrom(dealt.state)
    forty.maraffa.hands[0].cards.append(card("4S"))  # type: ignore[arg-type]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Score(gs.ScoreRequest(state=forty))
    assert field_violations(caught.value)[0][0] == "state.maraffa.hands[0].cards"


@pytest.mark.parametrize("seed", range(3))
async def test_random_39_card_matches_through_grpc_finish(stub: GameServiceStub, seed: int) -> None:
    """Whole 39-card matches played only through the API: every hand's points are 10 or
    11, the totals follow, and the match finishes with one winner at the target."""
    rnd = random.Random(seed)
    fields = {"target": 21, "removed_four": card(["4S", "4H", "4C"][seed])}
    if seed == 1:
        fields["signals"] = M.MARAFFA_SIGNAL_SET_CORE
    dealt = await stub.Deal(
        gs.DealRequest(game="maraffa", players=3, seed=seed, options=options(**fields))
    )
    state, moves = dealt.state, dealt.legal_moves
    totals = [0, 0, 0]
    hands = 0
    while not state.finished:
        move = moves[rnd.randrange(len(moves) - 1)]  # never the final CLAIM
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
        for event in reply.events:
            if event.maraffa.HasField("hand_scored"):
                scores = event.maraffa.hand_scored.scores
                assert len(scores) == 3
                assert sum(s.card_points for s in scores) in (10, 11)
                totals = [t + s.hand_score for t, s in zip(totals, scores, strict=True)]
                assert list(event.maraffa.hand_scored.totals) == totals
                hands += 1
        state, moves = reply.state, reply.legal_moves
    assert hands >= 2 and not moves
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished and len(score.sides) == 3
    [winner] = score.winners
    assert score.sides[winner].match_total == max(totals) >= 21
    assert [list(s.seats) for s in score.sides] == [[0], [1], [2]]
