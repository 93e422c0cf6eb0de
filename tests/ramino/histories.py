"""Helpers for the tests of Ramino's sampler: seeded random views, and a hand replayed
from its start with a given hidden deal.

``replay`` is the check that catches a forgotten constraint: the sample's hands and
stock, traced back through the hand's public record to a deal (the cards dealt, the up
card, the deal's stock, each reshuffled stock), are dealt again and the hand's public
moves are applied by the engine one by one; every move must be legal, every view on
the way must show the record so far, and the end must be the sample itself.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from mazzo.games.ramino import rules
from mazzo.games.ramino.cards import DECK
from mazzo.games.ramino.moves import DRAW, TAKE_DISCARD, Kind, Move
from mazzo.games.ramino.options import BuioSeat, Options
from mazzo.games.ramino.state import NO_CARD, BidAction, Phase, Source, State
from mazzo.games.ramino.validate import _start_of_hand
from mazzo.games.ramino.view import View, view

#: Views of the random-views test: a few hundred in CI, more for the long check.
VIEWS = int(os.environ.get("MAZZO_DETERMINIZE_VIEWS", "96"))


class Form(NamedTuple):
    """One form of the game: a player count and options that change what a view shows
    (nine cards, reshuffles allowed, the blind opening, sitting out, re-discarding)."""

    name: str
    players: int
    options: Options


FORMS = (
    Form("2p", 2, Options(match_hands=3)),
    Form("2p nine cards", 2, Options(hand_size=9, match_hands=2)),
    Form("3p", 3, Options(match_hands=3)),
    Form("3p two reshuffles", 3, Options(max_reshuffles=2, match_hands=2)),
    Form("4p", 4, Options(match_hands=3)),
    Form("4p buio", 4, Options(dealer_tax=1, max_stake=5, match_hands=3)),
    Form("4p no reshuffle", 4, Options(max_reshuffles=0, match_hands=4)),
    Form(
        "4p rediscard, buio left",
        4,
        Options(
            rediscard_taken_card=True,
            dealer_tax=1,
            buio_seat=BuioSeat.DEALER_LEFT,
            match_hands=3,
        ),
    ),
    Form("5p", 5, Options(match_hands=2)),
    Form("5p no credit", 5, Options(allow_credit=False, starting_chips=6, match_hands=3)),
    Form("6p", 6, Options(match_hands=2)),
    Form("6p nine cards, two reshuffles", 6, Options(hand_size=9, max_reshuffles=2, match_hands=1)),
)


def random_views(seed: int, count: int) -> Iterator[tuple[Form, State, int]]:
    """``count`` (form, state, seat) of seeded random play, the forms in turn: each a
    match played by a uniform random player for a random number of moves (mostly up to
    700, so play is seen before and after reshuffles; one time in ten a few, in the
    bidding; one in ten to the end of the match), the seat at random."""
    rnd = random.Random(seed)
    for made in range(count):
        form = FORMS[made % len(FORMS)]
        state, _ = rules.deal(form.options, form.players, rnd.getrandbits(64))
        # mostly in play, now and then in the bidding, now and then at the match's end
        moves = rnd.choice((rnd.randrange(12), *(rnd.randrange(700),) * 8, 100_000))
        for _ in range(moves):
            if state.finished:
                break
            moves = rules.legal_moves(state)
            state, _ = rules.apply(state, moves[rnd.randrange(len(moves))])
        yield form, state, rnd.randrange(form.players)


# --------------------------------------------------------------------------- replay


class Deal(NamedTuple):
    """The hidden deal of a hand: the hands as dealt, the up card, the deal's stock
    (top first), and each stock made by a reshuffle (top first)."""

    hands: tuple[tuple[int, ...], ...]
    up: int
    stock: tuple[int, ...]
    reshuffles: tuple[tuple[int, ...], ...]


_BIDS = {
    BidAction.BUIO: Kind.BUIO,
    BidAction.NO_BUIO: Kind.NO_BUIO,
    BidAction.PASS: Kind.PASS,
    BidAction.OPEN: Kind.OPEN,
    BidAction.ACCEPT: Kind.ACCEPT,
    BidAction.RAISE: Kind.RAISE,
    BidAction.STAND: Kind.STAND,
}


def check_deal(deal: Deal) -> None:
    """A deal deals the 104 cards."""
    cards = Counter(deal.stock)
    cards[deal.up] += 1
    for hand in deal.hands:
        cards.update(hand)
    assert cards == Counter(DECK), "the deal holds the two packs"


def replay(sample: State, deal: Deal, seat: int) -> None:
    """Deal ``deal`` at the start of the sample's hand and apply the hand's public moves
    with the engine (bids, then each turn's take and discard, then the current turn's
    take), each reshuffle giving the deal's order: every move is legal, every view of
    ``seat`` on the way shows the record so far, and the end is the sample."""
    check_deal(deal)
    assert sample.phase is not Phase.OVER
    start = _start_of_hand(sample)
    table = sample.table._replace(counter=sample.table.counter - sample.reshuffles)
    state = start._replace(table=table, hands=deal.hands, stock=deal.stock, pile=(deal.up,))
    for bid in sample.bets.bids:
        amount = bid.amount if bid.action in (BidAction.OPEN, BidAction.RAISE) else 0
        state, _ = rules.apply(state, Move(_BIDS[bid.action], amount=amount))
        _agrees(view(state, seat), sample, seat)
    reshuffled = 0
    for turn in sample.turns:
        state, _ = rules.apply(state, DRAW if turn.source is Source.STOCK else TAKE_DISCARD)
        if turn.source is Source.PILE:
            assert state.taken_card == turn.taken
        state, _ = rules.apply(state, Move(Kind.DISCARD, card=turn.discard))
        if state.reshuffles > reshuffled:
            order = deal.reshuffles[reshuffled]
            assert Counter(order) == Counter(state.stock), "a reshuffle makes the same stock"
            state = state._replace(stock=order)
            reshuffled += 1
        _agrees(view(state, seat), sample, seat)
    if sample.taken is not Source.NONE:
        state, _ = rules.apply(state, DRAW if sample.taken is Source.STOCK else TAKE_DISCARD)
    assert state == sample, "the replay ends in the sample"


def _agrees(seen: View, sample: State, seat: int) -> None:
    """A view during the replay shows a prefix of the sample's public record."""
    assert seen.turns == sample.turns[: len(seen.turns)]
    assert seen.bets.bids == sample.bets.bids[: len(seen.bets.bids)]
    if seen.hand_hidden:
        return
    own = view(sample, seat)
    same_point = (seen.turns, seen.bets.bids, seen.phase, seen.taken) == (
        own.turns,
        own.bets.bids,
        own.phase,
        own.taken,
    )
    if same_point:
        assert seen == own, "at the sample's point the replay shows the sample's view"


def replay_cards(sample: State, deal: Deal) -> None:
    """For a finished match (the engine cannot go back before its last payout): the
    hand's turns replayed on the cards alone, by the rules of §3.4: a take names the
    pile's top card, a draw takes the stock's top card, a discard is a held card (and
    not the card just taken, unless the option allows it), an empty stock is the
    pile under its top card in the deal's order; the end holds the sample's cards."""
    check_deal(deal)
    options = sample.table.options
    hands = [Counter(h) for h in deal.hands]
    stock = list(deal.stock)
    pile = [deal.up]
    reshuffled = 0
    last = sample.table.last_hand
    closing = last is not None and last.closure is not None
    for k, turn in enumerate(sample.turns):
        hand = hands[turn.seat]
        if turn.source is Source.PILE:
            card = pile.pop()
            assert card == turn.taken, "a take names the pile's top card"
        else:
            card = stock.pop(0)
        hand[card] += 1
        if turn.discard != NO_CARD:
            assert hand[turn.discard] > 0, "a discard is a held card"
            if turn.source is Source.PILE and not options.rediscard_taken_card:
                assert turn.discard != turn.taken
            hand[turn.discard] -= 1
            pile.append(turn.discard)
        final = closing and k == len(sample.turns) - 1
        if not stock and not final and reshuffled < options.max_reshuffles:
            assert sorted(deal.reshuffles[reshuffled]) == sorted(pile[:-1])
            stock = list(deal.reshuffles[reshuffled])
            pile = pile[-1:]
            reshuffled += 1
    assert [Counter(h) for h in sample.hands] == [+h for h in hands]
    assert stock == list(sample.stock) and pile == list(sample.pile)


def rebuild(sample: State, drawn: dict[int, int]) -> Deal:
    """The hidden deal of the sample's hand, read backwards from the sample: every card
    taken goes back on the pile, every discard back to its player, and every draw back
    on its stock; ``drawn`` names the card of each draw after a reshuffle (by turn
    index; the current turn's draw is ``len(turns)``), and key -1 the up card when the
    record no longer shows it. A draw from the deal's stock gives back the highest card
    its player does not need for an earlier take of his."""
    options = sample.table.options
    players = sample.table.players
    h = options.hand_size
    turns = list(sample.turns)
    current = len(turns)
    # forward over the public record: which stock each draw came from, and each
    # reshuffle's cards (the up card as 0 while the record does not name it)
    last = sample.table.last_hand
    closing = sample.phase is Phase.OVER and last is not None and last.closure is not None
    stock = 2 * 52 - players * h - 1
    pile = [0]
    up = 0
    segment_of: dict[int, int] = {}
    sets: list[list[int]] = []
    for k, turn in enumerate(turns):
        if turn.source is Source.PILE:
            top = pile.pop()
            up = turn.taken if top == 0 else up
        else:
            segment_of[k] = len(sets)
            stock -= 1
        if turn.discard != NO_CARD:
            pile.append(turn.discard)
        final = closing and k == len(turns) - 1
        if not stock and not final and len(sets) < options.max_reshuffles:
            sets.append(pile[:-1])
            stock = len(pile) - 1
            pile = pile[-1:]
    if sample.taken is Source.PILE:
        top = pile.pop()
        up = sample.taken_card if top == 0 else up
    elif sample.taken is Source.STOCK:
        segment_of[current] = len(sets)
    if pile and pile[0] == 0:
        up = sample.pile[0]
    if not up:
        up = drawn[-1]
    # backwards, player by player
    events: list[list[tuple[str, int, int]]] = [[] for _ in range(players)]
    for k, turn in enumerate(turns):
        events[turn.seat].append(("take" if turn.source is Source.PILE else "draw", k, turn.taken))
        if turn.discard != NO_CARD:
            events[turn.seat].append(("discard", k, turn.discard))
    if sample.taken is Source.PILE:
        events[sample.to_act].append(("take", current, sample.taken_card))
    elif sample.taken is Source.STOCK:
        events[sample.to_act].append(("draw", current, 0))
    cards = dict(drawn)
    start: list[tuple[int, ...]] = []
    for seat in range(players):
        hand = Counter(sample.hands[seat])
        mine = events[seat]
        for i in range(len(mine) - 1, -1, -1):
            kind, k, card = mine[i]
            if kind == "discard":
                hand[card] += 1
                continue
            if kind == "draw":
                if segment_of[k] == 0:
                    need: Counter[int] = Counter()
                    run: Counter[int] = Counter()
                    for kind2, _, card2 in reversed(mine[:i]):
                        if kind2 == "take":
                            run[card2] += 1
                            need[card2] = max(need[card2], run[card2])
                        elif kind2 == "discard":
                            run[card2] -= 1
                    cards[k] = max(c for c in hand if hand[c] > need[c])
                card = cards[k]
            assert hand[card] > 0, f"seat {seat} gives back a card he does not hold"
            hand[card] -= 1
        start.append(tuple(sorted(hand.elements())))
        assert len(start[-1]) == h
    first = [cards[k] for k in sorted(segment_of) if segment_of[k] == 0]
    stocks = [
        [cards[k] for k in sorted(segment_of) if segment_of[k] == j]
        for j in range(1, len(sets) + 1)
    ]
    if sets:
        stocks[-1] += list(sample.stock)
    else:
        first += list(sample.stock)
    return Deal(tuple(start), up, tuple(first), tuple(tuple(s) for s in stocks))
