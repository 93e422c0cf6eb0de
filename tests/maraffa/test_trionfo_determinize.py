"""Determinize for Trionfo (Maraffa for five): every sample is a whole state the
service accepts, whose view for the seat is exactly the view it was given, and whose
hidden deal, replayed from the start of the hand through the hand's public moves,
makes every one of those moves legal and ends in the sample.

Views come from seeded random matches over every option that changes a deal or a
view (deal batches, both auctions, signals, early stops, the first speaker's card,
matches of 1 to 3 deals, thrown-in deals counted or not), at random points, for
random seats. ``MAZZO_DETERMINIZE_VIEWS`` sets how many (300 by default; the long
check runs thousands). Then: views that are malformed or that no deal can give are
refused, naming the field; and ``moves_bound`` is never exceeded.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import grpc
import pytest
from scipy.stats import chisquare

from mazzo.core.cards import card
from mazzo.core.errors import InvalidArgument, NotAllowedNow, RulesError
from mazzo.games.maraffa.cards import BIT, DECK, SUIT
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.options import Options, TrionfoAuction
from mazzo.games.maraffa.state import HandScore, Trick
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.determinize import moves_bound
from mazzo.games.maraffa.trionfo.state import (
    NO_SEAT,
    SEATS,
    DealScore,
    TPhase,
    TrionfoState,
    TrionfoTable,
)
from mazzo.games.maraffa.trionfo.validate import validate
from mazzo.games.maraffa.trionfo.view import TrionfoView, view
from mazzo.games.registry import CODECS
from mazzo.service.game_service import load_view
from mazzo.service.sampling import determinized
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from mazzo.v1.game_service_pb2_grpc import GameServiceStub
from tests.grpc_helpers import field_violations
from tests.maraffa.forms_helpers import wire as forms_wire
from tests.maraffa.trionfo_replay import random_move, random_states, random_views, replay_agrees

CODEC = CODECS["maraffa"]
VIEWS = int(os.environ.get("MAZZO_DETERMINIZE_VIEWS", "300"))
CHUNKS = 4
SAMPLES = 6


def wire(v: TrionfoView) -> game_pb2.GameView:
    msg = game_pb2.GameView()
    CODEC.view_to_wire(v, msg)
    return msg


def unseen_in_two_hands(v: TrionfoView) -> bool:
    """Some unseen cards lie in at least two other hands: more than one deal may fit."""
    return sum(1 for s, n in enumerate(v.hand_sizes) if s != v.seat and n) >= 2


# --------------------------------------------------------------------------- random views


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_samples_of_random_views_give_the_view_back_and_replay(chunk: int) -> None:
    count = VIEWS // CHUNKS + (1 if chunk < VIEWS % CHUNKS else 0)
    rng = random.Random(chunk)
    differs = comparable = 0
    for n, (_, v) in enumerate(random_views(1000 + chunk, count)):
        seed = rng.getrandbits(64)
        samples = RULES.determinize(v, SAMPLES, seed)
        assert len(samples) == SAMPLES
        given = wire(v).SerializeToString()
        for s in samples:
            validate(s)
            assert RULES.view(s, v.seat) == v
            assert wire(RULES.view(s, v.seat)).SerializeToString() == given
            problem = replay_agrees(s, v)
            assert problem is None, f"view {n} of chunk {chunk}: {problem}"
        # Deterministic: same view, count and seed, same samples; the view is all it
        # reads (a sample's own view, or the view through the wire, gives the same).
        assert RULES.determinize(v, SAMPLES, seed) == samples
        assert RULES.determinize(view(samples[-1], v.seat), SAMPLES, seed) == samples
        decoded = CODEC.view_from_wire(wire(v), "view")
        assert decoded == v
        if n % 10 == 0:
            rules, codec, loaded = load_view(wire(v))
            assert determinized(rules, codec, loaded, SAMPLES, seed) == samples
        # A different seed: other generator seeds always, other deals usually.
        other = RULES.determinize(v, SAMPLES, seed ^ 1)
        assert [s.table.seed for s in other] != [s.table.seed for s in samples]
        if unseen_in_two_hands(v):
            comparable += 1
            differs += [s.hands for s in other] != [s.hands for s in samples]
    assert differs >= 0.9 * comparable


def test_random_views_reach_every_form_and_constraint() -> None:
    """The views above cover what the sampler must respect (checked on the first 400)."""
    seen: Counter[str] = Counter()
    for chunk in range(CHUNKS):
        for state, v in random_views(1000 + chunk, 100):
            o = v.table.options
            seen[f"batch {o.trionfo_deal_batch}"] += 1
            seen[f"auction {o.trionfo_auction.name}"] += 1
            seen[f"signals {o.trionfo_signals.name}"] += 1
            seen[f"stop {o.trionfo_stop_when_decided}"] += 1
            seen[f"phase {v.phase.name}"] += 1
            seen["later deal" if v.table.deal_number > 1 else "deal 1"] += 1
            played = {c for t in (*v.tricks, v.trick) for c in t.cards}
            first = o.trionfo_first_speaker_card
            if v.table.deal_number == 1 and first not in played and first not in v.hand:
                seen["first speaker's card unseen"] += 1
            called = v.called_card
            if called and called not in played and v.amico == NO_SEAT:
                seen["called card unseen, amico hidden"] += 1
            if called and v.amico == v.declarer:
                seen["chiamata in mano shown"] += 1
            for t in (*v.tricks, v.trick):
                if any(SUIT[c] != SUIT[t.cards[0]] for c in t.cards):
                    seen["void shown"] += 1
                    break
            if any(any(t.signals) for t in v.tricks):
                seen["signals given"] += 1
            if state.finished and state.completed < 8 and state.bids and max(state.bids):
                seen["stopped early"] += 1
    wanted = [
        *(f"batch {b}" for b in (1, 2, 4, 8)),
        *(f"auction {a.name}" for a in TrionfoAuction),
        "signals NONE",
        "signals CORE",
        "stop True",
        "stop False",
        *(f"phase {p.name}" for p in TPhase),
        "deal 1",
        "later deal",
        "first speaker's card unseen",
        "called card unseen, amico hidden",
        "chiamata in mano shown",
        "void shown",
        "signals given",
        "stopped early",
    ]
    assert [w for w in wanted if not seen[w]] == []


# --------------------------------------------------------------------------- refusals


def _view_at(predicate: object, seed: int = 5) -> tuple[TrionfoState, TrionfoView]:
    """The first (state, view) of seeded random play that ``predicate`` accepts."""
    assert callable(predicate)
    for state in random_states(seed):
        for seat in range(SEATS):
            v = view(state, seat)
            if predicate(state, v):
                return state, v
    raise AssertionError("unreachable")


def _late(state: TrionfoState, v: TrionfoView) -> bool:
    return state.phase is TPhase.PLAY and len(v.tricks) >= 3 and len(v.trick.cards) >= 2


def _refused(msg: game_pb2.GameView) -> str:
    """The field named when the service's Determinize path refuses ``msg``."""
    with pytest.raises(RulesError) as info:
        rules, codec, v = load_view(msg)
        determinized(rules, codec, v, 4, 1)
    assert isinstance(info.value, InvalidArgument)
    return info.value.field


def test_malformed_views_are_refused_naming_the_field() -> None:
    _, v = _view_at(_late)
    good = wire(v)
    rules, codec, loaded = load_view(good)
    assert determinized(rules, codec, loaded, 4, 1)
    cases = []

    def case(name: str, edit: object, field: str) -> None:
        msg = game_pb2.GameView()
        msg.CopyFrom(good)
        assert callable(edit)
        edit(msg)
        cases.append((name, msg, field))

    m = "view.maraffa."
    t = m + "trionfo."
    played = v.tricks[0].cards[0]
    case("seat out of range", lambda w: setattr(w, "seat", 5), "view.seat")
    case("to_act out of range", lambda w: setattr(w, "to_act", 7), "view.to_act")
    case("finished in PLAY", lambda w: setattr(w, "finished", True), "view.finished")
    case("four totals", lambda w: w.match_score.pop(), "view.match_score")
    case("no trionfo part", lambda w: w.maraffa.ClearField("trionfo"), t.rstrip("."))
    case("unknown phase", lambda w: setattr(w.maraffa, "phase", 9), m + "phase")
    case("unknown trump", lambda w: setattr(w.maraffa, "trump", 6), m + "trump")
    case("a joker in hand", lambda w: w.maraffa.hand.__setitem__(0, card("8S")), m + "hand[0]")
    case("a card not a card", lambda w: w.maraffa.hand.__setitem__(0, 99), m + "hand[0]")
    case(
        "a played card also in hand",
        lambda w: w.maraffa.hand.append(played),
        m + "tricks[0].cards[0]",
    )
    case(
        "a card twice in the tricks",
        lambda w: w.maraffa.tricks[1].cards.__setitem__(0, played),
        m + "tricks[1].cards[0]",
    )
    case(
        "nine tricks",
        lambda w: [w.maraffa.tricks.add().CopyFrom(w.maraffa.tricks[0]) for _ in range(6)],
        m + "tricks",
    )
    case(
        "a completed trick of four cards",
        lambda w: w.maraffa.tricks[0].cards.pop(),
        m + "tricks[0].cards",
    )
    case(
        "a trick being played with a winner",
        lambda w: setattr(w.maraffa.current_trick, "winner", 2),
        m + "current_trick.winner",
    )
    case(
        "a trick leader out of range",
        lambda w: setattr(w.maraffa.tricks[0], "leader", 5),
        m + "tricks[0].leader",
    )
    case(
        "an unknown signal",
        lambda w: (
            w.maraffa.tricks[0].ClearField("signals"),
            w.maraffa.tricks[0].signals.append(42),
        ),
        m + "tricks[0].signals[0]",
    )
    case(
        "six hand sizes",
        lambda w: w.maraffa.hand_sizes.append(1),
        m + "hand_sizes",
    )
    seat0 = (v.trick.leader + len(v.trick.cards)) % SEATS  # has not played this trick
    case(
        "a hand size that does not fit the tricks",
        lambda w: w.maraffa.hand_sizes.__setitem__(seat0, v.hand_sizes[seat0] - 1),
        f"{m}hand_sizes[{seat0}]",
    )
    case("a hand of nine cards", lambda w: w.maraffa.hand.extend([played] * 9), m + "hand")
    case(
        "ten speeches",
        lambda w: [w.maraffa.trionfo.auction.add(seat=0, speech=5) for _ in range(10)],
        t + "auction",
    )
    case(
        "an unknown speech",
        lambda w: setattr(w.maraffa.trionfo.auction[0], "speech", 0),
        t + "auction[0].speech",
    )
    case(
        "a speaker out of range",
        lambda w: setattr(w.maraffa.trionfo.auction[0], "seat", 9),
        t + "auction[0].seat",
    )
    case(
        "a declarer out of range",
        lambda w: setattr(w.maraffa.trionfo, "declarer", 5),
        t + "declarer",
    )
    case("an amico out of range", lambda w: setattr(w.maraffa.trionfo, "amico", 6), t + "amico")
    case(
        "a called card not of the pack",
        lambda w: setattr(w.maraffa.trionfo, "called_card", card("9H")),
        t + "called_card",
    )
    case(
        "first speaker out of range",
        lambda w: setattr(w.maraffa.trionfo, "first_speaker", 5),
        t + "first_speaker",
    )
    case(
        "a deal batch of 3",
        lambda w: setattr(w.maraffa.table.options, "trionfo_deal_batch", 3),
        m + "table.options.trionfo_deal_batch",
    )
    case(
        "a four-player option",
        lambda w: setattr(w.maraffa.table.options, "target", 31),
        m + "table.options.target",
    )
    case(
        "a dealer out of range", lambda w: setattr(w.maraffa.table, "dealer", 5), m + "table.dealer"
    )
    case("deal 0", lambda w: setattr(w.maraffa.table, "hand_number", 0), m + "table.hand_number")
    case("a stock", lambda w: setattr(w.maraffa, "stock_size", 3), m + "stock_size")
    case("a dummy", lambda w: setattr(w.maraffa, "dummy_seat", 1), m + "dummy_seat")
    for name, msg, field in cases:
        assert _refused(msg) == field, name


def _cards(text: str) -> tuple[int, ...]:
    return tuple(card(c) for c in text.split())


def built_view(third_trick: str, winner: int, **changes: object) -> TrionfoView:
    """Deal 2, stop_when_decided: seat 0 bid CHIAMO (trump D, calling 3C), the others
    passed; seat 0 led and won 3S and 3H tricks (7 thirds each), then the third trick
    (cards of seats 0..4, led by 0) went to ``winner``. Seat 1 looks, holding five
    hearts; the called card is unseen and unplayed, so the amico is hidden."""
    options = Options(trionfo_stop_when_decided=True)
    tricks = (
        Trick(0, _cards("3S AS 2S KS QS"), (0,) * 5, 0),
        Trick(0, _cards("3H AH 2H KH QH"), (0,) * 5, 0),
        Trick(0, _cards(third_trick), (0,) * 5, winner),
    )
    zero = HandScore(0, 0, 0, 0, 0, 0, 0)
    thrown_in = DealScore(1, 0, NO_SEAT, -1, 0, NO_SEAT, zero, zero, None, 0, (0,) * SEATS)
    table = TrionfoTable(options, 0, 0, 4, 0, 2, 1, (0,) * SEATS, thrown_in)
    v = TrionfoView(
        seat=1,
        hand=tuple(sorted(_cards("JH 7H 6H 5H 4H"), key=DECK.index)),
        hand_sizes=(5,) * SEATS,
        speeches=((0, Contract.CHIAMO), (1, 0), (2, 0), (3, 0), (4, 0)),
        declarer=0,
        contract=Contract.CHIAMO,
        trump=2,
        called_card=card("3C"),
        amico=NO_SEAT,
        trick=Trick(winner),
        tricks=tricks,
        table=table,
        phase=TPhase.PLAY,
        to_act=winner,
    )
    return v._replace(**changes)  # type: ignore[arg-type]


def test_stop_when_decided_rules_out_the_partners_that_would_have_decided() -> None:
    """Seat 0 has 14 thirds; seat 2 took 4 (AD on a spade lead). Had seat 2 been the
    amico, the side would have reached 18 thirds and the deal would have ended: the
    called card is never placed with seat 2, and is placed with each other seat."""
    v = built_view("JS 7S AD 6S 5S", winner=2)
    assert CODEC.view_from_wire(wire(v), "view") == v
    holders: Counter[int] = Counter()
    samples = RULES.determinize(v, 600, 3)
    for s in samples:
        validate(s)
        assert view(s, 1) == v
        assert replay_agrees(s, v) is None
        holders[next(h for h in range(SEATS) if s.hands[h] & BIT[v.called_card])] += 1
    assert set(holders) == {0, 3, 4}
    # Without the early stop, seat 2 may hold it too.
    loose = v._replace(table=v.table._replace(options=Options()))
    assert any(s.hands[2] & BIT[v.called_card] for s in RULES.determinize(loose, 200, 3))


def test_views_no_deal_can_give_are_refused_naming_the_field() -> None:
    m = "view.maraffa."
    t = m + "trionfo."

    def refused(v: TrionfoView) -> str:
        with pytest.raises(InvalidArgument) as info:
            RULES.determinize(v, 3, 1)
        return info.value.field

    good = built_view("JS 7S AD 6S 5S", winner=2)
    assert RULES.determinize(good, 3, 1)
    # Whoever is amico, seat 0's side has 18 thirds after trick 3: it would have ended.
    assert refused(built_view("AD KD 7D 6D 5D", winner=0)) == m + "tricks"
    # Seat 2 showed void in spades (trick 3), then plays a spade.
    later = Trick(2, _cards("4S"), (0,), NO_SEAT)
    assert refused(good._replace(trick=later, to_act=3, hand_sizes=(5, 5, 4, 5, 5))) == (
        m + "current_trick.cards"
    )
    # The viewer holds a spade after showing void in spades.
    assert refused(built_view("JS KD AD 6S 5S", winner=2)._replace(
        hand=tuple(sorted(_cards("JH 7H 6H 5H 4S"), key=DECK.index))
    )) == m + "hand"  # fmt: skip
    # The amico shown as the viewer, who neither holds nor played the called card.
    assert refused(good._replace(amico=1)) == t + "amico"
    # Deal 1: the first speaker (seat 0) must hold trionfo_first_speaker_card (here a
    # heart the viewer holds: seat 1 is not the first speaker).
    deal1 = good.table._replace(
        deal_number=1,
        deals_counted=0,
        last_deal=None,
        options=replace(good.table.options, trionfo_first_speaker_card=card("4H")),
    )
    assert refused(good._replace(table=deal1)) == t + "first_speaker"
    # ... or an unseen card: fine, seat 0 holds it (dealer 4 is any dealer in deal 1).
    other = deal1._replace(options=replace(deal1.options, trionfo_first_speaker_card=card("4C")))
    for s in RULES.determinize(good._replace(table=other), 50, 2):
        assert s.hands[0] & BIT[card("4C")]
        validate(s)
    # ... and the viewer as deal 1's first speaker without it is refused too.
    assert (
        refused(
            good._replace(
                seat=0, table=other, hand=tuple(sorted(_cards("JD 7D 6D 5D 4D"), key=DECK.index))
            )
        )
        == t + "first_speaker"
    )
    # Voids that leave no room: seat 2 may hold only clubs, and fewer are unseen than
    # it holds cards (the viewer has five clubs).
    clubs = good._replace(
        hand=tuple(sorted(_cards("KC QC JC 7C 6C"), key=DECK.index)),
        tricks=(
            Trick(0, _cards("3S AS 2C KS QS"), (0,) * 5, 0),
            Trick(0, _cards("3H AH 4C KH QH"), (0,) * 5, 0),
            Trick(0, _cards("3D AD 5C KD QD"), (0,) * 5, 0),
        ),
        trick=Trick(0),
        to_act=0,
        table=good.table._replace(options=Options()),
    )
    assert refused(clubs) == m + "hand_sizes"
    # The public part breaks the rules: a bid not above the last, totals not zero-sum.
    bad_bid = ((0, Contract.CHIAMO), (1, Contract.CHIAMO), (2, 0), (3, 0), (4, 0))
    assert refused(good._replace(speeches=bad_bid)) == t + "auction[1]"
    totals = good.table._replace(totals=(1, 0, 0, 0, 0))
    assert refused(good._replace(table=totals)) == "view.match_score"
    # Through the service: what the rules compute from the public part must agree.
    msg = wire(good)
    msg.maraffa.tricks[0].winner = 3
    assert _refused(msg) == m + "tricks[0].winner"
    msg = wire(good)
    msg.maraffa.trionfo.amico = 3  # the called card unplayed: seat 1 may not know
    assert _refused(msg) == t + "amico"
    msg = wire(good)
    msg.maraffa.trionfo.auction[1].seat = 2
    assert _refused(msg) == t + "auction[1].seat"
    msg = wire(good)
    msg.maraffa.trionfo.last_deal.payments.append(0)  # six payments
    assert _refused(msg) == t + "last_deal.payments"


# --------------------------------------------------------------------------- moves_bound


@pytest.mark.parametrize("seed", range(4))
def test_moves_bound_is_never_exceeded(seed: int) -> None:
    """Random matches (every option): at every state, the moves still played in the
    deal, and in the match, are at most the bounds; a deal's bound at its start is
    within a small factor of the deal's length."""
    rng = random.Random(seed)
    matches = 25
    ratios = []
    for _ in range(matches):
        options = _random_match_options(rng)
        state, _ = trionfo.deal(options, SEATS, rng.getrandbits(64))
        history = [state]
        while not state.finished:
            state, _ = trionfo.apply(state, random_move(state, rng))
            history.append(state)
        total = len(history) - 1
        deal_end = {}
        end = total
        for i in range(total, -1, -1):
            s = history[i]
            if i < total and history[i + 1].table.deal_number != s.table.deal_number:
                end = i + 1
            deal_end[i] = end
        for i, s in enumerate(history):
            hand = moves_bound(s, False)
            assert deal_end[i] - i <= hand, (i, s.phase)
            if options.count_thrown_in:
                assert total - i <= moves_bound(s, True)
            elif not s.finished:
                with pytest.raises(NotAllowedNow):
                    moves_bound(s, True)
            if i == 0 or history[i - 1].table.deal_number != s.table.deal_number:
                ratios.append(hand / max(deal_end[i] - i, 1))
    ordinary = sorted(ratios)[len(ratios) // 2]
    assert ordinary <= 1.5


def _random_match_options(rng: random.Random) -> Options:
    return Options(
        trionfo_deal_batch=rng.choice((1, 2, 4, 8)),
        trionfo_auction=rng.choice(list(TrionfoAuction)),
        trionfo_stop_when_decided=rng.random() < 0.5,
        match_deals=rng.randint(1, 4),
        count_thrown_in=rng.random() < 0.7,
    )


# --------------------------------------------------------------------------- over gRPC


async def test_determinize_over_grpc(stub: GameServiceStub) -> None:
    """GetView's bytes in, states out whose GetView is the same bytes; a view no deal
    gives is INVALID_ARGUMENT naming the field."""
    state, v = _view_at(_late, seed=8)
    given = (await stub.GetView(gs.GetViewRequest(state=forms_wire(state), seat=v.seat))).view
    assert given.SerializeToString() == wire(v).SerializeToString()
    reply = await stub.Determinize(gs.DeterminizeRequest(view=given, count=5, seed=7))
    assert len(reply.states) == 5
    for sample in reply.states:
        seen = await stub.GetView(gs.GetViewRequest(state=sample, seat=v.seat))
        assert seen.view.SerializeToString() == given.SerializeToString()
    again = await stub.Determinize(gs.DeterminizeRequest(view=given, count=5, seed=7))
    assert again == reply
    bad = game_pb2.GameView()
    bad.CopyFrom(given)
    bad.maraffa.tricks[0].winner = (bad.maraffa.tricks[0].winner + 1) % SEATS
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.Determinize(gs.DeterminizeRequest(view=bad, count=5, seed=7))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(caught.value)] == ["view.maraffa.tricks[0].winner"]


# --------------------------------------------------------------------------- deal batches


def test_the_deal_batch_changes_nothing() -> None:
    """A.2.1: the batch only says which deck positions go to whom, so with a shuffled
    deck every seat gets every card equally often whatever the batch; and the samples
    of a view do not depend on it."""
    for batch in (1, 2, 4, 8):
        counts = [0] * (SEATS * 40)
        deals = 500
        for seed in range(deals):
            state, _ = trionfo.deal(Options(trionfo_deal_batch=batch), SEATS, seed)
            for seat, hand in enumerate(state.hands):
                for i in range(40):
                    if hand >> i & 1:
                        counts[seat * 40 + i] += 1
        assert chisquare(counts).pvalue > 0.001, batch
    _, v = _view_at(lambda s, v: s.phase is TPhase.AUCTION and v.table.deal_number == 1)
    samples = RULES.determinize(v, 20, 5)
    for batch in (1, 2, 8):
        options = replace(v.table.options, trionfo_deal_batch=batch)
        other = RULES.determinize(v._replace(table=v.table._replace(options=options)), 20, 5)
        assert [s.hands for s in other] == [s.hands for s in samples]
