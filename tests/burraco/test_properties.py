"""Property tests of the Burraco engine over thousands of seeded random hands.

Every match is dealt from options drawn over every option of burraco.md §5, for 2,
3 and 4 players, kept short (``max_hands`` 1-3, or ``hands`` 1-2) so that the runs
count hands, and played to its end by a random player. The player draws or picks up
at random, then melds or lays off with a per-match eagerness (so some matches reach
pozzetti, burracos and closings often, others rarely) and otherwise discards.

The oracles are written from the rules text, not from the engine (``oracle.py``):
meld validity and kinds by brute force over every interpretation, hand scores from
the public events, the match result from §4.3.

Each property runs in two tiers: ``fast`` (always) and ``slow`` (ten times more
matches, marked ``slow``). Hypothesis draws the matches from a fixed seed per test
and keeps no example database, so every run plays the same matches; a failure
prints ``Match(...)``, and ``play_match`` of it replays the match exactly.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st

from mazzo.core.cards import code
from mazzo.core.errors import IllegalMove
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco import wire as codec
from mazzo.games.burraco.cards import DECK
from mazzo.games.burraco.melds import Kind, interpret, meld_error, signature
from mazzo.games.burraco.moves import (
    DRAW,
    PICK_UP,
    Discard,
    LayOff,
    Move,
    OpenMeld,
    discard,
    lay_off,
    meld,
)
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import Stage, State, side_mask
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import view
from mazzo.v1 import game_pb2
from tests.burraco import oracle
from tests.marks import LONG

# --------------------------------------------------------------------------- matches


@dataclass(frozen=True)
class Match:
    """One seeded match: ``rules.deal(options, players, seed)`` played by a random player
    whose choices come from ``random.Random(choices)`` and who melds when it can with
    probability ``eagerness``."""

    players: int
    options: Options
    seed: int
    choices: int
    eagerness: float


class Step(NamedTuple):
    """``after`` is what ``move`` made of ``before`` (the deal: no move, no before)."""

    before: State | None
    move: Move | None
    events: tuple[ev.Event, ...]
    after: State


MAX_MOVES = 60_000


def choose(state: State, moves: tuple[Move, ...], rnd: random.Random, eagerness: float) -> Move:
    if state.stage is Stage.MELD:
        building = [m for m in moves if not isinstance(m, Discard)]
        if building and rnd.random() < eagerness:
            return rnd.choice(building)
        discards = [m for m in moves if isinstance(m, Discard)]
        return rnd.choice(discards)
    return rnd.choice(moves)


def play_match(match: Match) -> list[Step]:
    """Deal and play a match to its end; every state and the events that made it."""
    state, events = rules.deal(match.options, match.players, match.seed)
    steps = [Step(None, None, tuple(events), state)]
    rnd = random.Random(match.choices)
    while not state.finished:
        moves = rules.legal_moves(state)
        assert moves, f"no legal move in a live state (README §4.2): {state}"
        move = choose(state, moves, rnd, match.eagerness)
        new, events = rules.apply(state, move)
        steps.append(Step(state, move, tuple(events), new))
        state = new
        assert len(steps) < MAX_MOVES, "the match does not end"
    return steps


@st.composite
def matches(draw: st.DrawFn) -> Match:
    """Every form of §2 and every option of §5, with short matches."""
    players = draw(st.sampled_from((2, 3, 4)))
    fixed = draw(st.booleans())
    options = Options(
        target=draw(st.integers(min_value=1, max_value=1500)),
        hands=draw(st.integers(min_value=1, max_value=2)) if fixed else 0,
        max_hands=draw(st.integers(min_value=1, max_value=3)),
        semipulito=draw(st.booleans()),
        closing_needs_clean=draw(st.booleans()),
        single_card_pile_rule=draw(st.booleans()),
        three_player_phase_switch=draw(st.booleans()),
        first_dealer=draw(st.none() | st.integers(min_value=0, max_value=players - 1)),
    )
    return Match(
        players,
        options,
        draw(st.integers(min_value=0, max_value=2**64 - 1)),
        draw(st.integers(min_value=0, max_value=2**32 - 1)),
        draw(st.sampled_from((0.3, 0.7, 0.95))),
    )


class Tier(NamedTuple):
    name: str
    matches: int


FAST = Tier("fast", 40)
SLOW = Tier("slow", 250)
TIERS = [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=LONG)]
#: Scores are cheap to check: their slow tier plays thousands of hands.
SCORE_TIERS = [
    pytest.param(FAST, id="fast"),
    pytest.param(Tier("slow", 1500), id="slow", marks=LONG),
]
PLAYED: Counter[str] = Counter()


def run_matches(key: str, tier: Tier, check: Callable[[Match, list[Step]], None]) -> None:
    """Play ``tier.matches`` matches and check each; the examples come from a fixed seed
    per ``key`` (the test's name), so every run plays the same matches."""

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
        PLAYED[f"{tier.name} matches, {match.players} players"] += 1
        PLAYED[f"{tier.name} hands"] += sum(
            isinstance(e, ev.HandScored) for s in steps for e in s.events
        )
        check(match, steps)

    before = PLAYED[f"{tier.name} hands"]
    each_match()
    # Every match plays at least one hand to its score (hands are what the runs count).
    assert PLAYED[f"{tier.name} hands"] - before >= tier.matches


def states(steps: list[Step]) -> Iterator[State]:
    for step in steps:
        yield step.after


def sampled(steps: list[Step], every: int, salt: int) -> Iterator[State]:
    """Every ``every``-th state (offset by ``salt``), for the costlier checks."""
    for i, step in enumerate(steps):
        if (i + salt) % every == 0:
            yield step.after


# --------------------------------------------------------------------------- 1. cards


def zones(state: State) -> list[int]:
    out = [c for h in state.hands for c in h]
    out += state.stock + state.pile
    out += [c for m in state.melds for c in m.cards]
    out += [c for p in state.pozzetti for c in p]
    return out


def check_cards(state: State) -> None:
    """§1.1, §8: 108 cards, each code twice and four jokers, across all zones."""
    counts = Counter(zones(state))
    assert sum(counts.values()) == 108
    assert all(counts[c] == 2 for c in range(1, 53)) and counts[53] == 4, counts
    validate(state)


@pytest.mark.parametrize("tier", TIERS)
def test_108_cards_conserved_and_every_state_validates(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§1.1 and §8: every state holds the whole deck and passes validation; states survive
    the wire unchanged (encode, decode, compare)."""

    def check(match: Match, steps: list[Step]) -> None:
        for state in states(steps):
            check_cards(state)
        for state in sampled(steps, 7, match.choices):
            msg = game_pb2.GameState()
            codec.state_to_wire(state, 0 if state.finished else state.to_act, msg)
            back = codec.state_from_wire(game_pb2.GameState.FromString(msg.SerializeToString()))
            assert back == state

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 2. legal moves


def order_key(move: Move) -> tuple[int, ...]:
    """§3.7: lay-offs by meld id then card, then 3-card melds by their cards, then discards."""
    if isinstance(move, LayOff):
        return (0, move.meld_id, *move.cards)
    if isinstance(move, OpenMeld):
        return (1, *move.cards)
    if isinstance(move, Discard):
        return (2, move.card)
    return (3 if move is DRAW else 4,)


def candidates(state: State) -> set[Move]:
    """Every move of the kinds §3.7 lists, legal or not: one-card lay-offs on every meld,
    every multiset of three held codes, every held code as a discard."""
    hand = state.hands[state.to_act]
    codes = sorted(set(hand))
    out: set[Move] = {discard(c) for c in codes}
    out |= {lay_off(i, [c]) for i in range(len(state.melds)) for c in codes}
    for triple in combinations_with_replacement(codes, 3):
        if all(triple.count(c) <= hand.count(c) for c in triple):
            out.add(meld(list(triple)))
    return out


def check_legal_moves(state: State, full: bool) -> None:
    moves = rules.legal_moves(state)
    if state.finished:
        assert moves == ()
        return
    assert moves, "every live state has a legal move (README §4.2)"
    assert len(set(moves)) == len(moves), f"duplicate moves: {moves}"
    keys = [order_key(m) for m in moves]
    assert keys == sorted(keys), f"not in the order of §3.7: {moves}"
    if state.stage is Stage.ACQUIRE:
        assert moves[0] is DRAW and set(moves) <= {DRAW, PICK_UP}
    seat = state.to_act
    mine = side_mask(state, seat)
    for move in moves:
        rules.apply(state, move)  # raises if a listed move is refused
        if isinstance(move, OpenMeld):
            assert len(move.cards) == 3 and move.kind is None
            assert oracle.is_meld(oracle.codes_of(move.cards)), move
        if isinstance(move, LayOff):
            assert len(move.cards) == 1 and mine >> state.melds[move.meld_id].seat & 1
            grown = oracle.codes_of(state.melds[move.meld_id].cards + move.cards)
            assert oracle.is_meld(grown), move
    if full and state.stage is Stage.MELD:
        expected = {m for m in candidates(state) if rules.is_legal(state, m)}
        assert set(moves) == expected, (
            f"listed {set(moves) - expected} wrongly, missed {expected - set(moves)}"
        )


@pytest.mark.parametrize("tier", TIERS)
def test_legal_moves_are_complete_ordered_and_apply(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """README §4.2, burraco.md §3.7: until the match ends the list is non-empty, without
    duplicates, in the stable order, and every listed move applies; listed melds and
    lay-offs are melds by the rules text; on sampled states the list is exactly the moves
    of its kinds that ``apply`` accepts (the direct check, §3.2-§3.5)."""

    def check(match: Match, steps: list[Step]) -> None:
        full = {id(s) for s in sampled(steps, 5, match.seed % 5)}
        for state in states(steps):
            check_legal_moves(state, id(state) in full)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 3. melds


def check_meld_events(steps: list[Step], semipulito: bool) -> None:
    """Each meld changed by a move is valid by the rules text, with the engine's
    canonical reading (§7.3) and burraco kind (§4.1)."""
    for step in steps:
        for event in step.events:
            if isinstance(event, ev.MeldOpened | ev.LaidOff):
                state = step.after
                meld_ = state.melds[event.meld_id]
                cards = oracle.codes_of(meld_.cards)
                assert oracle.is_meld(cards), cards
                assert oracle.kind_of(cards) == meld_.kind.name.lower()
                shown = view(state, 0).melds[event.meld_id]
                want = oracle.canonical(cards)
                assert (shown.wild_position, shown.ace_high) == (want.wild_position, want.ace_high)
                assert int(shown.burraco) == oracle.burraco_bonus(cards, semipulito)[0]


@pytest.mark.parametrize("tier", TIERS)
def test_no_meld_on_the_table_is_ever_invalid(request: pytest.FixtureRequest, tier: Tier) -> None:
    """§3.2: every meld laid down or grown is a meld by the brute-force reading of the rules,
    of the kind its cards make, read canonically as §7.3 says."""

    def check(match: Match, steps: list[Step]) -> None:
        check_meld_events(steps, match.options.semipulito)
        for state in sampled(steps, 11, 0):
            for m in state.melds:
                assert oracle.is_meld(oracle.codes_of(m.cards))

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 4. scores


def check_scores(match: Match, steps: list[Step]) -> oracle.Scorer:
    scorer = oracle.Scorer(match.players, semipulito=match.options.semipulito)
    for step in steps:
        for event in step.events:
            scorer.feed(event)
    assert scorer.finished
    final = steps[-1].after
    assert list(final.table.totals) == scorer.totals
    options = match.options
    target = 1505 if match.players == 3 and options.three_player_phase_switch else options.target
    over, winners = oracle.expected_result(
        scorer.totals, scorer.hands_scored, target, options.hands, options.max_hands
    )
    assert over and scorer.winners == winners == rules.winners(final)
    # Every hand before the last must not have ended the match (§4.3).
    totals = [0] * len(scorer.totals)
    hands = 0
    for step in steps:
        for event in step.events:
            if isinstance(event, ev.HandScored):
                hands += 1
                totals = list(event.totals)
                if hands < scorer.hands_scored:
                    done, _ = oracle.expected_result(
                        totals, hands, target, options.hands, options.max_hands
                    )
                    assert not done, f"the match should have ended after hand {hands}"
    return scorer


@pytest.mark.parametrize("tier", SCORE_TIERS)
def test_hand_scores_reproduce_from_the_events(request: pytest.FixtureRequest, tier: Tier) -> None:
    """§4.2, §2.4.4, §4.3: each HandScored event, recomputed from the public events (melds,
    lay-offs, pozzetti, closings, the hands shown at the end), the totals, and the match's
    end and winner."""

    def check(match: Match, steps: list[Step]) -> None:
        check_scores(match, steps)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 5. views


def resample_hidden(state: State, seat: int, rnd: random.Random) -> State:
    """The same state with every card ``seat`` may not see dealt again at random: the
    other hands, the stock (and its order), the untaken pozzetti, and the viewer's own
    hand while it is a locked pozzetto. Sizes stay."""
    hidden_seats = [s for s in range(state.table.players) if s != seat or state.locked >> s & 1]
    pool = [c for s in hidden_seats for c in state.hands[s]]
    pool += state.stock
    pool += [c for p in state.pozzetti for c in p]
    rnd.shuffle(pool)
    hands = list(state.hands)
    for s in hidden_seats:
        n = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:n])), pool[n:]
    stock, pool = tuple(pool[: len(state.stock)]), pool[len(state.stock) :]
    pozzetti = []
    for p in state.pozzetti:
        pozzetti.append(tuple(sorted(pool[: len(p)])))
        pool = pool[len(p) :]
    assert not pool
    return state._replace(hands=tuple(hands), stock=stock, pozzetti=tuple(pozzetti))


def check_view(state: State, seat: int, rnd: random.Random) -> None:
    seen = view(state, seat)
    locked = bool(state.locked >> seat & 1)
    assert seen.hand_hidden == locked
    assert seen.hand == (() if locked else state.hands[seat])
    assert seen.hand_sizes == tuple(len(h) for h in state.hands)
    assert seen.stock_size == len(state.stock)
    assert seen.table.seed == 0 and seen.table.counter == 0
    assert [p.size for p in seen.pozzetti] == [len(p) for p in state.pozzetti]
    assert seen.pile == state.pile
    other = view(resample_hidden(state, seat, rnd), seat)
    assert other == seen, "the view depends on cards the seat may not see"


@pytest.mark.parametrize("tier", TIERS)
def test_views_hide_other_hands_the_stock_and_untouched_pozzetti(
    request: pytest.FixtureRequest, tier: Tier
) -> None:
    """§7: a seat's view shows its own hand (nothing while its pozzetto is locked), sizes,
    the melds, the pile and the history, and is the same whatever the other hands, the
    stock's order and the untaken pozzetti hold."""

    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.choices)
        for state in sampled(steps, 3, match.choices % 3):
            for s in range(match.players):
                check_view(state, s, rnd)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 6. unlisted moves


@pytest.mark.parametrize("tier", TIERS)
def test_unlisted_moves_are_refused(request: pytest.FixtureRequest, tier: Tier) -> None:
    """Moves of the listed kinds that the list leaves out are refused by ``apply`` with an
    IllegalMove: random triples and lay-offs of cards held, and discards of cards not held."""

    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.seed)
        for state in sampled(steps, 4, 1):
            if state.stage is not Stage.MELD:
                continue
            listed = set(rules.legal_moves(state))
            pool = sorted(candidates(state) - listed, key=str)
            pool.append(
                discard(rnd.choice([c for c in DECK if c not in state.hands[state.to_act]]))
            )
            for move in rnd.sample(pool, min(5, len(pool))):
                with pytest.raises(IllegalMove):
                    rules.apply(state, move)

    run_matches(request.node.name, tier, check)


# --------------------------------------------------------------------------- 7. everything at once


@pytest.mark.slow
def test_every_property_on_the_same_matches(request: pytest.FixtureRequest) -> None:
    """All the checks above on one set of matches (each in its slow tier also runs alone)."""

    def check(match: Match, steps: list[Step]) -> None:
        rnd = random.Random(match.choices)
        for state in states(steps):
            check_cards(state)
            check_legal_moves(state, full=False)
        check_meld_events(steps, match.options.semipulito)
        check_scores(match, steps)
        for state in sampled(steps, 9, 0):
            for s in range(match.players):
                check_view(state, s, rnd)

    run_matches(request.node.name, Tier("all", 80), check)


# --------------------------------------------------------------------------- meld rules alone

CODES = [code(c) for c in range(1, 54)]


@st.composite
def card_lists(draw: st.DrawFn) -> list[int]:
    """Card lists that are often melds: mostly one suit or one rank, a few wilds."""
    style = draw(st.sampled_from(("suit", "rank", "any")))
    wilds = draw(st.lists(st.sampled_from((2, 15, 28, 41, 53)), max_size=2))
    if style == "suit":
        suit = draw(st.integers(min_value=0, max_value=3))
        pool = [1 + 13 * suit + r for r in range(13)]
        naturals = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=14))
    elif style == "rank":
        rank = draw(st.sampled_from([r for r in range(13) if r != 1]))
        naturals = draw(
            st.lists(st.sampled_from([1 + 13 * s + rank for s in range(4)]), min_size=1, max_size=9)
        )
    else:
        naturals = draw(st.lists(st.integers(min_value=1, max_value=53), min_size=1, max_size=8))
    return sorted(naturals + wilds)


@seed(20260101)
@settings(max_examples=2000, deadline=None, database=None)
@given(cards=card_lists())
@pytest.mark.slow
def test_meld_rules_match_the_rules_text(cards: list[int]) -> None:
    """§3.2, §4.1, §7.3 on thousands of card lists: the engine's direct check accepts
    exactly the melds the brute-force reading accepts, with the same kind, canonical
    reading and cleanliness."""
    codes = oracle.codes_of(cards)
    engine_ok = meld_error(cards) is None
    assert engine_ok == oracle.is_meld(codes), (codes, meld_error(cards))
    if engine_ok:
        sig = signature(cards)
        assert not isinstance(sig, str)
        interp = interpret(sig)
        assert not isinstance(interp, str)
        assert interp.kind is Kind[oracle.kind_of(codes).upper()]
        want = oracle.canonical(codes)
        assert (int(interp.clean), interp.wild_position, interp.ace_high) == (
            want.clean,
            want.wild_position,
            want.ace_high,
        )


def teardown_module() -> None:
    print(f"\nburraco properties played: {dict(PLAYED)}")
