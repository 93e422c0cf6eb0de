"""Briscola, 2, 3 and 4 players, as actions and numbers (docs/rl.md, "Briscola").

The one move is a card played, so an action is the card's place in the 40-card pack
(canonical order): 40 actions, every form. Seats in the observation are relative to
the viewer (slot 0 is the viewer, slot 1 the next seat in turn), so one policy serves
every seat; a side's numbers (points, tricks, hands won) are shown at the slot of each
of its seats, so partners read alike.
"""

from __future__ import annotations

from typing import Any, Final

from mazzo.games.briscola.cards import DECK, SUIT, TOTAL_POINTS
from mazzo.games.briscola.moves import PLAYS, PlayCard
from mazzo.games.briscola.options import side_of
from mazzo.games.briscola.state import Phase, Trick
from mazzo.games.briscola.tricks import HAND_SIZE, STOCK_SIZE, TRICKS
from mazzo.games.briscola.view import View
from mazzo.games.roles import IndexedEncoding, mark_cards, one_hot_seat, seat_block
from mazzo.rl.layout import Block, Layout, Observation, clip

CARDS = len(DECK)
#: Seat slots: the most seats of any form.
SLOTS = 4
#: The deck index (0..39, canonical order) of each card id.
INDEX: Final = {c: i for i, c in enumerate(DECK)}
ACTIONS = CARDS
#: The most cards in the stock, the face-up trump card included (two players).
MOST_STOCK = max(STOCK_SIZE.values())


def _moves() -> list[PlayCard]:
    moves: list[PlayCard] = []
    for c in DECK:
        move = PLAYS[c]
        assert move is not None
        moves.append(move)
    return moves


#: Every move by its action (the interned ``play(c)``); its action is its card's index.
MOVES: Final = _moves()


def _side_block(name: str, meaning: str) -> Block:
    return Block(name, SLOTS, meaning + ", at the slot of each relative seat of the side")


LAYOUT = Layout(
    Block("hand", CARDS, "the viewer's cards (deck index: canonical order)"),
    Block(
        "partner_hand",
        CARDS,
        "4 players with partners_show_hands, once the stock is empty: the partner's cards",
    ),
    Block("trump_card", CARDS, "the card turned face up under the stock, one-hot"),
    Block("trump", 4, "the trump suit, one-hot S H D C"),
    Block(
        "trick", SLOTS * CARDS, "the trick being played: card c played by relative seat r at r*40+c"
    ),
    Block(
        "tricks", SLOTS * CARDS, "this hand's completed tricks: card c played by relative seat r"
    ),
    seat_block(
        "trump_card_taker",
        SLOTS,
        "who drew the trump card, the stock's last; zeros before",
        one_hot=True,
    ),
    seat_block("to_act", SLOTS, "the seat to act; zeros once the match is over", one_hot=True),
    seat_block("leader", SLOTS, "the seat leading the trick being played", one_hot=True),
    seat_block("dealer", SLOTS, "the dealer", one_hot=True),
    Block("players", 3, "the number of players, one-hot 2, 3, 4"),
    Block("removed_two", 4, "3 players: the two taken out of the pack, one-hot S H D C"),
    Block("shows_hands", 1, "1 when partners_show_hands is in force"),
    Block("over", 1, "1 once the match is over"),
    Block("hand_sizes", SLOTS, f"cards held by each relative seat / {HAND_SIZE}"),
    Block("stock_size", 1, f"cards in the stock, the trump card included / {MOST_STOCK}"),
    _side_block("points", "card points the side took this hand / 120"),
    _side_block("tricks_won", "tricks the side took this hand / tricks in a hand"),
    _side_block("hands_won", "hands the side has won / hands_to_win"),
    Block("progress", 1, "completed tricks / tricks in a hand"),
)


class BriscolaEncoding(IndexedEncoding[View]):
    def action_of(self, move: Any) -> int:
        # By the card, not by identity: any ``PlayCard`` of the pack, interned or not.
        if type(move) is not PlayCard or move.card not in INDEX:
            raise ValueError(f"not a Briscola move: {move!r}")
        return INDEX[move.card]


def _played(obs: Observation, block: str, tricks: tuple[Trick, ...], seats: int, me: int) -> None:
    """Each card of ``tricks`` at the slot of the relative seat that played it."""
    base = LAYOUT[block]
    for t in tricks:
        for i, c in enumerate(t.cards):
            r = (t.leader + i - me) % seats
            obs[base + r * CARDS + INDEX[c]] = 1.0


def _observe(view: View) -> Observation:
    obs = LAYOUT.zeros()
    table = view.table
    options = table.options
    seats, me = view.players, view.seat
    mark_cards(obs, LAYOUT["hand"], INDEX, view.hand)
    mark_cards(obs, LAYOUT["partner_hand"], INDEX, view.partner_hand)
    mark_cards(obs, LAYOUT["trump_card"], INDEX, (view.trump_card,))
    obs[LAYOUT["trump"] + SUIT[view.trump_card]] = 1.0
    _played(obs, "trick", (view.trick,), seats, me)
    _played(obs, "tricks", view.tricks, seats, me)
    one_hot_seat(obs, LAYOUT["trump_card_taker"], seats, me, view.trump_card_taker)
    over = view.phase == Phase.OVER  # ==: a view read from the wire may hold a plain int
    if not over:  # nobody acts once the match is over
        one_hot_seat(obs, LAYOUT["to_act"], seats, me, view.to_act)
    one_hot_seat(obs, LAYOUT["leader"], seats, me, view.trick.leader)
    one_hot_seat(obs, LAYOUT["dealer"], seats, me, table.dealer)
    obs[LAYOUT["players"] + seats - 2] = 1.0
    if seats == 3:
        obs[LAYOUT["removed_two"] + SUIT[options.removed_two]] = 1.0
    obs[LAYOUT["shows_hands"]] = float(options.partners_show_hands)
    obs[LAYOUT["over"]] = float(over)
    sizes = LAYOUT["hand_sizes"]
    for s, n in enumerate(view.hand_sizes):
        obs[sizes + (s - me) % seats] = n / HAND_SIZE
    obs[LAYOUT["stock_size"]] = view.stock_size / MOST_STOCK
    tricks = TRICKS[seats]
    points, won, hands = LAYOUT["points"], LAYOUT["tricks_won"], LAYOUT["hands_won"]
    for s in range(seats):
        side = side_of(s, seats)
        r = (s - me) % seats
        obs[points + r] = view.points[side] / TOTAL_POINTS
        obs[won + r] = view.tricks_won[side] / tricks
        obs[hands + r] = clip(table.hands_won[side] / options.hands_to_win)
    obs[LAYOUT["progress"]] = len(view.tricks) / tricks
    return obs


BRISCOLA: Final = BriscolaEncoding("briscola", LAYOUT, MOVES, View, _observe)


def encoding(options: object) -> BriscolaEncoding:
    """The encoding of a match with these options: the same for every option."""
    return BRISCOLA
