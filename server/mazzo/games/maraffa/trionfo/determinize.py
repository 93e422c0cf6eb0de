"""Trionfo (5 players): the hidden cards of a view, dealt anew, and a bound on moves left.

``determinize`` gives whole states whose view for the viewing seat is the given view,
uniform among every placement of the unseen cards in the other four hands that the
view allows. What a view implies about where a card lies (maraffa-forms.md A.2, A.5,
A.11) is, for every unseen card, a set of seats that may hold it:

- a seat that did not follow suit holds no card of the suit led (it had none then,
  and cards only leave hands);
- in deal 1 the first speaker was dealt ``trionfo_first_speaker_card``: unplayed and
  unseen, it is in his hand;
- the called card, unplayed and unseen: in the amico's hand if the view shows him
  (the deal is over), else in any other seat's; with ``trionfo_stop_when_decided`` a
  deal still being played tells that no seat whose partnership would already have
  decided the contract holds it.

Nothing else about a hand is public: bids promise nothing, signals are never checked
in this form (A.5.5), and nothing is inferred from how anyone played. Since every
constraint is a set of allowed holders, the cards fall into classes with the same
set; the ways to fill every hand to its exact size are counted class by class (a
multinomial per class and per split of it among its seats) and each sample draws the
split of each class with probability proportional to its count, then which cards of
the class go where by a shuffle: every allowed placement is equally likely, exactly.

Draws (``mazzo.core.shuffle``, all of ``seed``): sample ``j`` (from 0) uses the
draw numbers ``64 j`` onwards: ``64 j`` gives the sample's generator seed (the shuffle
of later deals, which a view zeroes), ``64 j + 1 + 2 i`` the split of class ``i``,
``64 j + 2 + 2 i`` the shuffle of class ``i`` (a draw with a single outcome is
skipped). The generator counter is the one play reaches, the deal number + 1.
"""

from __future__ import annotations

from bisect import bisect_right
from math import factorial
from typing import Final, NamedTuple

from mazzo.core.errors import InvalidArgument, InvalidState, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa.cards import BIT, DECK, SUIT, SUIT_MASK, THIRDS, cards_of
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.options import TrionfoAuction
from mazzo.games.maraffa.scoring import LAST_TRICK_THIRDS
from mazzo.games.maraffa.trionfo.scoring import decide, signori_mask
from mazzo.games.maraffa.trionfo.state import (
    NO_CARD,
    NO_SEAT,
    PASSED,
    SEATS,
    TRICKS,
    TPhase,
    TrionfoState,
)
from mazzo.games.maraffa.trionfo.validate import validate
from mazzo.games.maraffa.trionfo.view import TrionfoView

V = "view.maraffa."
VT: Final = V + "trionfo."
#: Draw numbers per sample (see the module docstring): 1 + 2 per class, at most 16
#: classes (the subsets of the four other seats).
STRIDE: Final = 64
_FACT: Final = [factorial(n) for n in range(len(DECK) + 1)]
#: Speeches of an auction at most: 4 rising bids and 4 passes (the declarer never
#: passes); with no bid, 5 passes. Under ``single_round``, 5.
MAX_SPEECHES: Final = 8
PLAYS: Final = SEATS * TRICKS


class _Class(NamedTuple):
    """Unseen cards with the same allowed holders (``seats``: indexes into the others)."""

    seats: tuple[int, ...]
    cards: tuple[int, ...]


class _Node(NamedTuple):
    """The splits of one class for given free places: cumulative counts and splits."""

    total: int
    cumulative: tuple[int, ...]
    splits: tuple[tuple[int, ...], ...]


class _Plan(NamedTuple):
    """Everything a view tells about the unseen cards, ready to draw from."""

    others: tuple[int, ...]
    classes: tuple[_Class, ...]
    nodes: dict[tuple[int, tuple[int, ...]], _Node]
    sizes: tuple[int, ...]


# --------------------------------------------------------------------------- reading a view


def _plays(view: TrionfoView) -> list[tuple[int, int, int, int]]:
    """Every card played this deal as (trick index, seat, card, suit led)."""
    out = []
    for k, trick in enumerate((*view.tricks, view.trick)):
        if not trick.cards:
            continue
        led = SUIT[trick.cards[0]]
        for i, c in enumerate(trick.cards):
            out.append((k, (trick.leader + i) % SEATS, c, led))
    return out


def _trick_field(view: TrionfoView, k: int) -> str:
    return f"{V}tricks[{k}]" if k < len(view.tricks) else V + "current_trick"


def _voids(view: TrionfoView) -> list[int]:
    """Per seat, a mask of the suits it has shown void in; refuses a play of a suit
    after its player showed void in it (no deal makes that legal)."""
    voids = [0] * SEATS
    for k, seat, c, led in _plays(view):
        suit = SUIT[c]
        if voids[seat] >> suit & 1:
            raise InvalidArgument(
                _trick_field(view, k) + ".cards",
                f"seat {seat} plays a card of a suit it showed void in",
            )
        if suit != led:
            voids[seat] |= 1 << led
    own = sum(BIT[c] for c in view.hand)
    for suit in range(4):
        if voids[view.seat] >> suit & 1 and own & SUIT_MASK[suit]:
            raise InvalidArgument(
                V + "hand", f"the hand holds a card of a suit seat {view.seat} showed void in"
            )
    return voids


def _undecided_holders(view: TrionfoView, seats: tuple[int, ...]) -> tuple[int, ...]:
    """With ``trionfo_stop_when_decided``, a deal under CHIAMO still being played rules
    out every holder of the called card with whom the contract would be decided."""
    winners = [t.winner for t in view.tricks]
    thirds = [sum(THIRDS[c] for c in t.cards) for t in view.tricks]
    if len(thirds) == TRICKS:
        thirds[-1] += LAST_TRICK_THIRDS
    declarer, contract = view.declarer, view.contract
    return tuple(
        s
        for s in seats
        if decide(contract, declarer, signori_mask(contract, declarer, s), winners, thirds)[0]
        is None
    )


def _holders(view: TrionfoView, unseen: int) -> dict[int, tuple[int, ...]]:
    """The seats that may hold each unseen card, where fewer than every other seat."""
    seat = view.seat
    others = tuple(s for s in range(SEATS) if s != seat)
    only: dict[int, tuple[int, ...]] = {}
    table = view.table
    first_card = table.options.trionfo_first_speaker_card
    if table.deal_number == 1 and unseen & BIT[first_card]:
        # A.2.2: deal 1's first speaker is the seat dealt this card.
        only[first_card] = (table.first_speaker,) if table.first_speaker != seat else ()
        if not only[first_card]:
            raise InvalidArgument(
                VT + "first_speaker",
                "deal 1's first speaker was dealt trionfo_first_speaker_card, "
                "which this seat neither holds nor played",
            )
    called = view.called_card
    if called != NO_CARD and unseen & BIT[called]:
        if view.amico != NO_SEAT:
            allowed: tuple[int, ...] = (view.amico,) if view.amico != seat else ()
            if not allowed:
                raise InvalidArgument(
                    VT + "amico", "the amico holds the called card, which this seat does not see"
                )
        else:
            allowed = others
            if (
                view.phase is TPhase.PLAY
                and table.options.trionfo_stop_when_decided
                and view.contract == Contract.CHIAMO
            ):
                allowed = _undecided_holders(view, others)
                if not allowed:
                    raise InvalidArgument(
                        V + "tricks",
                        "trionfo_stop_when_decided: the deal would have ended, whoever is amico",
                    )
        previous = only.get(called, others)
        both = tuple(s for s in previous if s in allowed)
        if not both:
            raise InvalidArgument(
                VT + "called_card", "no seat may hold the called card and the first speaker's card"
            )
        only[called] = both
    return only


def _plan(view: TrionfoView) -> _Plan:
    """The classes of unseen cards and the counts to draw them with; refuses a view
    that no placement of the unseen cards can give."""
    seat = view.seat
    others = tuple(s for s in range(SEATS) if s != seat)
    own = 0
    for c in view.hand:
        own |= BIT[c]
    seen = own
    for _, _, c, _ in _plays(view):
        seen |= BIT[c]
    unseen = sum(BIT[c] for c in DECK) & ~seen
    sizes = tuple(view.hand_sizes[s] for s in others)
    if sum(sizes) != unseen.bit_count():
        raise InvalidArgument(
            V + "hand_sizes",
            f"the other hands hold {unseen.bit_count()} unseen cards, not {sum(sizes)}",
        )
    voids = _voids(view)
    only = _holders(view, unseen)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in cards_of(unseen):
        allowed = only.get(c, others)
        key = tuple(i for i, s in enumerate(others) if s in allowed and not voids[s] >> SUIT[c] & 1)
        if not key:
            raise InvalidArgument(
                V + "tricks", "every seat that may hold an unseen card has shown void in its suit"
            )
        groups.setdefault(key, []).append(c)
    classes = tuple(
        _Class(key, tuple(cards))
        for key, cards in sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0]))
    )
    nodes: dict[tuple[int, tuple[int, ...]], _Node] = {}
    # What the classes from i on may put in each hand at most: prunes every split
    # that would leave a hand unfillable (so the last class's split is forced).
    room = [[0] * len(others) for _ in range(len(classes) + 1)]
    for i in range(len(classes) - 1, -1, -1):
        room[i] = list(room[i + 1])
        for s in classes[i].seats:
            room[i][s] += len(classes[i].cards)
    if _count(classes, room, 0, sizes, nodes) == 0:
        raise InvalidArgument(
            V + "hand_sizes", "no deal of the unseen cards fits the hand sizes and the voids shown"
        )
    return _Plan(others, classes, nodes, sizes)


def _splits(
    n: int, seats: tuple[int, ...], free: tuple[int, ...], after: list[int]
) -> list[tuple[int, ...]]:
    """Every way to give ``n`` cards to ``seats`` (counts per other seat) within the
    free places, leaving no more for later classes than they can fill."""
    out: list[tuple[int, ...]] = []
    k = [0] * len(free)

    def place(j: int, left: int) -> None:
        if j == len(seats):
            if left == 0 and all(free[s] - k[s] <= after[s] for s in range(len(free))):
                out.append(tuple(k))
            return
        s = seats[j]
        low = max(0, free[s] - after[s])
        for x in range(low, min(left, free[s]) + 1):
            k[s] = x
            place(j + 1, left - x)
        k[s] = 0

    place(0, n)
    return out


def _count(
    classes: tuple[_Class, ...],
    room: list[list[int]],
    i: int,
    free: tuple[int, ...],
    nodes: dict[tuple[int, tuple[int, ...]], _Node],
) -> int:
    """Placements of classes ``i``.. filling ``free`` exactly (memoised in ``nodes``)."""
    if i == len(classes):
        return 1 if not any(free) else 0
    key = (i, free)
    node = nodes.get(key)
    if node is not None:
        return node.total
    cls = classes[i]
    n = len(cls.cards)
    total = 0
    cumulative = []
    splits = []
    for split in _splits(n, cls.seats, free, room[i + 1]):
        rest = tuple(f - x for f, x in zip(free, split, strict=True))
        ways = _count(classes, room, i + 1, rest, nodes)
        if not ways:
            continue
        multinomial = _FACT[n]
        for x in split:
            multinomial //= _FACT[x]
        total += multinomial * ways
        cumulative.append(total)
        splits.append(split)
    nodes[key] = _Node(total, tuple(cumulative), tuple(splits))
    return total


# --------------------------------------------------------------------------- samples


def _sample(view: TrionfoView, plan: _Plan, seed: int, base: int) -> TrionfoState:
    hands = [0] * SEATS
    for c in view.hand:
        hands[view.seat] |= BIT[c]
    free = plan.sizes
    for i, cls in enumerate(plan.classes):
        node = plan.nodes[(i, free)]
        if len(node.splits) == 1:
            split = node.splits[0]
        else:
            r = draw_below(seed, base + 1 + 2 * i, node.total)
            split = node.splits[bisect_right(node.cumulative, r)]
        cards = cls.cards
        if len(cards) > 1 and sum(1 for x in split if x) > 1:
            cards = tuple(shuffled(cards, seed, base + 2 + 2 * i))
        at = 0
        for s, x in enumerate(split):
            for c in cards[at : at + x]:
                hands[plan.others[s]] |= BIT[c]
            at += x
        free = tuple(f - x for f, x in zip(free, split, strict=True))
    played: list[int] = []
    signals: list[int] = []
    for trick in (*view.tricks, view.trick):
        played.extend(trick.cards)
        signals.extend(trick.signals)
    table = view.table._replace(
        seed=draw_below(seed, base, 1 << 64), counter=view.table.deal_number + 1
    )
    return TrionfoState(
        table=table,
        phase=view.phase,
        to_act=view.to_act,
        hands=tuple(hands),
        bids=tuple(level for _, level in view.speeches),
        trump=view.trump,
        called_card=view.called_card,
        played=tuple(played),
        signals=tuple(signals),
    )


def _view_field(field: str) -> str:
    """The view's field for a field of a sample that ``validate`` refused."""
    if field.startswith("state.maraffa.hands"):
        return field.replace("state.maraffa.hands", V + "hand_sizes").removesuffix(".cards")
    if field.startswith(("state.maraffa.played", "state.maraffa.signals")):
        return V + "tricks"
    if field.startswith("state.maraffa.rng"):
        return "view"
    return "view." + field.removeprefix("state.")


def determinize(view: TrionfoView, count: int, seed: int) -> list[TrionfoState]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``).

    Refuses (``InvalidArgument``, naming the view's field) a view that no placement
    of the unseen cards can give, or whose public part the rules refuse.
    """
    if count < 0:
        raise InvalidArgument("count", "count must not be negative")
    if not 0 <= seed < 1 << 64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    plan = _plan(view)
    samples = [_sample(view, plan, seed, j * STRIDE) for j in range(count)]
    if samples:
        # The public part is the same in every sample, and the rest was placed as
        # the view allows: one check tells whether the rules accept the view.
        try:
            validate(samples[0])
        except InvalidState as e:
            raise InvalidArgument(_view_field(e.field), e.reason) from e
    return samples


# --------------------------------------------------------------------------- moves left


def _speeches_left(state: TrionfoState) -> int:
    """At most how many speeches the auction still has (A.3).

    Bids rise strictly through 4 levels, a seat that passed never speaks again, and
    the auction ends when every seat but the highest bidder has passed: so with a
    bid at most 4 bids and 4 passes, without one 5 passes. Under ``single_round``
    each seat speaks once.
    """
    bids = state.bids
    high = max(bids, default=0)
    if high == Contract.MASO_DEI_MASI:
        return 0
    passes = sum(1 for b in bids if b == PASSED)
    left = (Contract.MASO_DEI_MASI - high) + (SEATS - 1 - passes)
    if high == 0:
        left = max(left, SEATS - passes)
    if state.table.options.trionfo_auction is TrionfoAuction.SINGLE_ROUND:
        left = min(left, SEATS - len(bids))
    return max(left, 0)


def deal_bound(state: TrionfoState) -> int:
    """Moves in a whole deal at most: the longest auction, the declaration, 40 plays."""
    single = state.table.options.trionfo_auction is TrionfoAuction.SINGLE_ROUND
    return (SEATS if single else MAX_SPEECHES) + 1 + PLAYS


def moves_bound(state: TrionfoState, to_match_end: bool) -> int:
    """An upper bound on the moves to the end of the deal, or of the match.

    The deal: the speeches left (``_speeches_left``), one declaration unless the
    auction is already past it, and one move per card still in a hand (40 plays in
    a deal; an early stop or a thrown-in deal only shortens it).

    The match: every deal counts toward ``match_deals`` when ``count_thrown_in`` is
    true (A.7.1), so after this one at most ``match_deals - deals_counted - 1`` deals
    follow, each of at most ``deal_bound`` moves. When thrown-in deals do not count,
    nothing bounds the match (every deal may be thrown in), and no bound is given.
    """
    if state.phase is TPhase.OVER:
        return 0
    if state.phase is TPhase.AUCTION:
        hand = _speeches_left(state) + 1 + PLAYS
    elif state.phase is TPhase.DECLARE:
        hand = 1 + PLAYS
    else:
        hand = PLAYS - len(state.played)
    if not to_match_end:
        return hand
    options = state.table.options
    if not options.count_thrown_in:
        raise NotAllowedNow(
            "state.maraffa.table.options.count_thrown_in",
            "thrown-in deals do not count, so no number of moves bounds the match",
        )
    later = options.match_deals - state.table.deals_counted - 1
    return hand + max(later, 0) * deal_bound(state)


__all__ = ["deal_bound", "determinize", "moves_bound"]
