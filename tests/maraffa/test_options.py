"""Every option of maraffa.md §5 has the effect its rule text gives it.

Each test names the section it checks. Positions are built with
``mazzo.games.maraffa.positions.position`` (validated like any incoming state);
whole matches are dealt with ``rules.deal`` and played by a seeded chooser that
never picks the final ``CLAIM``. The 2-player form (§2.3) is checked at the end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mazzo.core.cards import card, cards, code
from mazzo.core.errors import IllegalMove, InvalidArgument
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa import rules
from mazzo.games.maraffa.cards import DECK, cards_of
from mazzo.games.maraffa.moves import CLAIM, REDEAL, Move, PlayCard, Signal, parse
from mazzo.games.maraffa.options import (
    ClaimRule,
    Fractions,
    MarafonaRule,
    Options,
    Series,
    SignalSet,
)
from mazzo.games.maraffa.positions import position
from mazzo.games.maraffa.state import Phase, State
from mazzo.games.maraffa.validate import validate
from mazzo.games.maraffa.view import view

# ----------------------------------------------------------------------------------------- helpers


def texts(state: State) -> list[str]:
    """The legal moves as text, in the engine's stable order."""
    return [str(m) for m in rules.legal_moves(state)]


def do(state: State, text: str) -> tuple[State, list[ev.Event]]:
    return rules.apply(state, parse(text))


def choose(rnd: random.Random, state: State) -> Move:
    """A seeded choice among the legal moves, never the final CLAIM."""
    moves = rules.legal_moves(state)
    assert moves[-1] is CLAIM
    return moves[rnd.randrange(len(moves) - 1)]


Step = tuple[State, Move, list[ev.Event], State]


def steps(state: State, rnd: random.Random, limit: int = 5000) -> Iterator[Step]:
    """Play with the seeded chooser until the match ends: (before, move, events, after)."""
    for _ in range(limit):
        if state.finished:
            return
        move = choose(rnd, state)
        after, events = rules.apply(state, move)
        yield state, move, events, after
        state = after
    raise AssertionError("the match did not end")


def play_out(state: State, rnd: random.Random) -> tuple[State, list[ev.Event]]:
    """The finished match and every event on the way."""
    events: list[ev.Event] = []
    for _, _, evs, after in steps(state, rnd):
        events.extend(evs)
        state = after
    return state, events


def play_until(
    state: State, rnd: random.Random, done: Callable[[State], bool], limit: int = 5000
) -> State:
    for _ in range(limit):
        if done(state):
            return state
        state, _ = rules.apply(state, choose(rnd, state))
    raise AssertionError("the situation was never reached")


def of_type(events: list[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def layout(seed: int, counter: int, dealer: int, seats: int) -> tuple[list[set[int]], list[int]]:
    """§3.1: the shuffled deck dealt in batches of five from next(dealer); the stock."""
    d = shuffled(DECK, seed, counter)
    hands: list[set[int]] = [set() for _ in range(seats)]
    batches = 8 if seats == 4 else 4
    for b in range(batches):
        hands[(dealer + 1 + b) % seats].update(d[5 * b : 5 * b + 5])
    return hands, d[5 * batches :]


def hand_sets(state: State) -> list[set[int]]:
    return [set(cards_of(h)) for h in state.hands]


def signals_listed(state: State, c: str, marafona: bool = False) -> list[Signal]:
    """The signals listed with plays of card ``c``, in listing order."""
    return [
        m.signal
        for m in rules.legal_moves(state)
        if isinstance(m, PlayCard) and m.card == card(c) and m.marafona == marafona
    ]


def last_trick_state(options: Options, seed: int, chooser: int) -> tuple[State, Move]:
    """A dealt hand 1 played up to its very last card; that card's move."""
    rnd = random.Random(chooser)
    state, _ = rules.deal(options, 4, seed)
    state = play_until(state, rnd, lambda s: len(s.played) == 39)
    return state, choose(rnd, state)


THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}


def with_totals(state: State, totals: tuple[int, int]) -> State:
    """The same position with other match totals (a hand-built state, validated)."""
    new = state._replace(table=state.table._replace(totals=totals))
    validate(new)
    return new


# ----------------------------------------------------------------------------------- target (§4.2)


def test_target_5_ends_the_game_when_a_side_reaches_5() -> None:
    """§4.2.1-2: with target 5 the game ends after the first hand (11 card points are
    shared, so a side reaches 5); the side at or over it with the higher total wins."""
    state, _ = rules.deal(Options(target=5), 4, 11)
    assert state.table.effective_target == 5
    state, events = play_out(state, random.Random(11))
    scored = of_type(events, ev.HandScored)
    assert len(scored) == 1
    totals = scored[0].totals
    assert max(totals) >= 5 and totals[0] != totals[1]
    winner = 0 if totals[0] > totals[1] else 1
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, winner, totals)]
    assert of_type(events, ev.MatchWon) == [ev.MatchWon(winner, (1, 0) if winner == 0 else (0, 1))]
    assert state.finished and rules.match_winner(state) == winner


@pytest.mark.parametrize("target", [21, 31])
def test_game_goes_on_until_a_side_reaches_the_target(target: int) -> None:
    """§4.2.2: after each hand the game ends exactly when a side is at or over the
    target without a tie; otherwise the next hand is dealt."""
    state, _ = rules.deal(Options(target=target), 4, target)
    hands = 0
    for _, _, events, after in steps(state, random.Random(target)):
        for i, e in enumerate(events):
            if not isinstance(e, ev.HandScored):
                continue
            hands += 1
            over = max(e.totals) >= target and e.totals[0] != e.totals[1]
            following = type(events[i + 1])
            if over:
                assert following is ev.GameWon and after.finished
            else:
                assert following in (ev.HandDealt, ev.TargetRaised) and not after.finished
    assert hands >= 2


def test_target_must_be_at_least_1() -> None:
    with pytest.raises(InvalidArgument):
        rules.deal(Options(target=0), 4, 1)


# ------------------------------------------------------------------------ fractions (§4.1, §4.2.4)


def test_keep_thirds_totals_are_in_thirds() -> None:
    """§4.1 `fractions = keep_thirds`: the hand score is the exact thirds (35 a hand in
    all), the totals are kept in thirds and the target is 3 x target (§4.2.4)."""
    options = Options(fractions=Fractions.KEEP_THIRDS)
    state, _ = rules.deal(options, 4, 5)
    assert state.table.effective_target == 123
    state = play_until(state, random.Random(5), lambda s: s.table.hand_number == 2)
    scores = state.table.last_hand
    assert sum(s.thirds for s in scores) == 35
    for s in scores:
        assert s.hand_score == s.thirds + s.marafona_bonus
    assert state.table.totals == tuple(s.hand_score for s in scores)


def test_floor_per_hand_drops_the_fractions() -> None:
    """§4.1 default: card points are thirds // 3 and they add up to 11 every hand."""
    state, _ = rules.deal(Options(), 4, 5)
    assert state.table.effective_target == 41
    state = play_until(state, random.Random(5), lambda s: s.table.hand_number == 2)
    scores = state.table.last_hand
    assert sum(s.card_points for s in scores) == 11
    for s in scores:
        assert s.card_points == s.thirds // 3
        assert s.hand_score == s.card_points + s.marafona_bonus
    assert state.table.totals == tuple(s.hand_score for s in scores)


@pytest.mark.parametrize(
    ("fractions", "bonus", "in_score"),
    [(Fractions.KEEP_THIRDS, 9, "thirds"), (Fractions.FLOOR_PER_HAND, 3, "card_points")],
)
def test_marafona_is_worth_9_thirds_with_keep_thirds(
    fractions: Fractions, bonus: int, in_score: str
) -> None:
    """§4.1: the marafona adds 3 points, which is 9 thirds when thirds are kept."""
    state = position(
        hands=["", "3H 2H AH 4S 5S 6S 7S 4D 5D 6D", "", ""],
        trump="H",
        battezzante=1,
        options=Options(fractions=fractions),
    )
    state, events = do(state, "play AH marafona")
    assert events == [ev.CardPlayed(1, card("AH"), Signal.NONE, True)]
    state = play_until(state, random.Random(1), lambda s: s.table.hand_number == 3)
    team0, team1 = state.table.last_hand
    assert team1.marafona_bonus == bonus and team0.marafona_bonus == 0
    assert team1.hand_score == getattr(team1, in_score) + bonus
    assert team0.hand_score == getattr(team0, in_score)


def test_keep_thirds_game_end_is_decided_in_thirds() -> None:
    """§4.2.4: with kept thirds a side wins at 3 x target thirds exactly (123 for 41);
    one third short it does not."""
    options = Options(fractions=Fractions.KEEP_THIRDS)
    before, last = last_trick_state(options, 8, 8)
    _, events = rules.apply(before, last)
    s0, s1 = (s.hand_score for s in of_type(events, ev.HandScored)[0].scores)

    exact = with_totals(before, (123 - s0, 0))
    after, events = rules.apply(exact, last)
    assert of_type(events, ev.GameWon) == [ev.GameWon(1, 0, (123, s1))]
    assert after.finished

    short = with_totals(before, (122 - s0, 0))
    after, events = rules.apply(short, last)
    assert not of_type(events, ev.GameWon) and of_type(events, ev.HandDealt)
    assert after.table.totals == (122, s1)


def test_keep_thirds_tie_raises_the_target_by_one_third() -> None:
    """§4.2.4: a tie at total T thirds at or over the target sets effective_target_thirds
    to T + 1 (one third more), not a whole point more."""
    options = Options(fractions=Fractions.KEEP_THIRDS)
    before, last = last_trick_state(options, 8, 8)
    _, events = rules.apply(before, last)
    s0, s1 = (s.hand_score for s in of_type(events, ev.HandScored)[0].scores)
    assert min(s0, s1) >= 3, "the chosen hand must leave both sides under 123 before it"
    tied = with_totals(before, (125 - s0, 125 - s1))
    after, events = rules.apply(tied, last)
    assert of_type(events, ev.TargetRaised) == [ev.TargetRaised(126)]
    assert not of_type(events, ev.GameWon)
    assert after.table.effective_target == 126 and not after.finished


def test_floor_tie_raises_the_target_to_total_plus_1() -> None:
    """§4.2.2 (MF-9): both sides at 42 with target 41 → no winner, target 43."""
    before, last = last_trick_state(Options(), 8, 8)
    _, events = rules.apply(before, last)
    s0, s1 = (s.hand_score for s in of_type(events, ev.HandScored)[0].scores)
    tied = with_totals(before, (42 - s0, 42 - s1))
    after, events = rules.apply(tied, last)
    assert of_type(events, ev.TargetRaised) == [ev.TargetRaised(43)]
    assert after.table.effective_target == 43 and after.table.totals == (42, 42)


# ---------------------------------------------------------------------------- marafona_rule (§3.4)

#: Seat 1 is battezzante and leads trick 1 holding the marafona of hearts (MF-10).
BATTEZZANTE_HOLDS = {"hands": ["", "3H 2H AH 4S 5S 6S 7S 4D 5D 6D", "", ""], "trump": "H"}
#: Seat 3, not the battezzante, holds it and plays third to trick 1 (after KS, 4S).
OTHER_HOLDS = {
    "hands": ["", "", "", "3H 2H AH 4D 5D 6D 7D JD QD KD"],
    "played": "KS 4S",
    "trump": "H",
}


def _declarations(state: State) -> set[str]:
    """The cards listed with declare_marafona = true."""
    return {
        code(m.card) for m in rules.legal_moves(state) if isinstance(m, PlayCard) and m.marafona
    }


def _marafona_state(rule: MarafonaRule, layout_: dict[str, Any], **options: bool) -> State:
    return position(battezzante=1, options=Options(marafona_rule=rule, **options), **layout_)


ALL_TEN = {"3H", "2H", "AH", "4S", "5S", "6S", "7S", "4D", "5D", "6D"}
OTHER_TEN = {"3H", "2H", "AH", "4D", "5D", "6D", "7D", "JD", "QD", "KD"}


@pytest.mark.parametrize(
    ("rule", "battezzante_may", "other_may"),
    [
        # §3.4.1: any holder, on any card he plays to trick 1.
        (MarafonaRule.ANY_HOLDER_FIRST_TRICK, ALL_TEN, OTHER_TEN),
        # §3.4 table: only the battezzante, during trick 1.
        (MarafonaRule.BATTEZZANTE_ONLY, ALL_TEN, set()),
        # Only the battezzante, by leading the trump ace.
        (MarafonaRule.BATTEZZANTE_ACE_LEAD, {"AH"}, set()),
        # No marafona at all.
        (MarafonaRule.OFF, set(), set()),
    ],
)
def test_marafona_rule_decides_who_may_declare(
    rule: MarafonaRule, battezzante_may: set[str], other_may: set[str]
) -> None:
    """§3.4 and its table of `marafona_rule` values: the flag is listed exactly where a
    declaration is valid, and rejected elsewhere (§8)."""
    lead = _marafona_state(rule, BATTEZZANTE_HOLDS)
    assert _declarations(lead) == battezzante_may
    third = _marafona_state(rule, OTHER_HOLDS)
    assert _declarations(third) == other_may
    for state, allowed, hand in ((lead, battezzante_may, ALL_TEN), (third, other_may, OTHER_TEN)):
        for c in sorted(hand - allowed):
            with pytest.raises(IllegalMove):
                do(state, f"play {c} marafona")
        for c in sorted(allowed):
            after, events = do(state, f"play {c} marafona")
            assert events[0] == ev.CardPlayed(state.to_act, card(c), Signal.NONE, True)
            assert after.marafona_seat == state.to_act


def test_marafona_needs_all_three() -> None:
    """MF-10: after seat 1 declares, seat 2 (without 3H 2H AH) may not set the flag."""
    state = _marafona_state(MarafonaRule.ANY_HOLDER_FIRST_TRICK, BATTEZZANTE_HOLDS)
    state, _ = do(state, "play AH marafona")
    assert state.to_act == 2
    assert not _declarations(state)
    for m in rules.legal_moves(state):
        if isinstance(m, PlayCard):
            with pytest.raises(IllegalMove):
                do(state, f"{m} marafona")


def test_marafona_adds_3_points_to_the_declarers_team() -> None:
    """§3.4.2 / §4.1: a declaration by seat 3 (not the battezzante) adds 3 to team {1, 3}."""
    state = _marafona_state(MarafonaRule.ANY_HOLDER_FIRST_TRICK, OTHER_HOLDS)
    state, _ = do(state, "play 4D marafona")
    state = play_until(state, random.Random(3), lambda s: s.table.hand_number == 3)
    team0, team1 = state.table.last_hand
    assert (team0.marafona_bonus, team1.marafona_bonus) == (0, 3)
    assert team1.hand_score == team1.card_points + 3


def test_marafona_is_too_late_in_trick_2() -> None:
    """MF-10: the flag on a trick-2 play is invalid even for the holder."""
    state = position(
        hands=["", "3H 2H AH 4S 5S 6S 4D 5D 6D", "", ""],
        # Seat 1 leads 7S, seats 2, 3, 0 play JS, QS, KS: KS wins, seat 0 leads trick 2.
        played="7S JS QS KS",
        trump="H",
        battezzante=1,
    )
    assert state.to_act == 0
    state, _ = rules.apply(state, rules.legal_moves(state)[0])
    assert state.to_act == 1
    assert not _declarations(state)
    for m in rules.legal_moves(state):
        if isinstance(m, PlayCard):
            with pytest.raises(IllegalMove):
                do(state, f"{m} marafona")


# ------------------------------------------------------------------ marafona_auto_declare (§3.4.3)


def test_auto_declare_lists_only_the_declaring_form() -> None:
    """§3.4.3: with marafona_auto_declare = true only the `true` form is listed where a
    declaration is valid; the other plays are listed as usual."""
    state = _marafona_state(
        MarafonaRule.ANY_HOLDER_FIRST_TRICK, BATTEZZANTE_HOLDS, marafona_auto_declare=True
    )
    plays = [m for m in rules.legal_moves(state) if isinstance(m, PlayCard)]
    assert plays and all(m.marafona for m in plays)
    assert {code(m.card) for m in plays} == ALL_TEN
    # Without the option both forms are listed, false before true (§3.3 order).
    plain = _marafona_state(MarafonaRule.ANY_HOLDER_FIRST_TRICK, BATTEZZANTE_HOLDS)
    assert texts(plain)[:2] == ["play 4S", "play 4S marafona"]


def test_auto_declare_treats_a_submitted_false_as_true() -> None:
    """§3.4.3: a submitted `false` on a play where a declaration is valid is a declaration."""
    state = _marafona_state(
        MarafonaRule.ANY_HOLDER_FIRST_TRICK, BATTEZZANTE_HOLDS, marafona_auto_declare=True
    )
    after, events = do(state, "play 5S")
    assert events == [ev.CardPlayed(1, card("5S"), Signal.NONE, True)]
    assert after.marafona_seat == 1
    # Without the option the same play declares nothing.
    plain = _marafona_state(MarafonaRule.ANY_HOLDER_FIRST_TRICK, BATTEZZANTE_HOLDS)
    after, events = do(plain, "play 5S")
    assert events == [ev.CardPlayed(1, card("5S"), Signal.NONE, False)]
    assert after.marafona_seat == -1


def test_auto_declare_follows_the_marafona_rule() -> None:
    """§3.4.3 with `battezzante_ace_lead`: only leading AH is a valid declaration, so only
    that play is forced to `true`; 3H is listed (and played) without the flag."""
    state = _marafona_state(
        MarafonaRule.BATTEZZANTE_ACE_LEAD, BATTEZZANTE_HOLDS, marafona_auto_declare=True
    )
    listed = texts(state)
    assert "play AH marafona" in listed and "play AH" not in listed
    assert "play 3H" in listed and "play 3H marafona" not in listed
    _, events = do(state, "play AH")
    assert events == [ev.CardPlayed(1, card("AH"), Signal.NONE, True)]
    _, events = do(state, "play 3H")
    assert events == [ev.CardPlayed(1, card("3H"), Signal.NONE, False)]
    # With marafona_rule = off nothing is ever declared (§3.4.3).
    off = _marafona_state(MarafonaRule.OFF, BATTEZZANTE_HOLDS, marafona_auto_declare=True)
    _, events = do(off, "play AH")
    assert events == [ev.CardPlayed(1, card("AH"), Signal.NONE, False)]


# ------------------------------------------------------------------------------- claim_rule (§3.6)

#: MF-8: team {0, 2} has 36, took 1 ace + 10 ⅓-cards (13 thirds) in five tricks and
#: seat 0 declared the marafona; the last trick is not played yet.
CLAIM_HANDS = ["AD 2D 3D 5D 6D", "AS 7D JD QD KD", "AC 2C 3C 4C 5C", "6C 7C JC QC KC"]
CLAIM_PLAYED = "3H 4H 5H 6H 2H 7H JH QH AH KH 4S 5S 3S 6S 7S 2S KS JS QS 4D"


@pytest.mark.parametrize(
    ("options", "totals", "value", "needed", "valid"),
    [
        # default reach_target: 36 + floor(13 / 3) + 3 = 43 ≥ 41
        (Options(), (36, 20), 43, 41, True),
        # strict_one_third: 3·36 + 13 = 121 < 3·41 + 1 = 124, marafona not counted
        (Options(claim_rule=ClaimRule.STRICT_ONE_THIRD), (36, 20), 121, 124, False),
        # keep_thirds: 108 + 13 + 9 = 130 ≥ 123
        (Options(fractions=Fractions.KEEP_THIRDS), (108, 60), 130, 123, True),
    ],
)
def test_claim_rule_values_the_claim(
    options: Options, totals: tuple[int, int], value: int, needed: int, valid: bool
) -> None:
    """§3.6.3-4 (worked example MF-8): a true claim wins the game, a false one loses it."""
    state = position(
        hands=CLAIM_HANDS,
        played=CLAIM_PLAYED,
        trump="H",
        battezzante=0,
        options=options,
        totals=totals,
        marafona_seat=0,
    )
    assert state.to_act == 0 and texts(state)[-1] == "claim"
    after, events = do(state, "claim")
    result = of_type(events, ev.Claimed)[0].result
    assert (result.seat, result.team, result.value, result.needed, result.valid) == (
        0,
        0,
        value,
        needed,
        valid,
    )
    winner = 0 if valid else 1
    assert of_type(events, ev.GameWon)[0].team == winner
    assert after.finished and rules.match_winner(after) == winner


# ---------------------------------------------------------------------------------- signals (§3.5)

NONE_, BUSSO, STRISCIO, VOLO, TAGLIO = (
    Signal.NONE,
    Signal.BUSSO,
    Signal.STRISCIO,
    Signal.VOLO,
    Signal.TAGLIO,
)
FUORI_TUTTO, TAGLIA, RISTRISCIO, BUONA = (
    Signal.FUORI_TUTTO,
    Signal.TAGLIA,
    Signal.RISTRISCIO,
    Signal.BUONA,
)
LEADER_HAND = "KS 5S 4H JH AD 2D 3C 4C 5C 6C"


def _leader(signals: SignalSet, trick: int, checked: bool = False) -> State:
    """Seat 0 leads with trump H: trick 1, or trick 2 after winning 3S 4S 5S 6S."""
    options = Options(signals=signals, signals_checked=checked)
    if trick == 1:
        return position(hands=[LEADER_HAND, "", "", ""], trump="H", options=options)
    return position(
        hands=["5S 4H JH AD 2D 3C 4C 5C 6C", "", "", ""],
        played="3S 4S 6S 7S",
        trump="H",
        options=options,
    )


@pytest.mark.parametrize("trick", [1, 2])
@pytest.mark.parametrize(
    ("signals", "plain_lead", "trump_lead"),
    [
        (SignalSet.NONE, [NONE_], [NONE_]),
        (SignalSet.CORE, [NONE_, BUSSO, STRISCIO, VOLO], [NONE_, BUSSO, STRISCIO, VOLO]),
        (
            SignalSet.EXTENDED,
            [NONE_, BUSSO, STRISCIO, VOLO, TAGLIA, RISTRISCIO, BUONA],
            [NONE_, BUSSO, STRISCIO, VOLO, FUORI_TUTTO, RISTRISCIO, BUONA],
        ),
    ],
)
def test_signals_listed_for_a_leader(
    signals: SignalSet, plain_lead: list[Signal], trump_lead: list[Signal], trick: int
) -> None:
    """§3.5 and §3.3 ("allowed at that point"): `none` lists only NONE; `core` adds
    BUSSO STRISCIO VOLO; `extended` adds FUORI_TUTTO (trump lead only), TAGLIA
    (non-trump lead only), RISTRISCIO, BUONA — unchecked, on any card, in §3.3 order."""
    state = _leader(signals, trick)
    assert signals_listed(state, "5S") == plain_lead
    assert signals_listed(state, "3C") == plain_lead
    assert signals_listed(state, "4H") == trump_lead
    assert signals_listed(state, "JH") == trump_lead
    assert Signal.TAGLIO not in signals_listed(state, "4H")


def test_fuori_tutto_not_listed_after_a_top_trump_fell() -> None:
    """§3.5: FUORI_TUTTO only while none of 3, 2, A of trumps has been played this hand."""
    state = position(
        hands=["KS 5S 5H JH AD 2D 3C 4C 5C", "", "", ""],
        played="3H 4H 6H 7H",
        trump="H",
        options=Options(signals=SignalSet.EXTENDED),
    )
    assert state.to_act == 0
    assert FUORI_TUTTO not in signals_listed(state, "5H")
    with pytest.raises(IllegalMove):
        do(state, "play 5H fuori_tutto")


@pytest.mark.parametrize(
    ("signals", "cut"), [(SignalSet.NONE, [NONE_]), (SignalSet.CORE, [NONE_, TAGLIO])]
)
def test_taglio_listed_for_a_follower_who_cuts(signals: SignalSet, cut: list[Signal]) -> None:
    """§3.5 TAGLIO (core): a non-leader playing a trump while void in a non-trump led
    suit; never on a non-trump card, never with `signals = none`."""
    state = position(
        hands=["", "4H 5H 6H AD 2D 3D 4D 5D 6D 7D", "", ""],
        played="KS",
        trump="H",
        options=Options(signals=signals),
    )
    assert state.to_act == 1
    assert signals_listed(state, "4H") == cut
    assert signals_listed(state, "AD") == [NONE_]


@pytest.mark.parametrize(
    ("signals", "rejected"),
    [
        (SignalSet.NONE, ["busso", "striscio", "volo", "taglia"]),
        (SignalSet.CORE, ["taglia", "ristriscio", "buona"]),
    ],
)
def test_signals_outside_the_enabled_set_are_rejected(
    signals: SignalSet, rejected: list[str]
) -> None:
    """§8: a signal not in the enabled set is an invalid move."""
    state = _leader(signals, 2)
    for word in rejected:
        with pytest.raises(IllegalMove):
            do(state, f"play 5S {word}")


# -------------------------------------------------------------------------- signals_checked (§3.5)


def _mf12(checked: bool) -> State:
    """MF-12: the leader holds 5S, KS, 2C (and only hearts otherwise); trump D."""
    return position(
        hands=["5S KS 2C 4H 5H 6H 7H JH QH KH", "", "", ""],
        trump="D",
        options=Options(signals=SignalSet.EXTENDED, signals_checked=checked),
    )


def test_signals_checked_mf12() -> None:
    """MF-12 (`signals_checked = true`): leading KS, VOLO is false (5S is left), STRISCIO
    true (5S ≤ K), RISTRISCIO false (one spade left), BUSSO valid; 2C with VOLO valid."""
    state = _mf12(checked=True)
    assert signals_listed(state, "KS") == [NONE_, BUSSO, STRISCIO, TAGLIA]
    for word in ("volo", "ristriscio", "buona"):
        with pytest.raises(IllegalMove):
            do(state, f"play KS {word}")
    for word in ("striscio", "busso"):
        do(state, f"play KS {word}")
    assert VOLO in signals_listed(state, "2C")
    do(state, "play 2C volo")


def test_unchecked_signals_may_be_false() -> None:
    """§3.5 default `signals_checked = false`: a wrong signal is just poor play."""
    state = _mf12(checked=False)
    assert signals_listed(state, "KS") == [
        NONE_,
        BUSSO,
        STRISCIO,
        VOLO,
        TAGLIA,
        RISTRISCIO,
        BUONA,
    ]
    _, events = do(state, "play KS volo")
    assert events == [ev.CardPlayed(0, card("KS"), VOLO, False)]


def test_signals_checked_buona_and_fuori_tutto() -> None:
    """§3.5 truth conditions: BUONA holds when every stronger card of the suit has fallen
    or is in the leader's own hand; FUORI_TUTTO when the leader holds none of 3, 2, A
    of trumps and does not lead one."""
    options = Options(signals=SignalSet.EXTENDED, signals_checked=True)
    state = position(
        hands=["3S 2S 7S 4D 5D 4H 5H 6H 7H JH", "", "", ""], trump="D", options=options
    )
    assert BUONA in signals_listed(state, "2S")  # only 3S is stronger, and it is his
    assert BUONA in signals_listed(state, "3S")
    assert BUONA not in signals_listed(state, "7S")  # AS, KS, … are elsewhere
    assert FUORI_TUTTO in signals_listed(state, "4D")
    holding = position(
        hands=["AD 4D 7S 4H 5H 6H 7H JH QH KH", "", "", ""], trump="D", options=options
    )
    assert FUORI_TUTTO not in signals_listed(holding, "4D")
    assert FUORI_TUTTO not in signals_listed(holding, "AD")
    with pytest.raises(IllegalMove):
        do(holding, "play 4D fuori_tutto")


# ----------------------------------------------------------------------- redeal_weak_hand (§3.2.4)

WEAK = "AS 4D 5D 6C 7C 4H 5H 6S 7S 5C"  # MF-7: 3 thirds
NOT_WEAK = "JS QS KD 2H 4D 5D 6C 7C 4H 5H"  # MF-7: 4 thirds


def _trump_phase(hand: str, redeal: bool, seed: int = 0) -> State:
    return position(
        hands=["", hand, "", ""],
        battezzante=1,
        hand_number=3,
        options=Options(redeal_weak_hand=redeal),
        seed=seed,
    )


def test_redeal_eligibility_mf7() -> None:
    """MF-7 / §3.2.4: REQUEST_REDEAL is listed (after the four DECLARE_TRUMP, before
    CLAIM) only with the option on and a battezzante's hand under 4 thirds."""
    assert texts(_trump_phase(WEAK, True)) == [
        "trump S",
        "trump H",
        "trump D",
        "trump C",
        "redeal",
        "claim",
    ]
    for state in (_trump_phase(NOT_WEAK, True), _trump_phase(WEAK, False)):
        assert "redeal" not in texts(state)
        with pytest.raises(IllegalMove):
            rules.apply(state, REDEAL)


def test_redeal_after_trump_is_rejected() -> None:
    state, _ = do(_trump_phase(WEAK, True), "trump H")
    with pytest.raises(IllegalMove):
        rules.apply(state, REDEAL)


def test_redeal_in_a_later_hand() -> None:
    """§3.2.4: the same dealer deals again with the next shuffle of the generator; from
    hand 2 on the battezzante is again next(dealer); the request is public (§7.2)."""
    state = _trump_phase(WEAK, True, seed=777)
    table = state.table
    assert (table.dealer, table.battezzante, table.counter) == (0, 1, 1)
    after, events = rules.apply(state, REDEAL)
    assert events == [ev.RedealRequested(1), ev.HandDealt(1, 3, 0, 1)]
    hands, _ = layout(777, 1, 0, 4)
    assert hand_sets(after) == hands
    t = after.table
    assert (t.dealer, t.battezzante, t.hand_number, t.counter) == (0, 1, 3, 2)
    assert after.phase is Phase.TRUMP and after.to_act == 1 and after.trump == -1
    for seat in range(4):
        assert view(after, seat).table.redeal_requests == (1,)


def test_redeals_have_no_limit() -> None:
    """§3.2.4 / §9.6: unlimited redeals; each uses the generator's next draw, and every
    request stays on record for the hand."""
    for seed in range(5000):
        state, _ = rules.apply(_trump_phase(WEAK, True, seed=seed), REDEAL)
        if REDEAL in rules.legal_moves(state):
            break
    else:
        pytest.fail("no seed deals a second weak hand")
    after, events = rules.apply(state, REDEAL)
    assert events == [ev.RedealRequested(1), ev.HandDealt(1, 3, 0, 1)]
    assert after.table.redeal_requests == (1, 1)
    assert after.table.counter == 3
    hands, _ = layout(seed, 2, 0, 4)
    assert hand_sets(after) == hands


def test_redeal_in_hand_1_uses_the_4d_rule() -> None:
    """§3.2.4 + §3.2.1: in hand 1 the battezzante after a redeal is the new holder of 4D,
    which may be another seat; the dealer stays, the generator moves to its next draw."""
    options = Options(redeal_weak_hand=True)
    for seed in range(2000):
        state, _ = rules.deal(options, 4, seed)
        if REDEAL not in rules.legal_moves(state):
            continue
        after, events = rules.apply(state, REDEAL)
        if after.table.battezzante != state.table.battezzante:
            break
    else:
        pytest.fail("no seed with a redeal that moves the battezzante")
    old = state.table
    assert old.counter == 2  # draw 1 dealt hand 1
    hands, _ = layout(seed, 2, old.dealer, 4)
    assert hand_sets(after) == hands
    holder = next(s for s in range(4) if card("4D") in hands[s])
    assert events == [
        ev.RedealRequested(old.battezzante),
        ev.HandDealt(1, 1, old.dealer, holder),
    ]
    t = after.table
    assert (t.dealer, t.battezzante, t.hand_number, t.counter) == (old.dealer, holder, 1, 3)
    assert after.to_act == holder


# ----------------------------------------------------------------------------------- series (§4.3)


def _series_match(options: Options) -> tuple[State, list[tuple[ev.Event, State]]]:
    """The first seeded match that reaches a third game (1-1); its events and states."""
    for seed in range(200):
        state, dealt = rules.deal(options, 4, seed)
        log: list[tuple[ev.Event, State]] = [(e, state) for e in dealt]
        for _, _, events, after in steps(state, random.Random(seed)):
            log.extend((e, after) for e in events)
            state = after
        if sum(state.table.games_won) == 3:
            return state, log
    pytest.fail("no seed reaches la bella")


def test_best_of_three_with_bella_target() -> None:
    """§4.3: two games; after 1-1 a third game (la bella) played to `bella_target`. Each
    game restarts at hand 1 (the 4D rule), dealt by next(previous game's last dealer)."""
    options = Options(target=5, series=Series.BEST_OF_THREE, bella_target=15)
    final, log = _series_match(options)
    games = [e for e, _ in log if isinstance(e, ev.GameWon)]
    assert [g.game_number for g in games] == [1, 2, 3]
    assert {games[0].team, games[1].team} == {0, 1}
    assert [e for e, _ in log if isinstance(e, ev.MatchWon)] == [
        ev.MatchWon(games[2].team, final.table.games_won)
    ]
    assert sorted(final.table.games_won) == [1, 2]
    assert rules.match_winner(final) == games[2].team

    game, last_dealer = 1, None
    bella: list[ev.HandScored] = []
    for i, (e, _) in enumerate(log):
        if isinstance(e, ev.HandDealt):
            assert e.game_number == game
            last_dealer = e.dealer
        elif isinstance(e, ev.HandScored) and game == 3:
            bella.append(e)
        elif isinstance(e, ev.GameWon) and game < 3:
            # The next game follows at once: hand 1, dealt by next(last dealer), the
            # battezzante by the 4D rule, totals back to 0, the target of that game.
            game += 1
            new, after = log[i + 1]
            holder = next(s for s in range(4) if card("4D") in cards_of(after.hands[s]))
            assert new == ev.HandDealt(game, 1, (last_dealer + 1) % 4, holder)
            assert after.table.totals == (0, 0) and after.table.hand_number == 1
            assert after.table.effective_target == (15 if game == 3 else 5)
            assert after.table.game_number == game
    # La bella is played to 15: hands that leave a side at 5..14 do not end it.
    assert len(bella) >= 2
    assert all(5 <= max(h.totals) < 15 for h in bella[:-1])
    assert max(bella[-1].totals) >= 15


def test_single_series_ends_after_one_game() -> None:
    """§4.3 default `series = single`: the match is one game."""
    state, _ = rules.deal(Options(target=5), 4, 3)
    state, events = play_out(state, random.Random(3))
    assert len(of_type(events, ev.GameWon)) == 1 and len(of_type(events, ev.MatchWon)) == 1


def test_bella_target_defaults_to_target() -> None:
    """§5: `bella_target` defaults to `target`."""
    final, log = _series_match(Options(target=5, series=Series.BEST_OF_THREE))
    third = next(s for e, s in log if isinstance(e, ev.HandDealt) and e.game_number == 3)
    assert third.table.effective_target == 5
    assert final.finished


# ----------------------------------------------------------------- two_player_must_follow (§2.3.5)


def _follower_with_choice(options: Options, stock: bool, seed: int) -> State:
    """A 2-player position where the follower holds the led suit and another suit."""

    def ok(s: State) -> bool:
        if s.phase is not Phase.PLAY or len(s.played) % 2 == 0 or bool(s.stock) != stock:
            return False
        led = code(s.played[-1])[1]
        mine = [code(c)[1] for c in cards_of(s.hands[s.to_act])]
        return led in mine and any(x != led for x in mine)

    for chooser in range(50):
        state, _ = rules.deal(options, 2, seed)
        try:
            return play_until(state, random.Random(chooser), ok, limit=300)
        except AssertionError:
            continue
    pytest.fail("situation not found")


@pytest.mark.parametrize("must_follow", [True, False])
def test_two_player_must_follow_while_the_stock_lasts(must_follow: bool) -> None:
    """§2.3.5: with `two_player_must_follow = false` off-suit plays are allowed while the
    stock is not empty; with the default `true` the led suit must be followed."""
    options = Options(two_player_must_follow=must_follow)
    state = _follower_with_choice(options, stock=True, seed=4)
    led = code(state.played[-1])[1]
    hand = [code(c) for c in cards_of(state.hands[state.to_act])]
    off_suit = [c for c in hand if c[1] != led]
    listed = {m.removeprefix("play ") for m in texts(state) if m != "claim"}
    if must_follow:
        assert listed == {c for c in hand if c[1] == led}
        with pytest.raises(IllegalMove):
            do(state, f"play {off_suit[0]}")
    else:
        assert listed == set(hand)
        do(state, f"play {off_suit[0]}")


def test_two_player_must_follow_false_ends_with_the_stock() -> None:
    """§2.3.5: once the stock is empty suit must be followed, whatever the option."""
    options = Options(two_player_must_follow=False)
    state = _follower_with_choice(options, stock=False, seed=4)
    led = code(state.played[-1])[1]
    hand = [code(c) for c in cards_of(state.hands[state.to_act])]
    listed = {m.removeprefix("play ") for m in texts(state) if m != "claim"}
    assert listed == {c for c in hand if c[1] == led}
    with pytest.raises(IllegalMove):
        do(state, f"play {next(c for c in hand if c[1] != led)}")


# ------------------------------------------------------------------------------- dummy_seat (§2.2)


@pytest.mark.parametrize("dummy", [0, 1, 2, 3])
def test_dummy_seat_and_its_controller(dummy: int) -> None:
    """§2.2.1-3, §7.1: the dummy's controller is (dummy_seat + 2) mod 4 and sees the
    dummy's hand; the pair never does; the view of the dummy seat is the controller's."""
    controller = (dummy + 2) % 4
    options = Options() if dummy == 2 else Options(dummy_seat=dummy)
    state, _ = rules.deal(options, 3, 40 + dummy)
    assert state.table.seats == 4 and len(state.hands) == 4
    dummy_cards = cards_of(state.hands[dummy])
    own = view(state, controller)
    assert own.dummy_seat == dummy
    assert own.dummy_hand == dummy_cards and len(dummy_cards) == 10
    assert own.hand == cards_of(state.hands[controller])
    for seat in ((dummy + 1) % 4, (dummy + 3) % 4):
        pair = view(state, seat)
        assert pair.dummy_hand == ()
        assert pair.hand == cards_of(state.hands[seat])
    as_dummy = view(state, dummy)
    assert as_dummy.hand == own.hand and as_dummy.dummy_hand == own.dummy_hand
    # Everything else is the controller's view too; only `seat` differs, as it echoes the
    # requested seat (proto GameView.seat: "the seat this view is for").
    assert as_dummy._replace(seat=controller) == own
    # §2.2.2: when the dummy is to act its moves are its own cards, which the controller
    # sees (the referee asks the controller's bot).
    state = play_until(
        state,
        random.Random(dummy),
        lambda s: s.phase is Phase.PLAY and s.to_act == dummy and len(s.played) > 4,
    )
    plays = {m.card for m in rules.legal_moves(state) if isinstance(m, PlayCard)}
    assert plays and plays <= set(view(state, controller).dummy_hand)
    assert view(state, dummy).dummy_hand == cards_of(state.hands[dummy])


def test_dummy_hand_hidden_when_the_controller_is_battezzante() -> None:
    """§3.2.3 / §2.2.3: from hand 2, in the trump phase, if the battezzante is the
    controller the dummy's hand is hidden from him; if the battezzante is the dummy the
    controller sees the dummy's hand but not his own. After trump both are visible."""
    by_controller = position(hands=["", "", "", ""], battezzante=0, players=3)
    v = view(by_controller, 0)
    assert v.hand == cards_of(by_controller.hands[0]) and v.dummy_hand == ()
    by_dummy = position(hands=["", "", "", ""], battezzante=2, players=3)
    v = view(by_dummy, 0)
    assert v.hand == () and v.hand_hidden
    assert v.dummy_hand == cards_of(by_dummy.hands[2])
    after, _ = do(by_dummy, "trump S")
    v = view(after, 0)
    assert v.hand == cards_of(after.hands[0]) and v.dummy_hand == cards_of(after.hands[2])


def test_dummy_seat_out_of_range_is_rejected() -> None:
    with pytest.raises(InvalidArgument):
        rules.deal(Options(dummy_seat=4), 3, 1)


# ---------------------------------------------------------------------- first_dealer (README §2.6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_dealer_option_fixes_the_dealer(players: int) -> None:
    """§5 `first_dealer`: 0 … seats - 1 (4 seats with 3 players); it deals hand 1 (§3.1)."""
    seats = 2 if players == 2 else 4
    for dealer in range(seats):
        state, events = rules.deal(Options(first_dealer=dealer), players, 99)
        assert events[0].dealer == dealer and state.table.dealer == dealer
        hands, stock = layout(99, 1, dealer, seats)
        assert hand_sets(state) == hands
        assert list(state.stock) == stock
    with pytest.raises(InvalidArgument):
        rules.deal(Options(first_dealer=seats), players, 99)


@pytest.mark.parametrize("players", [2, 4])
def test_first_dealer_chosen_by_the_seed(players: int) -> None:
    """README §2.6: without `first_dealer` the seed chooses the dealer uniformly among
    the seats (draw 0 of the generator below the number of seats)."""
    seats = 2 if players == 2 else 4
    counts: Counter[int] = Counter()
    for seed in range(400):
        state, events = rules.deal(Options(), players, seed)
        assert events[0].dealer == draw_below(seed, 0, seats) == state.table.dealer
        counts[state.table.dealer] += 1
    assert set(counts) == set(range(seats))
    assert min(counts.values()) > 400 / seats * 0.7


# ------------------------------------------------------------------------------ two players (§2.3)


def test_two_player_deal() -> None:
    """§3.1: 2 seats: d[0..4] → p1, d[5..9] → dealer, d[10..14] → p1, d[15..19] → dealer;
    the stock is d[20..39], top d[20]."""
    state, _ = rules.deal(Options(first_dealer=1), 2, 12)
    d = shuffled(DECK, 12, 1)
    assert set(cards_of(state.hands[0])) == set(d[0:5] + d[10:15])
    assert set(cards_of(state.hands[1])) == set(d[5:10] + d[15:20])
    assert state.stock == tuple(d[20:])
    assert view(state, 0).stock_size == view(state, 1).stock_size == 20


def test_two_player_draws_are_public() -> None:
    """§2.3.2, §7.4: after each trick while the stock lasts the winner takes the top card,
    then the loser the next; both are CardDrawn events and shown in both views."""
    state, _ = rules.deal(Options(), 2, 21)
    drawn: list[int] = []
    tricks = 0
    for before, _, events, after in steps(state, random.Random(21)):
        won = of_type(events, ev.TrickWon)
        if not won:
            continue
        tricks += 1
        winner = won[0].seat
        draws = of_type(events, ev.CardDrawn)
        if tricks == 20:  # the hand is over and the next one is dealt
            assert draws == []
            break
        if tricks <= 10:
            assert draws == [
                ev.CardDrawn(winner, before.stock[0]),
                ev.CardDrawn(1 - winner, before.stock[1]),
            ]
            drawn += [before.stock[0], before.stock[1]]
            assert after.stock == before.stock[2:]
            assert all(h.bit_count() == 10 for h in after.hands)
        else:
            assert draws == [] and after.stock == ()
            assert all(h.bit_count() == 20 - tricks for h in after.hands)
        assert after.drawn == tuple(drawn)
        for seat in (0, 1):
            v = view(after, seat)
            assert v.drawn == tuple(drawn)
            assert v.stock_size == len(after.stock)
            assert v.hand == cards_of(after.hands[seat])
    assert tricks == 20


def test_two_player_hand_has_20_tricks_and_the_last_trick_bonus_on_20() -> None:
    """§2.3.3: a hand has 20 tricks; the last-trick bonus (3 thirds) goes to the winner
    of trick 20, and to no other trick."""
    state, _ = rules.deal(Options(), 2, 30)
    won: list[ev.TrickWon] = []
    for _, _, events, _ in steps(state, random.Random(30)):
        for e in of_type(events, ev.TrickWon):
            won.append(e)
        scored = of_type(events, ev.HandScored)
        if scored:
            break
    assert [e.trick for e in won] == list(range(1, 21))
    assert won[9].trick == 10
    last_team = won[19].seat
    scores = scored[0].scores
    assert scores[last_team].last_trick == 1 and scores[1 - last_team].last_trick == 0
    # Trick thirds add up to the hand's 35 with the bonus on trick 20 only.
    assert sum(e.thirds for e in won) == 35
    assert sum(s.thirds for s in scores) == 35


def test_two_player_trick_thirds_include_the_bonus_only_on_trick_20() -> None:
    """§2.3.3: trick 10 is not the last trick in the 2-player form; trick 20 is (TrickWon
    thirds are the trick's cards, plus 3 on the last trick only)."""
    state, _ = rules.deal(Options(), 2, 30)
    rnd = random.Random(30)
    for target_trick in (10, 20):
        state = play_until(state, rnd, lambda s, k=target_trick: len(s.played) == 2 * k - 1)
        trick = state.played[-1:]
        move = choose(rnd, state)
        after, events = rules.apply(state, move)
        played_cards = (*trick, move.card)  # type: ignore[attr-defined]
        thirds = sum(THIRDS[code(c)[0]] for c in played_cards)
        bonus = 3 if target_trick == 20 else 0
        assert of_type(events, ev.TrickWon)[0].thirds == thirds + bonus
        state = after


def test_two_player_battezzante_when_4d_is_in_the_stock() -> None:
    """§2.3.4: first hand: the holder of 4D if it was dealt, otherwise next(dealer)."""
    in_stock = dealt_to_dealer = None
    for seed in range(100):
        state, _ = rules.deal(Options(), 2, seed)
        if card("4D") in state.stock and in_stock is None:
            in_stock = state
        if card("4D") in cards_of(state.hands[state.table.dealer]):
            dealt_to_dealer = dealt_to_dealer or state
    assert in_stock is not None and dealt_to_dealer is not None
    assert in_stock.table.battezzante == (in_stock.table.dealer + 1) % 2
    assert in_stock.to_act == in_stock.table.battezzante
    # When the dealer holds 4D he is battezzante himself, not next(dealer).
    assert dealt_to_dealer.table.battezzante == dealt_to_dealer.table.dealer


def test_two_player_signals_are_none_only() -> None:
    """§2.3.6: signals are disabled with two players, whatever the `signals` option."""
    state, _ = rules.deal(Options(signals=SignalSet.EXTENDED), 2, 6)
    state, _ = do(state, "trump H")
    plays = [m for m in rules.legal_moves(state) if isinstance(m, PlayCard)]
    assert plays and all(m.signal is Signal.NONE for m in plays)
    first = code(plays[0].card)
    with pytest.raises(IllegalMove):
        do(state, f"play {first} busso")


def test_two_player_no_hiding_in_later_hands() -> None:
    """§2.3.6 / §3.2.3: in the 2-player form the battezzante sees his cards in hand 2+."""
    state, _ = rules.deal(Options(), 2, 8)
    state = play_until(state, random.Random(8), lambda s: s.table.hand_number == 2)
    assert state.phase is Phase.TRUMP
    for seat in (0, 1):
        v = view(state, seat)
        assert not v.hand_hidden and v.hand == cards_of(state.hands[seat])
    assert state.table.battezzante == (state.table.dealer + 1) % 2
    # The drawn list is per hand (§8 state fields): empty again in the new hand.
    assert view(state, 0).drawn == view(state, 1).drawn == ()


def test_all_cards_named() -> None:
    """A guard on this file's fixtures: MF-8's position names all 40 cards."""
    named = [c for h in CLAIM_HANDS for c in cards(h)] + list(cards(CLAIM_PLAYED))
    assert sorted(named) == sorted(DECK)
