"""Property tests of the 39-card form for three (maraffa-forms.md B) over thousands of
seeded random hands.

Matches are dealt with options drawn from every option B.4 allows and played to the
end by a random player (uniform among the legal moves, CLAIM only now and then). At
every state, and on every event, the properties below are checked against oracles
written from the rules text (B.1-B.3 and maraffa.md §3), not from the engine. A
``fast`` tier always runs; the ``slow`` tier plays ten times as many matches.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

import pytest

from mazzo.core.cards import card, code
from mazzo.core.errors import IllegalMove
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.moves import (
    CLAIM,
    PLAYS,
    REDEAL,
    TRUMPS,
    Move,
    PlayCard,
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
    ThreePlayerForm,
)
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import view
from mazzo.games.maraffa.wire import state_from_wire, state_to_wire
from mazzo.v1 import game_pb2
from tests.marks import LONG

SUITS = "SHDC"
STRENGTH = {"3": 10, "2": 9, "A": 8, "K": 7, "Q": 6, "J": 5, "7": 4, "6": 3, "5": 2, "4": 1}
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
SEATS = 3
TRICKS = 13
HAND_THIRDS = 35
#: B.4: with signals = core, the leader's STRISCIO and VOLO and the cutter's TAGLIO.
LEAD_SIGNALS = (Signal.STRISCIO, Signal.VOLO)
CLAIM_PROBABILITY = 0.01
UNIVERSE: tuple[Move, ...] = (
    *(PLAYS[c][s][m] for c in DECK for s in Signal for m in (False, True)),
    *TRUMPS,
    REDEAL,
    CLAIM,
)


def text(c: int) -> str:
    return code(c)


class Step(NamedTuple):
    before: State | None
    move: Move | None
    events: tuple[ev.Event, ...]
    after: State


def random_options(rnd: random.Random) -> Options:
    """Every option of B.4, small targets so that matches are short."""
    return Options(
        three_player_form=ThreePlayerForm.DECK39,
        removed_four=card(rnd.choice(["4S", "4H", "4C"])),
        target=rnd.randint(1, 21),
        fractions=rnd.choice(list(Fractions)),
        marafona_rule=rnd.choice(list(MarafonaRule)),
        marafona_auto_declare=rnd.random() < 0.3,
        claim_rule=rnd.choice(list(ClaimRule)),
        signals=rnd.choice([SignalSet.NONE, SignalSet.CORE, SignalSet.FORM_DEFAULT]),
        signals_checked=rnd.random() < 0.5,
        redeal_weak_hand=rnd.random() < 0.5,
        series=rnd.choice(list(Series)),
        bella_target=rnd.choice([None, rnd.randint(1, 15)]),
        first_dealer=rnd.choice([None, 0, 1, 2]),
    )


def play_match(seed: int) -> list[Step]:
    rnd = random.Random(seed)
    state, events = rules.deal(random_options(rnd), 3, seed)
    steps = [Step(None, None, tuple(events), state)]
    while not state.finished:
        moves = rules.legal_moves(state)
        if rnd.random() < CLAIM_PROBABILITY:
            move = moves[-1]
        else:
            move = moves[rnd.randrange(len(moves) - 1)] if len(moves) > 1 else moves[0]
        new, events = rules.apply(state, move)
        steps.append(Step(state, move, tuple(events), new))
        state = new
        assert len(steps) < 20_000
    return steps


class Tier(NamedTuple):
    matches: int


TIERS = [
    pytest.param(Tier(120), id="fast"),
    pytest.param(Tier(1200), id="slow", marks=LONG),
]
PLAYED: Counter[str] = Counter()


def matches(tier: Tier, salt: int) -> Iterator[list[Step]]:
    for i in range(tier.matches):
        steps = play_match(salt * 1_000_003 + i)
        PLAYED["hands"] += sum(isinstance(e, ev.HandScored) for s in steps for e in s.events)
        yield steps


# --------------------------------------------------------------------------- oracles


def rule_book_moves(state: State) -> tuple[Move, ...]:
    """maraffa.md §3.2-3.5 for three players each alone (B.2.3-4): the legal moves in
    the stable order of §3.3."""
    if state.phase is Phase.OVER:
        return ()
    options = state.table.options
    if state.phase is Phase.TRUMP:
        hand = cards_of(state.hands[state.table.battezzante])
        weak = sum(THIRDS[text(c)[0]] for c in hand) < 4
        return (*TRUMPS, *([REDEAL] if options.redeal_weak_hand and weak else []), CLAIM)
    seat = state.to_act
    hand = cards_of(state.hands[seat])
    done = len(state.played) // SEATS
    trick = state.played[done * SEATS :]
    trump = SUITS[state.trump]
    led = text(trick[0])[1] if trick else ""
    follow = [c for c in hand if text(c)[1] == led]
    playable = follow if trick and follow else list(hand)
    core = options.signals is SignalSet.CORE
    top = {c for c in DECK if text(c)[1] == trump and text(c)[0] in "32A"}

    def signals_for(c: int) -> list[Signal]:
        out = [Signal.NONE]
        if not core:
            return out
        rest = [x for x in hand if text(x)[1] == text(c)[1] and x != c]
        if not trick:
            for s in LEAD_SIGNALS:
                if options.signals_checked:
                    if s is Signal.STRISCIO and not any(text(x)[0] in "KQJ7654" for x in rest):
                        continue
                    if s is Signal.VOLO and rest:
                        continue
                out.append(s)
        elif led != trump and text(c)[1] == trump and not follow:
            out.append(Signal.TAGLIO)
        return out

    def declares(c: int) -> bool:
        rule = options.marafona_rule
        if rule is MarafonaRule.OFF or len(state.played) >= SEATS or not top <= set(hand):
            return False
        if rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK and seat != state.table.battezzante:
            return False
        ace = card("A" + trump)
        return rule is not MarafonaRule.BATTEZZANTE_ACE_LEAD or (not trick and c == ace)

    moves: list[Move] = []
    for c in sorted(playable):
        for s in signals_for(c):
            if declares(c):
                if not options.marafona_auto_declare:
                    moves.append(play(c, s, False))
                moves.append(play(c, s, True))
            else:
                moves.append(play(c, s, False))
    return (*moves, CLAIM)


def trick_winner(plays: list[tuple[int, int]], trump: str) -> int:
    led = text(plays[0][1])[1]
    trumps = [p for p in plays if text(p[1])[1] == trump]
    pool = trumps or [p for p in plays if text(p[1])[1] == led]
    return max(pool, key=lambda p: STRENGTH[text(p[1])[0]])[0]


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("tier", TIERS)
def test_39_cards_exactly_once_and_every_state_validates(tier: Tier) -> None:
    """B.1, B.6: the 39 cards of the chosen deck are each in exactly one place, the
    removed Four nowhere, and ``validate`` accepts every state the engine makes."""
    for steps in matches(tier, 1):
        for step in steps:
            state = step.after
            removed = state.table.options.removed_four
            held = [c for h in state.hands for c in cards_of(h)] + list(state.played)
            assert Counter(held) == Counter(c for c in DECK if c != removed)
            assert len(state.hands) == SEATS and not state.stock
            validate(state)


def declared_twin_listed(move: Move, listed: tuple[Move, ...]) -> bool:
    """maraffa.md §3.4.3: with marafona_auto_declare only the declaring form of a play
    is listed, and the same play submitted without the flag counts as declaring."""
    return (
        isinstance(move, PlayCard)
        and not move.marafona
        and play(move.card, move.signal, True) in listed
    )


@pytest.mark.parametrize("tier", TIERS)
def test_legal_moves_are_the_rule_books_and_each_applies(tier: Tier) -> None:
    """maraffa.md §3.3 with B.2.3-4: the listed moves are exactly the rule book's, in
    its order, and each one applies; a move not listed is refused, state unchanged."""
    rnd = random.Random(2)
    for steps in matches(tier, 2):
        for step in steps:
            state = step.after
            listed = rules.legal_moves(state)
            assert listed == rule_book_moves(state), state
            for move in listed:
                rules.apply(state, move)
            if state.finished:
                continue
            for move in rnd.sample(UNIVERSE, 8):
                if move in listed or declared_twin_listed(move, listed):
                    continue
                with pytest.raises(IllegalMove):
                    rules.apply(state, move)


def check_scores(steps: list[Step]) -> None:
    """B.2.3, B.3: each trick goes to the highest trump or card of the led suit; each
    player scores the thirds of his own tricks (+3 for trick 13), floored, +3 for a
    declared marafona; a hand is 35 thirds and 10 or 11 points; after a hand the
    highest total at or over the target wins, a tie at the top raises the target."""
    trick: list[tuple[int, int]] = []
    thirds = [0, 0, 0]
    tricks = 0
    trump = ""
    marafona = -1
    for step in steps:
        before = step.before
        for event in step.events:
            match event:
                case ev.HandDealt():
                    thirds, tricks, trick, marafona = [0, 0, 0], 0, [], -1
                case ev.TrumpDeclared(_, suit):
                    trump = SUITS[suit]
                case ev.CardPlayed(seat, c, _, declared):
                    trick.append((seat, c))
                    if declared:
                        marafona = seat
                case ev.TrickWon(number, seat, got):
                    tricks += 1
                    assert number == tricks and len(trick) == SEATS
                    assert seat == trick_winner(trick, trump)
                    value = sum(THIRDS[text(c)[0]] for _, c in trick)
                    value += 3 if tricks == TRICKS else 0
                    assert got == value
                    thirds[seat] += value
                    trick = []
                case ev.HandScored(scores, totals):
                    assert tricks == TRICKS and sum(thirds) == HAND_THIRDS
                    assert [s.thirds for s in scores] == thirds
                    keep = before is not None and before.table.options.keep_thirds
                    bonus = [(9 if keep else 3) * (s == marafona) for s in range(SEATS)]
                    units = [t if keep else t // 3 for t in thirds]
                    assert [s.hand_score for s in scores] == [
                        u + b for u, b in zip(units, bonus, strict=True)
                    ]
                    assert sum(t // 3 for t in thirds) in (10, 11)
                    assert before is not None
                    old = before.table.totals
                    assert totals == tuple(
                        o + s.hand_score for o, s in zip(old, scores, strict=True)
                    )
                    target = before.table.effective_target
                    best = max(totals)
                    won = [e for e in step.events if isinstance(e, ev.GameWon)]
                    raised = [e for e in step.events if isinstance(e, ev.TargetRaised)]
                    if best >= target and list(totals).count(best) == 1:
                        assert won and won[0].team == totals.index(best)
                    else:
                        assert not won
                        assert bool(raised) == (best >= target)
                        if raised:
                            assert raised[0].effective_target == best + 1


@pytest.mark.parametrize("tier", TIERS)
def test_tricks_hand_scores_and_game_ends_follow_the_rules(tier: Tier) -> None:
    """B.2.3, B.3, per ``check_scores``."""
    for steps in matches(tier, 3):
        check_scores(steps)


def check_rotation(steps: list[Step]) -> None:
    """B.2.1-2: cards one at a time from the dealer's right; in a game's first hand the
    holder of 4D is battezzante; then the battezzante deals and next(dealer) names
    trumps; the battezzante leads trick 1."""
    previous: ev.HandDealt | None = None
    for step in steps:
        for event in step.events:
            if not isinstance(event, ev.HandDealt):
                continue
            hands = step.after.hands
            if event.hand_number == 1:
                assert card("4D") in cards_of(hands[event.battezzante])
            elif previous is not None and previous.hand_number != event.hand_number:
                assert event.dealer == previous.battezzante
                assert event.battezzante == (event.dealer + 1) % SEATS
            previous = event
        after = step.after
        if after.phase is Phase.TRUMP:
            assert after.to_act == after.table.battezzante
        if after.phase is Phase.PLAY and not after.played:
            assert after.to_act == after.table.battezzante


@pytest.mark.parametrize("tier", TIERS)
def test_dealer_and_battezzante_rotate(tier: Tier) -> None:
    """B.2.1-2, per ``check_rotation``."""
    for steps in matches(tier, 4):
        check_rotation(steps)


@pytest.mark.parametrize("tier", TIERS)
def test_views_show_only_the_viewers_cards(tier: Tier) -> None:
    """B.6: a view has the viewer's own hand, card counts and public cards; never the
    other two hands nor the generator."""
    for steps in matches(tier, 5):
        for step in steps[::3]:
            state = step.after
            for seat in range(SEATS):
                v = view(state, seat)
                assert set(v.hand) == set(cards_of(state.hands[seat]))
                others = {c for s, h in enumerate(state.hands) if s != seat for c in cards_of(h)}
                public = set(state.played)
                shown = set(v.hand) | {c for t in v.tricks for c in t.cards} | set(v.trick.cards)
                assert not shown & others
                assert shown <= set(cards_of(state.hands[seat])) | public
                assert v.table.seed == 0 and v.table.counter == 0


@pytest.mark.parametrize("tier", TIERS)
def test_codec_round_trip_gives_back_the_state(tier: Tier) -> None:
    """The wire contract with three seats: decoding what was encoded gives back the
    very same state (``to_act`` travels as 0 once the match is over), through bytes."""
    for steps in matches(tier, 6):
        for step in steps:
            state = step.after
            msg = game_pb2.GameState()
            state_to_wire(state, 0 if state.finished else state.to_act, msg)
            again = state_from_wire(game_pb2.GameState.FromString(msg.SerializeToString()))
            assert again == (state._replace(to_act=0) if state.finished else state)


def test_the_fast_tier_plays_hundreds_of_hands() -> None:
    """The record: the fast tier's matches hold hundreds of hands (thousands in slow)."""
    hands = sum(
        isinstance(e, ev.HandScored)
        for steps in matches(Tier(120), 1)
        for s in steps
        for e in s.events
    )
    assert hands >= 250
