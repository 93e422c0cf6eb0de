"""What one seat may know (burraco.md §7): one function, so no secret leaks elsewhere.

A ``View`` copies only public fields out of the state: the viewer's own hand (hidden
while a pozzetto taken con lo scarto is locked), every hand's size, the melds with
their canonical interpretation, the whole discard pile, the stock's size, which
pozzetti are left and who took which, and the public history of the hand. It holds
no reference to other hands, the stock's order, the pozzetti's cards or the
generator.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.burraco.cards import TWOS, VALUE, WILD
from mazzo.games.burraco.melds import SEQUENCE, Burraco, Kind, burraco_kind
from mazzo.games.burraco.scoring import BONUS, burraco_of
from mazzo.games.burraco.state import (
    NO_CARD,
    Meld,
    Stage,
    State,
    Table,
    hand_sides,
    side_mask,
)


class MeldView(NamedTuple):
    """A meld as everyone sees it, with its canonical interpretation (§7.3)."""

    id: int
    #: The seat that opened it, and the seats of its side now.
    seat: int
    side: tuple[int, ...]
    kind: Kind
    cards: tuple[int, ...]
    #: The wild card in it (NO_CARD without one) and, in a sequence, its position.
    wild: int
    wild_position: int
    ace_high: bool
    #: A sequence's lowest and highest positions (1 … 14); 0 for a combination.
    low: int
    high: int
    #: The rank of a combination, the suit of a sequence (0 … 12, 0 … 3).
    rank_or_suit: int
    #: The kind it scores as (NONE under 7 cards), with the match's semipulito option.
    burraco: Burraco


class PozzettoView(NamedTuple):
    """A pozzetto: its cards still in it (0 once taken), who took it, and whether its
    taker may not see it yet (§3.4)."""

    size: int
    taker: int
    locked: bool


class PublicScore(NamedTuple):
    """The public part of a side's running hand score (§7.7)."""

    seats: tuple[int, ...]
    melded: int
    bonuses: int


class View(NamedTuple):
    seat: int
    players: int
    stage: Stage
    to_act: int
    #: The viewer's cards, sorted; empty while hidden.
    hand: tuple[int, ...]
    hand_hidden: bool
    hand_sizes: tuple[int, ...]
    #: The seats of the viewer's side in this hand.
    side: tuple[int, ...]
    melds: tuple[MeldView, ...]
    #: The whole discard pile, bottom first.
    pile: tuple[int, ...]
    stock_size: int
    pozzetti: tuple[PozzettoView, ...]
    forbidden: int
    last_turn: bool
    pickups: int
    solo: int
    #: Public match fields; the generator's seed and counter are zeroed.
    table: Table
    public_scores: tuple[PublicScore, ...]
    #: The public events of this hand (§7.6).
    history: tuple[Any, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.table.totals


def meld_view(state: State, meld_id: int, meld: Meld) -> MeldView:
    interp = meld.interp
    kind = meld.kind
    wild = NO_CARD
    if interp.clean is not Burraco.PULITO:
        wild = _wild_card(meld)
    seats = side_mask(state, meld.seat)
    return MeldView(
        id=meld_id,
        seat=meld.seat,
        side=tuple(s for s in range(state.table.players) if seats >> s & 1),
        kind=kind,
        cards=meld.cards,
        wild=wild,
        wild_position=interp.wild_position,
        ace_high=interp.ace_high,
        low=interp.low,
        high=interp.high,
        rank_or_suit=meld.sig[1],
        burraco=burraco_of(state.table.options, burraco_kind(interp)),
    )


def _wild_card(meld: Meld) -> int:
    """The card that stands as the wild: a joker or a foreign 2 first, else the suit's own 2."""
    if meld.kind is SEQUENCE:
        own = TWOS[meld.sig[1]]
        foreign = [c for c in meld.cards if WILD[c] and c != own]
        return foreign[0] if foreign else own
    return next(c for c in meld.cards if WILD[c])


def public_scores(state: State) -> tuple[PublicScore, ...]:
    """Melded card values and burraco bonuses so far, per side of the hand (§7.7)."""
    options = state.table.options
    out = []
    for seats in hand_sides(state):
        mask = sum(1 << s for s in seats)
        melded = bonuses = 0
        for meld in state.melds:
            if mask >> meld.seat & 1:
                melded += sum(VALUE[c] for c in meld.cards)
                kind = burraco_of(options, burraco_kind(meld.interp))
                bonuses += BONUS.get(kind, 0)
        out.append(PublicScore(seats, melded, bonuses))
    return tuple(out)


def view(state: State, seat: int) -> View:
    """The view of ``seat`` (§7)."""
    table = state.table
    if not 0 <= seat < table.players:
        raise InvalidArgument("seat", f"seat must be 0..{table.players - 1}")
    hidden = bool(state.locked >> seat & 1)
    side = side_mask(state, seat)
    return View(
        seat=seat,
        players=table.players,
        stage=state.stage,
        to_act=state.to_act,
        hand=() if hidden else state.hands[seat],
        hand_hidden=hidden,
        hand_sizes=tuple(len(h) for h in state.hands),
        side=tuple(s for s in range(table.players) if side >> s & 1),
        melds=tuple(meld_view(state, i, m) for i, m in enumerate(state.melds)),
        pile=state.pile,
        stock_size=len(state.stock),
        pozzetti=tuple(
            PozzettoView(len(p), t, t >= 0 and bool(state.locked >> t & 1))
            for p, t in zip(state.pozzetti, state.takers, strict=True)
        ),
        forbidden=state.forbidden,
        last_turn=state.last_turn,
        pickups=state.pickups,
        solo=state.solo,
        table=table._replace(seed=0, counter=0),
        public_scores=public_scores(state),
        history=state.log,
    )
