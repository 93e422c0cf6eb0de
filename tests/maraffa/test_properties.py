"""Property tests of the Maraffa engine over thousands of seeded random matches.

Every match is dealt from options drawn over every option of maraffa.md §5, for
2, 3 and 4 players, and played to its end by a random player: it picks uniformly
among the legal moves but CLAIM (always listed last) only with a small
probability, so matches run long and claims are still exercised. Each property
below is checked at every state (or on every event) of every match, and each is
named after the rule of ``docs/rules/maraffa.md`` (and README) it checks.

The oracles are written from the rules text, not from the engine: trick winners
and card values come from the tables of §1 and the code of §3.3, legal-move lists
from §3.2.4, §3.3, §3.4 and §3.5, claim values from §3.6 and game ends from §4.2.

Every property runs in two tiers: ``fast`` (a few dozen matches per property,
always run) and ``slow`` (ten times more, marked ``slow``; deselect with
``-m "not slow"``); one more ``slow`` test checks every property together on the
same matches. Hypothesis draws the matches from a fixed seed per test (and no
example database), so every run plays the same matches. (Hypothesis also mixes
in integer constants of the local modules loaded, so the matches depend on the
code base and on which test modules a run loads, never on the run itself.) A
failure prints the match, ``Match(players, Options(...), seed=..., choices=...)``,
and ``play_match`` of it replays the failing match exactly.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st

from mazzo.core.cards import code, rank_of, suit_of
from mazzo.core.errors import IllegalMove, NotAllowedNow
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.moves import (
    CLAIM,
    PLAYS,
    REDEAL,
    TRUMPS,
    DeclareTrump,
    Move,
    PlayCard,
    RequestRedeal,
    Signal,
    play,
)
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
)
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import View, view
from mazzo.games.maraffa.wire import state_from_wire, state_to_wire, view_to_wire
from mazzo.v1 import game_pb2
from tests.marks import LONG

# --------------------------------------------------------------------------- the rules text
#
# Tables of maraffa.md §1, written out again here so the oracles do not share the
# engine's tables.

SUITS = "SHDC"
#: §1.2 trick strength within a suit.
STRENGTH = {"3": 10, "2": 9, "A": 8, "K": 7, "Q": 6, "J": 5, "7": 4, "6": 3, "5": 2, "4": 1}
#: §1.3 card values in thirds.
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
LAST_TRICK_THIRDS = 3
HAND_THIRDS = 35
CARD_POINTS_PER_HAND = 11
#: §3.3 "Stable order of LegalMoves": signals within a card, in this order.
SIGNAL_ORDER = (
    "NONE",
    "BUSSO",
    "STRISCIO",
    "VOLO",
    "TAGLIO",
    "FUORI_TUTTO",
    "TAGLIA",
    "RISTRISCIO",
    "BUONA",
)
#: §3.5 the signal sets.
CORE_SIGNALS = frozenset({"BUSSO", "STRISCIO", "VOLO", "TAGLIO"})
SIGNAL_SETS = {
    SignalSet.NONE: frozenset[str](),
    SignalSet.CORE: CORE_SIGNALS,
    SignalSet.EXTENDED: CORE_SIGNALS | {"FUORI_TUTTO", "TAGLIA", "RISTRISCIO", "BUONA"},
}
LEADER_SIGNALS = frozenset(
    {"BUSSO", "STRISCIO", "VOLO", "FUORI_TUTTO", "TAGLIA", "RISTRISCIO", "BUONA"}
)
#: §3.2.4 a redeal needs a battezzante's hand worth less than this many thirds.
WEAK_HAND_THIRDS = 4
#: The whole move universe: every play, the four trumps, redeal and claim.
ALL_PLAYS = tuple(PLAYS[c][s][m] for c in DECK for s in Signal for m in (False, True))


def suit(c: int) -> str:
    return SUITS[suit_of(c)]


def rank(c: int) -> str:
    return rank_of(c)


def trick_winner(plays: Sequence[tuple[int, int]], trump: str) -> int:
    """§3.3 ``trick_winner``: ``plays`` = [(seat, card), ...] in play order."""
    led = suit(plays[0][1])
    trumps = [p for p in plays if suit(p[1]) == trump]
    pool = trumps if trumps else [p for p in plays if suit(p[1]) == led]
    return max(pool, key=lambda p: STRENGTH[rank(p[1])])[0]


def seats_of(state: State) -> int:
    """README §2 / maraffa.md §2: two seats with 2 players, else four (3 = dummy)."""
    return 2 if state.table.players == 2 else 4


def team(seat: int) -> int:
    """README §2.5: partners sit opposite; with two seats each plays alone."""
    return seat % 2


def tricks_per_hand(seats: int) -> int:
    return 20 if seats == 2 else 10


def reference_hand(state: State) -> tuple[list[int], int]:
    """§3.3.4, §4.1: each team's thirds in its tricks so far (last-trick bonus
    included) and the team that declared the marafona (-1 if none), from the
    played cards alone."""
    seats = seats_of(state)
    trump = SUITS[state.trump] if state.trump >= 0 else ""
    thirds = [0, 0]
    leader = state.table.battezzante
    complete = len(state.played) // seats
    for k in range(complete):
        cards = state.played[k * seats : (k + 1) * seats]
        plays = [((leader + i) % seats, c) for i, c in enumerate(cards)]
        leader = trick_winner(plays, trump)
        thirds[team(leader)] += sum(THIRDS[rank(c)] for c in cards)
        if k + 1 == tricks_per_hand(seats):
            thirds[team(leader)] += LAST_TRICK_THIRDS
    marafona = team(state.marafona_seat) if state.marafona_seat >= 0 else -1
    return thirds, marafona


def rule_book_moves(state: State) -> tuple[Move, ...]:
    """The legal moves exactly as maraffa.md lists them, in the stable order of §3.3."""
    if state.phase is Phase.OVER:
        return ()
    table = state.table
    options = table.options
    if state.phase is Phase.TRUMP:
        # §3.2.4: DECLARE_TRUMP S, H, D, C; REQUEST_REDEAL if eligible; CLAIM.
        moves: list[Move] = list(TRUMPS)
        battezzante_hand = cards_of(state.hands[table.battezzante])
        weak = sum(THIRDS[rank(c)] for c in battezzante_hand) < WEAK_HAND_THIRDS
        if options.redeal_weak_hand and weak:
            moves.append(REDEAL)
        return (*moves, CLAIM)
    seats = seats_of(state)
    seat = state.to_act
    hand = cards_of(state.hands[seat])
    done = len(state.played) // seats
    trick = state.played[done * seats :]
    fallen = set(state.played[: done * seats])
    trump = SUITS[state.trump]
    leading = not trick
    led = suit(trick[0]) if trick else ""
    follow = [c for c in hand if suit(c) == led]
    # §3.3.3 must follow suit; §2.3.5 two players may be free while the stock lasts.
    free = seats == 2 and not options.two_player_must_follow and bool(state.stock)
    playable = hand if leading or not follow or free else follow
    # §2.3.6 no signals with two players; §3.5 the signal sets.
    signals = frozenset[str]() if seats == 2 else SIGNAL_SETS[options.signals]
    top = {c for c in DECK if suit(c) == trump and rank(c) in "32A"}
    holds_marafona = top <= set(hand)

    def may_signal(name: str, c: int) -> bool:
        rest = [x for x in hand if suit(x) == suit(c) and x != c]
        if name == "TAGLIO":
            # A non-leader who plays a trump while void in a non-trump led suit.
            return not leading and led != trump and suit(c) == trump and not follow
        if not leading or name not in LEADER_SIGNALS:
            return False
        if name == "FUORI_TUTTO" and (suit(c) != trump or top & set(state.played)):
            return False
        if name == "TAGLIA" and suit(c) == trump:
            return False
        if not options.signals_checked:
            return True
        # §3.5 truth conditions, "after the lead".
        if name == "STRISCIO":
            return any(rank(x) in "KQJ7654" for x in rest)
        if name == "VOLO":
            return not rest
        if name == "RISTRISCIO":
            return len(rest) >= 2
        if name == "FUORI_TUTTO":
            return not top & set(hand)  # the led card is in ``hand`` too
        if name == "BUONA":
            stronger = [
                x for x in DECK if suit(x) == suit(c) and STRENGTH[rank(x)] > STRENGTH[rank(c)]
            ]
            return all(x in fallen or x in hand for x in stronger)
        return True  # BUSSO, TAGLIA: requests, always true

    def may_declare(c: int) -> bool:
        # §3.4: trick 1, 3-2-A of trumps in hand, and the rule's restrictions.
        rule = options.marafona_rule
        if rule is MarafonaRule.OFF or len(state.played) >= seats or not holds_marafona:
            return False
        if rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK and seat != table.battezzante:
            return False
        return rule is not MarafonaRule.BATTEZZANTE_ACE_LEAD or (
            leading and c in top and rank(c) == "A"
        )

    moves = []
    for c in sorted(playable):  # card ids are the canonical order (README §3)
        declare = may_declare(c)
        for name in SIGNAL_ORDER:
            if name != "NONE" and (name not in signals or not may_signal(name, c)):
                continue
            s = Signal[name]
            if not declare:
                moves.append(play(c, s, False))
                continue
            if not options.marafona_auto_declare:  # §3.4.3: only `true` when automatic
                moves.append(play(c, s, False))
            moves.append(play(c, s, True))
    return (*moves, CLAIM)


# --------------------------------------------------------------------------- matches


@dataclass(frozen=True)
class Match:
    """One seeded match: dealt by ``rules.deal(options, players, seed)`` and played by
    a random player whose choices come from ``random.Random(choices)``."""

    players: int
    options: Options
    seed: int
    choices: int

    def __repr__(self) -> str:
        """Python that rebuilds the match: ``play_match(<this>)`` replays it exactly."""
        changed = []
        for field in dataclasses.fields(Options):
            value = getattr(self.options, field.name)
            if value != field.default:
                text = f"{type(value).__name__}.{value.name}" if isinstance(value, Enum) else value
                changed.append(f"{field.name}={text}")
        options = f"Options({', '.join(changed)})"
        return f"Match({self.players}, {options}, seed={self.seed}, choices={self.choices})"


class Step(NamedTuple):
    """``after`` is what ``move`` made of ``before`` (the deal: no move, no before)."""

    before: State | None
    move: Move | None
    events: tuple[ev.Event, ...]
    after: State


#: A claim ends the game at once, so the random player claims only now and then.
CLAIM_PROBABILITY = 0.01
MAX_MOVES = 50_000


def choose(moves: Sequence[Move], chooser: random.Random) -> Move:
    """Uniform among the legal moves, but CLAIM (listed last) only rarely."""
    if len(moves) == 1 or chooser.random() < CLAIM_PROBABILITY:
        return moves[-1]
    return moves[chooser.randrange(len(moves) - 1)]


def play_match(match: Match) -> list[Step]:
    """Deal and play a match to its end; every state and the events that made it."""
    state, events = rules.deal(match.options, match.players, match.seed)
    steps = [Step(None, None, tuple(events), state)]
    chooser = random.Random(match.choices)
    while not state.finished:
        moves = rules.legal_moves(state)
        assert moves, f"no legal move in a live state (README §4.2): {state}"
        move = choose(moves, chooser)
        new, events = rules.apply(state, move)
        steps.append(Step(state, move, tuple(events), new))
        state = new
        assert len(steps) < MAX_MOVES, "the match does not end"
    return steps


@st.composite
def matches(draw: st.DrawFn) -> Match:
    """Every form of §2 and every option of §5, with small targets so matches are short."""
    players = draw(st.sampled_from((2, 3, 4)))
    seats = 2 if players == 2 else 4
    target = st.integers(min_value=1, max_value=21)
    options = Options(
        target=draw(target),
        fractions=draw(st.sampled_from(Fractions)),
        marafona_rule=draw(st.sampled_from(MarafonaRule)),
        marafona_auto_declare=draw(st.booleans()),
        claim_rule=draw(st.sampled_from(ClaimRule)),
        signals=draw(st.sampled_from(SignalSet)),
        signals_checked=draw(st.booleans()),
        redeal_weak_hand=draw(st.booleans()),
        series=draw(st.sampled_from(Series)),
        bella_target=draw(st.none() | target),
        two_player_must_follow=draw(st.booleans()),
        dummy_seat=draw(st.integers(min_value=0, max_value=3)),
        first_dealer=draw(st.none() | st.integers(min_value=0, max_value=seats - 1)),
    )
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    choices = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return Match(players, options, seed, choices)


class Tier(NamedTuple):
    name: str
    matches: int


FAST = Tier("fast", 30)
SLOW = Tier("slow", 300)
#: The combined run of every property on the same matches (long: ten times).
ALL = Tier("all", 30)
ALL_LONG = Tier("all-long", 300)
TIERS = [
    pytest.param(FAST, id="fast"),
    pytest.param(SLOW, id="slow", marks=LONG),
]

#: Matches and moves played per tier, for the record (see ``run_matches``).
PLAYED: Counter[str] = Counter()


def run_matches(key: str, tier: Tier, check: Callable[[Match, list[Step]], None]) -> None:
    """Play ``tier.matches`` matches and check each with ``check``. The examples come
    from a fixed seed per ``key`` (the test's name), so every run plays the same
    matches and each test its own."""

    @seed(zlib.crc32(key.encode()))
    @settings(
        max_examples=tier.matches,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(match=matches())
    def each_match(match: Match) -> None:
        note(f"replay: play_match({match!r})")
        steps = play_match(match)
        PLAYED[tier.name + " matches"] += 1
        PLAYED[tier.name + " moves"] += len(steps) - 1
        PLAYED[f"{tier.name} matches, {match.players} players"] += 1
        check(match, steps)

    each_match()


def states(steps: list[Step]) -> Iterator[State]:
    for step in steps:
        yield step.after


# --------------------------------------------------------------------------- 1. cards


def check_each_card_once(state: State) -> None:
    """§1.1, §8: the 40 cards, each exactly once across hands, played cards and stock;
    and the state passes validation."""
    held = [c for mask in state.hands for c in cards_of(mask)]
    everywhere = held + list(state.played) + list(state.stock)
    counts = Counter(everywhere)
    assert sorted(counts) == sorted(DECK), f"cards missing or foreign: {state}"
    assert all(n == 1 for n in counts.values()), f"a card appears twice: {state}"
    assert len(state.hands) == seats_of(state)
    validate(state)


@pytest.mark.parametrize("tier", TIERS)
def test_every_card_exactly_once_and_every_state_validates(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§1.1 and §8: each of the 40 cards is in exactly one place, and ``validate``
    accepts every state the engine produces."""

    def check(match: Match, steps: list[Step]) -> None:
        for state in states(steps):
            check_each_card_once(state)

    run_matches(request.node.name, tier, check)


# -------------------------------------------------------------------- 2. tricks and hand scores


class HandScorer:
    """Scores each hand from its events alone: the cards played decide each trick
    (§3.3.4), the tricks decide each side's thirds (§1.3, §4.1)."""

    def __init__(self, state: State) -> None:
        self.seats = seats_of(state)
        self.options = state.table.options
        self.start_hand()

    def start_hand(self) -> None:
        self.trump = ""
        self.trick: list[tuple[int, int]] = []
        self.tricks = 0
        self.thirds = [0, 0]  # summed from TrickWon events
        self.aces = [0, 0]
        self.third_cards = [0, 0]
        self.last_trick = [0, 0]
        self.marafona = [False, False]

    def feed(self, step: Step) -> None:
        before = step.before
        drawn: list[ev.CardDrawn] = []
        expected_draws: list[tuple[int, int]] = []
        for event in step.events:
            match event:
                case ev.HandDealt():
                    self.start_hand()
                case ev.TrumpDeclared(_, s):
                    self.trump = SUITS[s]
                case ev.CardPlayed(seat, c, _, declared):
                    self.trick.append((seat, c))
                    if declared:
                        assert not any(self.marafona), "two marafona declarations (§3.4.4)"
                        self.marafona[team(seat)] = True
                case ev.TrickWon(number, seat, thirds):
                    self.trick_won(number, seat, thirds)
                    if before is not None and before.stock:
                        # §2.3.2: the winner draws the top card, then the loser the next.
                        top = before.stock
                        expected_draws = [(seat, top[0]), (1 - seat, top[1])]
                case ev.CardDrawn():
                    drawn.append(event)
                case ev.HandScored(scores, totals):
                    self.hand_scored(scores, totals, step)
        assert [(d.seat, d.card) for d in drawn] == expected_draws, (
            f"§2.3.2 draws after the trick: expected {expected_draws}, got {drawn}"
        )

    def trick_won(self, number: int, seat: int, thirds: int) -> None:
        assert len(self.trick) == self.seats, f"trick {number} has {self.trick}"
        self.tricks += 1
        assert number == self.tricks, f"tricks are numbered from 1: {number} != {self.tricks}"
        winner = trick_winner(self.trick, self.trump)
        assert seat == winner, f"§3.3.4 trick {self.trick} trump {self.trump}: winner {winner}"
        cards = [c for _, c in self.trick]
        last = number == tricks_per_hand(self.seats)
        expected = sum(THIRDS[rank(c)] for c in cards) + (LAST_TRICK_THIRDS if last else 0)
        assert thirds == expected, f"§1.3 trick {[code(c) for c in cards]}: {expected} thirds"
        side = team(seat)
        self.thirds[side] += thirds
        self.aces[side] += sum(rank(c) == "A" for c in cards)
        self.third_cards[side] += sum(rank(c) in "32KQJ" for c in cards)
        if last:
            self.last_trick[side] = 1
        self.trick = []

    def hand_scored(self, scores: Sequence[Any], totals: Sequence[int], step: Step) -> None:
        assert self.tricks == tricks_per_hand(self.seats), "a hand is scored after its last trick"
        assert scores[0].card_points + scores[1].card_points == CARD_POINTS_PER_HAND, (
            f"§4.1 card points of a hand sum to 11: {scores}"
        )
        assert scores[0].thirds + scores[1].thirds == HAND_THIRDS, f"§1.3 35 thirds: {scores}"
        assert step.before is not None
        previous = step.before.table.totals
        for side in (0, 1):
            thirds = self.thirds[side]
            card_points = thirds // 3
            if self.options.fractions is Fractions.KEEP_THIRDS:
                bonus = 9 if self.marafona[side] else 0
                hand_score = thirds + bonus
            else:
                bonus = 3 if self.marafona[side] else 0
                hand_score = card_points + bonus
            expected = (
                self.aces[side],
                self.third_cards[side],
                self.last_trick[side],
                thirds,
                card_points,
                bonus,
                hand_score,
            )
            assert tuple(scores[side]) == expected, (
                f"§4.1 side {side}: expected (aces, third cards, last trick, thirds, "
                f"card points, marafona, hand score) = {expected}, got {scores[side]}"
            )
            assert totals[side] == previous[side] + hand_score, "§3.7.1 added to the match"


@pytest.mark.parametrize("tier", TIERS)
def test_tricks_and_hand_scores_follow_the_cards(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§3.3.4, §1.3, §4.1, §2.3.2: every trick goes to its highest trump or highest
    card of the led suit with its thirds (last-trick bonus included); in two-player
    matches the winner then the loser draw; every hand's card points sum to 11 and
    its thirds to 35; each side's score, recomputed from the TrickWon events (and the
    marafona declarations), matches the HandScored event."""

    def check(match: Match, steps: list[Step]) -> None:
        scorer = HandScorer(steps[0].after)
        for step in steps:
            scorer.feed(step)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 3. legal moves


def move_key(move: Move) -> tuple[int, int, int, int]:
    """§3.3 stable order: plays by card id, then signal order, then false before true;
    in the trump phase S, H, D, C then REDEAL; CLAIM last."""
    if type(move) is PlayCard:
        return (0, move.card, SIGNAL_ORDER.index(move.signal.name), int(move.marafona))
    if type(move) is DeclareTrump:
        return (1, move.suit, 0, 0)
    if type(move) is RequestRedeal:
        return (2, 0, 0, 0)
    return (3, 0, 0, 0)


def check_legal_moves(state: State) -> None:
    """README §4.2, §4.4 and maraffa.md §3.3 order; every listed move applies."""
    moves = rules.legal_moves(state)
    if state.finished:
        assert moves == (), f"a finished match has no legal move: {moves}"
        return
    assert moves, "every live state has a legal move (README §4.2)"
    assert len({id(m) for m in moves}) == len(moves), f"duplicate moves: {moves}"
    assert len({str(m) for m in moves}) == len(moves), f"duplicate moves: {moves}"
    assert moves[-1] is CLAIM, f"CLAIM is offered last at every decision (§3.6.2): {moves}"
    keys = [move_key(m) for m in moves]
    assert keys == sorted(keys), f"not in the stable order of §3.3: {moves}"
    kinds = {type(m) for m in moves[:-1]}
    if state.phase is Phase.TRUMP:
        assert moves[:4] == TRUMPS, f"§3.2.4 trump phase lists S, H, D, C first: {moves}"
        assert kinds <= {DeclareTrump, RequestRedeal}, moves
    else:
        assert kinds == {PlayCard}, f"only card plays (and CLAIM) in the play phase: {moves}"
    expected = rule_book_moves(state)
    assert moves == expected, (
        f"legal moves differ from the rules text:\n  engine: {moves}\n  rules:  {expected}\n"
        f"  missing {set(expected) - set(moves)}, extra {set(moves) - set(expected)}\n"
        f"  state: {state}"
    )
    for move in moves:
        rules.apply(state, move)  # raises if a listed move is refused


@pytest.mark.parametrize("tier", TIERS)
def test_legal_moves_are_complete_ordered_and_applicable(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """README §4.2 and §4.4, maraffa.md §3.2.4-§3.5: until the match ends the legal
    moves are non-empty, duplicate-free, in the stable order of §3.3 with CLAIM last,
    exactly the moves the rules text allows, and each applies; after the end, none."""

    def check(match: Match, steps: list[Step]) -> None:
        for state in states(steps):
            check_legal_moves(state)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 4. illegal moves


def unlisted_moves(state: State, listed: Sequence[Move], rnd: random.Random) -> list[Move]:
    """A sample of moves not in the legal list: a listed card with a signal or
    declaration not listed, a card not listed, and a move of the wrong phase."""
    listed_set = set(listed)
    sample: list[Move] = []
    if state.phase is Phase.PLAY:
        cards = {m.card for m in listed if type(m) is PlayCard}
        variants = [m for c in cards for row in PLAYS[c] for m in row if m not in listed_set]
        if variants:
            sample.append(rnd.choice(variants))
        others = [c for c in DECK if c not in cards]
        if others:
            sample.append(PLAYS[rnd.choice(others)][rnd.choice(list(Signal))][rnd.random() < 0.5])
        sample.append(rnd.choice([*TRUMPS, REDEAL]))
    else:
        sample.append(rnd.choice(ALL_PLAYS))
        if REDEAL not in listed_set:
            sample.append(REDEAL)
    return sample


def check_unlisted_rejected(state: State, rnd: random.Random) -> None:
    """README §4.3, maraffa.md §8: a move not listed is refused with ``IllegalMove``
    (``NotAllowedNow`` once the match is over) and leaves the state unchanged."""
    copy = pickle.loads(pickle.dumps(state))
    if state.finished:
        for move in (rnd.choice(ALL_PLAYS), rnd.choice(TRUMPS), REDEAL, CLAIM):
            with pytest.raises(NotAllowedNow):
                rules.apply(state, move)
    else:
        listed = rules.legal_moves(state)
        auto = state.table.options.marafona_auto_declare
        sample = unlisted_moves(state, listed, rnd)
        if auto:
            # Every `false` form of a listed declaration (§3.4.3), not only sampled ones.
            sample += [
                play(m.card, m.signal, False) for m in listed if type(m) is PlayCard and m.marafona
            ]
        for move in sample:
            declared = PLAYS[move.card][move.signal][True] if type(move) is PlayCard else None
            if auto and declared in listed:
                # §3.4.3: with marafona_auto_declare a submitted `false` counts as `true`.
                assert rules.apply(state, move) == rules.apply(state, declared), move
                continue
            with pytest.raises(IllegalMove):
                rules.apply(state, move)
                pytest.fail(f"{move} is not listed but was accepted; listed {listed}")
    assert state == copy, "a refused move changed the state"
    validate(state)


@pytest.mark.parametrize("tier", TIERS)
def test_moves_not_listed_are_rejected_and_leave_the_state_unchanged(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """README §4.3 (atomic moves) and maraffa.md §8 (inputs to reject): moves outside
    the legal list raise ``IllegalMove`` and the state stays as it was."""

    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.choices ^ 0x5EED)
        for state in states(steps):
            check_unlisted_rejected(state, rnd)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 5. information sets

#: Message fields that would carry the generator or the stock order.
SECRET_FIELDS = frozenset({"rng", "seed", "counter", "stock"})


def wire_cards(msg: Any, cards: list[int], names: set[str]) -> None:
    """Every ``Card`` value anywhere in a message, and the names of its set fields."""
    for fd, value in msg.ListFields():
        names.add(fd.name)
        if fd.message_type is not None:
            for sub in value if fd.is_repeated else (value,):
                wire_cards(sub, cards, names)
        elif fd.enum_type is not None and fd.enum_type.full_name == "mazzo.v1.Card":
            cards.extend(value if fd.is_repeated else (value,))


def view_cards(v: View) -> list[int]:
    """Every card a ``View`` holds."""
    cards = [*v.hand, *v.dummy_hand, *v.drawn, *v.trick.cards]
    for trick in v.tricks:
        cards.extend(trick.cards)
    return cards


def check_views(state: State) -> None:
    """§7: each seat sees its own hand (not while §3.2.3 hides it), the controller
    also the dummy's, public cards, and nothing else: no other hand, no stock, no seed."""
    table = state.table
    seats = seats_of(state)
    dummy = table.options.dummy_seat if table.players == 3 else None
    controller = (dummy + 2) % 4 if dummy is not None else None
    # §3.2.3: from hand 2, in the trump phase, the battezzante's partner (4 seats).
    hidden = None
    if seats == 4 and table.hand_number > 1 and state.phase is Phase.TRUMP:
        hidden = (table.battezzante + 2) % 4
    public = set(state.played) | set(state.drawn)  # §2.3.2 drawn cards are shown
    for seat in range(seats):
        viewer = controller if seat == dummy else seat  # §2.2.3 the dummy's view
        assert viewer is not None
        own = () if viewer == hidden else cards_of(state.hands[viewer])
        dummy_cards: tuple[int, ...] = ()
        if dummy is not None and viewer == controller and hidden != dummy:
            dummy_cards = cards_of(state.hands[dummy])
        may_see = set(own) | set(dummy_cards) | public
        v = view(state, seat)
        assert v.hand == own, f"§7.1 seat {seat} hand {v.hand}, expected {own}"
        assert v.hand_hidden == (viewer == hidden), f"§3.2.3 seat {seat}"
        assert v.dummy_hand == dummy_cards, f"§2.2.3 seat {seat} dummy {v.dummy_hand}"
        assert v.table.seed == 0 and v.table.counter == 0, "§7.6 the view carries the seed"
        leaked = set(view_cards(v)) - may_see
        assert not leaked, f"§7.6 seat {seat} sees {[code(c) for c in leaked]}: {state}"
        msg = game_pb2.GameView()
        view_to_wire(v, msg)
        cards: list[int] = []
        names: set[str] = set()
        wire_cards(msg, cards, names)
        leaked = set(cards) - may_see
        assert not leaked, f"§7.6 seat {seat}'s GameView holds {[code(c) for c in leaked]}"
        assert not names & SECRET_FIELDS, f"§7.6 GameView sets {names & SECRET_FIELDS}"
        assert tuple(msg.maraffa.hand) == own
        assert tuple(msg.maraffa.dummy_hand) == dummy_cards


@pytest.mark.parametrize("tier", TIERS)
def test_views_hold_no_hidden_cards_nor_seed(request: pytest.FixtureRequest, tier: Tier) -> None:
    """§7 information sets, §3.2.3 and §2.2.3: a seat's view, and its ``GameView``
    message, hold exactly its own cards (the controller's also the dummy's), public
    cards and nothing of the other hands, the stock or the generator."""

    def check(match: Match, steps: list[Step]) -> None:
        for state in states(steps):
            check_views(state)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 6. codec


def check_codec_round_trip(state: State) -> None:
    """The codec round trip gives back the very same state value, also through bytes."""
    msg = game_pb2.GameState()
    state_to_wire(state, state.to_act if not state.finished else 0, msg)
    # A finished state has no seat to act: it travels as 0.
    expected = state._replace(to_act=0) if state.finished else state
    decoded = state_from_wire(msg)
    assert decoded == expected, f"state_from_wire(state_to_wire(s)) != s:\n{decoded}\n{expected}"
    reparsed = state_from_wire(game_pb2.GameState.FromString(msg.SerializeToString()))
    assert reparsed == expected, "the state changed through SerializeToString/FromString"


@pytest.mark.parametrize("tier", TIERS)
def test_codec_round_trip_gives_back_the_state(request: pytest.FixtureRequest, tier: Tier) -> None:
    """The wire contract: ``state_from_wire(state_to_wire(s)) == s`` for every state
    (``to_act`` travels as 0 once the match is over), also through the bytes."""

    def check(match: Match, steps: list[Step]) -> None:
        for state in states(steps):
            check_codec_round_trip(state)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 7. determinism


@pytest.mark.parametrize("tier", TIERS)
def test_same_seed_and_choices_replay_identically(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """README §4.1: deals come from the seed alone, so the same options, players and
    seed, played with the same choices, give the same states and events."""

    def check(match: Match, steps: list[Step]) -> None:
        again = play_match(match)
        assert len(again) == len(steps), "the replay has a different length"
        for first, second in zip(steps, again, strict=True):
            assert first == second, f"replay differs at {first.move}:\n{first}\n{second}"

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 8. match bookkeeping


def start_target(options: Options, game_number: int) -> int:
    """§4.2.3, §4.2.4, §4.3: a game starts at its target (la bella at bella_target),
    in thirds with keep_thirds."""
    points = options.target
    if game_number == 3 and options.bella_target is not None:
        points = options.bella_target
    return 3 * points if options.fractions is Fractions.KEEP_THIRDS else points


def claim_value(state: State, seat: int) -> tuple[int, int]:
    """§3.6.3, §3.6.4: (value, needed) of a claim by ``seat`` in ``state``."""
    table = state.table
    options = table.options
    side = team(seat)
    thirds, marafona_team = reference_hand(state)
    total = table.totals[side]
    target = table.effective_target
    marafona = marafona_team == side
    keep = options.fractions is Fractions.KEEP_THIRDS
    if options.claim_rule is ClaimRule.STRICT_ONE_THIRD:
        if keep:
            return total + thirds[side], target + 1
        return 3 * total + thirds[side], 3 * target + 1
    if keep:
        return total + thirds[side] + 9 * marafona, target
    return total + thirds[side] // 3 + 3 * marafona, target


def check_bookkeeping(match: Match, steps: list[Step]) -> None:
    """§3.6, §4.2, §4.3: totals, targets, game and match winners."""
    options = match.options
    needed = 2 if options.series is Series.BEST_OF_THREE else 1
    game_winners: list[int] = []
    for step in steps:
        state = step.after
        table = state.table
        assert min(table.totals) >= 0, "§8 team totals are never negative"
        if table.hand_number == 1 and not state.finished:
            assert table.effective_target == start_target(options, table.game_number)
        kinds = [type(e) for e in step.events]
        before = step.before
        if before is None:
            continue
        if ev.GameWon not in kinds and not state.finished:
            # §4.2: within a game the totals never decrease.
            assert table.game_number == before.table.game_number
            for side in (0, 1):
                assert table.totals[side] >= before.table.totals[side], "a total went down"
        for i, event in enumerate(step.events):
            rest = step.events[i + 1 :]
            match event:
                case ev.Claimed(result):
                    # §3.6: a true claim wins the game for the claimant's side, a false one
                    # loses it.
                    seat = before.to_act
                    value, target = claim_value(before, seat)
                    assert (result.seat, result.team) == (seat, team(seat))
                    assert (result.value, result.needed) == (value, target), (
                        f"§3.6 claim by seat {seat}: value {value} needed {target}, got {result}"
                    )
                    assert result.valid == (value >= target), f"§3.6.3 {result}"
                    won = rest[0]
                    assert isinstance(won, ev.GameWon), f"a claim ends the game: {rest}"
                    assert won.team == (team(seat) if result.valid else 1 - team(seat)), (
                        f"§3.6.1 a true claim wins, a false one loses: {result}, {won}"
                    )
                case ev.HandScored(_, totals):
                    # §4.2.2: the game ends after the hand iff a side reached the target.
                    target = before.table.effective_target
                    reached = [s for s in (0, 1) if totals[s] >= target]
                    nxt = rest[0] if rest else None
                    if not reached:
                        assert isinstance(nxt, ev.HandDealt), f"no side at {target}: {rest}"
                    elif len(reached) == 2 and totals[0] == totals[1]:
                        assert nxt == ev.TargetRaised(totals[0] + 1), f"tie {totals}: {rest}"
                        assert table.effective_target == totals[0] + 1
                    else:
                        best = max(reached, key=lambda s: totals[s])
                        assert isinstance(nxt, ev.GameWon), f"{totals} at {target}: {rest}"
                        assert nxt.team == best, f"§4.2.2 {totals} at {target}: {nxt}"
                case ev.GameWon(number, side, _):
                    assert number == before.table.game_number
                    game_winners.append(side)
                    if not state.finished:
                        # §4.3: the next game of the series starts afresh.
                        assert table.game_number == number + 1
                        assert table.totals == (0, 0)
                case ev.MatchWon(side, games_won):
                    assert state.finished and games_won == table.games_won
                    assert games_won[side] == needed, f"§4.3 {games_won}, needed {needed}"
    final = steps[-1].after
    won = final.table.games_won
    assert final.finished
    assert sorted(won)[1] == needed and sorted(won)[0] < needed, (
        f"§4.3 exactly one side has its {needed} game(s): {won}"
    )
    assert list(won) == [game_winners.count(0), game_winners.count(1)]
    winner = won.index(needed)
    assert rules.match_winner(final) == winner
    last = steps[-1].events
    assert last[-1] == ev.MatchWon(winner, won), f"the match ends with MatchWon: {last}"


@pytest.mark.parametrize("tier", TIERS)
def test_totals_claims_and_winners_are_kept_by_the_rules(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§3.6 (claims), §4.2 (end of a game, ties raise the target) and §4.3 (series):
    totals never decrease within a game, every game has one winner, and at the end
    exactly one side has won the games it needed (1, or 2 of three)."""
    run_matches(request.node.name, tier, check_bookkeeping)


# -------------------------------------------------------------------- 9. dealer and battezzante


def check_rotation(match: Match, steps: list[Step]) -> None:
    """§3.2.1-2, §3.2.4, §3.7.2, §4.3, README §2.6: who deals and who names trumps."""
    options = match.options
    seats = 2 if match.players == 2 else 4
    previous: ev.HandDealt | None = None
    for step in steps:
        state = step.after
        kinds = [type(e) for e in step.events]
        for event in step.events:
            if isinstance(event, ev.TrumpDeclared):
                # §3.2.4, §3.3.1: the battezzante names trumps and leads trick 1.
                assert step.before is not None
                assert event.seat == step.before.table.battezzante == state.to_act, (
                    f"§3.2.4, §3.3.1 the battezzante declares and leads: {event}, {state}"
                )
                assert state.trump == event.suit and state.phase is Phase.PLAY, event
            if not isinstance(event, ev.HandDealt):
                continue
            if previous is None:
                assert (event.game_number, event.hand_number) == (1, 1)
                if options.first_dealer is not None:
                    assert event.dealer == options.first_dealer, f"§5 first_dealer: {event}"
            elif ev.RedealRequested in kinds:
                # §3.2.4: the same dealer deals the same hand again.
                assert event.dealer == previous.dealer, f"§3.2.4 redeal: {previous} -> {event}"
                assert (event.game_number, event.hand_number) == (
                    previous.game_number,
                    previous.hand_number,
                ), f"§3.2.4 a redeal deals the same hand again: {previous} -> {event}"
            elif ev.GameWon in kinds:
                # §4.3: a new game, hand 1, dealt by next(last dealer).
                assert (event.game_number, event.hand_number) == (previous.game_number + 1, 1)
                assert event.dealer == (previous.dealer + 1) % seats, (
                    f"§4.3 a new game is dealt by next(last dealer): {previous} -> {event}"
                )
            else:
                # §3.7.2: the battezzante deals the next hand.
                assert (event.game_number, event.hand_number) == (
                    previous.game_number,
                    previous.hand_number + 1,
                ), f"the next hand of the game: {previous} -> {event}"
                assert event.dealer == previous.battezzante, (
                    f"§3.7.2 the battezzante deals the next hand: {previous} -> {event}"
                )
            if event.hand_number == 1:
                # §3.2.1, §2.3.4: the holder of 4D (two players: next(dealer) if in stock).
                four = next(c for c in DECK if code(c) == "4D")
                holders = [s for s in range(seats) if four in cards_of(state.hands[s])]
                expected = holders[0] if holders else (event.dealer + 1) % seats
            else:
                expected = (event.dealer + 1) % seats  # §3.2.2
            assert event.battezzante == expected, f"battezzante {event}, expected {expected}"
            assert state.phase is Phase.TRUMP and state.to_act == expected, (
                f"§3.2.4 the battezzante is to act after the deal: {state}"
            )
            assert (state.table.dealer, state.table.battezzante) == (event.dealer, expected), (
                f"the state's dealer and battezzante are the event's: {event}, {state.table}"
            )
            previous = event


@pytest.mark.parametrize("tier", TIERS)
def test_dealer_and_battezzante_rotate_by_the_rules(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§3.2.1 (hand 1: the holder of 4D), §3.2.2 and §3.7.2 (the battezzante deals
    next, next(dealer) names trumps), §3.2.4 (a redeal: same dealer), §4.3 (a new game:
    next of the last dealer), first_dealer (§5), and the battezzante leads trick 1."""
    run_matches(request.node.name, tier, check_rotation)


# --------------------------------------------------------------------------- all at once


@pytest.mark.slow
@pytest.mark.parametrize(
    "tier", [pytest.param(ALL, id="all"), pytest.param(ALL_LONG, id="all-long", marks=LONG)]
)
def test_all_properties_over_many_matches(request: pytest.FixtureRequest, tier: Tier) -> None:
    """Every property above, together on the same matches, and a check that the run
    exercised every rule the properties speak of."""
    seen: Counter[str] = Counter()

    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.choices ^ 0x5EED)
        scorer = HandScorer(steps[0].after)
        seen[f"players {match.players}"] += 1
        for step in steps:
            state = step.after
            check_each_card_once(state)
            check_legal_moves(state)
            check_unlisted_rejected(state, rnd)
            check_views(state)
            check_codec_round_trip(state)
            scorer.feed(step)
            for event in step.events:
                seen[type(event).__name__] += 1
                if isinstance(event, ev.CardPlayed):
                    seen["marafona declared"] += event.declare_marafona
                    seen["signal given"] += event.signal != 0
            seen["hidden hand"] += any(view(state, s).hand_hidden for s in range(seats_of(state)))
            seen["redeal offered"] += REDEAL in rules.legal_moves(state)
        check_bookkeeping(match, steps)
        check_rotation(match, steps)
        assert play_match(match) == steps, "replay differs"

    run_matches(request.node.name, tier, check)
    for feature in (
        "players 2",
        "players 3",
        "players 4",
        "Claimed",
        "redeal offered",
        "CardDrawn",
        "marafona declared",
        "signal given",
        "hidden hand",
    ):
        assert seen[feature], f"the random matches never exercised {feature}: {seen}"
