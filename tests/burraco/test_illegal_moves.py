"""The inputs burraco.md §8 says to reject, each once: ``apply`` refuses with its reason.

Every refused move names the wire field at fault (``move.burraco.meld.cards``), is
absent from ``legal_moves``, and leaves the state as it was (states are immutable;
the test checks that ``apply`` raised before producing anything). A sample goes
through gRPC, where they are INVALID_ARGUMENT (FAILED_PRECONDITION once the match is
over). Two rows of the table cannot be written as a move at all, and the tests say
why: a move names no seat (it is always ``to_act``'s), and no move takes a card off
the table.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

from mazzo.core.errors import IllegalMove, NotAllowedNow
from mazzo.games.burraco import rules
from mazzo.games.burraco.moves import DRAW, parse
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.state import Stage, State
from mazzo.v1 import burraco_pb2, game_pb2, maraffa_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco import examples as ex
from tests.burraco.wire import wire_move, wire_state
from tests.grpc_helpers import field_violations

M = "move.burraco."


def acquire() -> State:
    """Seat 0 to begin its turn, the pile 4C 9D."""
    return position(
        hands=["5S 6S 7S 8D 8D KH", None, None, None], stage=Stage.ACQUIRE, pile="4C 9D"
    )


def melding(options: Options | None = None) -> State:
    """Seat 0 in its MELD stage; side A has 9H 9S 9C and side B 5D 6D 7D on the table."""
    return position(
        hands=["5S 6S 7S 8D 8D KH JK 2C 9D", None, None, None],
        melds=[(2, "9H 9S 9C"), (1, "5D 6D 7D")],
        pile="4C",
        options=options,
    )


def picked_empty_pile() -> State:
    """A hand-built ACQUIRE state with an empty pile (validation refuses it; see below)."""
    return position(
        hands=[None] * 4, stage=Stage.ACQUIRE, pile="", stock_size=41, validated=False
    )._replace(pile=())


Case = tuple[str, Callable[[], State], str, str, str]

CASES: list[Case] = [
    # stage order
    ("meld-before-acquiring", acquire, "meld 5S 6S 7S", M + "meld", "first draw or pick up"),
    ("layoff-before-acquiring", acquire, "layoff 0 9D", M + "lay_off", "first draw"),
    ("discard-before-acquiring", acquire, "discard KH", M + "discard", "first draw"),
    ("second-draw", melding, "draw", M + "draw", "already taken"),
    ("second-pickup", melding, "pickup", M + "pick_up", "already taken"),
    # nothing to take
    ("pickup-empty-pile", picked_empty_pile, "pickup", M + "pick_up", "pile is empty"),
    # cards not held
    ("discard-not-held", melding, "discard AS", M + "discard.card", "not in hand"),
    ("meld-not-held", melding, "meld QS QH QD", M + "meld.cards", "not in hand"),
    ("meld-too-few-copies", melding, "meld 8D 8D 8D", M + "meld.cards", "not enough copies"),
    ("layoff-not-held", melding, "layoff 0 9C", M + "lay_off.cards", "not in hand"),
    # meld rules (§3.2)
    ("two-wilds", melding, "meld 5S 6S JK 2C", M + "meld.cards", "more than one wild"),
    ("fewer-than-3", melding, "meld 5S 6S", M + "meld.cards", "at least 3"),
    ("set-of-wilds", melding, "meld JK 2C 8D", M + "meld.cards", "more than one wild"),
    ("wrong-kind", melding, "meld 5S 6S 7S combination", M + "meld.kind", "not a combination"),
    ("new-combination-of-a-held-rank", melding, "meld 9D JK 2C", M + "meld.cards", "wild"),
    # lay-offs
    ("layoff-on-opponents-meld", melding, "layoff 1 8D", M + "lay_off.meld_id", "another side"),
    ("layoff-no-such-meld", melding, "layoff 7 8D", M + "lay_off.meld_id", "no meld 7"),
    ("layoff-invalid-result", melding, "layoff 0 8D", M + "lay_off.cards", "not a 9"),
    ("layoff-two-wilds", melding, "layoff 0 JK 2C", M + "lay_off.cards", "more than one wild"),
    # one-card pile, pick-up limit, dead ends: see BU-6, BU-7, BU-11
    (
        "discard-forbidden",
        lambda: rules.apply(ex.bu7("9D KS 4C 5H"), parse("pickup"))[0],
        "discard 9D",
        M + "discard.card",
        "one-card pile",
    ),
    ("pickup-dead-end", lambda: ex.bu7("9D"), "pickup", M + "pick_up", "dead end"),
    ("pickup-limit", lambda: ex.bu11(12), "pickup", M + "pick_up", "must begin with DRAW"),
    (
        "meld-emptying-after-pozzetto",
        lambda: ex.bu6("9D 9H 9S", burraco=False),
        "meld 9D 9H 9S",
        M + "meld.cards",
        "a card must be kept",
    ),
    (
        "meld-dead-end",
        lambda: ex.bu6("4S 5S 6S 7D", burraco=False),
        "meld 4S 5S 6S",
        M + "meld.cards",
        "dead end",
    ),
    (
        "closing-wild",
        lambda: ex.bu6("JK 8D", burraco=True),
        "layoff 0 8D",
        M + "lay_off.cards",
        "dead end",
    ),
    (
        "closing-without-burraco",
        ex.bu6_unreachable,
        "discard 7D",
        M + "discard.card",
        "closing needs a burraco",
    ),
]


@pytest.mark.parametrize(
    ("name", "build", "move", "field", "because"), CASES, ids=[c[0] for c in CASES]
)
def test_refused_with_field_and_reason(
    name: str, build: Callable[[], State], move: str, field: str, because: str
) -> None:
    state = build()
    assert parse(move) not in rules.legal_moves(state)
    before = state
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, parse(move))
    assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value
    assert state == before
    assert not rules.is_legal(state, parse(move))


def test_the_same_meld_is_fine_where_the_rules_allow_it() -> None:
    """Controls for the cases above: the legal neighbours apply."""
    state = melding()
    for move in ("meld 5S 6S 7S", "meld 5S 6S JK", "layoff 0 9D", "layoff 0 JK", "discard KH"):
        rules.apply(state, parse(move))
    rules.apply(acquire(), DRAW)


def test_moves_after_the_match_are_not_allowed_now() -> None:
    state, _ = rules.deal(Options(hands=1), 2, 3)
    while not state.finished:
        state, _ = rules.apply(state, rules.legal_moves(state)[-1])
    assert rules.legal_moves(state) == ()
    for move in ("draw", "discard 9D"):
        with pytest.raises(NotAllowedNow):
            rules.apply(state, parse(move))


def test_moves_carry_no_seat_and_none_takes_a_card_back() -> None:
    """§8 "a move by a seat other than to_act", "take a wild back from a meld": the wire
    move has no seat (the service applies it for ``to_act``) and no action that removes a
    card from the table, so neither can be sent."""
    actions = {f.name for f in burraco_pb2.BurracoMove.DESCRIPTOR.oneofs_by_name["action"].fields}
    assert actions == {"draw", "pick_up", "meld", "lay_off", "discard"}
    for message in (burraco_pb2.BurracoMove, game_pb2.Move):
        assert "seat" not in message.DESCRIPTOR.fields_by_name


# --------------------------------------------------------------------------- through gRPC


@pytest.mark.parametrize(
    "name", ["second-draw", "meld-too-few-copies", "layoff-on-opponents-meld", "pickup-limit"]
)
async def test_refused_through_grpc(stub: GameServiceStub, name: str) -> None:
    _, build, move, field, because = next(c for c in CASES if c[0] == name)
    request = gs.ApplyMoveRequest(state=wire_state(build()), move=wire_move(move))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(request)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations = field_violations(caught.value)
    assert [f for f, _ in violations] == [field] and because in violations[0][1]


async def test_wire_moves_that_are_not_burraco_moves(stub: GameServiceStub) -> None:
    """A Maraffa move, a move with no action and a card outside the deck: INVALID_ARGUMENT."""
    state = wire_state(melding())
    maraffa = game_pb2.Move(maraffa=maraffa_pb2.MaraffaMove(claim=maraffa_pb2.MaraffaClaim()))
    empty = game_pb2.Move(burraco=burraco_pb2.BurracoMove())
    card_zero = game_pb2.Move(burraco=burraco_pb2.BurracoMove(discard=burraco_pb2.BurracoDiscard()))
    bad_kind = wire_move("meld 5S 6S 7S")
    bad_kind.burraco.meld.kind = 7  # type: ignore[assignment]
    for move, field in (
        (maraffa, "move"),
        (empty, "move.burraco"),
        (card_zero, "move.burraco.discard.card"),
        (bad_kind, "move.burraco.meld.kind"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.ApplyMove(gs.ApplyMoveRequest(state=state, move=move))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert [f for f, _ in field_violations(caught.value)] == [field]


async def test_a_move_after_the_match_is_failed_precondition(stub: GameServiceStub) -> None:
    state, _ = rules.deal(Options(hands=1), 2, 3)
    while not state.finished:
        state, _ = rules.apply(state, rules.legal_moves(state)[-1])
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(gs.ApplyMoveRequest(state=wire_state(state), move=wire_move("draw")))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
