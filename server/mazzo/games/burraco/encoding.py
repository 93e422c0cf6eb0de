"""Burraco as actions and numbers (docs/rl.md, "Burraco").

The action space is the moves ``LegalMoves`` lists (burraco.md §3.7), each by what it
is: draw, pick up, a discard by card, a one-card lay-off by meld and card, and a
3-card meld by its cards. Those melds are few: of the sorted triples of the 53 codes,
1,332 are valid melds (``MELD_KEYS``, counted from ``melds.meld_error`` when this
module loads). A meld's id is its place on the table, and 108 cards make at most 36
melds of three, so 36 meld slots hold every lay-off: 3,295 actions in all. Larger
melds and lay-offs, which ``apply`` also accepts, are reached one card at a time.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Final

import numpy as np

from mazzo.core.cards import JOKER
from mazzo.games.burraco.cards import COPIES
from mazzo.games.burraco.events import Discarded, PileTaken
from mazzo.games.burraco.melds import Burraco, Kind, meld_error
from mazzo.games.burraco.moves import (
    DISCARDS,
    DRAW,
    PICK_UP,
    LayOff,
    Move,
    OpenMeld,
    lay_off_row,
    meld_of_key,
)
from mazzo.games.burraco.state import NO_SEAT
from mazzo.games.burraco.view import View
from mazzo.games.roles import (
    IndexedEncoding,
    hand_and_pile_blocks,
    observe_hand_and_pile,
    seat_block,
)
from mazzo.rl.layout import Block, Layout, Observation, clip

CODES = JOKER  # card ids 1..53
DECK_SIZE = 108
#: Every meld has three cards or more: 108 cards make at most 36.
MAX_MELDS = DECK_SIZE // 3
SEATS = 4
POZZETTI = 3
LONGEST_MELD = 14.0


def _meld_keys() -> tuple[int, ...]:
    """The sorted-triple key (``melds.key_cards``) of every valid 3-card meld."""
    keys = []
    for cards in combinations_with_replacement(range(1, CODES + 1), 3):
        if all(cards.count(c) <= COPIES[c] for c in cards) and meld_error(cards) is None:
            keys.append(cards[0] << 12 | cards[1] << 6 | cards[2])
    return tuple(sorted(keys))


MELD_KEYS: Final = _meld_keys()
DRAW_ACTION, PICK_UP_ACTION = 0, 1
DISCARD = 2
LAY_OFF = DISCARD + CODES
MELD = LAY_OFF + MAX_MELDS * CODES
ACTIONS = MELD + len(MELD_KEYS)


def _moves() -> list[Move]:
    moves: list[Move] = [DRAW, PICK_UP]
    moves += [DISCARDS[c] for c in range(1, CODES + 1)]
    for m in range(MAX_MELDS):
        row = lay_off_row(m)
        moves += [row[c] for c in range(1, CODES + 1)]
    moves += [meld_of_key(k) for k in MELD_KEYS]
    assert len(moves) == ACTIONS
    return moves


MOVES: Final = _moves()
ACTION: Final[dict[Move, int]] = {m: a for a, m in enumerate(MOVES)}

#: Numbers per meld slot, and where each feature sits in a slot.
M_PRESENT, M_MINE, M_OPENER, M_SEQUENCE, M_COMBINATION = 0, 1, 2, 6, 7
M_SUIT, M_RANK, M_LOW, M_HIGH, M_SIZE = 8, 12, 25, 26, 27
M_WILD, M_WILD_POSITION, M_ACE_HIGH, M_BURRACO = 28, 29, 30, 31
MELD_FEATURES = 34


LAYOUT = Layout(
    *hand_and_pile_blocks(CODES, "copies in the deck", DECK_SIZE),
    Block("forbidden", CODES, "the code that may not be discarded this turn, one-hot"),
    Block(
        "melds",
        MAX_MELDS * MELD_FEATURES,
        f"{MAX_MELDS} slots of {MELD_FEATURES}, meld id i at i*{MELD_FEATURES}: see the meld table",
    ),
    Block(
        "discards", SEATS * CODES, "cards each relative seat discarded this hand / copies, clipped"
    ),
    Block(
        "taken",
        SEATS * CODES,
        "cards each relative seat took with the pile this hand / copies, clipped",
    ),
    seat_block("hand_sizes", SEATS, "cards held / 30, clipped"),
    Block("stock_size", 1, "cards in the stock / 108"),
    Block(
        "pozzetti", POZZETTI * 7, "per pozzetto: present, size / 18, taker (4, relative), locked"
    ),
    Block("stage", 3, "one-hot: acquire, meld, over"),
    seat_block("to_act", SEATS, "the seat to act, one-hot"),
    seat_block("solo", SEATS, "3 players: the seat playing alone, one-hot"),
    seat_block("side", SEATS, "the seats of the viewer's side in this hand"),
    Block("last_turn", 1, "1 in the hand's last turn"),
    Block("pickups", 1, "turns in a row begun by picking up / 12"),
    Block("totals", SEATS, "match total of each relative seat's side / the target, clipped", -1.0),
    seat_block("melded", SEATS, "card values melded by the seat's side this hand / 1000, clipped"),
    seat_block("bonuses", SEATS, "burraco bonuses of the seat's side this hand / 1000, clipped"),
    Block("progress", 1, "hand number / hands (or max_hands), clipped"),
)
_BURRACO_KINDS = (Burraco.SPORCO, Burraco.SEMIPULITO, Burraco.PULITO)


class BurracoEncoding(IndexedEncoding[View]):
    def action_of(self, move: Any) -> int:
        action = ACTION.get(move)
        if action is None:
            if isinstance(move, LayOff | OpenMeld):
                raise ValueError(
                    f"{move}: the action space holds one-card lay-offs and 3-card melds"
                )
            raise ValueError(f"not a Burraco move: {move!r}")
        return action


#: Each code's share of its copies in the pack (none for code 0).
_SHARES: Final = tuple(1.0 / n if n else 0.0 for n in COPIES)


_PER_SEAT: Final = SEATS * CODES
_SEEN: Final = LAYOUT["discards"]
assert LAYOUT["taken"] == _SEEN + _PER_SEAT, "discards and taken are counted as one run"
#: Each card of the two blocks counts 1 / its copies in the deck.
_WEIGHTS: Final = np.array([1.0 / COPIES[i % CODES + 1] for i in range(2 * _PER_SEAT)])


def _seen(obs: Observation, history: tuple[Any, ...], me: int, seats: int) -> None:
    """Cards each seat discarded and took with the pile this hand, per copy and
    clipped at 1 (a card may pass through a hand many times). Counted by numpy, as a
    hand's history runs to hundreds of events."""
    at: list[int] = []
    for event in history:
        kind = type(event)
        if kind is Discarded:
            at.append((event.seat - me) % seats * CODES + event.card - 1)
        elif kind is PileTaken:
            base = _PER_SEAT - 1 + (event.seat - me) % seats * CODES
            at.extend([base + c for c in event.cards])
    if at:
        times = np.bincount(at, minlength=2 * _PER_SEAT)
        obs[_SEEN : _SEEN + 2 * _PER_SEAT] = np.minimum(times * _WEIGHTS, 1.0)


def _observe(view: View) -> Observation:
    obs = LAYOUT.zeros()
    seats, me = view.players, view.seat
    table = view.table
    observe_hand_and_pile(obs, LAYOUT, view.hand, view.pile, _SHARES, DECK_SIZE)
    if view.forbidden:
        obs[LAYOUT["forbidden"] + view.forbidden - 1] = 1.0
    melds = LAYOUT["melds"]
    for m in view.melds:
        base = melds + m.id * MELD_FEATURES
        obs[base + M_PRESENT] = 1.0
        obs[base + M_MINE] = float(me in m.side)
        obs[base + M_OPENER + (m.seat - me) % seats] = 1.0
        if m.kind is Kind.SEQUENCE:
            obs[base + M_SEQUENCE] = 1.0
            obs[base + M_SUIT + m.rank_or_suit] = 1.0
        else:
            obs[base + M_COMBINATION] = 1.0
            obs[base + M_RANK + m.rank_or_suit] = 1.0
        obs[base + M_LOW] = m.low / LONGEST_MELD
        obs[base + M_HIGH] = m.high / LONGEST_MELD
        obs[base + M_SIZE] = len(m.cards) / LONGEST_MELD
        if m.wild:
            obs[base + M_WILD] = 1.0
            obs[base + M_WILD_POSITION] = m.wild_position / LONGEST_MELD
        obs[base + M_ACE_HIGH] = float(m.ace_high)
        if m.burraco in _BURRACO_KINDS:
            obs[base + M_BURRACO + _BURRACO_KINDS.index(m.burraco)] = 1.0
    _seen(obs, view.history, me, seats)
    sizes = LAYOUT["hand_sizes"]
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + (s - me) % seats] = clip(n / 30)
    obs[LAYOUT["stock_size"]] = view.stock_size / DECK_SIZE
    pozzetti = LAYOUT["pozzetti"]
    for i, p in enumerate(view.pozzetti):
        base = pozzetti + i * 7
        obs[base] = 1.0
        obs[base + 1] = p.size / 18
        if p.taker != NO_SEAT:
            obs[base + 2 + (p.taker - me) % seats] = 1.0
        obs[base + 6] = float(p.locked)
    obs[LAYOUT["stage"] + view.stage - 1] = 1.0
    if view.stage != 3:
        obs[LAYOUT["to_act"] + (view.to_act - me) % seats] = 1.0
    if view.solo != NO_SEAT:
        obs[LAYOUT["solo"] + (view.solo - me) % seats] = 1.0
    for s in view.side:
        obs[LAYOUT["side"] + (s - me) % seats] = 1.0
    obs[LAYOUT["last_turn"]] = float(view.last_turn)
    obs[LAYOUT["pickups"]] = clip(view.pickups / 12)
    target = table.options.end_target(seats)
    totals, melded, bonuses = LAYOUT["totals"], LAYOUT["melded"], LAYOUT["bonuses"]
    for s in range(seats):
        r = (s - me) % seats
        side = s % 2 if seats == 4 else s
        obs[totals + r] = clip(table.totals[side] / target, -1.0)
        score = next(p for p in view.public_scores if s in p.seats)
        obs[melded + r] = clip(score.melded / 1000)
        obs[bonuses + r] = clip(score.bonuses / 1000)
    options = table.options
    obs[LAYOUT["progress"]] = clip(table.hand_number / (options.hands or options.max_hands))
    return obs


BURRACO: Final = BurracoEncoding("burraco", LAYOUT, MOVES, View, _observe)


def encoding(options: object) -> BurracoEncoding:
    """The encoding of a match with these options: the same for every option."""
    return BURRACO
