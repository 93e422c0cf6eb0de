"""The worked examples MF-1 .. MF-12 of docs/rules/maraffa.md §6, through the gRPC API.

The positions are the ones of ``test_worked_examples.py``, built with
``position(...)`` and sent as a client would (``wire_state``); every check reads
the responses of LegalMoves, ApplyMove, Score (and Deal / GetView for MF-11).
Illegal moves must come back as INVALID_ARGUMENT with a field violation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import grpc
import pytest
from google.protobuf.message import Message

from mazzo.core.cards import card, code
from mazzo.games.maraffa.moves import parse
from mazzo.games.maraffa.options import (
    MarafonaRule,
    Options,
    SignalSet,
)
from mazzo.games.maraffa.positions import position
from mazzo.v1 import game_pb2, maraffa_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations, wire_move, wire_state
from tests.maraffa.test_worked_examples import (
    BEN_MARAFONA,
    LEAD_HISTORY,
    LED_HISTORY,
    MARAFONA_C,
    MF2_HANDS,
    MF2_TRICKS,
    MF3_BUT_LAST,
    MF3_HANDS,
    MF3_TRICKS,
    MF6_HAND,
    MF6_LEADS,
    MF8_PARAMS,
    MF11_SEED,
    MF12_HISTORY,
    dealt_hands,
    plays,
)

ANNA, BEN, CARLA, DAN = 0, 1, 2, 3
HEARTS = 2  # the wire Suit enum: S = 1, H = 2, D = 3, C = 4


# --------------------------------------------------------------------------- helpers


def move_of(move: str | game_pb2.Move) -> game_pb2.Move:
    return wire_move(parse(move)) if isinstance(move, str) else move


async def legal(stub: GameServiceStub, state: game_pb2.GameState) -> gs.LegalMovesResponse:
    return await stub.LegalMoves(gs.LegalMovesRequest(state=state))


async def apply(
    stub: GameServiceStub, state: game_pb2.GameState, move: str | game_pb2.Move
) -> gs.ApplyMoveResponse:
    return await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move_of(move)))


async def apply_all(
    stub: GameServiceStub, state: game_pb2.GameState, moves: Iterable[str]
) -> tuple[gs.ApplyMoveResponse, list[maraffa_pb2.MaraffaEvent]]:
    """Apply moves one after the other; the last reply and every event on the way."""
    events: list[maraffa_pb2.MaraffaEvent] = []
    reply = None
    for move in moves:
        reply = await apply(stub, state, move)
        events.extend(e.maraffa for e in reply.events)
        state = reply.state
    assert reply is not None
    return reply, events


async def rejected(
    stub: GameServiceStub, state: game_pb2.GameState, move: str
) -> list[tuple[str, str]]:
    """The move is not listed by LegalMoves and ApplyMove refuses it (INVALID_ARGUMENT)."""
    assert move_of(move) not in (await legal(stub, state)).moves
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await apply(stub, state, move)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return field_violations(caught.value)


def violated(violations: Sequence[tuple[str, str]]) -> list[str]:
    return [f for f, _ in violations]


def card_codes(moves: Iterable[game_pb2.Move]) -> set[str]:
    """The cards among some moves, whatever signal or declaration goes with them."""
    return {
        code(m.maraffa.play_card.card)
        for m in moves
        if m.maraffa.WhichOneof("action") == "play_card"
    }


def texts(*moves: str) -> list[game_pb2.Move]:
    return [move_of(m) for m in moves]


def kind(moves: Iterable[game_pb2.Move]) -> list[str | None]:
    return [m.maraffa.WhichOneof("action") for m in moves]


def of_kind(
    events: Iterable[maraffa_pb2.MaraffaEvent] | gs.ApplyMoveResponse, name: str
) -> list[Message]:
    """The events of one kind (``trick_won``, ``hand_scored``, ...), in order."""
    if isinstance(events, gs.ApplyMoveResponse):
        events = [e.maraffa for e in events.events]
    return [getattr(e, name) for e in events if e.WhichOneof("event") == name]


def hand_cards(state: game_pb2.GameState, seat: int) -> set[str]:
    return {code(c) for c in state.maraffa.hands[seat].cards}


def score_tuple(s: maraffa_pb2.MaraffaHandScore) -> tuple[int, ...]:
    return (
        s.aces,
        s.third_cards,
        s.last_trick,
        s.thirds,
        s.card_points,
        s.marafona_bonus,
        s.hand_score,
    )


# --------------------------------------------------------------------------- MF-1, MF-4, MF-5

BEN_NO_SPADES = "4H 5H 6H AD 2D 3D 4D AC 2C 3C"


@pytest.mark.parametrize(
    ("hands", "trump", "leader", "trick", "winner", "thirds"),
    [
        pytest.param(
            ["KS", BEN_NO_SPADES, "3S", "7S"], "H", ANNA, "KS 4H 3S 7S", BEN, 2, id="MF-1"
        ),
        pytest.param(
            ["3S", "AH 2H 3H 4H 5H 6H 7H JH QH KC", "2S", "AS"],
            "D",
            CARLA,
            "2S AS 3S KC",
            ANNA,
            6,
            id="MF-4",
        ),
        pytest.param(
            ["5S", "AS", "4C AH 2H 3H 4H 5H 6H 7H JH QH", "2C KH AD 2D 3D 4D 5D 6D 7D JD"],
            "C",
            BEN,
            "AS 4C 2C 5S",
            DAN,
            4,
            id="MF-5",
        ),
    ],
)
async def test_mf1_mf4_mf5_trick_winner_and_thirds(
    stub: GameServiceStub,
    hands: list[str],
    trump: str,
    leader: int,
    trick: str,
    winner: int,
    thirds: int,
) -> None:
    """MF-1: 4H, the only trump, wins 2 thirds for {1,3}. MF-4: no trump, 3S wins 6
    thirds for {0,2}. MF-5: 2C over-trumps 4C, 4 thirds for {1,3}. The winner leads."""
    state = wire_state(position(hands=hands, trump=trump, battezzante=leader))
    assert (await legal(stub, state)).seat == leader

    reply, events = await apply_all(stub, state, plays([trick]))

    [won] = of_kind(events, "trick_won")
    assert (won.trick, won.seat, won.thirds) == (1, winner, thirds)
    assert reply.seat == reply.state.to_act == winner
    assert kind(reply.legal_moves)[-1] == "claim"
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert score.sides[winner % 2].maraffa.current_hand.thirds == thirds
    assert score.sides[1 - winner % 2].maraffa.current_hand.thirds == 0


async def test_mf1_void_seat_plays_anything_holder_must_follow(stub: GameServiceStub) -> None:
    """MF-1: Ben holds no spade, so any card (he may announce TAGLIO); Carla holds
    spades and must follow: 3H is refused on move.maraffa.play_card.card."""
    state = wire_state(
        position(hands=["KS", BEN_NO_SPADES, "3S", "7S"], trump="H", battezzante=ANNA)
    )
    reply = await apply(stub, state, "play KS")
    assert reply.seat == BEN
    assert card_codes(reply.legal_moves) == set(BEN_NO_SPADES.split())
    assert move_of("play 4H taglio") in reply.legal_moves

    reply = await apply(stub, reply.state, "play 4H")
    assert reply.seat == CARLA
    assert card_codes(reply.legal_moves) == {"3S"}
    violations = await rejected(stub, reply.state, "play 3H")
    assert violated(violations) == ["move.maraffa.play_card.card"]


# --------------------------------------------------------------------------- MF-2, MF-3


async def test_mf2_seed_hand_score(stub: GameServiceStub) -> None:
    """MF-2: {0,2} 9 + 13 + 3 = 25 thirds -> 8, + 3 marafona = 11; {1,3} 3 + 7 = 10
    thirds -> 3."""
    state = wire_state(position(hands=MF2_HANDS, trump="H", battezzante=ANNA))
    moves = plays(MF2_TRICKS)
    moves[0] = "play 3H marafona"

    reply, events = await apply_all(stub, state, moves)

    [scored] = of_kind(events, "hand_scored")
    expected = [(3, 13, 1, 25, 8, 3, 11), (1, 7, 0, 10, 3, 0, 3)]
    assert [score_tuple(s) for s in scored.scores] == expected
    assert list(scored.totals) == [11, 3]
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert [score_tuple(s.maraffa.last_hand) for s in score.sides] == expected
    assert [s.match_total for s in score.sides] == [11, 3]
    assert not score.finished


async def test_mf3_rounding(stub: GameServiceStub) -> None:
    """MF-3: 23 thirds -> 7 (7 2/3 rounded down), 12 thirds -> 4; sum 11."""
    state = wire_state(position(hands=MF3_HANDS, trump="H", battezzante=ANNA))

    reply, events = await apply_all(stub, state, plays(MF3_TRICKS))

    [scored] = of_kind(events, "hand_scored")
    assert [score_tuple(s) for s in scored.scores] == [
        (3, 11, 1, 23, 7, 0, 7),
        (1, 9, 0, 12, 4, 0, 4),
    ]
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert [s.match_total for s in score.sides] == [7, 4]


# --------------------------------------------------------------------------- MF-6


@pytest.mark.parametrize(
    ("led", "legal_set"),
    [
        pytest.param("", set(MF6_HAND.split()), id="leading"),
        pytest.param("QS", {"7S", "KS"}, id="led-QS"),
        pytest.param("2H", {"AH"}, id="led-2H"),
        pytest.param("JD", {"3D"}, id="led-JD"),
        pytest.param("5C", {"4C"}, id="led-5C"),
    ],
)
async def test_mf6_following_suit(stub: GameServiceStub, led: str, legal_set: set[str]) -> None:
    """MF-6: hand [7S, KS, AH, 3D, 4C]: leading -> all five; led QS -> 7S, KS; led 2H
    -> AH; led JD -> 3D; led 5C -> 4C. CLAIM is listed last."""
    if led:
        dan = " ".join(c for c in MF6_LEADS.split() if c != led)
        built = position(hands=[MF6_HAND, "", "", dan], played=f"{LED_HISTORY} {led}", trump="S")
    else:
        built = position(hands=[MF6_HAND, "", "", MF6_LEADS], played=LEAD_HISTORY, trump="S")
    state = wire_state(built)

    reply = await legal(stub, state)

    assert reply.seat == ANNA
    assert card_codes(reply.moves) == legal_set
    assert kind(reply.moves)[-1] == "claim"
    assert kind(reply.moves).count("claim") == 1
    listed = [code(m.maraffa.play_card.card) for m in reply.moves[:-1]]
    assert list(dict.fromkeys(listed)) == [c for c in MF6_HAND.split() if c in legal_set]
    if led:
        off_suit = next(c for c in MF6_HAND.split() if c not in legal_set)
        violations = await rejected(stub, state, f"play {off_suit}")
        assert violated(violations) == ["move.maraffa.play_card.card"]


# --------------------------------------------------------------------------- MF-7


def mf7_state(battezzante_hand: str) -> game_pb2.GameState:
    return wire_state(
        position(
            hands=[battezzante_hand, "", "", ""],
            battezzante=ANNA,
            hand_number=1,
            dealer=DAN,
            options=Options(redeal_weak_hand=True),
        )
    )


async def test_mf7_weak_hand_may_ask_a_redeal(stub: GameServiceStub) -> None:
    """MF-7: [AS 4D 5D 6C 7C 4H 5H 6S 7S 5C] = 3 thirds < 4: REQUEST_REDEAL legal,
    after the four trumps and before CLAIM; the same dealer deals again."""
    state = mf7_state("AS 4D 5D 6C 7C 4H 5H 6S 7S 5C")
    reply = await legal(stub, state)
    assert list(reply.moves) == texts("trump S", "trump H", "trump D", "trump C", "redeal", "claim")

    applied = await apply(stub, state, "redeal")

    [asked] = of_kind(applied, "redeal_requested")
    assert asked.seat == ANNA
    [dealt] = of_kind(applied, "hand_dealt")
    assert (dealt.hand_number, dealt.dealer) == (1, DAN)
    table = applied.state.maraffa.table
    assert table.dealer == DAN and list(table.redeal_requests) == [ANNA]
    assert applied.state.maraffa.rng.counter == state.maraffa.rng.counter + 1
    expected = dealt_hands(state.maraffa.rng.seed, state.maraffa.rng.counter, DAN)
    assert [set(h.cards) for h in applied.state.maraffa.hands] == expected
    holder = next(s for s in range(4) if card("4D") in expected[s])
    assert dealt.battezzante == table.battezzante == applied.seat == holder


async def test_mf7_hand_of_four_thirds_may_not(stub: GameServiceStub) -> None:
    """MF-7: [JS QS KD 2H 4D 5D 6C 7C 4H 5H] = 4 thirds: no redeal."""
    state = mf7_state("JS QS KD 2H 4D 5D 6C 7C 4H 5H")
    reply = await legal(stub, state)
    assert list(reply.moves) == texts("trump S", "trump H", "trump D", "trump C", "claim")
    violations = await rejected(stub, state, "redeal")
    assert violated(violations) == ["move.maraffa.request_redeal"]


# --------------------------------------------------------------------------- MF-8


@pytest.mark.parametrize(*MF8_PARAMS)
async def test_mf8_claims(
    stub: GameServiceStub,
    played: str,
    marafona: bool,
    options: Options,
    total: int,
    value: int,
    needed: int,
    valid: bool,
    winner: int,
) -> None:
    """MF-8 (target 41, {0,2} had 36): 41 valid; 40 invalid; 43 with the marafona
    valid; strict_one_third 121 < 124 invalid; keep_thirds 130 >= 123 valid."""
    state = wire_state(
        position(
            hands=[MARAFONA_C, "", "", ""],
            played=played,
            trump="C",
            options=options,
            totals=(total, 20),
            marafona_seat=ANNA if marafona else None,
        )
    )
    assert kind((await legal(stub, state)).moves)[-1] == "claim"

    reply = await apply(stub, state, "claim")

    [claimed] = of_kind(reply, "claimed")
    result = claimed.result
    assert (result.seat, result.team, result.value, result.needed, result.valid) == (
        ANNA,
        0,
        value,
        needed,
        valid,
    )
    [game_won] = of_kind(reply, "game_won")
    assert (game_won.team, list(game_won.totals)) == (winner, [total, 20])
    [match_won] = of_kind(reply, "match_won")
    assert match_won.team == winner
    assert reply.state.finished and not reply.legal_moves
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert score.finished and list(score.winners) == [winner]


# --------------------------------------------------------------------------- MF-9


async def test_mf9_one_team_over_the_target_wins(stub: GameServiceStub) -> None:
    """MF-9: A 34 + 7 = 41, B 36 + 4 = 40 -> A wins."""
    state = wire_state(
        position(hands=["", "", "", ""], played=MF3_BUT_LAST, trump="H", totals=(34, 36))
    )
    assert card_codes((await legal(stub, state)).moves) == {"4C"}

    reply = await apply(stub, state, "play 4C")

    [scored] = of_kind(reply, "hand_scored")
    assert [s.hand_score for s in scored.scores] == [7, 4]
    assert list(scored.totals) == [41, 40]
    [game_won] = of_kind(reply, "game_won")
    assert game_won.team == 0 and list(game_won.totals) == [41, 40]
    assert [m.team for m in of_kind(reply, "match_won")] == [0]
    assert not of_kind(reply, "target_raised")
    assert reply.state.finished and not reply.legal_moves
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert score.finished and list(score.winners) == [0]
    assert [s.match_total for s in score.sides] == [41, 40]


async def test_mf9_a_tie_over_the_target_raises_it(stub: GameServiceStub) -> None:
    """MF-9: A 38 + 4 = 42, B 35 + 7 = 42 -> no winner; effective_target = 43; next
    hand."""
    state = wire_state(
        position(
            hands=["", "", "", ""],
            played=MF3_BUT_LAST,
            trump="H",
            battezzante=BEN,  # the MF-3 deal turned one seat on: team {1,3} takes 7
            totals=(38, 35),
        )
    )

    reply = await apply(stub, state, "play 4C")

    [scored] = of_kind(reply, "hand_scored")
    assert [s.hand_score for s in scored.scores] == [4, 7]
    assert list(scored.totals) == [42, 42]
    assert [t.effective_target for t in of_kind(reply, "target_raised")] == [43]
    assert not of_kind(reply, "game_won")
    [dealt] = of_kind(reply, "hand_dealt")
    assert (dealt.hand_number, dealt.dealer, dealt.battezzante) == (3, BEN, CARLA)
    assert not reply.state.finished
    assert reply.state.maraffa.table.effective_target == 43
    assert list(reply.state.match_score) == [42, 42]
    assert reply.seat == CARLA
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert not score.finished and not score.winners


# --------------------------------------------------------------------------- MF-10


async def ben_to_lead(stub: GameServiceStub, options: Options | None = None) -> game_pb2.GameState:
    """Ben (battezzante, holding 3H 2H AH) declares trump H and is to lead trick 1."""
    state = wire_state(position(hands=["", BEN_MARAFONA, "", ""], battezzante=BEN, options=options))
    reply = await apply(stub, state, "trump H")
    [declared] = of_kind(reply, "trump_declared")
    assert (declared.seat, declared.suit) == (BEN, HEARTS)
    assert reply.seat == BEN
    return reply.state


async def test_mf10_holder_declares_on_trick_1(stub: GameServiceStub) -> None:
    """MF-10: PLAY_CARD{AH, declare_marafona=true} to trick 1 -> valid, +3 for {1,3}."""
    state = await ben_to_lead(stub)
    assert move_of("play AH marafona") in (await legal(stub, state)).moves

    reply = await apply(stub, state, "play AH marafona")

    [played] = of_kind(reply, "card_played")
    assert (played.seat, code(played.card), played.declare_marafona) == (BEN, "AH", True)
    assert reply.state.maraffa.marafona_seat == BEN
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert [s.maraffa.current_hand.marafona_bonus for s in score.sides] == [0, 3]


async def test_mf10_non_holder_may_not_declare(stub: GameServiceStub) -> None:
    """MF-10: seat 2 setting the flag on its trick-1 play -> invalid."""
    reply = await apply(stub, await ben_to_lead(stub), "play AH marafona")
    assert reply.seat == CARLA and "7H" in hand_cards(reply.state, CARLA)
    violations = await rejected(stub, reply.state, "play 7H marafona")
    assert violated(violations) == ["move.maraffa.play_card.declare_marafona"]


async def test_mf10_trick_2_is_too_late(stub: GameServiceStub) -> None:
    """MF-10: seat 1 setting the flag on a trick-2 play -> invalid (too late)."""
    reply, events = await apply_all(
        stub, await ben_to_lead(stub), ["play AH", "play 7H", "play QD", "play 4H"]
    )
    assert [w.seat for w in of_kind(events, "trick_won")] == [BEN]
    assert reply.seat == BEN
    assert not any(m.maraffa.play_card.declare_marafona for m in reply.legal_moves)
    violations = await rejected(stub, reply.state, "play 3H marafona")
    assert violated(violations) == ["move.maraffa.play_card.declare_marafona"]


async def test_mf10_battezzante_ace_lead(stub: GameServiceStub) -> None:
    """MF-10: under battezzante_ace_lead, AH with the flag as the first lead is valid,
    3H with the flag is invalid."""
    state = await ben_to_lead(stub, Options(marafona_rule=MarafonaRule.BATTEZZANTE_ACE_LEAD))
    moves = (await legal(stub, state)).moves
    declaring = {
        code(m.maraffa.play_card.card) for m in moves if m.maraffa.play_card.declare_marafona
    }
    assert declaring == {"AH"}

    violations = await rejected(stub, state, "play 3H marafona")
    assert violated(violations) == ["move.maraffa.play_card.declare_marafona"]
    reply = await apply(stub, state, "play AH marafona")
    assert reply.state.maraffa.marafona_seat == BEN


# --------------------------------------------------------------------------- MF-11


async def finish_hand(
    stub: GameServiceStub, reply: gs.ApplyMoveResponse | gs.DealResponse
) -> gs.ApplyMoveResponse:
    """Play the hand out with the first legal move each time (never CLAIM)."""
    hand_number = reply.state.maraffa.table.hand_number
    state, moves = reply.state, reply.legal_moves
    while True:
        assert kind(moves[:1]) in (["play_card"], ["declare_trump"])
        reply = await apply(stub, state, moves[0])
        if reply.state.maraffa.table.hand_number != hand_number:
            return reply
        state, moves = reply.state, reply.legal_moves


async def test_mf11_dealer_and_battezzante_rotate(stub: GameServiceStub) -> None:
    """MF-11: hand 1 dealer 0, dealt in fives from seat 1, 4D in seat 2's hand so seat 2
    declares and leads; hand 2 dealer 2, battezzante 3, seat 1 sees no cards until
    trump is declared; hand 3 dealer 3, battezzante 0."""
    options = game_pb2.GameOptions(maraffa=maraffa_pb2.MaraffaOptions(first_dealer=0))
    dealt = await stub.Deal(
        gs.DealRequest(game="maraffa", players=4, seed=MF11_SEED, options=options)
    )
    table = dealt.state.maraffa.table
    assert (table.hand_number, table.dealer, table.battezzante) == (1, 0, CARLA)
    assert [set(h.cards) for h in dealt.state.maraffa.hands] == dealt_hands(MF11_SEED, 1, 0)
    assert dealt.seat == CARLA
    assert kind(dealt.legal_moves) == ["declare_trump"] * 4 + ["claim"]

    reply = await finish_hand(stub, dealt)
    [hand2] = of_kind(reply, "hand_dealt")
    assert (hand2.hand_number, hand2.dealer, hand2.battezzante) == (2, CARLA, DAN)
    assert [set(h.cards) for h in reply.state.maraffa.hands] == dealt_hands(MF11_SEED, 2, CARLA)
    assert reply.seat == DAN
    ben = (await stub.GetView(gs.GetViewRequest(state=reply.state, seat=BEN))).view.maraffa
    assert ben.hand_hidden and not ben.hand and ben.hand_sizes[BEN] == 10
    dan = (await stub.GetView(gs.GetViewRequest(state=reply.state, seat=DAN))).view.maraffa
    assert not dan.hand_hidden and len(dan.hand) == 10

    declared = await apply(stub, reply.state, "trump D")
    ben = (await stub.GetView(gs.GetViewRequest(state=declared.state, seat=BEN))).view.maraffa
    assert not ben.hand_hidden and len(ben.hand) == 10

    reply = await finish_hand(stub, declared)
    [hand3] = of_kind(reply, "hand_dealt")
    assert (hand3.hand_number, hand3.dealer, hand3.battezzante) == (3, DAN, ANNA)
    assert [set(h.cards) for h in reply.state.maraffa.hands] == dealt_hands(MF11_SEED, 3, DAN)
    assert reply.seat == ANNA


# --------------------------------------------------------------------------- MF-12


@pytest.mark.parametrize(
    ("move", "valid"),
    [
        ("play KS volo", False),
        ("play KS striscio", True),
        ("play KS ristriscio", False),
        ("play KS busso", True),
        ("play 2C volo", True),
    ],
)
async def test_mf12_checked_signals(stub: GameServiceStub, move: str, valid: bool) -> None:
    """MF-12: leader [5S, KS, 2C], trump D, leads KS: VOLO invalid (still holds 5S),
    STRISCIO valid, RISTRISCIO invalid (one spade left), BUSSO valid; 2C with VOLO
    valid."""
    state = wire_state(
        position(
            hands=["5S KS 2C", "", "", ""],
            played=MF12_HISTORY,
            trump="D",
            options=Options(signals_checked=True, signals=SignalSet.EXTENDED),
        )
    )
    if not valid:
        violations = await rejected(stub, state, move)
        assert violated(violations) == ["move.maraffa.play_card.signal"]
        return
    assert move_of(move) in (await legal(stub, state)).moves
    reply = await apply(stub, state, move)
    [played] = of_kind(reply, "card_played")
    wire = move_of(move).maraffa.play_card
    assert (played.seat, played.card, played.signal) == (ANNA, wire.card, wire.signal)
    assert played.signal != 0
