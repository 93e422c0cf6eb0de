"""Property tests of Trionfo (maraffa-forms.md A) over thousands of seeded random deals.

Matches are dealt with options drawn from every option of A.9 and played to the end by
a random player (uniform among the legal moves, so every contract, thrown-in deals and
chiamate in mano all occur). At every state, and on every event, the properties below
are checked against oracles written from the rules text -- the auction of A.3 (its own
pseudo-code), the outcomes and payments of A.6, the rotation of A.2, the views of A.11
-- not from the engine. A ``fast`` tier always runs; the ``slow`` tier plays ten times
as many matches.

The last tests are the partner-secrecy property of A.11: before the called card is
played, moving it from one seat to another (swapping it with a card of its suit) must
leave every other seat's view, the score, and the events of their moves unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

import pytest

from mazzo.core.cards import card, code
from mazzo.core.errors import IllegalMove, InvalidState
from mazzo.core.shuffle import shuffled
from mazzo.games.maraffa.cards import BIT, DECK, cards_of
from mazzo.games.maraffa.events import CardPlayed, TrickWon
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import (
    BIDS,
    CALLS,
    CLAIM,
    PASS,
    PLAYS,
    REDEAL,
    TRUMPS,
    Contract,
    Move,
    Signal,
    play,
)
from mazzo.games.maraffa.options import Options, SignalSet, TrionfoAuction
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.events import (
    AuctionWon,
    BidMade,
    BidPassed,
    ContractDeclared,
    DealDealt,
    DealScored,
    PartnerRevealed,
    ThrownIn,
    TrionfoEvent,
    TrionfoMatchOver,
)
from mazzo.games.maraffa.trionfo.state import NO_SEAT, TPhase, TrionfoState
from mazzo.games.maraffa.trionfo.validate import validate
from mazzo.games.maraffa.trionfo.view import view
from mazzo.games.registry import CODECS
from mazzo.v1 import game_pb2
from mazzo.v1 import game_service_pb2 as gs
from tests.marks import LONG

SEATS = 5
SUITS = "SHDC"
CODEC = CODECS["maraffa"]
STRENGTH = {"3": 10, "2": 9, "A": 8, "K": 7, "Q": 6, "J": 5, "7": 4, "6": 3, "5": 2, "4": 1}
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
#: A.6.3: what each popolo member pays when the declarer is alone; he gets 4 times it.
UNIT = {Contract.CHIAMO: 2, Contract.DI_PIU: 2, Contract.MASO: 4, Contract.MASO_DEI_MASI: 8}
LEAD_SIGNALS = (Signal.BUSSO, Signal.STRISCIO, Signal.VOLO)
UNIVERSE: tuple[Move, ...] = (
    *(PLAYS[c][s][m] for c in DECK for s in Signal for m in (False, True)),
    *TRUMPS,
    *(CALLS[s][c] for s in range(4) for c in DECK),  # type: ignore[misc]
    *(b for b in BIDS if b is not None),
    PASS,
    REDEAL,
    CLAIM,
)


def text(c: int) -> str:
    return code(c)


class Step(NamedTuple):
    before: TrionfoState | None
    move: Move | None
    events: tuple[TrionfoEvent, ...]
    after: TrionfoState


def random_options(rnd: random.Random) -> Options:
    """Every option of A.9; short matches."""
    return Options(
        trionfo_first_speaker_card=rnd.choice([card("5S"), card("4D"), rnd.choice(DECK)]),
        trionfo_deal_batch=rnd.choice([1, 2, 4, 4, 8]),
        trionfo_auction=rnd.choice(list(TrionfoAuction)),
        trionfo_signals=rnd.choice([SignalSet.NONE, SignalSet.CORE]),
        trionfo_stop_when_decided=rnd.random() < 0.5,
        match_deals=rnd.randint(1, 4),
        count_thrown_in=rnd.random() < 0.8,
        first_dealer=rnd.choice([None, *range(SEATS)]),
    )


Chooser = Callable[[TrionfoState, tuple[Move, ...], random.Random], Move]


def uniform(state: TrionfoState, moves: tuple[Move, ...], rnd: random.Random) -> Move:
    return moves[rnd.randrange(len(moves))]


def play_match(seed: int, choose: Chooser = uniform) -> list[Step]:
    rnd = random.Random(seed)
    state, events = trionfo.deal(random_options(rnd), SEATS, seed)
    steps = [Step(None, None, tuple(events), state)]
    while not state.finished:
        move = choose(state, trionfo.legal_moves(state), rnd)
        new, events = trionfo.apply(state, move)
        steps.append(Step(state, move, tuple(events), new))
        state = new
        assert len(steps) < 10_000, "the match does not end"
    return steps


class Tier(NamedTuple):
    matches: int


TIERS = [
    pytest.param(Tier(150), id="fast"),
    pytest.param(Tier(1500), id="slow", marks=LONG),
]


def matches(tier: Tier, salt: int) -> Iterator[list[Step]]:
    for i in range(tier.matches):
        yield play_match(salt * 1_000_003 + i)


def deals_in(steps: list[Step]) -> int:
    return sum(isinstance(e, DealScored | ThrownIn) for s in steps for e in s.events)


# --------------------------------------------------------------------------- oracles


def auction_over(passed: set[int], high: int, high_seat: int, spoken: int, single: bool) -> bool:
    """A.3.3 ``auction_over`` (and A.3.4: a single round ends when all five spoke)."""
    if high == 4:
        return True
    if single:
        return spoken == SEATS
    if high == 0:
        return len(passed) == SEATS
    return all(s in passed for s in range(SEATS) if s != high_seat)


def next_speaker(last: int, passed: set[int], high_seat: int, single: bool) -> int:
    """A.3.3 ``next_speaker``; in a single round, the next seat."""
    s = (last + 1) % SEATS
    if single:
        return s
    while s in passed or s == high_seat:
        s = (s + 1) % SEATS
    return s


class Auction(NamedTuple):
    high: int
    declarer: int
    over: bool
    to_speak: int


def rule_book_auction(state: TrionfoState) -> Auction:
    single = state.table.options.trionfo_auction is TrionfoAuction.SINGLE_ROUND
    passed: set[int] = set()
    high, high_seat = 0, NO_SEAT
    seat = state.table.first_speaker
    for i, level in enumerate(state.bids):
        if level:
            high, high_seat = level, seat
        else:
            passed.add(seat)
        if auction_over(passed, high, high_seat, i + 1, single):
            return Auction(high, high_seat, True, NO_SEAT)
        seat = next_speaker(seat, passed, high_seat, single)
    return Auction(high, high_seat, False, seat)


def rule_book_moves(state: TrionfoState) -> tuple[Move, ...]:
    """A.8: the legal moves in their stable order."""
    if state.phase is TPhase.OVER:
        return ()
    auction = rule_book_auction(state)
    if state.phase is TPhase.AUCTION:
        assert state.to_act == auction.to_speak
        return (*(BIDS[level] for level in range(auction.high + 1, 5)), PASS)  # type: ignore[misc]
    if state.phase is TPhase.DECLARE:
        assert state.to_act == auction.declarer
        if auction.high == Contract.CHIAMO:
            return tuple(
                CALLS[s][c]  # type: ignore[misc]
                for s in range(4)
                for c in DECK
                if text(c)[1] != SUITS[s]
            )
        return TRUMPS
    hand = cards_of(state.hands[state.to_act])
    trick = state.played[len(state.played) // SEATS * SEATS :]
    led = text(trick[0])[1] if trick else ""
    follow = [c for c in hand if text(c)[1] == led]
    playable = follow if trick and follow else list(hand)
    core = state.table.options.trionfo_signals is SignalSet.CORE
    signals = (Signal.NONE, *LEAD_SIGNALS) if core and not trick else (Signal.NONE,)
    return tuple(play(c, s) for c in sorted(playable) for s in signals)


def trick_winner(plays: list[tuple[int, int]], trump: str) -> int:
    """maraffa.md §3.3 ``trick_winner``."""
    led = text(plays[0][1])[1]
    trumps = [p for p in plays if text(p[1])[1] == trump]
    pool = trumps or [p for p in plays if text(p[1])[1] == led]
    return max(pool, key=lambda p: STRENGTH[text(p[1])[0]])[0]


def outcome(contract: int, declarer: int, signori: set[int], tricks: list[tuple[int, int]]):
    """A.6.2, scanning (winner, thirds) in order: (won, trick that settled it)."""
    d = o = 0
    for k, (winner, thirds) in enumerate(tricks, 1):
        if winner in signori:
            d += thirds
        else:
            o += thirds
        if contract == Contract.MASO_DEI_MASI:
            if winner != declarer:
                return False, k
            if k == 8:
                return True, k
        elif contract == Contract.MASO:
            if o >= 3:
                return False, k
            if d >= 18:
                return True, k
        elif d >= 18 or o >= 18:
            return d >= 18, k
    return None, 0


def payments(contract: int, declarer: int, amico: int, won: bool) -> list[int]:
    """A.6.3."""
    sign = 1 if won else -1
    if contract == Contract.CHIAMO and amico != declarer:
        pay = [-sign] * SEATS
        pay[declarer], pay[amico] = 2 * sign, sign
        return pay
    unit = UNIT[Contract(contract)]
    pay = [-unit * sign] * SEATS
    pay[declarer] = 4 * unit * sign
    return pay


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("tier", TIERS)
def test_40_cards_exactly_once_and_every_state_validates(tier: Tier) -> None:
    """A.1.1, A.12: each of the 40 cards in exactly one place; 8 each at the deal;
    totals always sum to 0; ``validate`` accepts every state the engine makes."""
    for steps in matches(tier, 1):
        for step in steps:
            state = step.after
            held = [c for h in state.hands for c in cards_of(h)] + list(state.played)
            assert Counter(held) == Counter(DECK)
            if not state.played:
                assert all(h.bit_count() == 8 for h in state.hands)
            assert sum(state.table.totals) == 0
            validate(state)


@pytest.mark.parametrize("tier", TIERS)
def test_legal_moves_are_the_rule_books_and_each_applies(tier: Tier) -> None:
    """A.3, A.4, A.5, A.8: the listed moves are exactly the rule book's, in its order;
    each one applies; a move not listed is refused."""
    rnd = random.Random(2)
    for steps in matches(tier, 2):
        for step in steps:
            state = step.after
            listed = trionfo.legal_moves(state)
            assert listed == rule_book_moves(state)
            for move in listed if len(listed) < 30 else rnd.sample(listed, 30):
                trionfo.apply(state, move)
            if state.finished:
                continue
            for move in rnd.sample(UNIVERSE, 10):
                if move not in listed:
                    with pytest.raises(IllegalMove):
                        trionfo.apply(state, move)


class DealWatcher:
    """Follows a deal from its events and the states, and checks its score (A.6)."""

    def __init__(self) -> None:
        self.deals = 0

    def check(self, steps: list[Step]) -> None:
        totals = [0] * SEATS
        counted = 0
        for step in steps:
            for event in step.events:
                match event:
                    case DealDealt():
                        self.trick: list[tuple[int, int]] = []
                        self.tricks: list[tuple[int, int]] = []
                        self.contract = self.declarer = 0
                        self.called, self.amico, self.trump = 0, NO_SEAT, ""
                    case BidMade() | BidPassed():
                        pass
                    case AuctionWon(seat, contract):
                        self.declarer, self.contract = seat, contract
                    case ContractDeclared(seat, contract, suit, called):
                        assert (seat, contract) == (self.declarer, self.contract)
                        assert (called != 0) == (contract == Contract.CHIAMO)
                        self.trump, self.called = SUITS[suit], called
                        if called:
                            holders = [s for s in range(SEATS) if step.after.hands[s] & BIT[called]]
                            self.amico = holders[0]
                    case CardPlayed(seat, c, _, _):
                        self.trick.append((seat, c))
                    case PartnerRevealed(seat):
                        assert self.trick[-1] == (seat, self.called)
                        assert seat == self.amico
                    case TrickWon(number, seat, thirds):
                        assert seat == trick_winner(self.trick, self.trump)
                        value = sum(THIRDS[text(c)[0]] for _, c in self.trick)
                        assert thirds == value + (3 if number == 8 else 0)
                        self.tricks.append((seat, thirds))
                        self.trick = []
                    case ThrownIn():
                        assert self.contract == 0 and not self.tricks
                        counted += (
                            1
                            if step.before is not None and step.before.table.options.count_thrown_in
                            else 0
                        )
                        self.deals += 1
                    case DealScored(score, new_totals):
                        self.scored(score, step)
                        totals = [t + p for t, p in zip(totals, score.payments, strict=True)]
                        assert list(new_totals) == totals and sum(totals) == 0
                        counted += 1
                        self.deals += 1
                    case TrionfoMatchOver(winners, final):
                        assert list(final) == totals
                        assert winners == tuple(s for s in range(SEATS) if totals[s] == max(totals))
                        assert step.before is not None
                        assert counted == step.before.table.options.match_deals
        assert steps[-1].after.finished

    def scored(self, score: object, step: Step) -> None:
        assert step.before is not None
        options = step.before.table.options
        signori = {self.declarer}
        if self.contract == Contract.CHIAMO:
            signori.add(self.amico)
        won, at = outcome(self.contract, self.declarer, signori, self.tricks)
        assert won is not None, "a deal is decided by trick 8"
        if options.trionfo_stop_when_decided:
            assert at == len(self.tricks), "the deal ends at the deciding trick"
        else:
            assert len(self.tricks) == 8
        expected = payments(self.contract, self.declarer, self.amico, won)
        assert sum(expected) == 0
        assert score.payments == tuple(expected)  # type: ignore[attr-defined]
        assert (score.won, score.decided_at, score.declarer) == (won, at, self.declarer)  # type: ignore[attr-defined]
        amico = self.amico if self.contract == Contract.CHIAMO else NO_SEAT
        assert score.amico == amico  # type: ignore[attr-defined]


@pytest.mark.parametrize("tier", TIERS)
def test_tricks_outcomes_and_payments_follow_the_rules(tier: Tier) -> None:
    """A.5, A.6, A.7: tricks won by the rules' winner and worth their thirds; each
    contract settled by the scan of A.6.2 and paid as A.6.3 (the payments of every deal
    sum to 0, a thrown-in deal pays nothing); totals add up; the match ends after
    match_deals counted deals with the highest totals as winners."""
    watcher = DealWatcher()
    for steps in matches(tier, 3):
        watcher.check(steps)
    assert watcher.deals >= 2 * tier.matches


def check_rotation(steps: list[Step]) -> None:
    """A.2, A.3: deal 1's first speaker holds the first-speaker card, later deals
    next(dealer); each deal is dealt by the previous deal's first speaker; the first
    speaker speaks first and leads trick 1; speakers follow A.3's pseudo-code."""
    previous: DealDealt | None = None
    for step in steps:
        state = step.after
        for event in step.events:
            if isinstance(event, DealDealt):
                options = state.table.options
                deck = shuffled(DECK, state.table.seed, state.table.counter - 1)
                batch = options.trionfo_deal_batch
                for i, c in enumerate(deck):  # A.2.1: batches from the dealer's right
                    assert state.hands[(event.dealer + 1 + i // batch) % SEATS] & BIT[c]
                if event.deal_number == 1:
                    holder = options.trionfo_first_speaker_card
                    assert state.hands[event.first_speaker] & BIT[holder]
                else:
                    assert previous is not None
                    assert event.dealer == previous.first_speaker
                    assert event.first_speaker == (event.dealer + 1) % SEATS
                assert state.to_act == event.first_speaker
                previous = event
        if state.phase is TPhase.PLAY and not state.played:
            assert state.to_act == state.table.first_speaker


@pytest.mark.parametrize("tier", TIERS)
def test_auction_dealer_and_first_speaker_follow_the_rules(tier: Tier) -> None:
    """A.2, A.3, per ``check_rotation``."""
    for steps in matches(tier, 4):
        check_rotation(steps)


@pytest.mark.parametrize("tier", TIERS)
def test_views_hold_only_what_the_seat_may_know(tier: Tier) -> None:
    """A.11: own hand, public cards and history; never another hand; the amico only to
    its holder (and the declarer in mano) until the called card is played."""
    for steps in matches(tier, 5):
        for step in steps[::2]:
            state = step.after
            called_played = state.called_card in state.played
            for seat in range(SEATS):
                v = view(state, seat)
                assert set(v.hand) == set(cards_of(state.hands[seat]))
                others = {c for s, h in enumerate(state.hands) if s != seat for c in cards_of(h)}
                shown = {c for t in v.tricks for c in t.cards} | set(v.trick.cards)
                assert not (shown | set(v.hand)) & others
                assert v.table.seed == 0 and v.table.counter == 0
                holds = bool(state.called_card) and bool(state.hands[seat] & BIT[state.called_card])
                if state.called_card and not called_played and not holds and not state.finished:
                    assert v.amico == NO_SEAT


@pytest.mark.parametrize("tier", TIERS)
def test_codec_round_trip_gives_back_the_state(tier: Tier) -> None:
    """The wire contract for five players: decoding what was encoded gives back the
    very same state (``to_act`` travels as 0 once the match is over), through bytes."""
    for steps in matches(tier, 6):
        for step in steps:
            state = step.after
            msg = game_pb2.GameState()
            CODEC.state_to_wire(state, 0 if state.finished else state.to_act, msg)
            again = CODEC.state_from_wire(game_pb2.GameState.FromString(msg.SerializeToString()))
            assert again == (state._replace(to_act=0) if state.finished else state)


def test_the_fast_tier_plays_hundreds_of_deals_and_the_slow_thousands() -> None:
    """The record: the fast tier's matches hold hundreds of deals (the slow tier, with
    ten times the matches, thousands)."""
    assert sum(deals_in(steps) for steps in matches(Tier(150), 3)) >= 300


# --------------------------------------------------------------------------- secrecy


def chiamo_chooser(state: TrionfoState, moves: tuple[Move, ...], rnd: random.Random) -> Move:
    """Random play that leads to CHIAMO most of the time, so that most deals have a
    hidden partner: the first speaker bids CHIAMO or passes, then everybody passes."""
    if state.phase is TPhase.AUCTION:
        if not any(state.bids) and rnd.random() < 0.6:
            return BIDS[Contract.CHIAMO]  # type: ignore[return-value]
        return PASS
    return moves[rnd.randrange(len(moves))]


def secret_states(count: int, salt: int) -> Iterator[TrionfoState]:
    """Random states of play under CHIAMO before the called card is played."""
    seed = salt * 1_000_003
    found = 0
    while found < count:
        for step in play_match(seed, chiamo_chooser):
            state = step.after
            if (
                state.phase is TPhase.PLAY
                and state.called_card
                and state.called_card not in state.played
            ):
                yield state
                found += 1
                if found == count:
                    return
        seed += 1


def swapped(state: TrionfoState, rnd: random.Random) -> tuple[TrionfoState, int, int] | None:
    """The state with the called card moved from its holder A to another seat B, which
    gets in exchange a card of the same suit (so no count, no suit holding and no legal
    move of anybody else changes). None when no other seat holds that suit."""
    called = state.called_card
    suit = text(called)[1]
    a = next(s for s in range(SEATS) if state.hands[s] & BIT[called])
    candidates = [
        (b, c)
        for b in range(SEATS)
        if b != a
        for c in cards_of(state.hands[b])
        if text(c)[1] == suit
    ]
    if not candidates:
        return None
    b, x = rnd.choice(candidates)
    hands = list(state.hands)
    hands[a] ^= BIT[called] | BIT[x]
    hands[b] ^= BIT[called] | BIT[x]
    return state._replace(hands=tuple(hands)), a, b


def view_bytes(state: TrionfoState, seat: int) -> bytes:
    """The GetView response a seat would get, as bytes."""
    out = gs.GetViewResponse()
    CODEC.view_to_wire(RULES.view(state, seat), out.view)
    return out.SerializeToString()


def score_bytes(state: TrionfoState) -> bytes:
    """The Score response for a state, as bytes (built as the service builds it)."""
    report = RULES.score(state)
    out = gs.ScoreResponse(finished=report.finished, winners=report.winners)
    for side in report.sides:
        msg = out.sides.add(side=side.side, seats=side.seats, match_total=side.match_total)
        CODEC.side_score_to_wire(side.detail, msg.maraffa)
    return out.SerializeToString()


class Secrecy(NamedTuple):
    states: int
    views: int


def check_secrecy(count: int, salt: int) -> Secrecy:
    rnd = random.Random(salt)
    states = views = 0
    for state in secret_states(count, salt):
        pair = swapped(state, rnd)
        if pair is None:
            continue
        other, a, b = pair
        try:
            validate(other)
        except InvalidState:
            continue  # the deal would have ended already (stop_when_decided)
        for seat in set(range(SEATS)) - {a, b}:
            assert view(state, seat) == view(other, seat), (seat, a, b)
            assert view_bytes(state, seat) == view_bytes(other, seat), (seat, a, b)
            views += 1
        assert RULES.score(state) == RULES.score(other)
        assert score_bytes(state) == score_bytes(other)
        if state.to_act not in (a, b):
            for move in trionfo.legal_moves(state):
                first, second = trionfo.apply(state, move)[1], trionfo.apply(other, move)[1]
                if not any(isinstance(e, DealScored) for e in first + second):
                    assert first == second
        states += 1
    return Secrecy(states, views)


def test_partner_secrecy_fast() -> None:
    """A.11.3 and its property test: while the called card is unplayed, where it lies
    changes no other seat's view, nor the score, nor the events of their moves."""
    result = check_secrecy(1_000, salt=7)
    assert result.states >= 900


@pytest.mark.long
def test_partner_secrecy_over_ten_thousand_states() -> None:
    """The same over at least 10,000 random states (each with every other seat's view)."""
    result = check_secrecy(11_000, salt=8)
    assert result.states >= 10_000, result
