"""Briscola's deals as chance events: each hand's deal is one run over the whole pack
(the hands, the trump card turned up, the stock above it); placing the engine's own
cards gives the state back, placing others gives a valid state that plays on."""

from __future__ import annotations

import random

import pytest

from mazzo.core.cards import card
from mazzo.core.errors import InvalidState
from mazzo.games.briscola import events as ev
from mazzo.games.briscola import rules
from mazzo.games.briscola.cards import DECK, deck_of
from mazzo.games.briscola.chance import BriscolaDeals
from mazzo.games.briscola.options import Options
from mazzo.games.briscola.state import State
from mazzo.games.briscola.validate import validate
from mazzo.rl.chance_deals import PILE, STOCK, Deal

DEALS = BriscolaDeals()
FORMS = [(2, Options()), (3, Options(removed_two=card("2D"))), (4, Options())]


def placed_cards(state: State, deal: Deal) -> list[int]:
    """The state's cards in the deal's place order: hands by seat, trump card, stock."""
    cards = [c for hand in state.hands for c in hand]
    cards += [state.trump_card, *state.stock[:-1]]
    assert len(cards) == len(deal.owners)
    return cards


def reshuffled(deal: Deal, rng: random.Random) -> list[int]:
    """Other cards for the deal's places: each uniform among those not yet placed, as
    OpenSpiel's chance nodes draw them."""
    cards = list(deal.cards)
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_a_deal_places_the_whole_pack(players: int, options: Options) -> None:
    state, events = rules.deal(options, players, 7)
    deal = DEALS.deal_of(state, events)
    assert deal is not None and deal.new_hand
    pack = deck_of(players, options.removed_two)
    assert deal.cards == tuple(sorted(pack))
    assert deal.owners.count(PILE) == 1
    assert deal.owners.count(STOCK) == len(pack) - 3 * players - 1
    assert [deal.owners.count(s) for s in range(players)] == [3] * players
    assert DEALS.place(state, deal, placed_cards(state, deal)) == state


def test_only_a_new_hand_is_a_deal() -> None:
    """Plays, tricks and draws place nothing; the move that ends a hand deals the next."""
    state, _ = rules.deal(Options(hands_to_win=3), 2, 5)
    rng = random.Random(5)
    deals = 0
    while not state.finished:
        before = state.table.hand_number
        state, events = rules.apply(state, rng.choice(rules.legal_moves(state)))
        deal = DEALS.deal_of(state, events)
        if state.finished:
            continue
        if state.table.hand_number == before:
            assert deal is None
        else:
            assert deal is not None and any(type(e) is ev.HandDealt for e in events)
            assert DEALS.place(state, deal, placed_cards(state, deal)) == state
            deals += 1
    assert deals >= 2


@pytest.mark.parametrize(("players", "options"), FORMS)
def test_other_cards_give_a_valid_state_that_plays_to_the_end(
    players: int, options: Options
) -> None:
    rng = random.Random(players)
    state, events = rules.deal(options, players, 11)
    deal = DEALS.deal_of(state, events)
    assert deal is not None
    for _ in range(20):
        cards = reshuffled(deal, rng)
        new = DEALS.place(state, deal, cards)
        validate(new)
        trump = cards[deal.owners.index(PILE)]
        assert new.trump_card == trump and new.stock[-1] == trump
        by_place = list(zip(deal.owners, cards, strict=True))
        assert new.stock[:-1] == tuple(c for o, c in by_place if o == STOCK)
        for s in range(players):
            assert new.hands[s] == tuple(sorted(c for o, c in by_place if o == s))
        assert (new.table, new.to_act, new.played) == (state.table, state.to_act, ())
    # The last one plays a whole hand, every draw from the placed stock.
    drawn = []
    while new.table.hand_number == 1 and not new.finished:
        new, events = rules.apply(new, rng.choice(rules.legal_moves(new)))
        drawn += [e.card for e in events if type(e) is ev.TrumpCardTaken]
    assert drawn == [trump]


def test_cards_that_break_the_rules_are_refused() -> None:
    state, events = rules.deal(Options(), 3, 2)  # the two of clubs is out
    deal = DEALS.deal_of(state, events)
    assert deal is not None
    cards = placed_cards(state, deal)
    with pytest.raises(InvalidState):
        DEALS.place(state, deal, [card("2C"), *cards[1:]])
    with pytest.raises(InvalidState):
        DEALS.place(state, deal, [cards[1], *cards[1:]])  # a card twice


def test_a_match_dealt_by_chance_plays_to_the_end() -> None:
    """As OpenSpiel plays it: every hand's deal replaced by cards drawn one by one."""
    for players in (2, 3, 4):
        rng = random.Random(players)
        state, events = rules.deal(Options(hands_to_win=2), players, 3)
        hands = 0
        while not state.finished:
            deal = DEALS.deal_of(state, events)
            if deal is not None:
                state = DEALS.place(state, deal, reshuffled(deal, rng))
                hands += 1
            state, events = rules.apply(state, rng.choice(rules.legal_moves(state)))
        validate(state)
        assert hands >= 2


def test_outcomes_are_the_cards_of_the_pack() -> None:
    assert DEALS.outcomes == 40
    assert [DEALS.card_of(o) for o in range(40)] == list(DECK)
    assert [DEALS.outcome_of(c) for c in DECK] == list(range(40))
    with pytest.raises(ValueError):
        DEALS.outcome_of(card("8S"))
    for outside in (-1, 40):
        with pytest.raises(ValueError):
            DEALS.card_of(outside)
