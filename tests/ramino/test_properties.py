"""Property tests of the Ramino engine over thousands of seeded random hands.

Each example is a match dealt from options drawn over every option of ramino.md §5,
for 2 to 6 players, played by a random player (uniform over the legal moves) for a
number of hands. At every state, or on every event:

- cards: each of the 52 codes exactly twice across hands, stock and pile (§1.1, §8),
  and the state passes ``validate``;
- chips: balances + pot = players x starting_chips, and the shares add up to the pot;
- listings: the legal moves are exactly those of the rules text (§3.3, §3.4, §3.6),
  in their stable order, written out again below; CLOSE moves come last and each one
  leaves a closure by the spec's own loop (``reference.best_closure``); now and then a
  listing without CLOSE is checked against the reference for every discard;
- every listed move applies (and the state it gives is valid);
- closures are paid as §4.1 says: the type and joker are the reference's, each loser
  pays (k - 1) x S more (capped by his balance without credit), the closer takes the
  pot and the extras; uncontested hands pay the pot, void ones carry it;
- views: a seat sees its own hand (not while deciding blind) and no other, nor the
  stock order nor the generator: a state with the hidden cards dealt differently
  gives the same view.

Two tiers as for Maraffa: ``fast`` (always) and ``slow`` (ten times more hands). The
examples come from a fixed seed per test, so every run plays the same hands; a failure
prints ``Match(...)`` and ``play(match)`` replays it.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st

from mazzo.games.ramino import events as ev
from mazzo.games.ramino import reference, rules
from mazzo.games.ramino.cards import CODES
from mazzo.games.ramino.moves import (
    ACCEPT,
    BUIO,
    DRAW,
    NO_BUIO,
    PASS,
    STAND,
    TAKE_DISCARD,
    Kind,
    Move,
    open_bid,
    parse,
    raise_bid,
)
from mazzo.games.ramino.options import BuioSeat, Options
from mazzo.games.ramino.state import NO_CARD, Outcome, Phase, Source, State, Status
from mazzo.games.ramino.validate import validate
from mazzo.games.ramino.view import view
from tests.marks import LONG

# --------------------------------------------------------------------------- matches


@dataclass(frozen=True)
class Match:
    """A match dealt by ``rules.deal(options, players, seed)`` and played for ``hands``
    hands by a random player whose choices come from ``random.Random(choices)``."""

    players: int
    options: Options
    seed: int
    choices: int
    hands: int


class Step(NamedTuple):
    before: State
    move: Move
    events: tuple[ev.Event, ...]
    after: State


@st.composite
def matches(draw: st.DrawFn, players: int | None = None) -> Match:
    """Every option of §5, small enough that hands stay short (pile reshuffles 0-1)."""
    n = draw(st.sampled_from((2, 3, 4, 5, 6))) if players is None else players
    tax = draw(st.sampled_from((0, 0, 1, 2)))
    max_stake = draw(st.integers(min_value=max(1, 2 * tax), max_value=8))
    credit = draw(st.booleans())
    options = Options(
        hand_size=draw(st.sampled_from((10, 10, 9))),
        imaginary_jokers=draw(st.sampled_from((1, 1, 0))),
        min_open=draw(st.integers(min_value=1, max_value=max_stake)),
        max_stake=max_stake,
        dealer_tax=tax,
        buio=draw(st.sampled_from((None, True, False))),
        buio_seat=draw(st.sampled_from(BuioSeat)),
        set_duplicate_suits=draw(st.booleans()),
        rediscard_taken_card=draw(st.booleans()),
        max_reshuffles=draw(st.sampled_from((0, 1))),
        starting_chips=draw(st.sampled_from((100, 30) if credit else (30, 60))),
        allow_credit=credit,
        match_hands=draw(st.sampled_from((None, 2, 5))),
        first_dealer=draw(st.none() | st.integers(min_value=0, max_value=n - 1)),
    )
    return Match(
        n,
        options,
        draw(st.integers(min_value=0, max_value=2**64 - 1)),
        draw(st.integers(min_value=0, max_value=2**32 - 1)),
        draw(st.integers(min_value=1, max_value=6)),
    )


def play(match: Match) -> list[Step]:
    """Deal and play ``match.hands`` hands (or to the end of the match)."""
    try:
        state, _ = rules.deal(match.options, match.players, match.seed)
    except ValueError:  # options the deal refuses (checked in test_illegal_moves)
        return []
    chooser = random.Random(match.choices)
    steps: list[Step] = []
    ended = 0
    while not state.finished and ended < match.hands:
        moves = rules.legal_moves(state)
        move = moves[chooser.randrange(len(moves))]
        after, events = rules.apply(state, move)
        steps.append(Step(state, move, tuple(events), after))
        ended += sum(isinstance(e, ev.HandEnded) for e in events)
        state = after
    return steps


# --------------------------------------------------------------------------- the rules text


def pays(state: State, total: int) -> bool:
    """§4.3: with credit anything; without, the extra chips must be in the balance."""
    bets = state.bets
    seat = state.to_act
    return state.table.options.allow_credit or total - bets.committed[seat] <= bets.balances[seat]


def rule_book_moves(state: State) -> list[Move]:
    """The legal moves of §3.2, §3.3, §3.4 and the order of §3.6, CLOSE aside."""
    options = state.table.options
    bets = state.bets
    seat = state.to_act
    stake = bets.stake
    amounts = range(stake + 1, options.max_stake + 1)
    if state.phase is Phase.BUIO_DECISION:
        return [m for m in (BUIO, NO_BUIO) if m is NO_BUIO or pays(state, 2 * options.dealer_tax)]
    if state.phase is Phase.BIDDING:
        if bets.buio_block and seat == bets.buio_player:
            return [STAND, *(raise_bid(y) for y in amounts if pays(state, y))]
        if stake == 0:
            opens = range(options.min_open, options.max_stake + 1)
            return [PASS, *(open_bid(x) for x in opens if pays(state, x))]
        moves = [PASS, *([ACCEPT] if pays(state, stake) else [])]
        if not bets.buio_block:
            moves += [raise_bid(y) for y in amounts if pays(state, y)]
        return moves
    if state.phase is Phase.PLAY:
        if state.taken is Source.NONE:
            p = sum(s is Status.ACTIVE for s in bets.statuses)
            streak = 0
            for turn in reversed(state.turns):
                if turn.source is not Source.PILE:
                    break
                streak += 1
            return [DRAW, TAKE_DISCARD] if state.pile and streak < 3 * p else [DRAW]
        forbidden = (
            state.taken_card
            if state.taken is Source.PILE and not options.rediscard_taken_card
            else NO_CARD
        )
        return [
            Move(Kind.DISCARD, card=c) for c in sorted(set(state.hands[seat])) if c != forbidden
        ]
    return []


def closing_tens(state: State) -> dict[int, tuple[int, ...]]:
    """Per possible CLOSE discard (0: none, nine-card tables), the ten cards it leaves."""
    options = state.table.options
    hand = list(state.hands[state.to_act])
    if options.hand_size == 9:
        return {0: tuple(sorted(hand))}
    tens = {}
    for move in rule_book_moves(state):
        rest = list(hand)
        rest.remove(move.card)
        tens[move.card] = tuple(sorted(rest))
    return tens


def spec_k(state: State, ten: tuple[int, ...]) -> tuple[int, int, int]:
    options = state.table.options
    return reference.best_closure(ten, options.imaginary_jokers, options.set_duplicate_suits)


# --------------------------------------------------------------------------- checks


def check_cards_and_chips(state: State, full: bool = True) -> None:
    counts = Counter(c for hand in state.hands for c in hand)
    counts.update(state.stock)
    counts.update(state.pile)
    assert sorted(counts) == list(CODES) and set(counts.values()) == {2}, "104 cards"
    bets = state.bets
    total = state.table.players * state.table.options.starting_chips
    assert sum(bets.balances) + bets.pot == total, "chips conserved"
    assert sum(bets.shares) == bets.pot
    if full:
        validate(state)


def check_listing(step: Step, rnd: random.Random) -> None:
    state = step.before
    listed = list(rules.legal_moves(state))
    closes = [m for m in listed if m.kind is Kind.CLOSE]
    assert listed[: len(listed) - len(closes)] == rule_book_moves(state), "§3.6 order"
    if state.phase is not Phase.PLAY or state.taken is Source.NONE:
        assert not closes
        return
    tens = closing_tens(state)
    assert [m.card for m in closes] == sorted((m.card for m in closes), key=lambda c: (c == 0, c))
    for move in closes:
        assert spec_k(state, tens[move.card])[0] > 0, f"{move} leaves no closure"
    if not closes and rnd.random() < 0.01:  # now and then, a listing without CLOSE
        for ten in tens.values():
            assert spec_k(state, ten)[0] == 0, "a closing discard is missing"


def check_every_move_applies(state: State) -> None:
    for move in rules.legal_moves(state):
        after, _ = rules.apply(state, move)
        check_cards_and_chips(after)


def check_payout(step: Step) -> None:
    """§4.1, §4.2 from the state before the move that ended the hand."""
    ended = [e for e in step.events if isinstance(e, ev.HandEnded)]
    if not ended:
        return
    result = ended[0].result
    before = step.before
    bets = before.bets
    options = before.table.options
    players = before.table.players
    balances = list(bets.balances)
    if result.outcome is Outcome.CLOSED:
        closed = next(e for e in step.events if isinstance(e, ev.HandClosed)).closure
        k, joker, stands_for = spec_k(before, closed.cards)
        assert (closed.kind.value, closed.joker, closed.stands_for) == (k, joker, stands_for)
        gain = bets.pot
        for seat in range(players):
            due = 0
            if seat != result.winner and bets.statuses[seat] is Status.ACTIVE:
                due = (k - 1) * bets.stake
                if not options.allow_credit:
                    due = min(due, max(balances[seat], 0))
            assert result.extra_paid[seat] == due
            balances[seat] -= due
            gain += due
        balances[result.winner] += gain
    else:
        # The bid that ended the hand moved its chips; then the lone player takes the
        # whole pot (uncontested), or the pot stays for the next hand (void, exhausted).
        for e in step.events:
            if isinstance(e, ev.BidMade):
                balances[e.bid.seat] -= e.paid
        if result.outcome is Outcome.UNCONTESTED:
            balances[result.winner] += result.pot
    assert ended[0].balances == tuple(balances)


def check_views(state: State, rnd: random.Random) -> None:
    """§7: own hand (hidden while deciding blind), nobody else's, no stock order; a
    state with the hidden cards dealt differently gives the same view."""
    for seat in range(state.table.players):
        seen = view(state, seat)
        blind = state.phase is Phase.BUIO_DECISION and seat == state.to_act
        assert seen.hand == (() if blind else state.hands[seat])
        assert seen.table.seed == 0 and seen.table.counter == 0
        assert not hasattr(seen, "stock") and seen.stock_size == len(state.stock)
        hidden = [c for s, h in enumerate(state.hands) if s != seat or blind for c in h]
        hidden += state.stock
        rnd.shuffle(hidden)
        hands, rest = [], iter(hidden)
        for s, h in enumerate(state.hands):
            hands.append(tuple(sorted(next(rest) for _ in h)) if s != seat or blind else h)
        stock = tuple(rest)
        twin = state._replace(hands=tuple(hands), stock=stock)
        twin = twin._replace(table=twin.table._replace(seed=rnd.randrange(2**64)))
        assert view(twin, seat) == seen


# --------------------------------------------------------------------------- tiers


class Tier(NamedTuple):
    name: str
    matches: int


TIERS = [
    pytest.param(Tier("fast", 40), id="fast"),
    pytest.param(Tier("slow", 400), id="slow", marks=LONG),
]
#: Conservation, per player count: thousands of hands each in the slow tier.
COUNT_TIERS = [
    pytest.param(Tier("fast", 40), id="fast"),
    pytest.param(Tier("slow", 600), id="slow", marks=LONG),
]
#: The checks that call the spec's closure loop or apply every move: fewer matches.
HEAVY_TIERS = [
    pytest.param(Tier("fast", 30), id="fast"),
    pytest.param(Tier("slow", 200), id="slow", marks=LONG),
]
#: Payouts: cheap to check, and closures are rare in random play: more matches.
PAYOUT_TIERS = [
    pytest.param(Tier("fast", 80), id="fast"),
    pytest.param(Tier("slow", 800), id="slow", marks=LONG),
]
PLAYED: Counter[str] = Counter()


def run(key: str, tier: Tier, check: Callable[[Match, list[Step]], None], **kw: int) -> None:
    @seed(zlib.crc32(key.encode()))
    @settings(
        max_examples=tier.matches,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(match=matches(**kw))
    def each(match: Match) -> None:
        note(f"replay: play({match!r})")
        steps = play(match)
        PLAYED[f"{tier.name} hands, {match.players} players"] += sum(
            isinstance(e, ev.HandEnded) for s in steps for e in s.events
        )
        check(match, steps)

    each()


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("tier", COUNT_TIERS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_cards_and_chips_are_conserved_at_every_state(tier: Tier, players: int) -> None:
    """Cards and chips at every state; the whole of ``validate`` at every fifth."""

    def check(match: Match, steps: list[Step]) -> None:
        for i, step in enumerate(steps):
            check_cards_and_chips(step.after, full=i % 5 == 0)

    run(f"conserved {players}", tier, check, players=players)


@pytest.mark.parametrize("tier", HEAVY_TIERS)
def test_listings_are_the_rule_books(tier: Tier) -> None:
    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.choices)
        for step in steps:
            check_listing(step, rnd)

    run("listings", tier, check)


@pytest.mark.parametrize("tier", HEAVY_TIERS)
def test_every_listed_move_applies(tier: Tier) -> None:
    def check(match: Match, steps: list[Step]) -> None:
        for step in steps[::5]:
            check_every_move_applies(step.before)

    run("every move applies", tier, check)


@pytest.mark.parametrize("tier", PAYOUT_TIERS)
def test_hands_are_paid_as_the_rules_say(tier: Tier) -> None:
    def check(match: Match, steps: list[Step]) -> None:
        for step in steps:
            check_payout(step)

    run("payouts", tier, check)


@pytest.mark.parametrize("tier", TIERS)
def test_views_hide_other_hands_and_the_stock(tier: Tier) -> None:
    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.seed)
        for step in steps[::7]:
            check_views(step.after, rnd)

    run("views", tier, check)


def test_random_players_do_close_hands() -> None:
    """The matches above meet every outcome, so the payout checks are exercised."""
    outcomes: Counter[Outcome] = Counter()
    rnd = random.Random(7)
    for i in range(60):
        match = Match(2 + i % 5, Options(), rnd.randrange(2**64), rnd.randrange(2**32), 3)
        for step in play(match):
            for e in step.events:
                if isinstance(e, ev.HandEnded):
                    outcomes[e.result.outcome] += 1
    assert set(outcomes) >= {Outcome.CLOSED, Outcome.UNCONTESTED, Outcome.EXHAUSTED}, outcomes


def test_the_same_seed_deals_the_same_cards() -> None:
    """api.md "Determinism": Deal with the same options, players and seed."""
    for players in (2, 4, 6):
        a, _ = rules.deal(Options(), players, 12345)
        b, _ = rules.deal(Options(), players, 12345)
        c, _ = rules.deal(Options(), players, 12346)
        assert a == b and a.hands != c.hands


def test_replay_is_exact() -> None:
    match = Match(3, Options(dealer_tax=1, max_stake=4), 99, 7, 2)
    first = [(s.move, s.events) for s in play(match)]
    assert first == [(s.move, s.events) for s in play(match)]
    assert parse(str(first[0][0])) == first[0][0]
