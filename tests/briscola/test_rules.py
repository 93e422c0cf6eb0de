"""The rules of briscola.md §1-§4, one by one: the pack, the deal, trick winners, the
draws, the hand's result and the match."""

from __future__ import annotations

import random

import pytest

from mazzo.core.cards import card, cards, codes
from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.games.briscola import events as ev
from mazzo.games.briscola import rules
from mazzo.games.briscola.cards import DECK, POINTS, STRENGTH, deck_of, winning_index
from mazzo.games.briscola.game import RULES
from mazzo.games.briscola.moves import parse, play
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import NO_SIDE, Phase
from mazzo.games.briscola.tricks import hand_winner
from tests.briscola.helpers import dealt, lay, play_first, random_play


def test_the_pack_holds_120_points_in_the_documented_order() -> None:
    assert len(DECK) == 40 and sum(POINTS[c] for c in DECK) == 120
    order = sorted(cards("2S 4S 5S 6S 7S JS QS KS 3S AS"), key=STRENGTH.__getitem__)
    assert codes(order) == "2S 4S 5S 6S 7S JS QS KS 3S AS"
    assert [POINTS[c] for c in cards("AH 3H KH QH JH 7H 2H")] == [11, 10, 4, 3, 2, 0, 0]
    three = deck_of(3, card("2C"))
    assert len(three) == 39 and card("2C") not in three and sum(POINTS[c] for c in three) == 120


@pytest.mark.parametrize(
    ("plays", "winner", "points"),
    [
        ("KS 3S", 1, 14),
        ("3S AS", 1, 21),
        ("AS 2C", 1, 11),
        ("7H AS", 0, 11),
        ("2H 4C JC 3H", 2, 12),
        ("6D 5D 7H AD", 3, 11),
        ("4C 3C KC AC", 3, 25),
    ],
)
def test_br1_trick_winners(plays: str, winner: int, points: int) -> None:
    """BR-1 (trump C): the highest trump, else the highest card of the suit led."""
    trick = cards(plays)
    assert winning_index(trick, 3) == winner
    assert sum(POINTS[c] for c in trick) == points


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_three_cards_each_then_the_trump_card_under_the_stock(players: int) -> None:
    state, events = rules.deal(Options(first_dealer=1), players, 5)
    dealer = 1
    assert state.to_act == (dealer + 1) % players
    assert all(len(h) == 3 for h in state.hands)
    assert len(state.stock) == {2: 34, 3: 30, 4: 28}[players]
    assert state.stock[-1] == state.trump_card
    assert events == [ev.HandDealt(1, dealer, (dealer + 1) % players, state.trump_card)]
    held = [c for h in state.hands for c in h]
    assert sorted(held + list(state.stock)) == sorted(deck_of(players, card("2C")))


def test_first_dealer_by_the_seed_is_draw_zero() -> None:
    from mazzo.core.shuffle import draw_below

    for seed in range(20):
        for players in (2, 3, 4):
            assert dealt(players, seed).table.dealer == draw_below(seed, 0, players)


def test_any_card_may_be_played_no_need_to_follow_suit() -> None:
    state = lay(2, "AS 7H 2D 3S KC 4D 5C")  # seat 1 leads; clubs are trumps
    state = rules.apply(state, play(card("7H")))[0]
    assert codes(m.card for m in RULES.legal_moves(state)) == "3S 4D KC"
    for c in cards("3S 4D KC"):
        rules.apply(state, play(c))  # each accepted


def test_drawing_order_winner_first_and_the_trump_card_last() -> None:
    """§3.4: the winner draws first; with four players the last round ends with
    prev(winner) taking the face-up card (BR-7)."""
    state = dealt(4, 3)
    rng = random.Random(3)
    for trick in range(1, 8):
        stock = state.stock
        for _ in range(4):
            state, events = rules.apply(state, rng.choice(rules.legal_moves(state)))
        won = next(e for e in events if isinstance(e, ev.TrickWon))
        draws = [e for e in events if isinstance(e, ev.Drew | ev.TrumpCardTaken)]
        assert [e.seat for e in draws] == [(won.seat + i) % 4 for i in range(4)]
        for i, e in enumerate(draws):
            assert stock[i] in state.hands[e.seat]
        if trick < 7:
            assert all(isinstance(e, ev.Drew) for e in draws)
        else:
            assert draws[-1] == ev.TrumpCardTaken((won.seat - 1) % 4, state.trump_card)
            assert not state.stock
    state, events = rules.apply(state, rules.legal_moves(state)[0])
    assert not any(isinstance(e, ev.Drew) for e in events)


def test_br7_two_players_the_loser_of_trick_17_takes_the_trump_card() -> None:
    state = random_play(dealt(2, 8), 32, random.Random(8))  # 16 tricks
    assert len(state.stock) == 2
    x = state.stock[0]
    state, events = rules.apply(state, rules.legal_moves(state)[0])
    state, events = rules.apply(state, rules.legal_moves(state)[0])
    winner = next(e.seat for e in events if isinstance(e, ev.TrickWon))
    assert x in state.hands[winner] and state.trump_card in state.hands[1 - winner]
    assert events[-2:] == [ev.Drew(winner), ev.TrumpCardTaken(1 - winner, state.trump_card)]


@pytest.mark.parametrize(
    ("points", "winner"),
    [
        ((61, 59), 0),
        ((60, 60), NO_SIDE),
        ((0, 120), 1),
        ((50, 40, 30), 0),
        ((45, 45, 30), NO_SIDE),
        ((40, 40, 40), NO_SIDE),
        ((30, 44, 46), 2),
    ],
)
def test_br5_the_hands_result(points: tuple[int, ...], winner: int) -> None:
    assert hand_winner(points) == winner


def _hands(players: int, hands_to_win: int, seed: int) -> list[list[ev.Event]]:
    """The events of each move of a random match."""
    state, first = rules.deal(Options(hands_to_win=hands_to_win), players, seed)
    rng = random.Random(seed)
    out = [list(first)]
    while not state.finished:
        state, events = rules.apply(state, rng.choice(rules.legal_moves(state)))
        out.append(list(events))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_of_several_hands_dealer_rotation_and_draws(players: int) -> None:
    """§4.2-4.3 (BR-6): the deal passes on after a won hand and stays after a draw; the
    match ends when a side has its hands."""
    draws = 0
    for seed in range(12):
        flat = [e for move in _hands(players, 3, seed) for e in move]
        dealt_events = [e for e in flat if isinstance(e, ev.HandDealt)]
        scored = [e for e in flat if isinstance(e, ev.HandScored)]
        assert len(dealt_events) == len(scored)
        assert [e.hand_number for e in dealt_events] == list(range(1, len(scored) + 1))
        for before, result, after in zip(dealt_events, scored, dealt_events[1:], strict=False):
            if result.winner == NO_SIDE:
                draws += 1
                assert after.dealer == before.dealer
            else:
                assert after.dealer == (before.dealer + 1) % players
        assert max(scored[-1].hands_won) == 3 and max(scored[-2].hands_won) == 2
        assert isinstance(flat[-1], ev.MatchWon) and flat[-1].hands_won == scored[-1].hands_won
        assert all(sum(s.points for s in e.scores) == 120 for e in scored)
    if players == 3:
        assert draws  # a tie for the most points happens within these matches


def test_scores_and_match_totals() -> None:
    state = random_play(dealt(4, 2, Options(hands_to_win=2)), 40, random.Random(1))
    report = RULES.score(state)
    assert [s.seats for s in report.sides] == [(0, 2), (1, 3)]
    assert state.table.last_hand and not state.finished
    assert [s.match_total for s in report.sides] == list(state.table.hands_won)
    assert sum(s.detail.points for s in report.sides) == 0  # a new hand: nothing taken yet
    assert report.sides[0].detail.last_hand == state.table.last_hand[0]
    while not state.finished:
        state = rules.apply(state, rules.legal_moves(state)[0])[0]
    report = RULES.score(state)
    assert report.finished and report.winners == (state.table.hands_won.index(2),)
    assert sum(s.detail.points for s in report.sides) == 120


def test_illegal_moves_are_refused_with_the_field() -> None:
    state = lay(2, "AS 7H 2D 3S KC 4D 5C")
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, play(card("3S")))  # seat 0's card, seat 1 to act
    assert caught.value.field == "move.briscola.play_card.card"
    over = play_first(state, 40)
    assert over.finished and RULES.legal_moves(over) == ()
    with pytest.raises(NotAllowedNow):
        rules.apply(over, play(card("AS")))


def test_parse_and_text() -> None:
    assert str(parse("play QS")) == "play QS" and parse("play QS") is play(card("QS"))
    with pytest.raises(ValueError):
        parse("play 9S")


@pytest.mark.parametrize(
    ("players", "options", "field"),
    [
        (5, Options(), "players"),
        (2, Options(hands_to_win=0), "options.briscola.hands_to_win"),
        (3, Options(removed_two=card("3C")), "options.briscola.removed_two"),
        (2, Options(removed_two=card("2S")), "options.briscola.removed_two"),
        (2, Options(partners_show_hands=True), "options.briscola.partners_show_hands"),
        (4, Options(first_dealer=4), "options.briscola.first_dealer"),
    ],
)
def test_bad_options_are_refused(players: int, options: Options, field: str) -> None:
    with pytest.raises(InvalidArgument) as caught:
        rules.deal(options, players, 1)
    assert caught.value.field == field


def test_rules_value_and_bounds() -> None:
    assert RULES.id == "briscola" and RULES.player_counts == (2, 3, 4)
    assert {o.name for o in RULES.options} == {
        "hands_to_win",
        "removed_two",
        "partners_show_hands",
        "first_dealer",
    }
    state = dealt(3, 4, Options(hands_to_win=2))
    assert RULES.moves_bound(state, False) == 39
    assert RULES.hand_key(state) == 1 and RULES.controller(state, 2) == 2
    moves = 0
    rng = random.Random(4)
    bound = RULES.moves_bound(state, True)
    while not state.finished:
        assert RULES.moves_bound(state, True) <= bound - moves
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))[0]
        moves += 1
    assert RULES.moves_bound(state, True) == 0 and state.phase is Phase.OVER
