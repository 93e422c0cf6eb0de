"""The state of a Ramino match, as immutable values (ramino.md §8 "State fields").

``State`` holds what a turn of play changes; ``Bets`` the chips and the bidding, which
change move by move in the bidding and then rest during play; ``Table`` the match
around the hand, which changes once a hand. A turn of play so rebuilds one small
tuple and shares the rest.

Hands are sorted tuples of card ids (copies are not told apart, README §3); the stock
lists its top card first; the discard pile lists its bottom card first, its top last.
Balances are signed (``allow_credit``); every other chip count is >= 0.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import Final, NamedTuple

from mazzo.games.ramino.closures import ClosureType
from mazzo.games.ramino.options import BuioSeat, Options

NO_SEAT: Final = -1
NO_CARD: Final = 0


class Phase(IntEnum):
    BUIO_DECISION = 1
    BIDDING = 2
    PLAY = 3
    OVER = 4


_OVER: Final = Phase.OVER


class Status(IntEnum):
    ACTIVE = 1
    FOLDED = 2
    #: Dealt cards but folded from the start: short of chips without credit (§4.3).
    SITTING_OUT = 3


class Source(IntEnum):
    """Where the card of a turn was taken from; NONE before the player has taken."""

    NONE = 0
    STOCK = 1
    PILE = 2


class BidAction(IntEnum):
    BUIO = 1
    NO_BUIO = 2
    PASS = 3
    OPEN = 4
    ACCEPT = 5
    RAISE = 6
    STAND = 7


class Outcome(IntEnum):
    """How a hand ended (§3, §4.2)."""

    CLOSED = 1
    #: One player left in the bidding: he takes the pot without play.
    UNCONTESTED = 2
    #: Nobody opened: the pot carries over.
    VOID = 3
    #: The stock ran out with no reshuffle left: the pot carries over.
    EXHAUSTED = 4


class MatchEnd(IntEnum):
    """Why the match ended (§4.3); NONE while it goes on."""

    NONE = 0
    #: ``match_hands`` hands were decided.
    DECIDED_HANDS = 1
    #: ``match_hands`` hands in a row were void.
    VOID_HANDS = 2
    #: Without credit, fewer than two players could take part in the next hand.
    NO_PLAYERS = 3


class Bid(NamedTuple):
    """One bidding move: ``amount`` is the stake it set (BUIO, OPEN, RAISE), else 0."""

    seat: int
    action: BidAction
    amount: int = 0


class Turn(NamedTuple):
    """A completed turn of play: the card taken is public only from the pile."""

    seat: int
    source: Source
    #: The card taken from the pile; NO_CARD for a draw from the stock.
    taken: int
    #: The card discarded; NO_CARD for a closure without discard (``hand_size`` 9).
    discard: int


class ClosureShown(NamedTuple):
    """What a closing reveals (§7.4): the ten cards, the discard, the joker, the type."""

    seat: int
    cards: tuple[int, ...]
    discard: int
    joker: int
    stands_for: int
    kind: ClosureType


class HandResult(NamedTuple):
    """How a hand ended and what it paid; per-seat tuples are indexed by seat."""

    hand_number: int
    dealer: int
    outcome: Outcome
    #: Who took the pot (closer or uncontested player), else NO_SEAT.
    winner: int
    #: The final stake S (the posta), 0 if nobody opened.
    posta: int
    #: The pot the winner took, or the pot carried over.
    pot: int
    participants: tuple[int, ...]
    closure: ClosureShown | None
    #: Extra chips each loser paid the closer, (k - 1) x S or less without credit.
    extra_paid: tuple[int, ...]
    #: Each seat's balance change over the hand: tax, stakes, pot and extras.
    net: tuple[int, ...]


class Table(NamedTuple):
    """The match around the hand; changes when a hand ends (and at a reshuffle)."""

    options: Options
    players: int
    seed: int
    #: The generator's next draw number (core/shuffle.py): deals and reshuffles.
    counter: int
    dealer: int
    #: Hands dealt so far, this one included (from 1).
    hand_number: int
    #: Closed or uncontested hands (§4.3).
    decided_hands: int
    #: Void hands in a row just before this one.
    void_streak: int
    last_hand: HandResult | None = None
    end: MatchEnd = MatchEnd.NONE


class Bets(NamedTuple):
    """The chips and the bidding of the current hand (§3.1-§3.3)."""

    balances: tuple[int, ...]
    pot: int
    #: Per seat: chips put into the current pot since it was last won (§4.3).
    shares: tuple[int, ...]
    #: The pot carried over from void hands when this hand began.
    carry: int
    #: The dealer's tax paid for this hand (0: none).
    tax: int
    #: S, the stake per player; the posta once bidding is over.
    stake: int
    #: c[i], the chips each player has put in this hand, the tax aside.
    committed: tuple[int, ...]
    statuses: tuple[Status, ...]
    last_aggressor: int
    last_actor: int
    buio_player: int
    buio_block: bool
    #: Every bidding move of this hand, in order (public).
    bids: tuple[Bid, ...]


class State(NamedTuple):
    table: Table
    bets: Bets
    phase: Phase
    #: The seat to decide; meaningless once the match is over.
    to_act: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    #: The completed turns of play of this hand, in order (public).
    turns: tuple[Turn, ...] = ()
    #: The current turn: where its card was taken from (NONE: not yet).
    taken: Source = Source.NONE
    #: The code taken from the pile this turn (§3.4.5), else NO_CARD.
    taken_card: int = NO_CARD
    reshuffles: int = 0

    @property
    def finished(self) -> bool:
        return self.phase is _OVER

    @property
    def options(self) -> Options:
        return self.table.options


def next_seat(seat: int, players: int) -> int:
    return (seat + 1) % players


def di_mano(table: Table) -> int:
    """The player to the dealer's right, who speaks and plays first (§2.6)."""
    return (table.dealer + 1) % table.players


def buio_seat(table: Table) -> int:
    """The seat that may open blind (§3.2)."""
    if table.options.buio_seat is BuioSeat.DEALER_LEFT:
        return (table.dealer - 1) % table.players
    return di_mano(table)


def participants(state: State) -> tuple[int, ...]:
    """The players of the hand, in play order: the active ones from di mano (§3.4.2)."""
    table = state.table
    return active_in_order(state.bets.statuses, (table.dealer + 1) % table.players)


@lru_cache(maxsize=1024)
def active_in_order(statuses: tuple[Status, ...], first: int) -> tuple[int, ...]:
    """The active seats in turn order from ``first`` (memoised: asked every turn)."""
    players = len(statuses)
    order = ((first + i) % players for i in range(players))
    return tuple(s for s in order if statuses[s] is Status.ACTIVE)


def pile_streak(turns: tuple[Turn, ...]) -> int:
    """Turns in a row, the last ones, that began by taking from the pile (§3.4.7)."""
    n = 0
    for turn in reversed(turns):
        if turn.source is not Source.PILE:
            break
        n += 1
    return n
