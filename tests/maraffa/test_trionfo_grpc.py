"""Trionfo (maraffa-forms.md A) through the gRPC API: the worked examples TF-1 .. TF-10,
the inputs A.12 rejects, and random five-player matches played to their end.

The positions are those of ``test_trionfo.py``, sent as a client would; every check
reads the responses of Deal, LegalMoves, ApplyMove, GetView and Score.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import grpc
import pytest

from mazzo.core.cards import card, code
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa.cards import DECK
from mazzo.games.maraffa.moves import parse
from mazzo.games.maraffa.options import Options, TrionfoAuction
from mazzo.games.maraffa.trionfo.events import BidPassed, PartnerRevealed, ThrownIn
from mazzo.games.registry import CODECS
from mazzo.v1 import game_pb2, maraffa_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations, wire_move
from tests.maraffa.forms_helpers import wire
from tests.maraffa.test_trionfo import (
    TF6_AUCTION,
    TF6_TRICKS,
    auction_position,
    declaring,
    maso_position,
    seed_with,
    tf5_position,
    tf6_deal,
    tf6_plays,
)

M = maraffa_pb2
HEARTS = 2  # the wire Suit enum: S = 1, H = 2, D = 3, C = 4


def move_of(text: str) -> game_pb2.Move:
    """A move written as text; ``seat:`` prefixes and bare card plays as in the examples."""
    if ":" in text:
        text = text.split(":")[1]
        if text[0] not in "bpt":
            text = "play " + text
    return wire_move(parse(text))


async def apply_all(
    stub: GameServiceStub, state: game_pb2.GameState, moves: Iterable[str]
) -> tuple[gs.ApplyMoveResponse, list[maraffa_pb2.MaraffaEvent]]:
    """Apply moves one after the other; a ``seat:`` prefix is checked against the seat
    the previous response named."""
    events: list[maraffa_pb2.MaraffaEvent] = []
    reply = None
    seat = state.to_act
    for text in moves:
        if ":" in text:
            assert int(text.split(":")[0]) == seat, f"{text}: seat {seat} is to act"
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move_of(text)))
        events.extend(e.maraffa for e in reply.events)
        state, seat = reply.state, reply.seat
    assert reply is not None
    return reply, events


def of_kind(events: Iterable[maraffa_pb2.MaraffaEvent], name: str) -> list:
    return [getattr(e, name) for e in events if e.WhichOneof("event") == name]


def move_texts(moves: Iterable[game_pb2.Move]) -> list[str]:
    out = []
    for m in moves:
        action = m.maraffa.WhichOneof("action")
        if action == "bid":
            out.append("bid " + M.MaraffaContract.Name(m.maraffa.bid.contract)[17:].lower())
        elif action == "pass_bid":
            out.append("pass")
        elif action == "declare_trump":
            d = m.maraffa.declare_trump
            suit = "SHDC"[d.suit - 1]
            out.append(
                f"trump {suit} call {code(d.called_card)}" if d.called_card else f"trump {suit}"
            )
        else:
            out.append("play " + code(m.maraffa.play_card.card))
    return out


async def refused(
    stub: GameServiceStub, state: game_pb2.GameState, move: str, field: str, because: str
) -> None:
    """Not listed by LegalMoves, and ApplyMove answers INVALID_ARGUMENT on ``field``."""
    listed = (await stub.LegalMoves(gs.LegalMovesRequest(state=state))).moves
    assert move_of(move) not in listed
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move_of(move)))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(got, why)] = field_violations(caught.value)
    assert got == field and because in why, (got, why)


async def invalid_argument(call: object, field: str, because: str = "") -> str:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    [(got, why)] = field_violations(caught.value)
    assert got == field and because in why, (got, why)
    return why


def five(**fields: object) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(maraffa=M.MaraffaOptions(**fields))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------- TF-1, 2


async def test_tf1_deal_layout_through_deal(stub: GameServiceStub) -> None:
    """TF-1: Deal with players 5, dealer 0, batch 4: seat 1 holds d[0..3] and d[20..23],
    ..., the dealer d[16..19] and d[36..39]; 8 cards each; the first decision is the
    first speaker's bids and pass."""
    seed = 11
    dealt = await stub.Deal(
        gs.DealRequest(game="maraffa", players=5, seed=seed, options=five(first_dealer=0))
    )
    d = shuffled(DECK, seed, 1)
    hands = [set(h.cards) for h in dealt.state.maraffa.hands]
    assert hands[1] == {*d[0:4], *d[20:24]} and hands[0] == {*d[16:20], *d[36:40]}
    assert hands[2] == {*d[4:8], *d[24:28]} and hands[4] == {*d[12:16], *d[32:36]}
    assert dealt.state.players == 5 and dealt.state.maraffa.phase == M.MARAFFA_PHASE_AUCTION
    assert move_texts(dealt.legal_moves) == [
        "bid chiamo",
        "bid di_piu",
        "bid maso",
        "bid maso_dei_masi",
        "pass",
    ]
    assert dealt.seat == dealt.state.maraffa.trionfo.first_speaker


async def test_tf2_rotation_through_deal(stub: GameServiceStub) -> None:
    """TF-2: 5S in seat 2 (dealer 0) -> seat 2 speaks first; deals 2, 3, 4 are dealt by
    seats 2, 3, 4 with first speakers 3, 4, 0 (here every deal is thrown in)."""
    seed = seed_with(dealer=0, card_code="5S", seat=2)
    dealt = await stub.Deal(
        gs.DealRequest(game="maraffa", players=5, seed=seed, options=five(first_dealer=0))
    )
    assert dealt.seat == 2 and card("5S") in dealt.state.maraffa.hands[2].cards
    _, events = await apply_all(stub, dealt.state, ["pass"] * 15)
    assert [(e.deal_number, e.dealer, e.first_speaker) for e in of_kind(events, "deal_dealt")] == [
        (2, 2, 3),
        (3, 3, 4),
        (4, 4, 0),
    ]


# ----------------------------------------------------------------------------------- TF-3, 4


async def test_tf3_auction_case_a_and_legal_bids(stub: GameServiceStub) -> None:
    """TF-3 a: 2 PASS, 3 CHIAMO, 4 PASS, 0 DI_PIU, 1 PASS, 3 PASS -> seat 0 declares
    DI_PIU; after 3 CHIAMO seat 4 may bid DI_PIU, MASO, MASO_DEI_MASI or pass, and a
    second CHIAMO is refused."""
    state = wire(auction_position())
    reply, _ = await apply_all(stub, state, ["2:pass", "3:bid chiamo"])
    assert reply.seat == 4
    assert move_texts(reply.legal_moves) == [
        "bid di_piu",
        "bid maso",
        "bid maso_dei_masi",
        "pass",
    ]
    await refused(stub, reply.state, "bid chiamo", "move.maraffa.bid.contract", "above CHIAMO")
    reply, events = await apply_all(
        stub, reply.state, ["4:pass", "0:bid di_piu", "1:pass", "3:pass"]
    )
    [won] = of_kind(events, "auction_won")
    assert (won.seat, won.contract) == (0, M.MARAFFA_CONTRACT_DI_PIU)
    assert reply.state.maraffa.phase == M.MARAFFA_PHASE_DECLARE and reply.seat == 0
    assert move_texts(reply.legal_moves) == ["trump S", "trump H", "trump D", "trump C"]


@pytest.mark.parametrize(
    ("speeches", "declarer", "contract"),
    [
        ("2:pass, 3:bid chiamo, 4:pass, 0:bid di_piu, 1:pass, 3:bid maso, 0:pass", 3, 3),
        ("2:bid chiamo, 3:pass, 4:pass, 0:pass, 1:pass", 2, 1),
        ("2:pass, 3:bid maso_dei_masi", 3, 4),
    ],
    ids=["b", "c", "d"],
)
async def test_tf3_auction_cases_b_c_d(
    stub: GameServiceStub, speeches: str, declarer: int, contract: int
) -> None:
    """TF-3 b, c, d: the final, highest bidder declares; MASO_DEI_MASI ends it at once."""
    reply, events = await apply_all(stub, wire(auction_position()), speeches.split(", "))
    [won] = of_kind(events, "auction_won")
    assert (won.seat, won.contract) == (declarer, contract)
    assert reply.seat == declarer and reply.state.maraffa.phase == M.MARAFFA_PHASE_DECLARE


async def test_tf3_single_round(stub: GameServiceStub) -> None:
    """TF-3: under single_round case a ends after seat 1's pass: seat 0 declares DI_PIU."""
    state = wire(auction_position(Options(trionfo_auction=TrionfoAuction.SINGLE_ROUND)))
    reply, events = await apply_all(
        stub, state, ["2:pass", "3:bid chiamo", "4:pass", "0:bid di_piu", "1:pass"]
    )
    [won] = of_kind(events, "auction_won")
    assert (won.seat, won.contract) == (0, M.MARAFFA_CONTRACT_DI_PIU) and reply.seat == 0


async def test_tf3e_all_pass_is_thrown_in(stub: GameServiceStub) -> None:
    reply, events = await apply_all(stub, wire(auction_position()), ["pass"] * 5)
    assert [e.deal_number for e in of_kind(events, "thrown_in")] == [2]
    assert list(reply.state.match_score) == [0] * 5
    last = reply.state.maraffa.trionfo.last_deal
    assert last.contract == M.MARAFFA_CONTRACT_UNSPECIFIED and list(last.payments) == [0] * 5


async def test_tf4_declarations(stub: GameServiceStub) -> None:
    """TF-4: under CHIAMO 120 declarations (by suit, then called card); {H, 3C} and
    {H, 3D} valid; {H, 3H} and {H} refused naming the called card."""
    state = wire(declaring("chiamo"))
    listed = (await stub.LegalMoves(gs.LegalMovesRequest(state=state))).moves
    assert len(listed) == 120 and move_texts(listed)[:2] == ["trump S call AH", "trump S call 2H"]
    for move in ("trump H call 3C", "trump H call 3D"):
        reply, events = await apply_all(stub, state, [move])
        [declared] = of_kind(events, "contract_declared")
        assert (declared.seat, declared.suit, code(declared.called_card)) == (3, HEARTS, move[-2:])
        assert not of_kind(events, "partner_revealed")
        assert reply.seat == 2
    field = "move.maraffa.declare_trump.called_card"
    await refused(stub, state, "trump H call 3H", field, "trump suit")
    await refused(stub, state, "trump H", field, "needs a called card")
    maso = wire(declaring("maso"))
    await refused(stub, maso, "trump H call 3C", field, "only under CHIAMO")


# ----------------------------------------------------------------------------------- TF-5, 6


@pytest.mark.parametrize(
    ("plays", "winner", "thirds"),
    [
        ("3:KS 4:3S 0:4D 1:2D 2:AS", 1, 6),  # 2D beats 4D
        ("3:KS 4:3S 0:4D 1:JC 2:AS", 0, 6),  # 4D, the only trump
        ("3:KS 4:3S 0:4H 1:JC 2:AS", 4, 6),  # no trump: 3S, the highest spade
    ],
)
async def test_tf5_five_card_trick(
    stub: GameServiceStub, plays: str, winner: int, thirds: int
) -> None:
    """TF-5: trump D; seat 1's 2D beats 4D; with JC the only trump 4D wins; with no
    trump the highest spade 3S wins; the winner leads."""
    reply, events = await apply_all(stub, wire(tf5_position()), plays.split())
    [won] = of_kind(events, "trick_won")
    assert (won.trick, won.seat, won.thirds) == (1, winner, thirds)
    assert reply.seat == winner


@pytest.mark.parametrize(
    ("third", "thirds", "won", "payments"),
    [
        ("2", [5, 4, 2, 6, 3], True, [-4, -4, 16, -4, -4]),
        ("3", [5, 4, 3], False, [4, 4, -16, 4, 4]),
    ],
)
async def test_tf8_maso(
    stub: GameServiceStub, third: str, thirds: list[int], won: bool, payments: list[int]
) -> None:
    """TF-8: d5, d4, p2, d6, d3 -> MASO made at trick 5 (+16 / -4); with p3 as the third
    trick it fails there (-16 / +4). trionfo_stop_when_decided ends the deal then."""
    position, plays = maso_position(third)
    state = wire(position)
    events: list[maraffa_pb2.MaraffaEvent] = []
    for c in plays:
        reply, caused = await apply_all(stub, state, [f"play {c}"])
        events += caused
        state = reply.state
        if of_kind(caused, "deal_scored"):
            break
    assert [t.thirds for t in of_kind(events, "trick_won")] == thirds
    [scored] = of_kind(events, "deal_scored")
    assert (scored.score.won, scored.score.decided_at) == (won, len(thirds))
    assert list(scored.score.payments) == payments


async def test_tf6_complete_deal_and_tf9_views_and_score(stub: GameServiceStub) -> None:
    """TF-6: the whole CHIAMO deal; every trick to the table's winner; the partner
    revealed at trick 6; signori win 8 v 3: +2, +1, -1 x 3. TF-9: until the called card
    is played only seat 0's view (and nobody's Score) shows the amico."""
    reply, _ = await apply_all(stub, wire(tf6_deal()), [*TF6_AUCTION, "3:trump H call 3C"])
    state = reply.state
    winners = []
    for plays, _, _ in TF6_TRICKS:
        for play in plays.split():
            before = state
            reply, events = await apply_all(stub, state, [play])
            state = reply.state
            if play == "0:3C":
                assert [e.seat for e in of_kind(events, "partner_revealed")] == [0]
                # TF-9: the state before the called card was played.
                for seat in range(5):
                    got = await stub.GetView(gs.GetViewRequest(state=before, seat=seat))
                    view = got.view.maraffa.trionfo
                    assert code(view.called_card) == "3C" and view.declarer == 3
                    assert view.HasField("amico") == (seat == 0)
                score = await stub.Score(gs.ScoreRequest(state=before))
                assert not score.sides[0].maraffa.trionfo.deal.HasField("amico")
                roles = [s.maraffa.trionfo.role for s in score.sides]
                assert roles == [M.MARAFFA_TRIONFO_ROLE_UNSPECIFIED] * 3 + [
                    M.MARAFFA_TRIONFO_ROLE_DECLARER,
                    M.MARAFFA_TRIONFO_ROLE_UNSPECIFIED,
                ]
        [won] = of_kind(events, "trick_won")
        winners.append((won.seat, won.thirds))
        if len(winners) == 6:
            for seat in range(5):
                got = await stub.GetView(gs.GetViewRequest(state=state, seat=seat))
                assert got.view.maraffa.trionfo.amico == 0
    assert winners == [(w, t) for _, w, t in TF6_TRICKS]
    [scored] = of_kind(events, "deal_scored")
    s = scored.score
    assert (s.contract, s.declarer, s.amico, s.won) == (M.MARAFFA_CONTRACT_CHIAMO, 3, 0, True)
    assert (s.signori.card_points, s.popolo.card_points) == (8, 3)
    assert list(s.payments) == [1, -1, -1, 2, -1]
    assert list(reply.state.match_score) == [1, -1, -1, 2, -1]


# ----------------------------------------------------------------------------------- TF-7, 8


@pytest.mark.parametrize(
    ("contract", "call", "payments", "tricks"),
    [
        ("di_piu", "", [-2, -2, -2, 8, -2], 8),
        ("chiamo", "3D", [-2, -2, -2, 8, -2], 8),
        ("maso", "", [4, 4, 4, -16, 4], 3),
        ("maso_dei_masi", "", [8, 8, 8, -32, 8], 3),
    ],
)
async def test_tf7_other_contracts_with_stop_when_decided(
    stub: GameServiceStub, contract: str, call: str, payments: list[int], tricks: int
) -> None:
    """TF-7 with trionfo_stop_when_decided: MASO and MASO_DEI_MASI fail at trick 3
    (-16 / +4, -32 / +8); DI_PIU and CHIAMO in mano go to trick 8 (+8 / -2)."""
    state = wire(tf6_deal(Options(trionfo_stop_when_decided=True)))
    auction = ["2:pass", f"3:bid {contract}"]
    if contract != "maso_dei_masi":
        auction += ["4:pass", "0:pass", "1:pass"]
    declare = f"3:trump H call {call}" if call else "3:trump H"
    reply, events = await apply_all(stub, state, [*auction, declare])
    state = reply.state
    for play in tf6_plays():
        reply, caused = await apply_all(stub, state, [play])
        events += caused
        state = reply.state
        if of_kind(caused, "deal_scored"):
            break
    assert len(of_kind(events, "trick_won")) == tricks
    [scored] = of_kind(events, "deal_scored")
    assert list(scored.score.payments) == payments
    assert [e.seat for e in of_kind(events, "partner_revealed")] == ([3] if call else [])


# ----------------------------------------------------------------------------------- TF-10


async def test_tf10_end_of_match(stub: GameServiceStub) -> None:
    """TF-10 (match_deals = 2): TF-6 then a thrown-in deal: totals [1, -1, -1, 2, -1],
    seat 3 wins; the finished state has no legal move and refuses any with
    FAILED_PRECONDITION."""
    state = wire(tf6_deal(Options(match_deals=2)))
    reply, _ = await apply_all(stub, state, [*TF6_AUCTION, "3:trump H call 3C", *tf6_plays()])
    reply, events = await apply_all(stub, reply.state, ["pass"] * 5)
    [over] = of_kind(events, "trionfo_match_over")
    assert list(over.winners) == [3] and list(over.totals) == [1, -1, -1, 2, -1]
    assert reply.state.finished and not reply.legal_moves
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert score.finished and list(score.winners) == [3]
    assert [s.match_total for s in score.sides] == [1, -1, -1, 2, -1]
    assert [list(s.seats) for s in score.sides] == [[0], [1], [2], [3], [4]]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=reply.state, move=move_of("0:pass")))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


# ----------------------------------------------------------------------------------- A.12


async def test_a12_rejects_through_grpc(stub: GameServiceStub) -> None:
    """A.12 through the API: a seat out of turn (a state with the wrong to_act), a
    malformed called card, an unknown bid, a play before the declaration, a claim, a
    signal while signals are none, a maraffa.md option with five players."""
    auction = wire(auction_position())
    auction.to_act = 3
    await invalid_argument(
        stub.LegalMoves(gs.LegalMovesRequest(state=auction)), "state.to_act", "seat 2 speaks"
    )
    declare = wire(declaring("chiamo"))
    malformed = game_pb2.Move()
    malformed.maraffa.declare_trump.suit = HEARTS
    malformed.maraffa.declare_trump.called_card = card("8S")  # type: ignore[assignment]
    await invalid_argument(
        stub.ApplyMove(gs.ApplyMoveRequest(state=declare, move=malformed)),
        "move.maraffa.declare_trump.called_card",
        "not in the Maraffa pack",
    )
    no_bid = game_pb2.Move()
    no_bid.maraffa.bid.SetInParent()
    await invalid_argument(
        stub.ApplyMove(gs.ApplyMoveRequest(state=wire(auction_position()), move=no_bid)),
        "move.maraffa.bid.contract",
        "unknown contract",
    )
    await refused(stub, wire(auction_position()), "play 5S", "move.maraffa.play_card", "declared")
    playing = wire(tf5_position())
    await refused(stub, playing, "claim", "move.maraffa.claim", "not part of Trionfo")
    await refused(stub, playing, "play KS busso", "move.maraffa.play_card.signal", "no signals")
    await invalid_argument(
        stub.Deal(gs.DealRequest(game="maraffa", players=5, options=five(target=31))),
        "options.maraffa.target",
        "not an option of Trionfo",
    )


async def test_a_bid_in_a_four_player_state_is_refused(stub: GameServiceStub) -> None:
    """The shared move message: a bid sent to a four-player match is refused by name."""
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=3))
    await refused(stub, dealt.state, "bid chiamo", "move.maraffa.bid", "only in Trionfo")


async def test_a_trionfo_state_with_fields_of_the_other_forms_is_refused(
    stub: GameServiceStub,
) -> None:
    state = wire(tf5_position())
    state.maraffa.table.effective_target = 41
    await invalid_argument(
        stub.Score(gs.ScoreRequest(state=state)),
        "state.maraffa.table.effective_target",
        "not used with five players",
    )
    four = (await stub.Deal(gs.DealRequest(game="maraffa", players=4, seed=3))).state
    four.maraffa.trionfo.first_speaker = 1
    await invalid_argument(
        stub.Score(gs.ScoreRequest(state=four)), "state.maraffa.trionfo", "five players only"
    )


async def test_list_games_describes_the_forms(stub: GameServiceStub) -> None:
    response = await stub.ListGames(gs.ListGamesRequest())
    maraffa = {g.id: g for g in response.games}["maraffa"]
    options = {o.name: o for o in maraffa.options}
    assert options["three_player_form"].default_value == "dummy"
    assert options["match_deals"].default_value == "10"
    assert options["trionfo_auction"].allowed_values == ["continuous", "single_round"]
    assert "form_default" not in options["signals"].allowed_values
    defaults = maraffa.defaults.maraffa
    assert defaults.match_deals == 10 and defaults.trionfo_deal_batch == 4
    assert defaults.count_thrown_in and defaults.trionfo_first_speaker_card == card("5S")


# ----------------------------------------------------------------------------------- matches


@pytest.mark.parametrize("seed", range(4))
async def test_random_five_player_matches_through_grpc_finish(
    stub: GameServiceStub, seed: int
) -> None:
    """Whole five-player matches played only through the API, with a random player:
    every deal's payments sum to 0, the totals follow, views hold 8 - played cards,
    and the match finishes with the highest totals as winners."""
    rnd = random.Random(seed)
    options = five(
        match_deals=3,
        trionfo_auction=1 + seed % 2,
        trionfo_stop_when_decided=bool(seed % 2),
        trionfo_deal_batch=[4, 1, 2, 8][seed],
    )
    dealt = await stub.Deal(gs.DealRequest(game="maraffa", players=5, seed=seed, options=options))
    state, moves, seat = dealt.state, dealt.legal_moves, dealt.seat
    totals = [0] * 5
    deals = 0
    while not state.finished:
        assert moves, "a live match always has a legal move"
        if rnd.random() < 0.1:
            view = await stub.GetView(gs.GetViewRequest(state=state, seat=seat))
            assert list(view.view.maraffa.hand) == list(state.maraffa.hands[seat].cards)
        reply = await stub.ApplyMove(
            gs.ApplyMoveRequest(state=state, move=moves[rnd.randrange(len(moves))])
        )
        for event in reply.events:
            e = event.maraffa
            if e.HasField("deal_scored"):
                payments = list(e.deal_scored.score.payments)
                assert sum(payments) == 0
                totals = [t + p for t, p in zip(totals, payments, strict=True)]
                assert list(e.deal_scored.totals) == totals
                deals += 1
            if e.HasField("thrown_in"):
                deals += 1
        state, moves, seat = reply.state, reply.legal_moves, reply.seat
    assert deals == 3 and list(state.match_score) == totals
    score = await stub.Score(gs.ScoreRequest(state=state))
    assert score.finished
    assert list(score.winners) == [s for s in range(5) if totals[s] == max(totals)]


def test_events_of_different_kinds_with_equal_fields_keep_their_kind() -> None:
    """BidPassed(3), PartnerRevealed(3) and ThrownIn(3) are equal as tuples; each must
    still be encoded as its own kind (the encodings are memoised by event)."""
    for event, kind in [
        (BidPassed(3), "bid_passed"),
        (PartnerRevealed(3), "partner_revealed"),
        (ThrownIn(3), "thrown_in"),
    ]:
        data = CODECS["maraffa"].events_bytes([event], 2)
        reply = gs.ApplyMoveResponse.FromString(data)
        assert reply.events[0].maraffa.WhichOneof("event") == kind


@pytest.mark.parametrize("to_act", [5, 7, 1000, 0, 1, 3, 4])
async def test_the_seat_to_act_before_the_first_card_is_checked(
    stub: GameServiceStub, to_act: int
) -> None:
    """Issue 13, item 7: in the play phase before the first card, an out-of-range
    ``to_act`` was an INTERNAL error and a wrong in-range one was accepted."""
    reply = await stub.Deal(gs.DealRequest(game="maraffa", players=5, seed=4))
    state, moves = reply.state, list(reply.legal_moves)
    while not any(m.maraffa.HasField("play_card") for m in moves):
        reply = await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=moves[0]))
        state, moves = reply.state, list(reply.legal_moves)
    assert any(m.maraffa.HasField("play_card") for m in moves), "the play phase, no card yet"
    if to_act == state.to_act:
        return  # the right seat: nothing to refuse
    wrong = game_pb2.GameState()
    wrong.CopyFrom(state)
    wrong.to_act = to_act
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.LegalMoves(gs.LegalMovesRequest(state=wrong))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "state.to_act"
