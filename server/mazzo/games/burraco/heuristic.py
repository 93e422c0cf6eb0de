"""``builtin:heuristic`` for Burraco: a greedy melder, reading only the ActRequest.

Stateless: every decision is made again from the view and the legal moves, so a
turn of several melds is a chain of independent greedy choices. What it does:

- **acquire**: take the discard pile when its cards make new melds or lay-offs
  with the hand (or bring wild cards), and the pile is not mostly dead weight;
- **meld stage**: lay off natural cards on the side's melds (longest meld first,
  towards a burraco); lay off a wild card only when it makes a burraco or the hand
  is nearly empty; open natural 3-card melds, and melds with a wild card only late
  or with a short hand; everything that empties the hand is welcome, since that
  takes the pozzetto or closes;
- **discard**: the card with the fewest partners in the hand (same rank, same suit
  close by), never a wild card while another will do, and not a card the next
  player's side could lay off; among dead cards the most valuable goes first;
- **closing**: a closing discard is taken when the side's public score plus the
  bonus is not behind the opponents' (it nearly always is against weak play).

Card ids are the shared ones (the ``Card`` enum values), so the engine's meld
tables (``melds.signature``, ``melds.accepts``) answer what can go where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mazzo.games.burraco import melds
from mazzo.games.burraco.cards import BIT, RANK, SUIT, VALUE, WILD
from mazzo.v1 import bot_pb2, burraco_pb2, game_pb2

#: A wild card stays in hand unless it completes a burraco or the hand is this short.
WILD_HAND = 3
#: A meld with a wild card is opened when the stock is this low or the hand this short.
WILD_MELD_STOCK = 12
WILD_MELD_HAND = 5
#: Taking the pile: each pile card that melds counts 1, each wild 1, each dead card
#: this much against; the pile is taken from a total of 1.
DEAD_PILE_CARD = 0.2
#: Closing bonus (burraco.md §4.2).
CLOSING_BONUS = 100
#: What an opponent's card in hand is assumed to cost him, on average.
AVERAGE_CARD = 8
_ACE_HIGH = 13


def choose(request: bot_pb2.ActRequest) -> int:
    """The index of the chosen legal move."""
    moves = request.legal_moves
    view = request.view.burraco
    kinds: list[str | None] = [m.burraco.WhichOneof("action") for m in moves]
    if "draw" in kinds or "pick_up" in kinds:
        return _acquire(request, kinds)
    hand = [int(c) for c in view.hand] or _cards_in_moves(moves)
    own, theirs = _accept_masks(request)
    # With the side's pozzetto taken, a meld leaving one card leads to a closing.
    hold_back = _has_pozzetto(view) and not _closing_pays(request)
    least = 2 if hold_back else 0
    lay_offs = [i for i, k in enumerate(kinds) if k == "lay_off" and len(hand) - 1 >= least]
    pick = _lay_off(view, moves, lay_offs, hand)
    if pick is not None:
        return pick
    opens = [i for i, k in enumerate(kinds) if k == "meld" and len(hand) - 3 >= least]
    pick = _open(view, moves, opens, hand)
    if pick is not None:
        return pick
    discards = [i for i, k in enumerate(kinds) if k == "discard"]
    if not discards:
        return 0
    return _discard(moves, discards, hand, own, theirs)


# --------------------------------------------------------------------------- acquire


def _acquire(request: bot_pb2.ActRequest, kinds: list[str | None]) -> int:
    draw = kinds.index("draw") if "draw" in kinds else None
    if "pick_up" not in kinds:
        return draw if draw is not None else 0
    pick_up = kinds.index("pick_up")
    if draw is None:
        return pick_up
    view = request.view.burraco
    pile = list(view.discard_pile)
    hand = list(view.hand)
    own, _ = _accept_masks(request)
    wilds = sum(1 for c in pile if WILD[c])
    gain = _meldable(hand + pile, own) - _meldable(hand, own)
    useful = min(len(pile), gain) + wilds
    dead = len(pile) - min(len(pile), gain + wilds)
    if view.last_turn or view.stock_size <= len(view.hand_sizes):
        dead *= 3  # little time left to meld what is taken
    return pick_up if useful - DEAD_PILE_CARD * dead >= 1 else draw


def _meldable(cards: Sequence[int], own: int) -> int:
    """How many natural cards go into melds: laid off on the side's melds, or in
    natural combinations and runs of the cards themselves (greedy, runs first)."""
    naturals = [c for c in cards if not WILD[c]]
    count = sum(1 for c in naturals if own & BIT[c])
    rest = Counter(c for c in naturals if not own & BIT[c])
    for suit in range(4):
        ranks = {RANK[c] for c in rest if SUIT[c] == suit}
        if 0 in ranks:
            ranks.add(_ACE_HIGH)
        for run in _runs(ranks):
            for r in run:
                card = 1 + 13 * suit + (r % 13)
                if rest[card]:
                    rest[card] -= 1
                    count += 1
    by_rank = Counter(RANK[c] for c in rest.elements())
    count += sum(n for n in by_rank.values() if n >= 3)
    return count


def _runs(ranks: set[int]) -> list[list[int]]:
    """Maximal runs of 3 or more consecutive positions (0 = A low … 13 = A high),
    using each ace once."""
    runs: list[list[int]] = []
    current: list[int] = []
    for r in range(_ACE_HIGH + 1):
        if r in ranks:
            current.append(r)
            continue
        if len(current) >= 3:
            runs.append(current)
        current = []
    if len(current) >= 3:
        if runs and runs[0][0] == 0 and current[-1] == _ACE_HIGH:
            current = current[:-1]  # the ace already stands low
        if len(current) >= 3:
            runs.append(current)
    return runs


# --------------------------------------------------------------------------- melding


def _lay_off(
    view: burraco_pb2.BurracoView,
    moves: Sequence[game_pb2.Move],
    indexes: list[int],
    hand: list[int],
) -> int | None:
    sizes = {m.id: len(m.cards) for m in view.melds}
    best, best_key = None, None
    for i in indexes:
        lay = moves[i].burraco.lay_off
        card = lay.cards[0]
        size = sizes.get(lay.meld_id, 0)
        if WILD[card]:
            makes_burraco = size + 1 == melds.BURRACO_SIZE
            if not (makes_burraco or len(hand) <= WILD_HAND):
                continue
        key = (not WILD[card], size, -card)
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


def _open(
    view: burraco_pb2.BurracoView,
    moves: Sequence[game_pb2.Move],
    indexes: list[int],
    hand: list[int],
) -> int | None:
    late = view.stock_size <= WILD_MELD_STOCK or len(hand) <= WILD_MELD_HAND or view.last_turn
    best, best_key = None, None
    for i in indexes:
        cards = list(moves[i].burraco.meld.cards)
        clean = _is_clean(cards)
        if not clean and not late:
            continue
        key = (clean, sum(VALUE[c] for c in cards))
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


def _is_clean(cards: Sequence[int]) -> bool:
    sig = melds.signature(cards)
    if isinstance(sig, str):
        return False
    interp = melds.interpret(sig)
    return not isinstance(interp, str) and interp.clean is melds.PULITO


# --------------------------------------------------------------------------- discarding


def _discard(
    moves: Sequence[game_pb2.Move],
    indexes: list[int],
    hand: list[int],
    own: int,
    theirs: int,
) -> int:
    best, best_key = indexes[0], None
    for i in indexes:
        card = moves[i].burraco.discard.card
        key = (_keep_value(card, hand, own, theirs), -VALUE[card], card)
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


def _keep_value(card: int, hand: list[int], own: int, theirs: int) -> float:
    """How much the hand would miss this card; the lowest is discarded."""
    if WILD[card]:
        return 100.0
    value = 0.0
    if own & BIT[card]:
        value += 40.0  # it fits a meld of ours (a dead end kept it in hand)
    if theirs & BIT[card]:
        value += 30.0  # the next player could lay it off
    rank, suit = RANK[card], SUIT[card]
    copies = 0
    for other in hand:
        if WILD[other]:
            continue
        if RANK[other] == rank:
            copies += 1
        elif SUIT[other] == suit:
            gap = min(abs(RANK[other] - rank), 13 - abs(RANK[other] - rank))
            if gap == 1:
                value += 8.0
            elif gap == 2:
                value += 4.0
    copies -= 1  # the card itself
    value += 10.0 * copies
    return value


def _closing_pays(request: bot_pb2.ActRequest) -> bool:
    """Is ending the hand now at least as good for us as for the others, on what is
    public (melds and burracos) and the cards they would be left holding?"""
    view = request.view.burraco
    mine = set(view.side)
    ours = theirs = 0
    for side in view.public_scores:
        points = side.melded + side.bonuses
        if mine & set(side.seats):
            ours = points + CLOSING_BONUS
        else:
            held = sum(view.hand_sizes[s] for s in side.seats if s < len(view.hand_sizes))
            theirs = max(theirs, points - AVERAGE_CARD * held)
    return ours >= theirs


# --------------------------------------------------------------------------- helpers


def _accept_masks(request: bot_pb2.ActRequest) -> tuple[int, int]:
    """The cards that may be laid off alone on our side's melds, and on the melds of
    the next player's side."""
    view = request.view.burraco
    players = len(view.hand_sizes) or 1
    me = request.seat
    nxt = (me + 1) % players
    own = theirs = 0
    for m in view.melds:
        sig = melds.signature(tuple(m.cards))
        if isinstance(sig, str):
            continue
        side = set(m.side) or {m.seat}
        if me in side:
            own |= melds.accepts(sig)
        elif nxt in side:
            theirs |= melds.accepts(sig)
    return own, theirs


def _has_pozzetto(view: burraco_pb2.BurracoView) -> bool:
    mine = set(view.side)
    return any(p.HasField("taken_by") and p.taken_by in mine for p in view.pozzetti)


def _cards_in_moves(moves: Sequence[game_pb2.Move]) -> list[int]:
    """The hand as the discards list it, when the view hides it (a locked pozzetto)."""
    return [int(m.burraco.discard.card) for m in moves if m.burraco.HasField("discard")]
