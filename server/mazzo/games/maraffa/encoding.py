"""Maraffa, every form, as actions and numbers (docs/rl.md, "Maraffa").

One action space serves all forms: a play is its card x signal x marafona flag (720
actions), then the trump declarations, redeal, claim, and Trionfo's bids, pass and
called cards: 891 in all. Seats in the observation are relative to the viewer (slot
0 is the viewer, slot 1 the next seat in turn), so one policy serves every seat.
"""

from __future__ import annotations

from typing import Any, Final

from mazzo.games.maraffa.cards import DECK, THIRDS
from mazzo.games.maraffa.moves import (
    BIDS,
    CALLS,
    CLAIM,
    PASS,
    PLAYS,
    REDEAL,
    TRUMPS,
    Contract,
    Move,
    Signal,
)
from mazzo.games.maraffa.scoring import tricks_per_hand
from mazzo.games.maraffa.state import NO_SEAT, Phase, Trick, side_of
from mazzo.games.maraffa.trionfo.state import SEATS as TRIONFO_SEATS
from mazzo.games.maraffa.trionfo.view import TrionfoView
from mazzo.games.maraffa.view import View, controller_of
from mazzo.games.roles import IndexedEncoding, mark_cards, one_hot_seat, seat_block
from mazzo.rl.layout import Block, Layout, Observation, clip

CARDS = len(DECK)
#: The phase of a finished match, the same number in both engines (TPhase.OVER too).
OVER = Phase.OVER
#: Seat slots: the most seats of any form (Trionfo's five).
SLOTS = TRIONFO_SEATS
SIGNALS = len(Signal)
#: The deck index (0..39, canonical order) of each card id.
INDEX: Final = {c: i for i, c in enumerate(DECK)}

PLAY = 0
TRUMP = PLAY + CARDS * SIGNALS * 2
REDEAL_ACTION = TRUMP + 4
CLAIM_ACTION = REDEAL_ACTION + 1
BID = CLAIM_ACTION + 1
PASS_ACTION = BID + len(Contract)
CALL = PASS_ACTION + 1
ACTIONS = CALL + 4 * CARDS

#: Trionfo totals (game points, signed) are divided by this: a MASO_DEI_MASI pays 32.
TRIONFO_SCALE = 32.0
#: Thirds in all the cards of a hand (the last trick aside), and the most cards a hand
#: holds (39 cards).
HAND_THIRDS = 32.0
MOST_CARDS = 13.0
STOCK = 20.0


def _moves() -> list[Move]:
    moves: list[Move | None] = [None] * ACTIONS
    for c in DECK:
        for signal in Signal:
            for marafona in (False, True):
                moves[PLAY + (INDEX[c] * SIGNALS + signal) * 2 + marafona] = PLAYS[c][signal][
                    marafona
                ]
    for suit in range(4):
        moves[TRUMP + suit] = TRUMPS[suit]
        for c in DECK:
            moves[CALL + suit * CARDS + INDEX[c]] = CALLS[suit][c]
    moves[REDEAL_ACTION] = REDEAL
    moves[CLAIM_ACTION] = CLAIM
    for contract in Contract:
        moves[BID + contract - 1] = BIDS[contract]
    moves[PASS_ACTION] = PASS
    assert all(m is not None for m in moves)
    return [m for m in moves if m is not None]


#: Every move by its action; moves are interned, so the inverse is a dict by identity.
MOVES: Final = _moves()
ACTION: Final[dict[Move, int]] = {m: a for a, m in enumerate(MOVES)}


LAYOUT = Layout(
    Block("hand", CARDS, "the viewer's cards (deck index: canonical order)"),
    Block(
        "dummy_hand", CARDS, "3 players with a dummy: the dummy's cards, when the viewer sees them"
    ),
    Block(
        "trick", SLOTS * CARDS, "the trick being played: card c played by relative seat r at r*40+c"
    ),
    Block(
        "tricks", SLOTS * CARDS, "this hand's completed tricks: card c played by relative seat r"
    ),
    Block(
        "signals",
        (SIGNALS - 1) * CARDS,
        "this hand: card c played with signal k (1..8) at (k-1)*40+c",
    ),
    Block("drawn", CARDS, "2 players: the cards drawn from the stock this hand (shown to both)"),
    Block("called_card", CARDS, "Trionfo: the called card, once declared"),
    Block("trump", 4, "the trump suit, one-hot S H D C; zeros before it is declared"),
    Block("phase", 5, "one-hot: trump, play, over, auction (Trionfo), declare (Trionfo)"),
    seat_block("to_act", SLOTS, "the seat to act", one_hot=True),
    seat_block("leader", SLOTS, "the seat leading the trick being played", one_hot=True),
    seat_block("battezzante", SLOTS, "the battezzante (Trionfo: the first speaker)", one_hot=True),
    seat_block("dealer", SLOTS, "the dealer", one_hot=True),
    seat_block("dummy", SLOTS, "the dummy's seat", one_hot=True),
    seat_block("marafona", SLOTS, "the seat that declared the marafona this hand", one_hot=True),
    seat_block("declarer", SLOTS, "Trionfo: the declarer", one_hot=True),
    seat_block("amico", SLOTS, "Trionfo: the amico, where the viewer may know him", one_hot=True),
    Block("contract", len(Contract), "Trionfo: the contract, one-hot chiamo .. maso dei masi"),
    Block("speeches", SLOTS * 5, "Trionfo: each relative seat's last speech, one-hot pass, 1..4"),
    Block("hand_hidden", 1, "1 while the viewer may not see his own cards"),
    Block("hand_sizes", SLOTS, "cards held by each relative seat / 13"),
    Block("stock_size", 1, "2 players: cards in the stock / 20"),
    Block("hand_points", SLOTS, "thirds in the tricks each relative seat won this hand / 32"),
    Block(
        "totals",
        SLOTS,
        "match total of each relative seat's side / the target (Trionfo: / 32), clipped",
        low=-1.0,
    ),
    Block("games_won", SLOTS, "games of the series won by each relative seat's side / 2"),
    Block("progress", 1, "completed tricks / tricks in a hand (Trionfo: deals counted / deals)"),
)


class MaraffaEncoding(IndexedEncoding[View]):
    def action_of(self, move: Any) -> int:
        try:
            return ACTION[move]
        except KeyError:
            raise ValueError(f"not a Maraffa move: {move!r}") from None

    def observe(self, view: Any) -> Observation:
        if type(view) is TrionfoView:
            return _observe_trionfo(view)
        return super().observe(view)


def agent_view(view: Any) -> Any:
    """The view the agent deciding for the view's seat observes: the dummy's seat is
    shown its controller's view, which the controller observes as his own seat."""
    dummy = getattr(view, "dummy_seat", None)
    if dummy is not None and view.seat == dummy:
        return view._replace(seat=controller_of(dummy))
    return view


def _tricks(obs: Observation, trick: Trick, tricks: tuple[Trick, ...], seats: int, me: int) -> None:
    """The cards of this hand by who played them, their signals, and each seat's thirds."""
    signals, points = LAYOUT["signals"], LAYOUT["hand_points"]
    for block, played in (("trick", (trick,)), ("tricks", tricks)):
        base = LAYOUT[block]
        for t in played:
            for i, c in enumerate(t.cards):
                r = (t.leader + i - me) % seats
                obs[base + r * CARDS + INDEX[c]] = 1.0
                if t.signals[i]:
                    obs[signals + (t.signals[i] - 1) * CARDS + INDEX[c]] = 1.0
            if t.winner != NO_SEAT:
                obs[points + (t.winner - me) % seats] += (
                    sum(THIRDS[c] for c in t.cards) / HAND_THIRDS
                )


def _common(obs: Observation, view: View | TrionfoView, seats: int) -> None:
    me = view.seat
    mark_cards(obs, LAYOUT["hand"], INDEX, view.hand)
    _tricks(obs, view.trick, view.tricks, seats, me)
    if view.trump >= 0:
        obs[LAYOUT["trump"] + view.trump] = 1.0
    obs[LAYOUT["phase"] + view.phase - 1] = 1.0
    if view.phase != OVER:  # nobody acts once the match is over
        one_hot_seat(obs, LAYOUT["to_act"], seats, me, view.to_act)
    one_hot_seat(obs, LAYOUT["leader"], seats, me, view.trick.leader)
    one_hot_seat(obs, LAYOUT["dealer"], seats, me, view.table.dealer)
    sizes = LAYOUT["hand_sizes"]
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + (s - me) % seats] = n / MOST_CARDS


def _observe(view: View) -> Observation:
    obs = LAYOUT.zeros()
    table = view.table
    seats, me = table.seats, view.seat
    _common(obs, view, seats)
    mark_cards(obs, LAYOUT["dummy_hand"], INDEX, view.dummy_hand)
    mark_cards(obs, LAYOUT["drawn"], INDEX, view.drawn)
    one_hot_seat(obs, LAYOUT["battezzante"], seats, me, table.battezzante)
    if view.dummy_seat is not None:
        one_hot_seat(obs, LAYOUT["dummy"], seats, me, view.dummy_seat)
    one_hot_seat(obs, LAYOUT["marafona"], seats, me, view.marafona_seat)
    obs[LAYOUT["hand_hidden"]] = float(view.hand_hidden)
    obs[LAYOUT["stock_size"]] = view.stock_size / STOCK
    totals, won = LAYOUT["totals"], LAYOUT["games_won"]
    for s in range(seats):
        side = side_of(s, seats)
        r = (s - me) % seats
        obs[totals + r] = clip(table.totals[side] / table.effective_target, -1.0)
        obs[won + r] = clip(table.games_won[side] / 2)
    obs[LAYOUT["progress"]] = len(view.tricks) / tricks_per_hand(seats)
    return obs


def _observe_trionfo(view: TrionfoView) -> Observation:
    obs = LAYOUT.zeros()
    table = view.table
    seats, me = TRIONFO_SEATS, view.seat
    _common(obs, view, seats)
    if view.called_card:
        mark_cards(obs, LAYOUT["called_card"], INDEX, (view.called_card,))
    one_hot_seat(obs, LAYOUT["battezzante"], seats, me, table.first_speaker)
    one_hot_seat(obs, LAYOUT["declarer"], seats, me, view.declarer)
    one_hot_seat(obs, LAYOUT["amico"], seats, me, view.amico)
    if view.contract:
        obs[LAYOUT["contract"] + view.contract - 1] = 1.0
    speeches = LAYOUT["speeches"]
    last: dict[int, int] = dict(view.speeches)  # the last speech of each seat wins
    for seat, level in last.items():
        r = (seat - me) % seats
        obs[speeches + r * 5 + level] = 1.0
    totals = LAYOUT["totals"]
    for s in range(seats):
        obs[totals + (s - me) % seats] = clip(table.totals[s] / TRIONFO_SCALE, -1.0)
    obs[LAYOUT["progress"]] = clip(table.deals_counted / table.options.match_deals)
    return obs


MARAFFA: Final = MaraffaEncoding("maraffa", LAYOUT, MOVES, View, _observe)


def encoding(options: object) -> MaraffaEncoding:
    """The encoding of a match with these options: the same for every option."""
    return MARAFFA
