"""Build a Ramino state from readable parts: puzzles, test positions, examples.

    state = position(
        dealer=0,
        bids=["open 1", "accept", "pass", "pass"],    # from the first to speak
        hands={1: "4S 5S 7S 9H 9D 9C QS QH QC 2D"},   # named cards; the rest is filled in
        pile="7D",                                    # bottom first, top last
        stock="8C",                                   # the top of the stock first
        turns=["draw 5C", "take 5C discard KH"],      # turns already played
        then=["draw"],                                # moves applied at the end
    )

The hand is dealt and bid through the engine, then the cards are laid out as asked:
cards not named go, in canonical order, to the hands short of their size and then to
the stock. A turn is written ``draw D`` or ``take T discard D`` (``take T D`` for short).
The result is checked like any state that comes in (``validate``), so a position that
could not arise by the rules is refused with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from mazzo.core.cards import card, cards
from mazzo.games.ramino import rules
from mazzo.games.ramino.cards import DECK
from mazzo.games.ramino.moves import parse
from mazzo.games.ramino.options import Options, check_options
from mazzo.games.ramino.state import (
    Bets,
    Phase,
    Source,
    State,
    Status,
    Table,
    Turn,
    participants,
)
from mazzo.games.ramino.validate import validate


def position(
    *,
    players: int = 4,
    dealer: int = 0,
    options: Options | None = None,
    balances: Sequence[int] | None = None,
    carry: Sequence[int] | None = None,
    bids: Sequence[str] = (),
    hands: Mapping[int, str] | None = None,
    pile: str = "",
    stock: str = "",
    turns: Sequence[str] = (),
    then: Sequence[str] = (),
    seed: int = 0,
) -> State:
    """A validated state. ``balances`` are the players' chips before the hand (default:
    ``starting_chips`` each) and ``carry`` each one's share of a pot carried over; the
    two must add up to players x ``starting_chips``."""
    options = (options or Options()).resolved(players)
    check_options(options, players)
    start = (options.starting_chips,) * players if balances is None else tuple(balances)
    shares = (0,) * players if carry is None else tuple(carry)
    table = Table(options, players, seed, 1, dealer, 0, 0, 0)
    bets = Bets(
        start,
        sum(shares),
        shares,
        0,
        0,
        0,
        (0,) * players,
        (Status.ACTIVE,) * players,
        -1,
        -1,
        -1,
        False,
        (),
    )
    state, _ = rules.start_hand(table, bets, None)
    for text in bids:
        state, _ = rules.apply(state, parse(text))
    state = _lay_out(state, hands or {}, cards(pile) if pile else (), cards(stock) if stock else ())
    if turns:
        if state.phase is not Phase.PLAY:
            raise ValueError("turns need a hand in play")
        state = _with_turns(state, turns)
    for text in then:
        state, _ = rules.apply(state, parse(text))
    validate(state)
    return state


def _lay_out(
    state: State, named: Mapping[int, str], pile: Sequence[int], stock_top: Sequence[int]
) -> State:
    """Deal the named cards, then everything else in canonical order."""
    size = state.table.options.hand_size
    hands = {s: list(cards(text)) for s, text in named.items()}
    used = Counter(c for h in hands.values() for c in h) + Counter(pile) + Counter(stock_top)
    spare = list((Counter(DECK) - used).elements())
    if used - Counter(DECK):
        raise ValueError(f"cards named more than twice: {used - Counter(DECK)}")
    spare.sort()
    laid: list[tuple[int, ...]] = []
    for s in range(state.table.players):
        hand = hands.get(s, [])
        while len(hand) < size:
            hand.append(spare.pop(0))
        laid.append(tuple(sorted(hand)))
    if not pile:
        pile = [spare.pop(0)]
    return state._replace(hands=tuple(laid), pile=tuple(pile), stock=(*stock_top, *spare))


def _with_turns(state: State, texts: Sequence[str]) -> State:
    """Record turns as already played: the taken and discarded cards move accordingly
    (a drawn card comes off the stock, so the stock must not hold the cards named)."""
    order = participants(state)
    turns: list[Turn] = []
    hands = [list(h) for h in state.hands]
    pile = list(state.pile)
    stock = list(state.stock)
    for k, text in enumerate(texts):
        seat = order[k % len(order)]
        words = text.split()
        if words[0] == "draw":
            taken, source = stock.pop(0), Source.STOCK
            shown = 0
        elif words[0] == "take":
            taken, source = pile.pop(), Source.PILE
            shown = taken
            if card(words[1]) != taken:
                raise ValueError(f"turn {k}: the top of the pile is not {words[1]}")
            words = words[1:]
        else:
            raise ValueError(f"not a turn: {text!r}")
        discard = card(words[-1])
        hands[seat].append(taken)
        hands[seat].remove(discard)
        pile.append(discard)
        turns.append(Turn(seat, source, shown, discard))
    return state._replace(
        hands=tuple(tuple(sorted(h)) for h in hands),
        pile=tuple(pile),
        stock=tuple(stock),
        turns=tuple(turns),
        to_act=order[len(turns) % len(order)],
    )
