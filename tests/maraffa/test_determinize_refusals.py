"""Determinize refuses, naming the field, every view that is malformed or that no deal
of the cards can give (issue 15): INVALID_ARGUMENT with ``view.<path>``.

Malformed: a card outside the pack (or the removed Four), a card shown twice, lists
longer than the rules allow, seats out of range, sizes that do not fit the tricks.
Unsatisfiable: a view whose shown cards contradict a void, a declared marafona, 4D in
hand 1, a checked signal; or whose voids leave a hidden card nowhere to go.
"""

from __future__ import annotations

import random

import grpc
import pytest

from mazzo.core.cards import card
from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import MARAFONA, SUIT, cards_of
from mazzo.games.maraffa.determinize import determinize
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import Options, SignalSet, ThreePlayerForm
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.view import View, view
from mazzo.games.maraffa.wire import view_from_wire, view_to_wire
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations
from tests.maraffa.determinize_helpers import hidden_places, public_plays, random_move


def play_until(options: Options, players: int, wanted: object, seed: int = 1) -> tuple[State, int]:
    """The first (state, seat) of seeded random play where ``wanted(state, seat)``."""
    rng = random.Random(seed)
    for _ in range(2000):
        state, _ = rules.deal(options, players, rng.randrange(2**64))
        while not state.finished:
            for seat in range(state.table.seats):
                if wanted(state, seat):  # type: ignore[operator]
                    return state, seat
            state, _ = rules.apply(state, random_move(state, rng))
    raise AssertionError("no such position")


def wire(v: View) -> game_pb2.GameView:
    msg = game_pb2.GameView()
    view_to_wire(v, msg)
    return msg


def refused(msg: game_pb2.GameView) -> str:
    with pytest.raises(InvalidArgument) as e:
        determinize(view_from_wire(msg, "view"), 1, 0)
    return e.value.field


def refused_view(v: View) -> str:
    with pytest.raises(InvalidArgument) as e:
        determinize(v, 1, 0)
    return e.value.field


@pytest.fixture(scope="module")
def mid_hand() -> tuple[View, int]:
    """Four players, trick 5, in the middle of the trick."""
    state, seat = play_until(Options(), 4, lambda s, seat: len(s.played) == 18 and seat == s.to_act)
    return view(state, seat), seat


# --------------------------------------------------------------------------- malformed


def test_a_card_outside_the_pack(mid_hand: tuple[View, int]) -> None:
    msg = wire(mid_hand[0])
    msg.maraffa.hand[0] = 8  # not a card of the Maraffa pack (an 8)
    assert refused(msg) == "view.maraffa.hand[0]"


def test_a_card_shown_twice(mid_hand: tuple[View, int]) -> None:
    msg = wire(mid_hand[0])
    msg.maraffa.hand[1] = msg.maraffa.hand[0]
    assert refused(msg) == "view.maraffa.hand"
    msg = wire(mid_hand[0])
    msg.maraffa.tricks[1].cards[2] = msg.maraffa.hand[0]
    assert refused(msg) == "view.maraffa.tricks[1].cards[2]"
    msg = wire(mid_hand[0])
    msg.maraffa.current_trick.cards[0] = msg.maraffa.tricks[0].cards[3]
    assert refused(msg) == "view.maraffa.current_trick.cards[0]"


def test_the_removed_four_of_the_39_card_form() -> None:
    options = Options(three_player_form=ThreePlayerForm.DECK39)
    state, seat = play_until(options, 3, lambda s, seat: len(s.played) == 7 and seat == 0)
    msg = wire(view(state, seat))
    msg.maraffa.hand[0] = card("4S")
    assert refused(msg) == "view.maraffa.hand[0]"


def test_lists_longer_than_the_rules_allow(mid_hand: tuple[View, int]) -> None:
    msg = wire(mid_hand[0])
    msg.maraffa.hand_sizes.append(3)
    assert refused(msg) == "view.maraffa.hand_sizes"
    msg = wire(mid_hand[0])
    for _ in range(10):
        msg.maraffa.tricks.add().CopyFrom(msg.maraffa.tricks[0])
    assert refused(msg) == "view.maraffa.tricks"
    msg = wire(mid_hand[0])
    msg.maraffa.tricks[0].cards.append(msg.maraffa.hand[0])
    assert refused(msg) == "view.maraffa.tricks[0].cards"
    msg = wire(mid_hand[0])
    msg.maraffa.current_trick.signals.extend([1] * 4)
    assert refused(msg) == "view.maraffa.current_trick.signals"
    msg = wire(mid_hand[0])
    msg.maraffa.drawn.append(msg.maraffa.hand[0])
    assert refused(msg) == "view.maraffa.drawn"  # only the 2-player form draws


def test_seats_out_of_range(mid_hand: tuple[View, int]) -> None:
    for path in ("seat", "to_act"):
        msg = wire(mid_hand[0])
        setattr(msg, path, 4)
        assert refused(msg) == f"view.{path}"
    msg = wire(mid_hand[0])
    msg.maraffa.tricks[2].leader = 9
    assert refused(msg) == "view.maraffa.tricks[2].leader"
    msg = wire(mid_hand[0])
    msg.maraffa.marafona_seat = 5
    assert refused(msg) == "view.maraffa.marafona_seat"
    msg = wire(mid_hand[0])
    msg.maraffa.table.battezzante = 7
    assert refused(msg) == "view.maraffa.table.battezzante"
    msg = wire(mid_hand[0])
    msg.players = 6
    assert refused(msg) == "view.players"


def test_sizes_that_do_not_fit_the_tricks(mid_hand: tuple[View, int]) -> None:
    v, _ = mid_hand
    sizes = list(v.hand_sizes)
    sizes[1] += 1
    msg = wire(v._replace(hand_sizes=tuple(sizes)))
    assert refused(msg) == "view.maraffa.hand_sizes[1]"
    msg = wire(v._replace(hand=v.hand[1:]))
    assert refused(msg) == "view.maraffa.hand"
    msg = wire(v)
    msg.maraffa.tricks[3].winner = (msg.maraffa.tricks[3].winner + 1) % 4
    assert refused(msg) == "view.maraffa.tricks[3].winner"


def test_a_blind_partner_shows_no_cards() -> None:
    """From hand 2 the battezzante's partner sees no cards in the trump phase."""
    state, seat = play_until(
        Options(target=21),
        4,
        lambda s, seat: (
            s.table.hand_number == 2
            and s.phase is Phase.TRUMP
            and seat == (s.table.battezzante + 2) % 4
        ),
    )
    v = view(state, seat)
    assert v.hand_hidden
    assert refused(wire(v._replace(hand=cards_of(state.hands[seat])))) == "view.maraffa.hand"
    assert refused(wire(v._replace(hand_hidden=False))) == "view.maraffa.hand_hidden"


# --------------------------------------------------------------------------- no deal


def test_a_void_contradicted_by_the_viewers_own_cards() -> None:
    """The viewer did not follow a suit, yet shows a card of it: a hidden card of that
    suit swapped into his hand makes a view no deal can give."""

    def void_and_hidden(state: State, seat: int) -> bool:
        v = view(state, seat)
        if v.phase is not Phase.PLAY:
            return False
        for trick in v.tricks:
            for i, c in enumerate(trick.cards):
                led = SUIT[trick.cards[0]]
                if i and (trick.leader + i) % 4 == seat and SUIT[c] != led:
                    return any(SUIT[h] == led for h in hidden_places(v)[2])
        return False

    state, seat = play_until(Options(), 4, void_and_hidden)
    v = view(state, seat)
    k, i, led = next(
        (k, i, SUIT[t.cards[0]])
        for k, t in enumerate(v.tricks)
        for i, c in enumerate(t.cards)
        if i and (t.leader + i) % 4 == seat and SUIT[c] != SUIT[t.cards[0]]
    )
    stranger = next(c for c in sorted(hidden_places(v)[2]) if SUIT[c] == led)
    hand = tuple(sorted((stranger, *v.hand[1:])))
    assert refused_view(v._replace(hand=hand)) == f"view.maraffa.tricks[{k}].cards[{i}]"


def test_a_marafona_that_the_cards_shown_rule_out() -> None:
    """Seat s declared the marafona, but the viewer holds a top trump."""

    def holds_a_top(state: State, seat: int) -> bool:
        return (
            state.phase is Phase.PLAY
            and len(state.played) >= 4
            and bool(state.hands[seat] & MARAFONA[state.trump])
        )

    state, seat = play_until(Options(), 4, holds_a_top)
    other = (seat + 1) % 4
    v = view(state, seat)._replace(marafona_seat=other)
    assert refused_view(v) == "view.maraffa.marafona_seat"


def test_4d_with_the_wrong_seat_in_hand_1() -> None:
    """In hand 1 the battezzante holds 4D: a viewer who is not the battezzante cannot."""

    def holds_4d(state: State, seat: int) -> bool:
        return (
            state.table.hand_number == 1
            and state.phase is Phase.PLAY
            and seat != state.table.battezzante
            and card("4D") not in state.played
        )

    state, seat = play_until(Options(), 4, holds_4d)
    v = view(state, seat)
    hand = tuple(sorted((card("4D"), *v.hand[1:])))
    assert refused_view(v._replace(hand=hand)) == "view.maraffa.table.battezzante"


def test_a_checked_volo_then_a_card_of_the_suit() -> None:
    """With checked signals, VOLO says "my last card of the suit": a later card of that
    suit from the same seat contradicts it."""
    options = Options(signals=SignalSet.CORE, signals_checked=True)

    def led_and_followed(state: State, seat: int) -> bool:
        v = view(state, seat)
        plays = public_plays(v)
        return any(
            (k == 0 or plays[k - 1][3] != t)
            and p != seat
            and any(q[0] == p and SUIT[q[1]] == SUIT[c] for q in plays[k + 1 :])
            for k, (p, c, _, t) in enumerate(plays)
        )

    state, seat = play_until(options, 4, led_and_followed)
    v = view(state, seat)
    plays = public_plays(v)
    t = next(
        x[3]
        for k, x in enumerate(plays)
        if (k == 0 or plays[k - 1][3] != x[3])
        and x[0] != seat
        and any(q[0] == x[0] and SUIT[q[1]] == SUIT[x[1]] for q in plays[k + 1 :])
    )
    tricks = list(v.tricks)
    if t < len(tricks):
        trick = tricks[t]
        tricks[t] = trick._replace(signals=(Signal.VOLO, *trick.signals[1:]))
        bad = v._replace(tricks=tuple(tricks))
        assert refused_view(bad) == f"view.maraffa.tricks[{t}].signals[0]"


def test_a_signal_the_rules_do_not_give() -> None:
    state, seat = play_until(Options(), 4, lambda s, seat: len(s.played) == 9 and seat == 0)
    v = view(state, seat)
    first = v.tricks[0]
    bad = first._replace(signals=(first.signals[0], Signal.BUSSO, *first.signals[2:]))
    assert refused_view(v._replace(tricks=(bad, *v.tricks[1:]))) == (
        "view.maraffa.tricks[0].signals[1]"
    )


def test_constraints_that_together_leave_no_deal() -> None:
    """Hand-built: a seat led with a checked STRISCIO (it still holds a low card of the
    suit) and later showed a void in that suit without playing one: each alone is
    possible, together no deal is; the play that closes the door is named."""
    options = Options(signals=SignalSet.CORE)

    def lead_then_void(state: State, seat: int) -> tuple[int, int] | None:
        v = view(state, seat)
        plays = public_plays(v)
        for k, (a, c, _, t) in enumerate(plays):
            if a == seat or (k and plays[k - 1][3] == t):
                continue
            for j in range(k + 1, len(plays)):
                b, d, _, u = plays[j]
                first = next(q for q in plays if q[3] == u)  # the lead of play j's trick
                if b == a and SUIT[first[1]] == SUIT[c] and SUIT[d] != SUIT[c] and first[0] != a:
                    between = [q[1] for q in plays[k + 1 : j] if q[0] == a]
                    if not any(SUIT[x] == SUIT[c] for x in between):
                        return t, j
        return None

    state, seat = play_until(options, 4, lambda s, seat: lead_then_void(s, seat) is not None)
    v = view(state, seat)
    t, j = lead_then_void(state, seat)  # type: ignore[misc]
    plain = [tr._replace(signals=(0,) * len(tr.cards)) for tr in v.tricks]
    lead = plain[t]
    plain[t] = lead._replace(signals=(Signal.STRISCIO, *lead.signals[1:]))
    checked = v.table._replace(options=Options(signals=SignalSet.CORE, signals_checked=True))
    bad = v._replace(
        tricks=tuple(plain),
        trick=v.trick._replace(signals=(0,) * len(v.trick.cards)),
        table=checked,
    )
    u, pos = public_plays(v)[j][3], 0
    first = next(i for i, q in enumerate(public_plays(v)) if q[3] == u)
    pos = j - first
    where = f"tricks[{u}]" if u < len(v.tricks) else "current_trick"
    assert refused_view(bad) == f"view.maraffa.{where}.cards[{pos}]"


async def test_through_the_service(stub: GameServiceStub) -> None:
    """The RPC: samples whose views are the request's view byte for byte; a refused
    view names its field; count is checked by the service."""
    state, seat = play_until(Options(), 4, lambda s, seat: len(s.played) == 13 and seat == 2)
    msg = wire(view(state, seat))
    reply = await stub.Determinize(gs.DeterminizeRequest(view=msg, count=5, seed=11))
    assert len(reply.states) == 5
    for sample in reply.states:
        got = await stub.GetView(gs.GetViewRequest(state=sample, seat=seat))
        assert got.view.SerializeToString() == msg.SerializeToString()
    bad = game_pb2.GameView()
    bad.CopyFrom(msg)
    bad.maraffa.hand_sizes[3] += 1
    with pytest.raises(grpc.aio.AioRpcError) as e:
        await stub.Determinize(gs.DeterminizeRequest(view=bad, count=1, seed=1))
    assert e.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(e.value)[0][0] == "view.maraffa.hand_sizes[3]"
    with pytest.raises(grpc.aio.AioRpcError) as e:
        await stub.Determinize(gs.DeterminizeRequest(view=msg, count=0, seed=1))
    assert field_violations(e.value)[0][0] == "count"
