"""Ramino as actions and numbers (docs/rl.md, "Ramino").

Every move ``LegalMoves`` lists has its own action: the seven moves without an
argument, a discard by card, a closing discard by card, the nine-card closure, and
each opening and raising amount. Amounts go up to the match's ``max_stake`` option,
so the action space is ``112 + 2 * max_stake`` actions (122 with the default 5), fixed
for a match. Jokers a closure declares are left out: ``LegalMoves`` lists none, and
the engine ignores them but for their count.
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from typing import Any, Final

import numpy as np

from mazzo.games.ramino.cards import CODES, COPIES
from mazzo.games.ramino.moves import (
    ACCEPT,
    BUIO,
    CLOSE_HELD,
    CLOSES,
    DISCARDS,
    DRAW,
    NO_BUIO,
    PASS,
    STAND,
    TAKE_DISCARD,
    Kind,
    Move,
    open_bid,
    raise_bid,
)
from mazzo.games.ramino.options import PLAYER_COUNTS, Options
from mazzo.games.ramino.state import NO_SEAT, Turn
from mazzo.games.ramino.view import View
from mazzo.games.roles import (
    IndexedEncoding,
    hand_and_pile_blocks,
    observe_hand_and_pile,
    seat_block,
)
from mazzo.rl.layout import Block, Layout, Observation, clip

CARDS = len(CODES)
SEATS = max(PLAYER_COUNTS)
DECK_SIZE = 2 * CARDS
#: The moves without an argument, in action order.
PLAIN: Final = (BUIO, NO_BUIO, PASS, ACCEPT, STAND, DRAW, TAKE_DISCARD)
DISCARD = len(PLAIN)
CLOSE = DISCARD + CARDS
CLOSE_HELD_ACTION = CLOSE + CARDS
OPEN = CLOSE_HELD_ACTION + 1


LAYOUT = Layout(
    *hand_and_pile_blocks(CARDS, str(COPIES), DECK_SIZE),
    Block("taken_card", CARDS, "the card taken from the pile this turn, one-hot"),
    Block("source", 3, "where this turn's card came from, one-hot: not yet, stock, pile"),
    Block("discards", SEATS * CARDS, "cards each relative seat discarded this hand / 2, clipped"),
    Block(
        "taken", SEATS * CARDS, "cards each relative seat took from the pile this hand / 2, clipped"
    ),
    Block("phase", 4, "one-hot: buio decision, bidding, play, over"),
    seat_block("to_act", SEATS, "the seat to act, one-hot"),
    seat_block("dealer", SEATS, "the dealer, one-hot"),
    Block("hand_hidden", 1, "1 while the viewer decides on a blind opening unseen"),
    seat_block("hand_sizes", SEATS, "cards held / 11"),
    Block("stock_size", 1, "cards in the stock / 104"),
    Block("reshuffles", 1, "reshuffles this hand / max_reshuffles (0 when none are allowed)"),
    Block(
        "statuses", SEATS * 3, "each relative seat's status, one-hot: active, folded, sitting out"
    ),
    Block("balances", SEATS, "chips / (4 x starting_chips), clipped (by relative seat)", -1.0),
    seat_block(
        "shares", SEATS, "chips in the current pot since it was last won / starting_chips, clipped"
    ),
    Block("pot", 1, "the pot / (4 x starting_chips), clipped"),
    Block("stake", 1, "the stake / max_stake"),
    seat_block("committed", SEATS, "chips put in this hand, the tax aside / max_stake"),
    Block("tax", 1, "the dealer's tax this hand / max_stake, clipped"),
    seat_block("aggressor", SEATS, "the last seat to open or raise, one-hot"),
    seat_block("last_actor", SEATS, "the last seat to bid, one-hot"),
    seat_block("buio", SEATS, "the seat that opened blind, one-hot"),
    Block("buio_block", 1, "1 while the blind opener may only stand or raise"),
    Block("progress", 1, "decided hands / match_hands"),
)
_STATUS = {1: 0, 2: 1, 3: 2}


class RaminoEncoding(IndexedEncoding[View]):
    """Ramino with stakes up to ``max_stake``."""

    def __init__(self, max_stake: int) -> None:
        self.max_stake = max_stake
        moves: list[Move] = [*PLAIN, *(DISCARDS[c] for c in CODES), *(CLOSES[c] for c in CODES)]
        moves.append(CLOSE_HELD)
        moves += [open_bid(x) for x in range(1, max_stake + 1)]
        moves += [raise_bid(x) for x in range(1, max_stake + 1)]
        super().__init__("ramino", LAYOUT, moves, View, _observe)
        assert self.actions == OPEN + 2 * max_stake
        self._action = {m: a for a, m in enumerate(moves)}

    def action_of(self, move: Any) -> int:
        if isinstance(move, Move) and move.kind is Kind.CLOSE and move.jokers:
            move = move._replace(jokers=(), groups=())
        action = self._action.get(move)
        if action is None:
            raise ValueError(f"not a Ramino move of stakes up to {self.max_stake}: {move!r}")
        return action


@cache
def ramino_encoding(max_stake: int) -> RaminoEncoding:
    return RaminoEncoding(max_stake)


def encoding(options: Options) -> RaminoEncoding:
    """The encoding of a match with these options: its action space has its stakes."""
    return ramino_encoding(options.max_stake)


def action_count_refusal(game: str, actions: int, default: int) -> str | None:
    """Whether some ``max_stake`` gives ``actions`` (a saved policy's header): the
    match's own stakes are checked at its first move."""
    if actions < OPEN + 2 or (actions - OPEN) % 2:
        return f"{actions} actions is no Ramino action space ({OPEN} + 2 x max_stake)"
    return None


#: Each code's share of its copies in the pack (none for code 0).
_SHARES: Final = (0.0,) + (1.0 / COPIES,) * len(CODES)


_PER_SEAT: Final = SEATS * CARDS


def _turns(obs: Observation, turns: tuple[Turn, ...], me: int, seats: int) -> None:
    """Cards each seat discarded and took from the pile this hand: a card may pass
    through a hand many times, so each is counted to 2, then clipped. Counted by
    numpy, as a hand of random play runs to hundreds of turns."""
    if not turns:
        return
    # seat, source, taken card, discard: fromiter over the flat fields is some three
    # times faster than np.array over the tuples.
    flat = np.fromiter(chain.from_iterable(turns), np.int64, 4 * len(turns))
    table = flat.reshape(-1, 4)
    relative = (table[:, 0] - me) % seats * CARDS - 1
    for block, column in (("discards", 3), ("taken", 2)):
        cards = table[:, column]
        shown = cards != 0  # a draw from the stock shows no card; a closure discards none
        times = np.bincount(relative[shown] + cards[shown], minlength=_PER_SEAT)
        start = LAYOUT[block]
        obs[start : start + _PER_SEAT] = np.minimum(times * 0.5, 1.0)


def _observe(view: View) -> Observation:
    obs = LAYOUT.zeros()
    seats, me = view.players, view.seat
    options = view.table.options
    bets = view.bets

    def seat(block: str, s: int) -> None:
        if s != NO_SEAT:
            obs[LAYOUT[block] + (s - me) % seats] = 1.0

    observe_hand_and_pile(obs, LAYOUT, view.hand, view.pile, _SHARES, DECK_SIZE)
    if view.taken_card:
        obs[LAYOUT["taken_card"] + view.taken_card - 1] = 1.0
    obs[LAYOUT["source"] + view.taken] = 1.0
    _turns(obs, view.turns, me, seats)
    obs[LAYOUT["phase"] + view.phase - 1] = 1.0
    if view.phase != 4:  # nobody acts once the match is over
        seat("to_act", view.to_act)
    seat("dealer", view.table.dealer)
    obs[LAYOUT["hand_hidden"]] = float(view.hand_hidden)
    sizes = LAYOUT["hand_sizes"]
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + (s - me) % seats] = n / 11
    obs[LAYOUT["stock_size"]] = view.stock_size / DECK_SIZE
    if options.max_reshuffles:
        obs[LAYOUT["reshuffles"]] = view.reshuffles / options.max_reshuffles
    chips = 4.0 * options.starting_chips
    top = options.max_stake
    statuses, balances, shares = LAYOUT["statuses"], LAYOUT["balances"], LAYOUT["shares"]
    committed = LAYOUT["committed"]
    for s in range(seats):
        r = (s - me) % seats
        obs[statuses + r * 3 + _STATUS[bets.statuses[s]]] = 1.0
        obs[balances + r] = clip(bets.balances[s] / chips, -1.0)
        obs[shares + r] = clip(bets.shares[s] / options.starting_chips)
        obs[committed + r] = clip(bets.committed[s] / top)
    obs[LAYOUT["pot"]] = clip(bets.pot / chips)
    obs[LAYOUT["stake"]] = bets.stake / top
    obs[LAYOUT["tax"]] = clip(bets.tax / top)
    seat("aggressor", bets.last_aggressor)
    seat("last_actor", bets.last_actor)
    seat("buio", bets.buio_player)
    obs[LAYOUT["buio_block"]] = float(bets.buio_block)
    hands = options.match_hands or 3 * seats
    obs[LAYOUT["progress"]] = clip(view.table.decided_hands / hands)
    return obs
