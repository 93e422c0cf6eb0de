"""``builtin:heuristic`` for Ramino: a closure hunter, reading only the ActRequest.

Its measure of a hand is *coverage*: the most cards that disjoint simple
combinations (sets, runs; ramino.md §3.5.3) can hold, one of them allowed a gap
that the imaginary joker fills (the joker is then one more card of the hand), plus
a little for the pairs among the rest that could still become combinations. Ten
covered cards are a closure. From that:

- **bidding**: open, raise or accept up to a stake that grows with the coverage of
  the cards dealt (the maximum when the engine's ``best_closure`` says they close
  already); pass above it (a blind opening is never made: the cards are unseen);
- **taking**: the pile's top card when it raises the coverage, else the stock;
- **discarding**: a card that no best cover uses, the one with the fewest
  partners; if every card is covered, the discard whose ten cards cover best;
- **closing**: whenever a ``CLOSE`` is legal, the one whose ten cards make the best
  closure (the engine's ``best_closure`` on the bot's own cards).

Stateless and deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from mazzo.games.ramino.cards import RANK, SUIT
from mazzo.games.ramino.closures import best_closure
from mazzo.v1 import bot_pb2, game_pb2, ramino_pb2

#: Coverage of the dealt cards -> the stake the bot plays to, as a fraction of the
#: maximum (first entry whose coverage is reached).
STAKES = ((7.0, 1.0), (5.0, 0.6), (3.0, 0.3))
#: Below the lowest entry the bot still plays for at most this many chips.
CHEAP = 1
#: Worth of a pair of leftover cards that could still become a combination.
PARTIAL = 0.25
_ACE_HIGH = 13
CLOSURE_SIZE = 10


def choose(request: bot_pb2.ActRequest) -> int:
    """The index of the chosen legal move."""
    moves = request.legal_moves
    view = request.view.ramino
    kinds: list[str | None] = [m.ramino.WhichOneof("action") for m in moves]
    dup = view.table.options.set_duplicate_suits
    jokers = view.table.options.imaginary_jokers
    hand = tuple(sorted(int(c) for c in view.hand))
    if "no_buio" in kinds:
        return kinds.index("no_buio")
    if "close" in kinds:
        return _best_close(moves, kinds, hand, jokers, dup)
    if "draw" in kinds or "take_discard" in kinds:
        return _take(view, kinds, hand, jokers, dup)
    if "discard" in kinds:
        return _discard(moves, kinds, hand, jokers, dup)
    return _bid(view, moves, kinds, request.seat, hand, jokers, dup)


# --------------------------------------------------------------------------- coverage


def coverage(cards: Sequence[int], jokers: int = 1, dup: bool = False) -> tuple[float, int]:
    """(score, mask of the cards left out by a best cover) of a hand."""
    return _coverage(tuple(sorted(cards)), jokers, dup)


@lru_cache(maxsize=1 << 14)
def _coverage(cards: tuple[int, ...], jokers: int, dup: bool) -> tuple[float, int]:
    n = len(cards)
    full = (1 << n) - 1
    combos = _combos(cards, jokers > 0, dup)
    by_low: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for mask, wild in combos:
        by_low[(mask & -mask).bit_length() - 1].append((mask, wild))
    memo: dict[tuple[int, int], tuple[int, int]] = {}

    def search(used: int, wild: int) -> tuple[int, int]:
        """(real cards covered, joker placed) best from here; lowest free card first."""
        if used == full:
            return 0, 0
        key = (used, wild)
        got = memo.get(key)
        if got is not None:
            return got
        low = ((~used & full) & -(~used & full)).bit_length() - 1
        best_covered, best_wild = search(used | 1 << low, wild)  # leave it out
        best = (best_covered + best_wild, best_covered, best_wild)
        for mask, w in by_low[low]:
            if mask & used or (w and wild):
                continue
            covered, placed = search(used | mask, wild | w)
            covered += mask.bit_count()
            placed |= w
            if covered + placed > best[0]:
                best = (covered + placed, covered, placed)
        memo[key] = (best[1], best[2])
        return memo[key]

    covered, placed = search(0, 0)
    joker = 1 if placed and covered < n else 0
    # Replay the search's choices for one best cover; its leftovers are discardable.
    used = wild = cover = 0
    while used != full:
        low = ((~used & full) & -(~used & full)).bit_length() - 1
        want = search(used, wild)
        step = (1 << low, 0, 0)
        for mask, w in by_low[low]:
            if mask & used or (w and wild):
                continue
            rest, rest_placed = search(used | mask, wild | w)
            if (rest + mask.bit_count(), rest_placed | w) == want:
                step = (mask, w, mask)
                break
        used, wild, cover = used | step[0], wild | step[1], cover | step[2]
    left = full & ~cover
    partial = PARTIAL * _pairs([cards[i] for i in range(n) if left >> i & 1])
    return covered + joker + partial, left


def _combos(cards: tuple[int, ...], wild: bool, dup: bool) -> list[tuple[int, int]]:
    """Every simple combination of the hand's cards as (mask of indices, uses the
    joker): sets of 3-4 cards (distinct suits unless ``dup``), runs of 3 or more;
    with ``wild``, also those that one imaginary card completes."""
    out: set[tuple[int, int]] = set()
    by_rank: dict[int, list[int]] = {}
    first: dict[int, int] = {}
    for i, c in enumerate(cards):
        by_rank.setdefault(RANK[c], []).append(i)
        first.setdefault(c, i)
    for idx in by_rank.values():
        for size in (2, 3, 4):
            for pick in combinations(idx, size):
                suits = [SUIT[cards[i]] for i in pick]
                if not dup and len(set(suits)) != size:
                    continue
                mask = sum(1 << i for i in pick)
                if size >= 3:
                    out.add((mask, 0))
                if wild and size <= 3:
                    out.add((mask, 1))
    for suit in range(4):
        at = [first.get(1 + 13 * suit + (p % 13), -1) for p in range(_ACE_HIGH + 1)]
        for start in range(_ACE_HIGH + 1):
            mask, missing = 0, 0
            for length in range(1, _ACE_HIGH + 1 - start + 1):
                pos = start + length - 1
                if pos > _ACE_HIGH or length > 13:
                    break
                i = at[pos]
                if i < 0:
                    missing += 1
                    if missing > (1 if wild else 0):
                        break
                else:
                    mask |= 1 << i
                if length >= 3 and mask.bit_count() >= 2:
                    if missing == 0:
                        out.add((mask, 0))
                    elif wild:
                        out.add((mask, 1))
    return sorted(out)


def _pairs(cards: list[int]) -> int:
    """Pairs of cards that one more card would make a combination."""
    count = 0
    for a, b in combinations(cards, 2):
        same_rank = RANK[a] == RANK[b] and a != b
        if same_rank or (SUIT[a] == SUIT[b] and 0 < _distance(a, b) <= 2):
            count += 1
    return count


def _distance(a: int, b: int) -> int:
    d = abs(RANK[a] - RANK[b])
    return min(d, 13 - d) if 0 in (RANK[a], RANK[b]) else d


# --------------------------------------------------------------------------- play


def _best_close(
    moves: Sequence[game_pb2.Move],
    kinds: list[str | None],
    hand: tuple[int, ...],
    jokers: int,
    dup: bool,
) -> int:
    best, best_k = -1, -1
    for i, kind in enumerate(kinds):
        if kind != "close":
            continue
        discard = moves[i].ramino.close.discard
        ten = list(hand)
        if discard and discard in ten:
            ten.remove(discard)
        k = best_closure(ten, jokers, dup).multiplier if len(ten) == CLOSURE_SIZE else 1
        if k > best_k:
            best, best_k = i, k
    return best


def _take(
    view: ramino_pb2.RaminoView,
    kinds: list[str | None],
    hand: tuple[int, ...],
    jokers: int,
    dup: bool,
) -> int:
    draw = kinds.index("draw") if "draw" in kinds else None
    if "take_discard" not in kinds or not view.pile:
        return draw if draw is not None else 0
    take = kinds.index("take_discard")
    if draw is None:
        return take
    top = view.pile[-1]
    now, _ = coverage(hand, jokers, dup)
    after, _ = coverage((*hand, top), jokers, dup)
    return take if int(after) > int(now) else draw


def _discard(
    moves: Sequence[game_pb2.Move],
    kinds: list[str | None],
    hand: tuple[int, ...],
    jokers: int,
    dup: bool,
) -> int:
    options = {int(moves[i].ramino.discard.card): i for i, k in enumerate(kinds) if k == "discard"}
    _, left = coverage(hand, jokers, dup)
    loose = [hand[i] for i in range(len(hand)) if left >> i & 1 and hand[i] in options]
    if loose:
        card = min(loose, key=lambda c: (_partners(c, hand), -RANK[c], c))
        return options[card]
    best, best_score = next(iter(options.values())), -1.0
    for card, i in options.items():
        rest = list(hand)
        rest.remove(card)
        score, _ = coverage(rest, jokers, dup)
        if score > best_score:
            best, best_score = i, score
    return best


def _partners(card: int, hand: tuple[int, ...]) -> int:
    return sum(
        1
        for c in hand
        if c != card
        and (RANK[c] == RANK[card] or (SUIT[c] == SUIT[card] and _distance(c, card) <= 2))
    )


# --------------------------------------------------------------------------- bidding


def _bid(
    view: ramino_pb2.RaminoView,
    moves: Sequence[game_pb2.Move],
    kinds: list[str | None],
    seat: int,
    hand: tuple[int, ...],
    jokers: int,
    dup: bool,
) -> int:
    options = view.table.options
    strength, _ = coverage(hand, jokers, dup) if hand else (0.0, 0)
    top = max(options.max_stake, 1)
    want = CHEAP
    for floor, share in STAKES:
        if strength >= floor:
            want = max(CHEAP, round(share * top))
            break
    if len(hand) == CLOSURE_SIZE and best_closure(hand, jokers, dup).multiplier:
        want = top  # dealt a closure already: it closes at its first turn
    stake = view.bets.stake
    committed = view.bets.committed[seat] if seat < len(view.bets.committed) else 0
    amounts = {
        i: m.ramino.open_bid.amount if k == "open_bid" else m.ramino.raise_bid.amount
        for i, (k, m) in enumerate(zip(kinds, moves, strict=True))
        if k in ("open_bid", "raise_bid")
    }
    within = {i: a for i, a in amounts.items() if a <= want and a > stake}
    if within and want > stake:
        return max(within, key=lambda i: within[i])
    for kind in ("accept_bid", "stand_bid"):
        if kind in kinds and (stake <= want or committed * 2 >= stake or kind == "stand_bid"):
            return kinds.index(kind)
    if "pass_bid" in kinds:
        return kinds.index("pass_bid")
    return 0
