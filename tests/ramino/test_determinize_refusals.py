"""Views Ramino's sampler refuses, and what the service does around it.

- A malformed view (a card outside the pack or shown more than twice, a hand out of
  order, a list longer than the rules allow, a seat out of range, sizes that do not
  add up, an unknown enum, options not resolved) is INVALID_ARGUMENT at its field
  (``view_from_wire``).
- A well-formed view that no deal can give (a take that names another card than the
  pile's top, a pile, stock or reshuffle count the record does not leave, the viewer
  without a card he took and kept, bids or turns out of order) is INVALID_ARGUMENT at
  its field too (``determinize``).
- The service: ``count`` is 1 to 1024; each state returned is accepted by every RPC
  and gives the view back; the buio seat deciding blind gets his own hand dealt too.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import grpc
import pytest

from mazzo.core.errors import InvalidArgument
from mazzo.games.ramino import rules
from mazzo.games.ramino import wire as codec
from mazzo.games.ramino.determinize import determinize
from mazzo.games.ramino.moves import ACCEPT, DRAW, TAKE_DISCARD, Kind, Move, open_bid
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.state import Phase, Source, State
from mazzo.games.ramino.validate import validate
from mazzo.games.ramino.view import view
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations
from tests.ramino.histories import random_views
from tests.source_modules import from_source

Edit = Callable[[game_pb2.GameView], None]


def played(turns: int, seed: int = 5, players: int = 2) -> State:
    """A hand in play after ``turns`` turns: the first player takes the pile's top card
    every other turn, the others draw; each discards his highest card he may."""
    state, _ = rules.deal(Options(first_dealer=players - 1), players, seed)
    state, _ = rules.apply(state, open_bid(1))
    for _ in range(players - 1):
        state, _ = rules.apply(state, ACCEPT)
    for k in range(turns):
        take = state.to_act == 0 and k % 4 == 0
        state, _ = rules.apply(state, TAKE_DISCARD if take else DRAW)
        card = max(c for c in state.hands[state.to_act] if c != state.taken_card)
        state, _ = rules.apply(state, Move(Kind.DISCARD, card=card))
    return state


STATE = played(14)


def wire_view(state: State = STATE, seat: int = 0) -> game_pb2.GameView:
    msg = game_pb2.GameView()
    codec.view_to_wire(view(state, seat), msg)
    return msg


def refused(msg: game_pb2.GameView) -> str:
    """The field of the InvalidArgument a view is refused with."""
    with pytest.raises(InvalidArgument) as caught:
        determinize(codec.view_from_wire(msg), 2, 1)
    return caught.value.field


def card_thrice(m: game_pb2.GameView) -> None:
    c = m.ramino.pile[-1]
    m.ramino.pile.extend([c, c])
    m.ramino.stock_size -= 2


def unsorted_hand(m: game_pb2.GameView) -> None:
    hand = list(m.ramino.hand)
    del m.ramino.hand[:]
    m.ramino.hand.extend(reversed(hand))


def too_many_turns(m: game_pb2.GameView) -> None:
    turn = m.ramino.turns[0]
    for _ in range(2 * 83 * 7 + 1):
        m.ramino.turns.add().CopyFrom(turn)


def too_many_bids(m: game_pb2.GameView) -> None:
    bid = m.ramino.bets.bids[0]
    for _ in range(60):
        m.ramino.bets.bids.add().CopyFrom(bid)


def unresolved(m: game_pb2.GameView) -> None:
    m.ramino.table.options.ClearField("match_hands")


def setter(path: str, value: object) -> Edit:
    def edit(m: game_pb2.GameView) -> None:
        *parents, name = path.split(".")
        target: object = m
        for part in parents:
            if part.endswith("]"):
                part, index = part[:-1].split("[")
                target = getattr(target, part)[int(index)]
            else:
                target = getattr(target, part)
        if name.endswith("]"):
            name, index = name[:-1].split("[")
            getattr(target, name)[int(index)] = value
        else:
            setattr(target, name, value)

    return edit


MALFORMED: list[tuple[str, Edit, str]] = [
    ("players", setter("players", 7), "view.players"),
    ("seat", setter("seat", 2), "view.seat"),
    ("to_act", setter("to_act", 5), "view.to_act"),
    ("finished", setter("finished", True), "view.finished"),
    ("phase", setter("ramino.phase", 9), "view.ramino.phase"),
    ("card outside the pack", setter("ramino.pile[0]", 53), "view.ramino.pile[0]"),
    ("card in hand", setter("ramino.hand[0]", 60), "view.ramino.hand[0]"),
    ("card shown three times", card_thrice, "view.ramino.pile"),
    ("hand out of order", unsorted_hand, "view.ramino.hand"),
    ("hand size", setter("ramino.hand_sizes[1]", 12), "view.ramino.hand_sizes[1]"),
    ("sizes vs hand", setter("ramino.hand_sizes[0]", 11), "view.ramino.hand"),
    ("cards add up", setter("ramino.stock_size", 3), "view.ramino.stock_size"),
    ("too many turns", too_many_turns, "view.ramino.turns"),
    ("too many bids", too_many_bids, "view.ramino.bets.bids"),
    ("turn seat", setter("ramino.turns[3].seat", 4), "view.ramino.turns[3].seat"),
    ("turn source", setter("ramino.turns[3].source", 7), "view.ramino.turns[3].source"),
    ("turn card", setter("ramino.turns[3].discard", 99), "view.ramino.turns[3].discard"),
    ("bid seat", setter("ramino.bets.bids[0].seat", 3), "view.ramino.bets.bids[0].seat"),
    ("hidden hand in play", setter("ramino.hand_hidden", True), "view.ramino.hand_hidden"),
    ("taken card", setter("ramino.taken_card", 5), "view.ramino.taken_card"),
    ("reshuffles", setter("ramino.reshuffles", 2), "view.ramino.reshuffles"),
    ("unresolved options", unresolved, "view.ramino.table.options"),
    (
        "bad option",
        setter("ramino.table.options.hand_size", 8),
        "view.ramino.table.options.hand_size",
    ),
    ("dealer", setter("ramino.table.dealer", 2), "view.ramino.table.dealer"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [(e, f) for _, e, f in MALFORMED], ids=[n for n, _, _ in MALFORMED]
)
def test_malformed_view_is_refused_at_its_field(edit: Edit, field: str) -> None:
    msg = wire_view()
    edit(msg)
    assert refused(msg).startswith(field)


def wrong_take(m: game_pb2.GameView) -> None:
    """A take, after the first turn, naming another card than the discard before it."""
    turn = m.ramino.turns[4]
    assert turn.source == Source.PILE
    turn.taken = 1 if turn.taken != 1 else 2


def pile_swapped(m: game_pb2.GameView) -> None:
    pile = m.ramino.pile
    i = next(i for i in range(len(pile) - 1) if pile[i] != pile[i + 1])
    pile[i], pile[i + 1] = pile[i + 1], pile[i]


def kept_card_missing(m: game_pb2.GameView) -> None:
    """The viewer's hand without a card he took from the pile and kept."""
    kept = m.ramino.turns[0].taken  # seat 0 took the up card at once and never let it go
    hand = list(m.ramino.hand)
    assert kept in hand
    other = next(c for c in range(1, 53) if c not in hand and c not in m.ramino.pile)
    hand[hand.index(kept)] = other
    del m.ramino.hand[:]
    m.ramino.hand.extend(sorted(hand))


def turn_order(m: game_pb2.GameView) -> None:
    m.ramino.turns[5].seat = 1 - m.ramino.turns[5].seat


def stake(m: game_pb2.GameView) -> None:
    m.ramino.bets.stake = 3


NO_DEAL: list[tuple[str, Edit, str]] = [
    ("a take names another card", wrong_take, "view.ramino.turns[4].taken"),
    ("the pile the record leaves", pile_swapped, "view.ramino.pile"),
    ("the stock the record leaves", setter("ramino.reshuffles", 1), "view.ramino.reshuffles"),
    ("a kept card not in hand", kept_card_missing, "view.ramino.hand"),
    ("turns out of order", turn_order, "view.ramino.turns[5].seat"),
    ("stake the bids do not give", stake, "view.ramino.bets.stake"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [(e, f) for _, e, f in NO_DEAL], ids=[n for n, _, _ in NO_DEAL]
)
def test_view_no_deal_gives_is_refused_at_its_field(edit: Edit, field: str) -> None:
    msg = wire_view()
    edit(msg)
    assert refused(msg).startswith(field)


def test_blind_seat_gets_his_own_hand_dealt_too() -> None:
    """The buio seat deciding blind does not see his hand: it is dealt anew with the
    others (and the samples still give his view back)."""
    options = Options(dealer_tax=1, first_dealer=0)
    state, _ = rules.deal(options, 4, 3)
    assert state.phase is Phase.BUIO_DECISION
    seat = state.to_act
    given = view(state, seat)
    assert given.hand_hidden
    samples = determinize(given, 30, 9)
    assert len({s.hands[seat] for s in samples}) > 1
    for s in samples:
        validate(s)
        assert view(s, seat) == given


async def test_service_determinize(stub: GameServiceStub) -> None:
    """Through the service: ``count`` states, each accepted by GetView and giving the
    view back byte for byte; ``count`` outside 1..1024 and a malformed view refused."""
    msg = wire_view(STATE, 1)
    reply = await stub.Determinize(gs.DeterminizeRequest(view=msg, count=3, seed=4))
    assert len(reply.states) == 3
    for state in reply.states:
        again = await stub.GetView(gs.GetViewRequest(state=state, seat=1))
        assert again.view.SerializeToString() == msg.SerializeToString()
    for count in (0, 1025):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.Determinize(gs.DeterminizeRequest(view=msg, count=count, seed=4))
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert [f for f, _ in field_violations(caught.value)] == ["count"]
    bad = wire_view(STATE, 1)
    bad.ramino.pile[0] = 60
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Determinize(gs.DeterminizeRequest(view=bad, count=1, seed=4))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["view.ramino.pile[0]"]


def test_a_turn_out_of_order_after_a_reshuffle_is_refused_before_any_deal_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a reshuffle a deal is drawn again until one fits the record; a public record
    out of order fits none, and is refused at its field at once, not after every deal
    drawn failed (which took 51 s for a fuzzed view)."""
    form, state, seat = next(
        (f, s, seat)
        for f, s, seat in random_views(3, 60)
        if f.players == 4 and s.reshuffles and any(t.seat != seat for t in s.turns[5:])
    )
    given = view(state, seat)
    k, turn = next((k, t) for k, t in enumerate(given.turns) if k >= 5 and t.seat != seat)
    other = next(s for s in range(form.players) if s not in (seat, turn.seat))
    turns = (*given.turns[:k], turn._replace(seat=other), *given.turns[k + 1 :])
    drawn = []
    source = source_determinize()
    monkeypatch.setattr(source, "_attempt", lambda *a: drawn.append(a))
    with pytest.raises(InvalidArgument) as caught:
        source.determinize(given._replace(turns=turns), 3, 1)
    assert caught.value.field == f"view.ramino.turns[{k}].seat"
    assert drawn == []


def test_a_view_no_drawn_deal_fits_is_refused_after_a_bounded_number_of_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A view whose record passes every public check but that no deal drawn fits is
    refused after FIRST_ATTEMPTS draws, whatever the count asked for."""
    state = next(s for f, s, _ in random_views(3, 60) if f.players == 4 and s.reshuffles)
    given = view(state, state.to_act)
    drawn = []
    source = source_determinize()
    monkeypatch.setattr(source, "_attempt", lambda *a: drawn.append(a))
    with pytest.raises(InvalidArgument) as caught:
        source.determinize(given, 1024, 1)
    assert caught.value.field == "view.ramino.turns"
    assert len(drawn) == source.FIRST_ATTEMPTS


def source_determinize() -> ModuleType:
    """The determinizer run from source, so a replaced ``_attempt`` is the one called
    (compiled, the module calls its own functions directly)."""
    return from_source("mazzo.games.ramino.determinize")
