"""The worked examples BU-1 … BU-11 of docs/rules/burraco.md §6, through the gRPC API.

The positions are those of ``examples.py``, sent as a client would (``wire_state``);
every check reads the responses of Deal, LegalMoves, ApplyMove, GetView and Score.
Illegal moves come back as INVALID_ARGUMENT with a field violation, a state that
breaks §8 likewise.
"""

from __future__ import annotations

import grpc
import pytest

from mazzo.core.cards import card, cards, code
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.state import Stage
from mazzo.v1 import burraco_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco import examples as ex
from tests.burraco.wire import apply, apply_all, legal, of_kind, wire_state
from tests.grpc_helpers import field_violations


async def refused(stub: GameServiceStub, state: object, move: str, field: str) -> str:
    """ApplyMove refuses the move with INVALID_ARGUMENT naming ``field``; LegalMoves does
    not list it. The violation's description is returned."""
    assert move not in await legal(stub, state)  # type: ignore[arg-type]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await apply(stub, state, move)  # type: ignore[arg-type]
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations = field_violations(caught.value)
    assert [f for f, _ in violations] == [field], violations
    return violations[0][1]


async def test_list_games_describes_burraco(stub: GameServiceStub) -> None:
    response = await stub.ListGames(gs.ListGamesRequest())
    burraco = {g.id: g for g in response.games}["burraco"]
    assert list(burraco.player_counts) == [2, 3, 4] and burraco.default_players == 4
    options = {o.name: o for o in burraco.options}
    assert options["target"].default_value == "2005"
    assert set(options) == {
        "target",
        "hands",
        "max_hands",
        "semipulito",
        "closing_needs_clean",
        "single_card_pile_rule",
        "three_player_phase_switch",
        "first_dealer",
    }
    defaults = burraco.defaults.burraco
    assert defaults.target == 2005 and defaults.max_hands == 50 and defaults.semipulito


@pytest.mark.parametrize(("row", "meld", "valid", "kind"), ex.BU1_ROWS)
async def test_bu1_meld_validity(
    stub: GameServiceStub, row: int, meld: str, valid: bool, kind: str | None
) -> None:
    """BU-1: a valid meld is laid down (event meld_opened with its kind), an invalid one
    refused with the field move.burraco.meld.cards."""
    state = wire_state(ex.meld_from_hand(meld))
    if not valid:
        assert await refused(stub, state, f"meld {meld}", "move.burraco.meld.cards")
        return
    reply, events = await apply_all(stub, state, [f"meld {meld}"])
    (opened,) = of_kind(events, "meld_opened")
    assert opened.kind == burraco_pb2.BurracoMeldKind.Value(f"BURRACO_MELD_KIND_{kind.upper()}")  # type: ignore[union-attr]
    assert sorted(opened.cards) == sorted(cards(meld))
    assert len(reply.state.burraco.melds) == 1


async def test_bu1_15_second_combination_of_a_rank(stub: GameServiceStub) -> None:
    state = wire_state(ex.meld_from_hand("KS KH KD", melds=[(2, "KC KC JK")]))
    why = await refused(stub, state, "meld KS KH KD", "move.burraco.meld.cards")
    assert "already has a combination" in why


@pytest.mark.parametrize(("meld", "kind", "bonus", "points"), ex.BU2_ROWS)
async def test_bu2_score_and_view_of_each_burraco(
    stub: GameServiceStub, meld: str, kind: str, bonus: int, points: int
) -> None:
    """BU-2: Score reports the meld's value and bonus for side A; GetView its kind."""
    state = wire_state(ex.with_meld(meld))
    score = await stub.Score(gs.ScoreRequest(state=state))
    a = score.sides[0].burraco.current_hand
    assert (a.melded, a.bonuses) == (points, bonus)
    view = (await stub.GetView(gs.GetViewRequest(state=state, seat=1))).view.burraco
    assert view.melds[0].burraco == burraco_pb2.BurracoKind.Value(f"BURRACO_KIND_{kind}")
    plain = wire_state(ex.with_meld(meld, Options(semipulito=False)))
    score = await stub.Score(gs.ScoreRequest(state=plain))
    assert score.sides[0].burraco.current_hand.bonuses == (200 if kind == "PULITO" else 100)


async def test_bu3_closing(stub: GameServiceStub) -> None:
    """BU-3: seat 0 closes; side A 425, side B -90, and Score keeps the hand."""
    reply, events = await apply_all(stub, wire_state(ex.bu3()), ["discard 9D"])
    assert [c.seat for c in of_kind(events, "closed")] == [0]
    (scored,) = of_kind(events, "hand_scored")
    a, b = scored.scores
    assert (a.melded, a.bonuses, a.closing, a.in_hand, a.no_pozzetto, a.score) == (
        140,
        200,
        100,
        15,
        0,
        425,
    )
    assert (b.melded, b.bonuses, b.closing, b.in_hand, b.no_pozzetto, b.score) == (
        85,
        0,
        0,
        75,
        100,
        -90,
    )
    assert list(reply.state.match_score) == [425, -90]
    score = await stub.Score(gs.ScoreRequest(state=reply.state))
    assert score.sides[0].burraco.last_hand.score == 425
    assert score.sides[1].burraco.last_hand.score == -90
    assert not score.finished


async def test_bu4_end_of_the_stock(stub: GameServiceStub) -> None:
    """BU-4: the draw that leaves 2 cards makes the turn the last; A 440, B -40."""
    state = wire_state(ex.bu4())
    reply = await apply(stub, state, "draw")
    assert reply.state.burraco.last_turn and len(reply.state.burraco.stock) == 2
    assert [e.burraco.last_turn.seat for e in reply.events if e.burraco.HasField("last_turn")] == [
        1
    ]
    _, events = await apply_all(stub, reply.state, ex.BU4_TURN[1:])
    (ended,) = of_kind(events, "hand_ended")
    assert not ended.HasField("closer")
    (scored,) = of_kind(events, "hand_scored")
    assert [s.score for s in scored.scores] == [440, -40]


async def test_bu5_pozzetto_views(stub: GameServiceStub) -> None:
    """BU-5: in diretta the pozzetto is in the view at once; con lo scarto it is hidden
    (11 hidden cards) until seat 2 discards."""
    state = wire_state(ex.bu5("5S 6S"))
    reply, events = await apply_all(stub, state, ["draw", "meld 5S 6S 7S"])
    (taken,) = of_kind(events, "pozzetto_taken")
    assert taken.in_diretta and taken.size == 11
    view = (await stub.GetView(gs.GetViewRequest(state=reply.state, seat=0))).view.burraco
    assert not view.hand_hidden and len(view.hand) == 11

    state = wire_state(ex.bu5("5S 6S KD"))
    reply, events = await apply_all(stub, state, ["draw", "meld 5S 6S 7S", "discard KD"])
    (taken,) = of_kind(events, "pozzetto_taken")
    assert not taken.in_diretta
    current = reply.state
    for seat in (1, 2):
        view = (await stub.GetView(gs.GetViewRequest(state=current, seat=0))).view.burraco
        assert view.hand_hidden and not view.hand and view.hand_sizes[0] == 11
        assert view.pozzetti[0].locked and view.pozzetti[0].taken_by == 0
        other = (await stub.GetView(gs.GetViewRequest(state=current, seat=seat))).view.burraco
        assert not other.hand_hidden
        reply = await apply(stub, current, "draw")
        keep = reply.state.burraco.hands[seat].cards[0]
        reply = await apply(stub, reply.state, f"discard {code(keep)}")
        current = reply.state
    events = [e.burraco for e in reply.events]
    assert [u.seat for u in of_kind(events, "pozzetto_unlocked")] == [0]
    view = (await stub.GetView(gs.GetViewRequest(state=current, seat=0))).view.burraco
    assert not view.hand_hidden and len(view.hand) == 11


async def test_bu6_closing_and_dead_ends(stub: GameServiceStub) -> None:
    """BU-6, every row."""
    f_meld, f_discard = "move.burraco.meld.cards", "move.burraco.discard.card"
    no_burraco = wire_state(ex.bu6("9D 9H 9S", burraco=False))
    assert "a card must be kept" in await refused(stub, no_burraco, "meld 9D 9H 9S", f_meld)
    reply = await apply(stub, no_burraco, "discard 9D")
    assert reply.seat == 1 and not any(e.burraco.HasField("closed") for e in reply.events)
    dead = wire_state(ex.bu6("4S 5S 6S 7D", burraco=False))
    assert "dead end" in await refused(stub, dead, "meld 4S 5S 6S", f_meld)
    wild = wire_state(ex.bu6("JK 5H 6H 7H", burraco=True))
    assert "wild" in await refused(stub, wild, "meld 5H 6H 7H", f_meld)
    await refused(stub, wild, "meld 5H 6H 7H JK", f_meld)
    _, events = await apply_all(stub, wild, ["meld 5H 6H JK", "discard 7H"])
    assert [c.seat for c in of_kind(events, "closed")] == [0]
    reply = await apply(stub, wild, "discard JK")
    assert reply.state.burraco.discard_pile[-1] == card("JK")
    _, events = await apply_all(stub, wire_state(ex.bu6("4S", burraco=True)), ["discard 4S"])
    assert of_kind(events, "closed")
    assert f_discard  # the discard field is checked in BU-7


async def test_bu6_unreachable_state_is_rejected(stub: GameServiceStub) -> None:
    """BU-6 row 4: seat 0 holds only 7D without a burraco: the state is invalid."""
    state = wire_state(ex.bu6_unreachable())
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.LegalMoves(gs.LegalMovesRequest(state=state))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["state.burraco.hands[0].cards"]


async def test_bu7_one_card_pile(stub: GameServiceStub) -> None:
    state = wire_state(ex.bu7("9D KS 4C 5H"))
    reply = await apply(stub, state, "pickup")
    assert reply.state.burraco.forbidden_discard == card("9D")
    await refused(stub, reply.state, "discard 9D", "move.burraco.discard.card")
    assert "discard KS" in await legal(stub, reply.state)
    alone = wire_state(ex.bu7("9D"))
    assert await legal(stub, alone) == ["draw"]
    assert "dead end" in await refused(stub, alone, "pickup", "move.burraco.pick_up")


async def test_bu8_replacing_a_wild(stub: GameServiceStub) -> None:
    state = wire_state(ex.bu8())
    reply = await apply(stub, state, "layoff 0 7C")
    view = (await stub.GetView(gs.GetViewRequest(state=reply.state, seat=2))).view.burraco
    meld = view.melds[0]
    assert meld.wild == card("JK") and meld.wild_position == 9
    assert meld.kind == burraco_pb2.BURRACO_MELD_KIND_SEQUENCE and meld.suit == 4  # clubs
    await refused(stub, state, "layoff 0 TC", "move.burraco.lay_off.cards")
    reply = await apply(stub, state, "layoff 0 7C TC")
    view = (await stub.GetView(gs.GetViewRequest(state=reply.state, seat=2))).view.burraco
    assert view.melds[0].wild_position == 9 and (view.melds[0].low, view.melds[0].high) == (6, 10)


@pytest.mark.parametrize(
    ("players", "counts"), [(4, (44, 22, 1, 41)), (2, (22, 22, 1, 63)), (3, (33, 29, 1, 45))]
)
async def test_bu9_deal_counts(
    stub: GameServiceStub, players: int, counts: tuple[int, ...]
) -> None:
    dealt = await stub.Deal(gs.DealRequest(game="burraco", players=players, seed=9))
    b = dealt.state.burraco
    got = (
        sum(len(h.cards) for h in b.hands),
        sum(len(p.cards) for p in b.pozzetti),
        len(b.discard_pile),
        len(b.stock),
    )
    assert got == counts
    assert [text for text in (await legal(stub, dealt.state))] == ["draw", "pickup"]
    assert dealt.seat == (b.table.dealer + 1) % players


async def test_bu10_three_player_credits(stub: GameServiceStub) -> None:
    """BU-10: the pair's hand score is split in halves rounded up."""
    pair_melds = ["AS AD AC AH", "KS KD KC KH", "QS QD QC QH", "JS JD JC JH", "TS TD TC TH"]
    state = position(
        hands=["5C 6C", "4H 9S", "3D 8S"],
        melds=[(1, m) for m in pair_melds] + [(0, "7S 7D 7C")],
        stage=Stage.ACQUIRE,
        to_act=1,
        stock="6D 6H 6S",
        takers=[0],
    )
    _, events = await apply_all(stub, wire_state(state), ["draw", "discard 6D"])
    (scored,) = of_kind(events, "hand_scored")
    assert list(scored.credits) == [5, 45, 45]
    assert list(scored.totals) == [5, 45, 45]


async def test_bu11_pick_up_limit(stub: GameServiceStub) -> None:
    state = wire_state(ex.bu11(12))
    assert await legal(stub, state) == ["draw"]
    assert "12" in await refused(stub, state, "pickup", "move.burraco.pick_up")
    assert await legal(stub, wire_state(ex.bu11(11))) == ["draw", "pickup"]
