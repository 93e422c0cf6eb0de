"""Errors through the gRPC API (docs/rules/api-contract.md "Errors"; maraffa.md §8).

A client's mistake — a malformed or inconsistent state, an illegal move, a move by
the wrong seat, an unknown game or option — is INVALID_ARGUMENT, or
FAILED_PRECONDITION where the request is well-formed but the state does not allow it
(a move after the match is over). Each carries a human-readable message and exactly
one ``google.rpc.BadRequest`` field violation naming the request field at fault.
Never UNKNOWN or INTERNAL, and the server keeps serving afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from grpc_health.v1 import health_pb2, health_pb2_grpc

from mazzo.core.cards import card
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.moves import CLAIM, parse
from mazzo.games.maraffa.options import Fractions, MarafonaRule, Options, Series, SignalSet
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.rules import MAX_TARGET
from mazzo.games.maraffa.state import State
from mazzo.games.registry import GAMES
from mazzo.v1 import game_pb2, game_service_pb2_grpc, maraffa_pb2
from mazzo.v1 import game_service_pb2 as gs
from tests.grpc_fuzz import change_field, edge_value, fuzz_every_rpc
from tests.grpc_helpers import field_violations, wire_move, wire_state

Stub = game_service_pb2_grpc.GameServiceStub
INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
TIMEOUT = 10.0
P = "state.maraffa."

# --------------------------------------------------------------------------- helpers


def advance(state: State, plays: int) -> State:
    for _ in range(plays):
        state, _ = rules.apply(state, rules.legal_moves(state)[0])
    return state


def dealt(players: int = 4, options: Options | None = None, seed: int = 11) -> State:
    return rules.deal(options or Options(), players, seed)[0]


def mid_hand(players: int = 4, options: Options | None = None) -> State:
    """Trump declared, one trick complete, one or two cards of the next trick played."""
    return advance(dealt(players, options), 1 + (6 if players != 2 else 3))


async def still_serving(channel: grpc.aio.Channel) -> None:
    """After an error the server answers Health/Check and ListGames as before."""
    health = health_pb2_grpc.HealthStub(channel)
    reply = await health.Check(health_pb2.HealthCheckRequest(service=""), timeout=TIMEOUT)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    games = await Stub(channel).ListGames(gs.ListGamesRequest(), timeout=TIMEOUT)
    assert "maraffa" in {g.id for g in games.games}


async def expect_error(
    channel: grpc.aio.Channel,
    call: Awaitable[Any],
    field: str,
    because: str = "",
    code: grpc.StatusCode = INVALID,
) -> grpc.aio.AioRpcError:
    """The call fails with ``code``, a message, and exactly one violation on ``field``."""
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    err = caught.value
    assert err.code() == code, (err.code(), err.details())
    assert err.details() and err.details() != "internal error"
    violations = field_violations(err)
    assert [f for f, _ in violations] == [field], violations
    description = violations[0][1]
    assert description, "the violation must say why"
    assert because in description, description
    await still_serving(channel)
    return err


RPCS: dict[str, Callable[[Stub, game_pb2.GameState], Awaitable[Any]]] = {
    "LegalMoves": lambda stub, state: stub.LegalMoves(
        gs.LegalMovesRequest(state=state), timeout=TIMEOUT
    ),
    "ApplyMove": lambda stub, state: stub.ApplyMove(
        gs.ApplyMoveRequest(state=state, move=wire_move(CLAIM)), timeout=TIMEOUT
    ),
    "GetView": lambda stub, state: stub.GetView(
        gs.GetViewRequest(state=state, seat=0), timeout=TIMEOUT
    ),
    "Score": lambda stub, state: stub.Score(gs.ScoreRequest(state=state), timeout=TIMEOUT),
}


def move_card(msg: game_pb2.GameState, src: int, dst: int) -> None:
    card_ = msg.maraffa.hands[src].cards.pop()
    msg.maraffa.hands[dst].cards.append(card_)


# --------------------------------------------------------------------------- broken states

# Each case: (players, edit, field, reason fragment); each edit breaks one thing of §8.
Edit = Callable[[game_pb2.GameState], None]


def _dup_across(m: game_pb2.GameState) -> None:
    m.maraffa.hands[1].cards[0] = m.maraffa.hands[0].cards[0]


def _dup_within(m: game_pb2.GameState) -> None:
    m.maraffa.hands[2].cards[1] = m.maraffa.hands[2].cards[0]


def _dup_played(m: game_pb2.GameState) -> None:
    m.maraffa.hands[3].cards[0] = m.maraffa.played[0]


def _wrong_size(m: game_pb2.GameState) -> None:
    move_card(m, 0, 1)


def _set(path: str, value: Any) -> Edit:
    def edit(m: game_pb2.GameState) -> None:
        *parents, name = path.split(".")
        target: Any = m
        for p in parents:
            target = getattr(target, p)
        setattr(target, name, value)

    return edit


def _card_in_hand(value: int) -> Edit:
    def edit(m: game_pb2.GameState) -> None:
        m.maraffa.hands[2].cards[0] = value  # type: ignore[call-overload]

    return edit


def _card_played(value: int) -> Edit:
    def edit(m: game_pb2.GameState) -> None:
        m.maraffa.played[0] = value  # type: ignore[call-overload]

    return edit


def _card_in_stock(value: int) -> Edit:
    def edit(m: game_pb2.GameState) -> None:
        m.maraffa.stock[3] = value  # type: ignore[call-overload]

    return edit


def _no_detail(m: game_pb2.GameState) -> None:
    m.ClearField("maraffa")


def _out_of_turn(m: game_pb2.GameState) -> None:
    m.to_act = (m.to_act + 1) % 4


def _more_signals(m: game_pb2.GameState) -> None:
    m.maraffa.signals.extend([0] * (len(m.maraffa.played) + 1))  # type: ignore[list-item]


def _signal(value: int) -> Edit:
    def edit(m: game_pb2.GameState) -> None:
        m.maraffa.signals.extend([value])  # type: ignore[list-item]

    return edit


def _negative_total(m: game_pb2.GameState) -> None:
    m.match_score[1] = -3


BROKEN = [
    pytest.param(4, _dup_across, P + "hands[1].cards", "more than once", id="dup-across-hands"),
    pytest.param(4, _dup_within, P + "hands[2].cards", "twice", id="dup-within-a-hand"),
    pytest.param(4, _dup_played, P + "played[0]", "more than once", id="dup-hand-and-played"),
    pytest.param(4, _wrong_size, P + "hands[0].cards", "must hold", id="wrong-hand-size"),
    pytest.param(2, _wrong_size, P + "hands[0].cards", "must hold", id="wrong-hand-size-2p"),
    pytest.param(4, _out_of_turn, "state.to_act", "is to act", id="out-of-turn"),
    pytest.param(4, _set("to_act", 7), "state.to_act", "not 7", id="to-act-7"),
    pytest.param(4, _set("maraffa.table.dealer", 9), P + "table.dealer", "9", id="dealer-9"),
    pytest.param(
        4, _set("maraffa.table.battezzante", 4), P + "table.battezzante", "4", id="batt-4"
    ),
    pytest.param(
        4, _set("maraffa.marafona_seat", 5), P + "marafona_seat", "5", id="marafona-seat-5"
    ),
    pytest.param(4, _set("maraffa.phase", 99), P + "phase", "99", id="phase-99"),
    pytest.param(4, _set("maraffa.trump", 9), P + "trump", "9", id="trump-99"),
    pytest.param(4, _card_in_hand(99), P + "hands[2].cards", "99", id="card-99-in-hand"),
    pytest.param(4, _card_in_hand(card("8S")), P + "hands[2].cards", "8", id="8S-in-hand"),
    pytest.param(4, _card_played(card("8S")), P + "played[0]", "Maraffa pack", id="8S-played"),
    pytest.param(2, _card_in_stock(53), P + "stock[3]", "Maraffa pack", id="joker-in-stock"),
    pytest.param(4, _signal(99), P + "signals[0]", "99", id="signal-99"),
    pytest.param(4, _more_signals, P + "signals", "per card", id="more-signals-than-cards"),
    pytest.param(4, _no_detail, "state.maraffa", "maraffa", id="no-maraffa-detail"),
    pytest.param(4, _set("game", "scopa"), "state.game", "scopa", id="unknown-game"),
    pytest.param(4, _set("game", ""), "state.game", "no game", id="no-game"),
    pytest.param(4, _set("players", 5), "state.players", "5", id="players-5"),
    pytest.param(4, _set("players", 0), "state.players", "not 0", id="players-0"),
    pytest.param(4, _set("finished", True), "state.finished", "OVER", id="finished-live"),
    pytest.param(
        4,
        _set("maraffa.table.options.fractions", 99),
        P + "table.options.fractions",
        "99",
        id="option-enum-99",
    ),
    pytest.param(4, _negative_total, "state.match_score", ">= 0", id="negative-total"),
    pytest.param(4, _set("maraffa.rng.counter", 0), P + "rng.counter", "1", id="counter-0"),
]


@pytest.mark.parametrize("rpc", list(RPCS))
@pytest.mark.parametrize(("players", "edit", "field", "because"), BROKEN)
async def test_a_broken_state_is_invalid_argument_naming_the_field(
    stub: Stub,
    channel: grpc.aio.Channel,
    rpc: str,
    players: int,
    edit: Edit,
    field: str,
    because: str,
) -> None:
    """§8 / api.md: every RPC that takes a state checks it first."""
    msg = wire_state(mid_hand(players))
    edit(msg)
    await expect_error(channel, RPCS[rpc](stub, msg), field, because)


async def test_the_unbroken_state_is_accepted_by_every_rpc(stub: Stub) -> None:
    """The contrast: the same starting states go through."""
    for players in (2, 4):
        msg = wire_state(mid_hand(players))
        for call in RPCS.values():
            await call(stub, msg)


@pytest.mark.parametrize(("name", "value"), [("target", 0), ("dummy_seat", 5), ("bella_target", 0)])
async def test_an_invalid_option_in_a_state_names_the_option_field(
    stub: Stub, channel: grpc.aio.Channel, name: str, value: int
) -> None:
    msg = wire_state(mid_hand())
    setattr(msg.maraffa.table.options, name, value)
    await expect_error(
        channel, stub.LegalMoves(gs.LegalMovesRequest(state=msg)), f"{P}table.options.{name}"
    )


# --------------------------------------------------------------------------- moves

# Trump H, battezzante seat 0; seat 1 void in spades; seat 2 holds the top spades.
DEAL_A = (
    "3H 2H AH KS 5S 4D 5D 2C 4C 5C",
    "4H 5H 6H AD 2D 3D 6C 7C JC QC",
    "3S 2S AS 4S 6S 7H JH 6D 7D KC",
    "7S JS QS QH KH JD QD KD AC 3C",
)


def table(played: str = "", trump: str | None = "H", options: Options | None = None) -> State:
    """The position after ``played`` from DEAL_A (maraffa.md §6-style test position)."""
    gone = set(played.split())
    hands = [" ".join(c for c in h.split() if c not in gone) for h in DEAL_A]
    return position(hands=hands, played=played, trump=trump, battezzante=0, options=options)


def raw_move(**play: Any) -> game_pb2.Move:
    msg = game_pb2.Move()
    msg.maraffa.play_card.CopyFrom(maraffa_pb2.MaraffaPlayCard(**play))
    return msg


def trump_move(suit: int) -> game_pb2.Move:
    msg = game_pb2.Move()
    msg.maraffa.declare_trump.suit = suit  # type: ignore[assignment]
    return msg


ILLEGAL = [
    pytest.param(table("KS 4H"), "play 7H", "play_card.card", "must follow suit", id="off-suit"),
    pytest.param(table(), "play AS", "play_card.card", "not in hand", id="card-of-another-seat"),
    pytest.param(table("KS"), "play 3S", "play_card.card", "not in hand", id="seat-2-card-for-1"),
    pytest.param(
        table(trump=None), "play KS", "play_card", "not been declared", id="play-in-trump-phase"
    ),
    pytest.param(table(), "trump S", "declare_trump", "already declared", id="trump-twice"),
    pytest.param(table(trump=None), "redeal", "request_redeal", "off", id="redeal-off"),
    pytest.param(
        table("KS"), "play 4H marafona", "play_card.declare_marafona", "3, 2", id="marafona"
    ),
    pytest.param(table("KS"), "play 6C taglio", "play_card.signal", "TAGLIO", id="not-a-cut"),
    pytest.param(
        table(options=Options(signals_checked=True)),
        "play KS volo",
        "play_card.signal",
        "false VOLO",
        id="false-signal",
    ),
    pytest.param(
        table(options=Options(signals=SignalSet.NONE)),
        "play KS busso",
        "play_card.signal",
        "not enabled",
        id="signal-not-enabled",
    ),
    pytest.param(
        table(options=Options(marafona_rule=MarafonaRule.OFF)),
        "play AH marafona",
        "play_card.declare_marafona",
        "off",
        id="marafona-off",
    ),
]


@pytest.mark.parametrize(("state", "move", "field", "because"), ILLEGAL)
async def test_an_illegal_move_is_invalid_argument_naming_the_move_field(
    stub: Stub, channel: grpc.aio.Channel, state: State, move: str, field: str, because: str
) -> None:
    """§8 "Moves an engine must reject", through ApplyMove. A card held by another seat
    is a move for the wrong seat: the move is for to_act, who does not hold it."""
    request = gs.ApplyMoveRequest(state=wire_state(state), move=wire_move(parse(move)))
    await expect_error(
        channel, stub.ApplyMove(request, timeout=TIMEOUT), f"move.maraffa.{field}", because
    )


async def test_a_move_by_a_seat_other_than_to_act_is_invalid_argument(
    stub: Stub, channel: grpc.aio.Channel
) -> None:
    """§8 "any move by a seat other than to_act": the request has no seat, so the move
    of another seat is the move in a state whose to_act is that seat — which, when it
    is not that seat's turn, is an inconsistent state. Seat 2 tries to follow KS
    before seat 1 has played."""
    state = table("KS")
    assert state.to_act == 1
    msg = wire_state(state)
    msg.to_act = 2
    request = gs.ApplyMoveRequest(state=msg, move=wire_move(parse("play 3S")))
    err = await expect_error(channel, stub.ApplyMove(request), "state.to_act", "seat 1 is to act")
    assert "not 2" in err.details()
    # DECLARE_TRUMP by a non-battezzante, the same way.
    msg = wire_state(table(trump=None))
    msg.to_act = 3
    request = gs.ApplyMoveRequest(state=msg, move=wire_move(parse("trump H")))
    await expect_error(channel, stub.ApplyMove(request), "state.to_act", "seat 0 is to act")


@pytest.mark.parametrize(
    ("move", "field", "because"),
    [
        pytest.param(raw_move(card=card("8S")), "play_card.card", "Maraffa pack", id="8S"),
        pytest.param(raw_move(card=99), "play_card.card", "99", id="card-99"),
        pytest.param(raw_move(card=0), "play_card.card", "0", id="card-unspecified"),
        pytest.param(raw_move(card=card("KS"), signal=99), "play_card.signal", "99", id="sig-99"),
        pytest.param(trump_move(7), "declare_trump.suit", "7", id="suit-7"),
        pytest.param(trump_move(0), "declare_trump.suit", "0", id="suit-unspecified"),
    ],
)
async def test_a_malformed_move_is_invalid_argument(
    stub: Stub, channel: grpc.aio.Channel, move: game_pb2.Move, field: str, because: str
) -> None:
    request = gs.ApplyMoveRequest(state=wire_state(table()), move=move)
    await expect_error(channel, stub.ApplyMove(request), f"move.maraffa.{field}", because)


async def test_a_missing_move_is_invalid_argument(stub: Stub, channel: grpc.aio.Channel) -> None:
    state = wire_state(table())
    await expect_error(channel, stub.ApplyMove(gs.ApplyMoveRequest(state=state)), "move")
    empty = game_pb2.Move()
    empty.maraffa.SetInParent()
    request = gs.ApplyMoveRequest(state=state, move=empty)
    await expect_error(channel, stub.ApplyMove(request), "move.maraffa", "no action")


@pytest.mark.parametrize("move", ["play KS", "trump H", "redeal", "claim"])
async def test_a_move_after_the_match_is_over_is_failed_precondition(
    stub: Stub, channel: grpc.aio.Channel, move: str
) -> None:
    """§8 "any move after the match is finished": the request is well-formed, the state
    does not allow it."""
    over, _ = rules.apply(table(), CLAIM)
    msg = wire_state(over)
    assert msg.finished
    # The finished state itself is accepted (LegalMoves lists nothing).
    reply = await stub.LegalMoves(gs.LegalMovesRequest(state=msg))
    assert not reply.moves
    request = gs.ApplyMoveRequest(state=msg, move=wire_move(parse(move)))
    await expect_error(channel, stub.ApplyMove(request), "move", "over", code=PRECONDITION)


# --------------------------------------------------------------------------- Deal


def options(**fields: Any) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(maraffa=maraffa_pb2.MaraffaOptions(**fields))


@pytest.mark.parametrize(
    ("request_", "field", "because"),
    [
        pytest.param(gs.DealRequest(game="scopa"), "game", "scopa", id="unknown-game"),
        pytest.param(gs.DealRequest(game=""), "game", "unknown game", id="no-game"),
        pytest.param(gs.DealRequest(game="maraffa", players=6), "players", "", id="players-6"),
        pytest.param(gs.DealRequest(game="maraffa", players=1), "players", "", id="players-1"),
        pytest.param(
            gs.DealRequest(game="maraffa", options=options(target=0)),
            "options.maraffa.target",
            "must be 1..",
            id="target-0",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", players=2, options=options(first_dealer=4)),
            "options.maraffa.first_dealer",
            "0..1",
            id="first-dealer-4-of-2",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", players=2, options=options(first_dealer=2)),
            "options.maraffa.first_dealer",
            "0..1",
            id="first-dealer-2-of-2",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", options=options(first_dealer=4)),
            "options.maraffa.first_dealer",
            "0..3",
            id="first-dealer-4-of-4",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", players=3, options=options(dummy_seat=5)),
            "options.maraffa.dummy_seat",
            "0..3",
            id="dummy-seat-5",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", options=options(bella_target=0)),
            "options.maraffa.bella_target",
            "must be 1..",
            id="bella-target-0",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", options=options(fractions=99)),  # type: ignore[arg-type]
            "options.maraffa.fractions",
            "99",
            id="fractions-99",
        ),
        pytest.param(
            gs.DealRequest(game="maraffa", options=options(signals=7)),  # type: ignore[arg-type]
            "options.maraffa.signals",
            "7",
            id="signals-7",
        ),
    ],
)
async def test_a_bad_deal_is_invalid_argument_naming_the_field(
    stub: Stub, channel: grpc.aio.Channel, request_: gs.DealRequest, field: str, because: str
) -> None:
    """api.md: an unknown game or option, options out of their range (§5)."""
    await expect_error(channel, stub.Deal(request_, timeout=TIMEOUT), field, because)


@pytest.mark.parametrize(
    ("game", "other"),
    [(g, o) for g in GAMES for o in GAMES if g != o],
)
async def test_options_of_another_games_branch_are_invalid_argument(
    stub: Stub, channel: grpc.aio.Channel, game: str, other: str
) -> None:
    """GameOptions is a oneof of per-game options: a Deal of one game with another game's
    options is refused at field "options" (GameCodec.options)."""
    request = gs.DealRequest(game=game)
    getattr(request.options, other).SetInParent()
    await expect_error(channel, stub.Deal(request, timeout=TIMEOUT), "options", other)


async def test_a_target_whose_thirds_do_not_fit_the_wire_is_invalid_argument(
    stub: Stub, channel: grpc.aio.Channel
) -> None:
    """§5 target "any integer >= 1", kept in thirds (§4.2.4) in a uint32 field: a Deal
    that cannot be represented is the client's mistake, not an internal error."""
    request = gs.DealRequest(
        game="maraffa",
        options=options(target=2**32 - 1, fractions=Fractions.KEEP_THIRDS),  # type: ignore[arg-type]
    )
    await expect_error(channel, stub.Deal(request, timeout=TIMEOUT), "options.maraffa.target")


# --------------------------------------------------------------------------- GetView


@pytest.mark.parametrize(("players", "seat"), [(4, 4), (4, 9), (3, 4), (2, 2)])
async def test_get_view_for_a_seat_out_of_range_is_invalid_argument(
    stub: Stub, channel: grpc.aio.Channel, players: int, seat: int
) -> None:
    request = gs.GetViewRequest(state=wire_state(mid_hand(players)), seat=seat)
    await expect_error(channel, stub.GetView(request, timeout=TIMEOUT), "seat", "seat must be")


# --------------------------------------------------------------------------- generator and totals


async def test_a_move_that_would_exhaust_the_generator_is_not_internal(
    stub: Stub, channel: grpc.aio.Channel
) -> None:
    """api.md: never INTERNAL for a client's state. Game 1 of a best-of-three is claimed,
    so game 2 is dealt with the next draw of the generator."""
    msg = wire_state(dealt(options=Options(series=Series.BEST_OF_THREE)))
    msg.maraffa.rng.counter = 2**64 - 1
    call = stub.ApplyMove(gs.ApplyMoveRequest(state=msg, move=wire_move(CLAIM)), timeout=TIMEOUT)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    assert caught.value.code() in {INVALID, PRECONDITION}, caught.value.details()
    await still_serving(channel)


async def test_a_hand_scored_at_the_largest_target_ends_the_game(
    stub: Stub, channel: grpc.aio.Channel
) -> None:
    """§5 target "any integer >= 1", bounded at MAX_TARGET so totals fit the wire: the
    last card of a hand with both totals just below the largest target scores the hand
    and ends the game, with no INTERNAL error."""
    state = dealt(options=Options(target=MAX_TARGET), seed=3)
    state = advance(state, 1 + 39)
    state = state._replace(table=state.table._replace(totals=(MAX_TARGET - 1, MAX_TARGET - 2)))
    request = gs.ApplyMoveRequest(
        state=wire_state(state), move=wire_move(rules.legal_moves(state)[0])
    )
    reply = await stub.ApplyMove(request, timeout=TIMEOUT)
    assert reply.state.finished
    await still_serving(channel)


async def test_a_target_above_the_largest_is_invalid_argument(stub: Stub) -> None:
    """A target past MAX_TARGET is refused at Deal, naming the field."""
    request = gs.DealRequest(game="maraffa", seed=1)
    request.options.maraffa.target = MAX_TARGET + 1
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Deal(request, timeout=TIMEOUT)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["options.maraffa.target"]


# --------------------------------------------------------------------------- fuzz

EDGE_VALUES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 13, 30, 40, 41, 52, 53, 99, 255, 256)
STRINGS = ("", "maraffa", "scopa", "MARAFFA", "maraffa\x00")


def _base_states() -> list[State]:
    """States the rules produced: every form, several options, several moments of a hand
    (including the last card, which scores the hand and deals the next)."""
    rnd = random.Random(2024)
    variants = [
        (4, Options()),
        (4, Options(signals=SignalSet.EXTENDED, signals_checked=True)),
        (4, Options(fractions=Fractions.KEEP_THIRDS, series=Series.BEST_OF_THREE, target=11)),
        (4, Options(redeal_weak_hand=True, marafona_auto_declare=True)),
        (3, Options()),
        (2, Options()),
        (2, Options(two_player_must_follow=False)),
    ]
    states = []
    for players, opts in variants:
        state = dealt(players, opts, seed=rnd.randrange(2**32))
        states.append(state)
        # After trump; early in trick 2; before the last card of hand 1; into hand 2.
        for stop in (1, 5, 1 + 39, 1 + 40 + 3):
            s = state
            for _ in range(stop):
                if s.finished:
                    break
                moves = rules.legal_moves(s)
                s, _ = rules.apply(s, moves[rnd.randrange(len(moves) - 1)])
            states.append(s)
    return states


def _mutate(rnd: random.Random, msg: game_pb2.GameState) -> str:
    """One random change to a scalar or repeated field, somewhere in the state."""
    m = msg.maraffa
    holders: list[Any] = [msg, m, m.table, m.table.options, m.rng]
    if m.hands:
        holders.append(rnd.choice(m.hands))
    if m.table.HasField("last_claim"):
        holders.append(m.table.last_claim)
    if m.table.last_hand_scores:
        holders.append(rnd.choice(m.table.last_hand_scores))
    holder = rnd.choice(holders)
    fields = [f for f in holder.DESCRIPTOR.fields if f.type != FieldDescriptor.TYPE_MESSAGE]
    if holder is m and rnd.random() < 0.3:
        return _mutate_hands(rnd, m)
    f = rnd.choice(fields)
    return change_field(rnd, holder, f, edge_value(rnd, f, holder, EDGE_VALUES, STRINGS))


def _mutate_hands(rnd: random.Random, m: maraffa_pb2.MaraffaState) -> str:
    action = rnd.choice(["drop-hand", "add-hand", "swap", "move"])
    if action == "drop-hand" and m.hands:
        del m.hands[rnd.randrange(len(m.hands))]
    elif action == "add-hand":
        m.hands.add().cards.extend([rnd.choice(EDGE_VALUES)])  # type: ignore[list-item]
    elif action == "swap" and len(m.hands) > 1 and m.played:
        hand = rnd.choice(m.hands)
        if hand.cards:
            i, j = rnd.randrange(len(hand.cards)), rnd.randrange(len(m.played))
            hand.cards[i], m.played[j] = m.played[j], hand.cards[i]
    elif len(m.hands) > 1:
        src, dst = rnd.sample(range(len(m.hands)), 2)
        if m.hands[src].cards:
            m.hands[dst].cards.append(m.hands[src].cards.pop())
    return f"hands {action}"


async def test_randomly_mutated_states_never_give_another_code(
    stub: Stub, channel: grpc.aio.Channel
) -> None:
    """300 states, each a valid state with one to three random changes, sent to
    LegalMoves, ApplyMove (a move legal before the change, or CLAIM), GetView and
    Score: every answer is OK, INVALID_ARGUMENT or FAILED_PRECONDITION — never another
    code, never a hang (per-call timeout). An error names one field; a state returned
    by ApplyMove is itself accepted. Every failure is collected before asserting."""
    rnd = random.Random(8)
    bases = [(wire_state(s), rules.legal_moves(s)) for s in _base_states()]
    seen, wrong = await fuzz_every_rpc(
        stub, rnd, bases, rounds=300, mutate=_mutate, wire_move=wire_move, no_move=CLAIM, seats=4
    )
    assert not wrong, "\n".join(wrong)
    assert seen.get(INVALID, 0) > 100, seen  # the mutations do break states
    assert seen.get(grpc.StatusCode.OK, 0) > 20, seen  # and some harmless ones pass
    await still_serving(channel)
