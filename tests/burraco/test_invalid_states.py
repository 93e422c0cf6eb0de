"""State invariants of burraco.md §8, each broken once: ``validate`` must refuse.

Every case starts from a state the rules produced or a position built by
``position(...)``, checks that it is valid, breaks one field, and expects
``InvalidState`` naming that field by its wire path (``state.burraco.hands[2].cards``)
and saying why. Breakages that the domain types cannot hold (a card id outside the
deck, an unknown stage) go through the codec (``state_from_wire``), the door every
state from outside passes; a sample goes through gRPC as well.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

from mazzo.core.cards import card, cards
from mazzo.core.errors import InvalidState
from mazzo.games.burraco import rules
from mazzo.games.burraco import wire as codec
from mazzo.games.burraco.moves import DRAW, PICK_UP
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.validate import validate
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.burraco import examples as ex
from tests.burraco.wire import wire_state
from tests.grpc_helpers import field_violations

P = "state.burraco."
T = P + "table."


def dealt(players: int = 4, options: Options | None = None, seed: int = 5) -> State:
    return rules.deal(options or Options(), players, seed)[0]


def drawn(players: int = 4) -> State:
    """MELD stage after a DRAW."""
    return rules.apply(dealt(players), DRAW)[0]


def picked(players: int = 4) -> State:
    """MELD stage after a PICK_UP of the one-card pile."""
    return rules.apply(dealt(players), PICK_UP)[0]


def swap_card(state: State, seat: int, old: int, new: int) -> State:
    """Replace one copy of ``old`` in a hand by ``new`` (breaking the card counts)."""
    hands = list(state.hands)
    hand = list(hands[seat])
    hand[hand.index(old)] = new
    hands[seat] = tuple(sorted(hand))
    return state._replace(hands=tuple(hands))


def first(state: State, seat: int = 0) -> int:
    return state.hands[seat][0]


def with_hand(state: State, seat: int, hand: tuple[int, ...]) -> State:
    hands = list(state.hands)
    hands[seat] = hand
    return state._replace(hands=tuple(hands))


def invalid_meld() -> State:
    """Seat 0's meld 5H 6H 7H made 5H 5H 6H (the 7H goes to its hand, a 5H comes out)."""
    state = position(hands=["5H 8D QD", None, None, None], melds=[(0, "5H 6H 7H")], pile="9C")
    meld = state.melds[0]._replace(cards=tuple(sorted(cards("5H 5H 6H"))))
    return with_hand(state._replace(melds=(meld,)), 0, tuple(sorted(cards("7H 8D QD"))))


Case = tuple[str, Callable[[], State], str, str]

CASES: list[Case] = [
    # -- cards: two copies of each code, four jokers (§8) --
    (
        "third-copy",
        lambda: swap_card(dealt(), 0, first(dealt()), dealt().hands[1][0]),
        "state.burraco.hands[1].cards",
        "appears 3 times",
    ),
    (
        "fifth-joker",
        lambda: dealt()._replace(stock=(*dealt().stock[:-1], card("JK"))),
        "",
        "JK appears 5 times",
    ),
    (
        "card-missing",
        lambda: dealt()._replace(stock=dealt().stock[1:]),
        P + "stock",
        "missing",
    ),
    # -- melds (§3.2, §8) --
    ("invalid-meld", invalid_meld, P + "melds[0].cards", "two cards of rank 5"),
    (
        "meld-seat",
        lambda: ex.with_meld("AH 2H 3H")._replace(
            melds=(ex.with_meld("AH 2H 3H").melds[0]._replace(seat=4),)
        ),
        P + "melds[0].seat",
        "out of range",
    ),
    (
        "two-combinations-of-a-rank",
        lambda: position(
            hands=["8D QD", None, None, None],
            melds=[(0, "KS KH KD"), (2, "KC KC JK")],
            pile="9C",
            validated=False,
        ),
        P + "melds[1].cards",
        "at most one combination",
    ),
    # -- pozzetti (§2.3, §2.4, §3.4) --
    (
        "pozzetto-size",
        lambda: dealt()._replace(
            pozzetti=(dealt().pozzetti[0][1:], dealt().pozzetti[1]),
            stock=(*dealt().stock, dealt().pozzetti[0][0]),
        ),
        P + "pozzetti[0].cards",
        "holds 11 cards",
    ),
    (
        "pozzetto-count",
        lambda: dealt()._replace(
            pozzetti=dealt().pozzetti[:1],
            takers=dealt().takers[:1],
            stock=dealt().stock + dealt().pozzetti[1],
        ),
        P + "pozzetti",
        "2 pozzetti",
    ),
    (
        "p2-before-p1",
        lambda: position(hands=[None] * 4, pile="9C", takers=[], validated=False)._replace(
            takers=(-1, 1)
        ),
        P + "pozzetti[1].taken_by",
        "in order",
    ),
    (
        "one-side-two-pozzetti",
        lambda: position(hands=[None] * 4, pile="9C", takers=[0, 2], validated=False),
        P + "pozzetti[1].taken_by",
        "at most one pozzetto",
    ),
    (
        "three-player-solo",
        lambda: position(hands=[None] * 3, pile="9C", takers=[1], validated=False)._replace(
            solo=-1
        ),
        P + "solo_seat",
        "plays alone",
    ),
    (
        "solo-in-four",
        lambda: drawn()._replace(solo=1),
        P + "solo_seat",
        "only the 3-player",
    ),
    (
        "locked-not-a-taker",
        lambda: drawn()._replace(locked=0b0010),
        P + "locked_seats",
        "took no pozzetto",
    ),
    (
        "locked-seat-to-act",
        lambda: position(
            hands=["5S 6S 7S KD", *[None] * 3], pile="9C", takers=[0], locked=[0], validated=False
        ),
        P + "locked_seats",
        "exactly its 11 cards",
    ),
    # -- stock, stage and flags (§3, §3.6, §8) --
    (
        "stock-too-small",
        lambda: position(
            hands=[None] * 4, pile="9C", stock="AS", validated=False, stage=Stage.MELD
        ),
        P + "stock",
        "never drawn",
    ),
    (
        "acquire-with-two-in-stock",
        lambda: position(
            hands=[None] * 4, pile="9C", stock="AS 2S", stage=Stage.ACQUIRE, validated=False
        ),
        P + "stock",
        "3 or more",
    ),
    (
        "empty-hand",
        lambda: with_hand(drawn(), 2, ())._replace(stock=(*drawn().stock, *drawn().hands[2])),
        P + "hands[2].cards",
        "never empty",
    ),
    (
        "forbidden-in-acquire",
        lambda: dealt()._replace(forbidden=card("9D")),
        P + "forbidden_discard",
        "PICK_UP of a one-card pile",
    ),
    (
        "forbidden-after-draw",
        lambda: drawn()._replace(forbidden=card("9D")),
        P + "forbidden_discard",
        "set only by PICK_UP",
    ),
    (
        "last-turn-without-draw",
        lambda: dealt()._replace(last_turn=True),
        P + "last_turn",
        "begins with its DRAW",
    ),
    (
        "last-turn-flag-missing",
        lambda: position(
            hands=[None] * 4, pile="9C", stock="AS 2S", stage=Stage.MELD, validated=False
        ),
        P + "last_turn",
        "exactly when a DRAW left 2",
    ),
    (
        "pickups-after-draw",
        lambda: drawn()._replace(pickups=2),
        P + "pickup_turns",
        "pile is empty exactly when",
    ),
    (
        "pickups-over-limit",
        lambda: dealt()._replace(pickups=13),
        P + "pickup_turns",
        "0..12",
    ),
    (
        "empty-pile-in-acquire",
        lambda: dealt()._replace(pile=(), stock=(*dealt().stock, *dealt().pile)),
        P + "discard_pile",
        "every turn ends with a discard",
    ),
    (
        "to-act-out-of-range",
        lambda: dealt()._replace(to_act=4),
        "state.to_act",
        "out of range",
    ),
    (
        "no-legal-move",
        ex.bu6_unreachable,
        P + "hands[0].cards",
        "no legal DISCARD",
    ),
    (
        "only-the-forbidden-card",
        lambda: position(
            hands=["9D 9D", None, None, None], forbidden="9D", pile="", validated=False
        ),
        P + "hands[0].cards",
        "no legal DISCARD",
    ),
    # -- the match (§4.3, §5) --
    (
        "target-zero",
        lambda: dealt()._replace(table=dealt().table._replace(options=Options(target=0))),
        T + "options.target",
        "target",
    ),
    (
        "dealer-out-of-range",
        lambda: dealt()._replace(table=dealt().table._replace(dealer=7)),
        T + "dealer",
        "out of range",
    ),
    (
        "hand-number-zero",
        lambda: dealt()._replace(table=dealt().table._replace(hand_number=0)),
        T + "hand_number",
        "start at 1",
    ),
    (
        "beyond-max-hands",
        lambda: dealt()._replace(table=dealt().table._replace(hand_number=51)),
        T + "hand_number",
        "at most 50",
    ),
    (
        "totals-count",
        lambda: dealt()._replace(table=dealt().table._replace(totals=(0, 0, 0))),
        "state.match_score",
        "needs 2 totals",
    ),
    (
        "totals-would-have-ended",
        lambda: dealt()._replace(table=dealt().table._replace(totals=(2100, 5), hand_number=3)),
        "state.match_score",
        "would have ended",
    ),
    (
        "over-too-early",
        lambda: dealt()._replace(stage=Stage.OVER, to_act=0),
        "state.finished",
        "not over",
    ),
    (
        "three-pozzetti-in-four",
        lambda: dealt()._replace(table=dealt().table._replace(three_pozzetti=True)),
        T + "three_pozzetti",
        "only for 3 players",
    ),
    (
        "missed-phase-switch",
        lambda: dealt(3)._replace(
            table=dealt(3).table._replace(hand_number=4, totals=(1010, 0, 0))
        ),
        T + "three_pozzetti",
        "1000",
    ),
]


@pytest.mark.parametrize(("name", "build", "field", "because"), CASES, ids=[c[0] for c in CASES])
def test_broken_state_is_refused_naming_its_field(
    name: str, build: Callable[[], State], field: str, because: str
) -> None:
    state = build()
    with pytest.raises(InvalidState) as caught:
        validate(state)
    if field:
        assert caught.value.field == field, caught.value
    assert because in caught.value.reason, caught.value


def test_the_starting_states_are_valid() -> None:
    """The states the cases break are valid as they come."""
    for state in (dealt(), drawn(), picked(), dealt(3), dealt(2), ex.with_meld("AH 2H 3H")):
        validate(state)


def test_a_three_player_pair_may_keep_two_combinations_of_a_rank() -> None:
    """§2.4.3, §8: the pair's combinations of one rank from before it formed stay apart."""
    state = position(
        hands=["8D QD", None, None],
        melds=[(1, "KS KH KD"), (2, "KC KC JK")],
        pile="9C",
        takers=[0],
        to_act=1,
    )
    validate(state)
    one_seat = state._replace(melds=(state.melds[0], state.melds[1]._replace(seat=1)))
    with pytest.raises(InvalidState):
        validate(one_seat)


# --------------------------------------------------------------------------- through the codec


def wire(state: State) -> game_pb2.GameState:
    return wire_state(state)


WIRE_CASES: list[tuple[str, Callable[[game_pb2.GameState], None], str]] = [
    ("card-zero", lambda m: m.burraco.hands[0].cards.append(0), P + "hands[0].cards[11]"),
    ("card-54", lambda m: m.burraco.stock.append(54), P + "stock[41]"),  # type: ignore[arg-type]
    ("unknown-stage", lambda m: setattr(m.burraco, "stage", 9), P + "stage"),
    ("finished-live", lambda m: setattr(m, "finished", True), "state.finished"),
    ("players-5", lambda m: setattr(m, "players", 5), "state.players"),
    (
        "taker-out-of-range",
        lambda m: setattr(m.burraco.pozzetti[0], "taken_by", 6),
        P + "pozzetti[0].taken_by",
    ),
    ("locked-out-of-range", lambda m: m.burraco.locked_seats.append(9), P + "locked_seats[0]"),
    (
        "meld-of-wilds",
        lambda m: m.burraco.melds.add(seat=0, cards=cards("2S 2H JK")),
        P + "melds[0].cards",
    ),  # type: ignore[arg-type]
    ("no-detail", lambda m: m.ClearField("burraco"), "state.burraco"),
]


@pytest.mark.parametrize(("name", "mutate", "field"), WIRE_CASES, ids=[c[0] for c in WIRE_CASES])
def test_wire_state_breakages_are_refused_by_the_codec(
    name: str, mutate: Callable[[game_pb2.GameState], None], field: str
) -> None:
    msg = wire(dealt())
    mutate(msg)
    with pytest.raises(InvalidState) as caught:
        validate(codec.state_from_wire(msg))
    assert caught.value.field == field, caught.value


@pytest.mark.parametrize(
    "name", ["third-copy", "two-combinations-of-a-rank", "no-legal-move", "pickups-over-limit"]
)
async def test_broken_states_through_grpc(stub: GameServiceStub, name: str) -> None:
    """A sample of the cases through LegalMoves: INVALID_ARGUMENT naming the field."""
    _, build, field, _ = next(c for c in CASES if c[0] == name)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.LegalMoves(gs.LegalMovesRequest(state=wire(build())))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == [field]
