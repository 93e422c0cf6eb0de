"""Rules of burraco.md that the worked examples do not reach: the deal and the dealer
(§2.2), the end of the match (§4.3), the 3-player phases and pairs (§2.4), the
pinella turned natural (§3.2), closing after a pick-up (§3.5) and what a view shows
of the running score (§7.7)."""

from __future__ import annotations

from collections.abc import Iterable

from mazzo.core.cards import cards, code
from mazzo.core.shuffle import draw_below
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco.game import RULES
from mazzo.games.burraco.moves import DRAW, parse
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.positions import position
from mazzo.games.burraco.state import Stage, State
from mazzo.games.burraco.view import view
from tests.burraco import oracle


def run(state: State, moves: Iterable[str]) -> tuple[State, list[ev.Event]]:
    events: list[ev.Event] = []
    for text in moves:
        state, caused = rules.apply(state, parse(text))
        events.extend(caused)
    return state, events


def of_type(events: Iterable[ev.Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def last_turn(totals: tuple[int, ...], options: Options, players: int = 2, **kw: object) -> State:
    """Seat 0 on the last turn of a hand (stock 3, draw leaves 2) with given match totals;
    nobody has melded, so each side scores minus its cards and minus 100."""
    return position(
        hands=["5C 6C", *[None] * (players - 1)],
        stage=Stage.ACQUIRE,
        to_act=0,
        stock="6D 6H 6S",
        options=options,
        totals=totals,
        **kw,  # type: ignore[arg-type]
    )


def end_of_hand(state: State) -> tuple[State, list[ev.Event]]:
    return run(state, ["draw", "discard 6D"])


# --------------------------------------------------------------------------- §2.2 the deal


def test_first_dealer_from_the_seed_and_first_player_on_his_left() -> None:
    """§2.2: the first dealer is draw 0 of the seed; the first player is next(dealer)."""
    for players in (2, 3, 4):
        for seed in range(5):
            state, (dealt,) = rules.deal(Options(), players, seed)
            assert isinstance(dealt, ev.HandDealt)
            assert dealt.dealer == draw_below(seed, 0, players) == state.table.dealer
            assert state.to_act == (dealt.dealer + 1) % players
            fixed, _ = rules.deal(Options(first_dealer=players - 1), players, seed)
            assert fixed.table.dealer == players - 1 and fixed.to_act == 0


def test_the_deal_passes_to_the_left_and_each_hand_has_a_new_shuffle() -> None:
    """§2.2.2: after a hand the deal passes to next(dealer); each deal uses the next draw."""
    state = last_turn((0, 0), Options(target=5000), dealer=1)
    after, events = end_of_hand(state)
    (dealt,) = of_type(events, ev.HandDealt)
    assert dealt.dealer == 0 and dealt.hand_number == 2
    assert after.table.counter == state.table.counter + 1 and after.to_act == 1


# --------------------------------------------------------------------------- §4.3 the match


def test_reaching_the_target_ends_the_match_with_the_higher_total() -> None:
    options = Options(target=1000)
    after, events = end_of_hand(last_turn((1200, 300), options))
    (ended,) = of_type(events, ev.MatchEnded)
    assert ended.winners == (0,) and after.finished and rules.legal_moves(after) == ()
    report = RULES.score(after)
    assert report.finished and report.winners == (0,)
    assert report.sides[0].detail.current_hand == after.table.last_hand[0]


def tied_after_the_hand(base: int, options: Options, **kw: object) -> State:
    """A 2-player last turn whose totals tie after the hand: seat 0 keeps 5C 6C (-10) and
    no pozzetto (-100); seat 1 keeps its 11 cards (their §1.2 values) and no pozzetto."""
    probe = last_turn((0, 0), options, **kw)
    seat1 = -sum(oracle.value(code(c)) for c in probe.hands[1]) - 100
    return last_turn((base - (-110), base - seat1), options, **kw)


def test_a_tie_at_the_target_plays_another_hand() -> None:
    """§4.3.2: equal totals at or over the target: another hand."""
    after, events = end_of_hand(tied_after_the_hand(1100, Options(target=1000)))
    scored = of_type(events, ev.HandScored)[0]
    assert scored.totals[0] == scored.totals[1] >= 1000
    assert not of_type(events, ev.MatchEnded) and after.stage is Stage.ACQUIRE


def test_exactly_n_hands_and_a_tie_is_a_draw() -> None:
    """§4.3.3: with hands = N the match ends after hand N; equal totals: no winner."""
    state = tied_after_the_hand(40, Options(hands=3), hand_number=3)
    after, events = end_of_hand(state)
    (ended,) = of_type(events, ev.MatchEnded)
    scored = of_type(events, ev.HandScored)[0]
    assert scored.totals[0] == scored.totals[1] and ended.winners == ()
    assert after.finished and RULES.score(after).winners == ()


def test_the_safeguard_ends_a_match_that_never_reaches_the_target() -> None:
    """§4.3.4: with hands = 0 the match also ends after max_hands hands."""
    after, events = end_of_hand(last_turn((-500, -300), Options(max_hands=4), hand_number=4))
    (ended,) = of_type(events, ev.MatchEnded)
    assert ended.winners == (1,) and after.finished


# --------------------------------------------------------------------------- §2.4 three players


def test_three_player_phase_switch_at_1000() -> None:
    """§2.4.5: once a total reaches 1000 the next hands have three pozzetti of 11 and no
    pairs; the match then ends at 1505, not at the target."""
    options = Options(target=1100)
    after, events = end_of_hand(last_turn((1150, 0, 0), options, players=3))
    assert of_type(events, ev.PhaseChanged) == [ev.PhaseChanged(True)]
    assert not of_type(events, ev.MatchEnded), "with the switch the target is 1505"
    assert after.table.three_pozzetti
    assert [len(p) for p in after.pozzetti] == [11, 11, 11] and len(after.stock) == 41
    assert after.solo == -1


def test_without_the_switch_three_players_play_to_the_target() -> None:
    options = Options(target=1100, three_player_phase_switch=False)
    after, events = end_of_hand(last_turn((1300, 0, 0), options, players=3))
    assert not of_type(events, ev.PhaseChanged)
    assert of_type(events, ev.MatchEnded) and after.finished


def test_in_the_three_pozzetti_phase_taking_p1_forms_no_pair() -> None:
    """§2.4.5: everyone plays for himself; a con-lo-scarto pozzetto unlocks at the owner's turn."""
    state = position(
        hands=["5S 6S KD", None, None],
        stage=Stage.ACQUIRE,
        stock="7S 8D 9D KS QS JS",
        pile="QC",
        three_pozzetti=True,
        hand_number=2,
        totals=(1010, 0, 0),
    )
    after, events = run(state, ["draw", "meld 5S 6S 7S", "discard KD"])
    assert not of_type(events, ev.PairFormed) and after.solo == -1
    for seat in (1, 2):
        assert view(after, 0).hand_hidden
        after, _ = rules.apply(after, DRAW)
        after, events = run(after, [f"discard {code(after.hands[seat][0])}"])
    assert of_type(events, ev.PozzettoUnlocked) == [ev.PozzettoUnlocked(0)]


def test_three_player_pair_lays_off_on_each_other_and_the_solo_unlocks_at_his_turn() -> None:
    """§2.4.3: the first to empty his hand takes P1 (18) and plays alone; the other two
    become partners and may lay off on each other's melds; the solo player has no partner,
    so his pozzetto taken con lo scarto is his at his next turn."""
    state = position(
        hands=["5S 6S KD", "7D 8D 9H", "4C 9C 9S"],
        melds=[(2, "4D 5D 6D")],
        stage=Stage.ACQUIRE,
        stock="7S 8C 3H KS QS JS",
        pile="QC",
    )
    assert "layoff 0 7D" not in [str(m) for m in rules.legal_moves(rules.apply(state, DRAW)[0])]
    after, events = run(state, ["draw", "meld 5S 6S 7S", "discard KD"])
    assert of_type(events, ev.PairFormed) == [ev.PairFormed(0, (1, 2))]
    assert of_type(events, ev.PozzettoTaken) == [ev.PozzettoTaken(0, 0, 18, False)]
    assert after.solo == 0 and view(after, 0).hand_hidden
    after, _ = rules.apply(after, DRAW)
    assert "layoff 0 7D" in [str(m) for m in rules.legal_moves(after)]
    after, events = run(after, ["layoff 0 7D", "discard 9H"])
    assert view(after, 0).hand_hidden, "seat 2 has not played yet"
    after, events = run(after, ["draw", "discard 9S"])
    assert of_type(events, ev.PozzettoUnlocked) == [ev.PozzettoUnlocked(0)]
    assert after.to_act == 0 and not view(after, 0).hand_hidden


# --------------------------------------------------------------------------- §3.2, §3.5, §7.7


def test_a_pinella_turns_natural_when_a_joker_joins() -> None:
    """§3.2: 2H is the wild of 2H 4H 5H (free, read at the high end, §7.3); with JK laid
    off, 2H is the natural 2 and the JK, standing for 3H, is the one wild."""
    state = position(hands=["JK KD QD", None, None, None], melds=[(0, "2H 4H 5H")], pile="9C")
    before = view(state, 0).melds[0]
    assert before.wild == cards("2H")[0] and before.wild_position == 6
    after, _ = run(state, ["layoff 0 JK"])
    meld = view(after, 0).melds[0]
    assert meld.wild == cards("JK")[0] and meld.wild_position == 3 and meld.low == 2


def test_closing_after_a_pick_up_is_an_ordinary_closing() -> None:
    """§3.5: "chiusura al monte" scores +100 like any closing."""
    state = position(
        hands=["4S 7S", None, None, None],
        melds=[(2, "AD 2D 3D 4D 5D 6D 7D")],
        stage=Stage.ACQUIRE,
        pile="5S 6S",
        takers=[2],
    )
    _, events = run(state, ["pickup", "meld 4S 5S 6S", "discard 7S"])
    assert of_type(events, ev.Closed) == [ev.Closed(0)]
    assert of_type(events, ev.HandScored)[0].scores[0].closing == 100


def test_a_view_shows_only_the_public_part_of_the_running_score() -> None:
    """§7.7: melded values and burraco bonuses per side, nothing that depends on hands."""
    state = position(
        hands=["KD QD", None, None, None], melds=[(0, "AD 2D 3D 4D 5D 6D 7D")], pile="9C"
    )
    for seat in range(4):
        shown = view(state, seat).public_scores
        assert [(s.seats, s.melded, s.bonuses) for s in shown] == [
            ((0, 2), 15 + 20 + 25, 200),
            ((1, 3), 0, 0),
        ]
        assert not any(hasattr(s, "in_hand") for s in shown)
