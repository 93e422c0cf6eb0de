"""Ramino: the hidden cards of a view, dealt anew (``Rules.determinize``), and the bound
on the moves left (``Rules.moves_bound``).

A sample is a whole state whose view for the viewer is the given one: the public part
is copied, the hidden hands and the stock are dealt anew, uniformly over every deal
the view allows, copies of a code being alike (a hand is a multiset, the stock a
sequence of codes). ``hidden.py`` reads what the view allows; here the deals are drawn.

**Drawing.** A deal is drawn from a counted superset of the deals that fit (``Plan``)
and kept if it fits (``hidden.Model.fit``, exact), else drawn again: the kept deals
are exactly uniform. The superset: the unknown cards (the deck less the hands shown,
the pile and the cards known to be in a hand) are grouped in classes of codes alike
for what the record says of them; the stock is filled first, class by class (without
a reshuffle with anything; after one with cards of the last reshuffle only, the
unnamed up card aside), which fixes how many copies of each code were drawn after it
and so which copies must be kept by players who drew; then the hidden hands of the
players who drew after a reshuffle, one by one (at most one copy kept per draw, at
least as many drawn codes held as draws the public record cannot fill), and last the
other hidden hands, alike, counted together. A dynamic programme counts the deals
(the stock as its distinct orders: its length factorial over 2 per code it holds
twice); one number below the total picks a deal by unranking it, and the stock's
order is a shuffle of its cards. Without a reshuffle the superset is exact (the cards
taken and kept are the only constraint) and nothing is drawn again.

**Seed.** Attempt ``a`` (from 0) uses draws ``3a`` (the deal), ``3a + 1`` (the stock's
order) and ``3a + 2`` (the sample's own generator seed) of the request's seed
(``core.shuffle``); samples are the kept attempts in order, so a longer request
begins with the same samples. The sample's generator counter is ``1 + hand number +
reshuffles``, the least the real one can be, and its seed is drawn: so later deals
and reshuffles are drawn too, never carried over.

Nothing is inferred from how anyone bid or played: a card is placed only by what the
record makes certain or impossible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from math import comb
from typing import Final

from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.ramino.cards import CODES, DECK
from mazzo.games.ramino.hidden import Deal, Model, Record, V, chain_capacity, read_record
from mazzo.games.ramino.rules import PILE_TURNS_PER_PLAYER
from mazzo.games.ramino.state import Phase, Source, State, Status, pile_streak
from mazzo.games.ramino.validate import validate
from mazzo.games.ramino.view import View

#: Players whose draws after the last reshuffle the stock's programme follows.
TRACKED: Final = 3
#: Steps of the programme before it is redone without the drawers' lower bounds (it
#: then counts faster and draws more deals that ``Model.fit`` refuses): about 0.3 s.
WORK_LIMIT: Final = 300_000


class _TooBig(Exception):
    """The programme outgrew WORK_LIMIT."""


#: Attempts before a view is declared one no deal fits: for the first sample, then
#: per further sample. In the views measured at worst about one deal drawn in 40
#: fits; an attempt costs a millisecond or two, so a view no deal fits (a hostile or
#: careless one) costs a few seconds, not a minute.
FIRST_ATTEMPTS: Final = 2_000
ATTEMPTS_PER_SAMPLE: Final = 100
SEED_LIMIT: Final = 2**64


#: What is left of a code for the hands once the stock has taken its copies: the
#: copies left; how many of them must be kept by players who drew after a reshuffle
#: (copies they drew that no public discard and no shown hand accounts for, each using
#: one of the holder's draws); and whether a copy held could be one such draw (some
#: copy of the code was drawn after a reshuffle), so could fill one of its holder's
#: draws.
Rest = tuple[int, int, int]
RESTS: Final[tuple[Rest, ...]] = (
    (1, 0, 0),
    (2, 0, 0),
    (1, 0, 1),
    (2, 0, 1),
    (1, 1, 1),
    (2, 1, 1),
    (2, 2, 1),
)
#: A stock choice of a class: (copies, whether it shows the unnamed up card, the rest
#: index or -1, per shown hand with draws after the last reshuffle the draws of his
#: that the copies drawn can fill).
Choice = tuple[int, bool, int, tuple[int, ...]]
#: A state of the stock's programme: the stock's cards so far, whether it holds the
#: unnamed up card, the codes of each rest, the draws of each shown hand filled so far.
Stocked = tuple[int, int, tuple[int, ...], tuple[int, ...]]
Hand = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]


class Plan:
    """The deals a view allows as far as each code and each hand can tell, counted and
    ready to draw from.

    Every draw after a reshuffle took one of that reshuffle's cards, and each of those
    cards was taken by one draw. The programme keeps what can be counted of this:

    - the stock is filled first, class by class (codes alike in their unknown copies
      and in what the record says of them): the copies it takes fix how many were
      drawn after the last reshuffle; those the public record cannot account for (a
      flow for that code alone, with no hidden card kept) must be kept in the hands of
      players who drew, each one using one of the holder's draws;
    - a shown hand's draws after the last reshuffle need cards drawn that it can
      account for: the copies left out of the stock must give it enough;
    - then the hidden hands take the rest, those of players who drew after a
      reshuffle first: one with ``m`` such draws keeps at most ``m`` of the copies
      that must be kept and (at ``level`` 2) holds at least as many copies of drawn
      codes as his draws the public record cannot fill (the same flow, his draws
      only; the players most likely to lack cards, ``TRACKED`` of them, are followed
      through the stock's choices); the other hands, which may keep none, are alike
      and counted together.

    These are necessary conditions; ``Model.fit`` decides exactly."""

    def __init__(self, record: Record, model: Model | None, level: int = 2) -> None:
        self.record = record
        self.model = model
        self.level = level
        self._work = 0
        self._limit = WORK_LIMIT if level == 2 else -1
        draws: Counter[int] = Counter()
        if model is not None:
            draws = Counter(record.slots[i].seat for i in model.late)
        # hands of players who drew after a reshuffle first; the others are alike
        # for the programme and are counted together at the end
        seats = tuple(sorted(record.hidden, key=lambda s: not draws[s]))
        self.seats = seats
        self.drawers = sum(1 for s in seats if draws[s])
        self.needs = tuple(record.sizes[s] - len(record.forced[s]) for s in seats)
        self.stock = record.stock_size
        unknown = Counter(DECK)
        for s, shown in enumerate(record.known):
            unknown.subtract(shown if shown is not None else record.forced[s])
        unknown.subtract(record.pile)
        if any(unknown[c] < 0 for c in CODES):
            raise InvalidArgument(V + "pile", "the view shows a card more than twice")
        if sum(unknown.values()) != sum(self.needs) + self.stock:
            raise InvalidArgument(V + "hand_sizes", "the sizes do not add up to 104 cards")
        r = record.reshuffles
        self.wild = record.wild and r == 1
        self._held = [
            Counter(shown if shown is not None else record.forced[s])
            for s, shown in enumerate(record.known)
        ]
        budgets = [0] * len(seats)
        #: Per hidden hand: draws of his before the last reshuffle that the public
        #: record cannot fill (so copies he must hold).
        earlier = [0] * len(seats)
        trackers: list[tuple[int, int]] = []
        fixed: list[int] = []
        candidates: list[tuple[int, int, int, int]] = []
        if model is not None:
            segment = Counter((record.slots[i].seat, record.slots[i].segment) for i in model.late)
            sets = [Counter(cards) for cards in record.reshuffled]
            for k, s in enumerate(seats):
                budgets[k] = draws[s]
                for j in range(1, r if level >= 2 else 1):
                    alone = [q if i == j - 1 else Counter() for i, q in enumerate(sets)]
                    filled = model.feed(s, self._held, alone, int(record.wild and j == 1))
                    earlier[k] += segment[s, j] - filled
            for s in range(record.players):
                m = segment[s, r]
                if not m:
                    continue
                # the draws codes with no unknown copy fill whatever the stock holds,
                # and the most the others can fill (when the stock holds none of them)
                fill = most = 0
                for c in CODES:
                    chain = model.chain(s, c, r)
                    if chain is not None:
                        room = chain_capacity(chain, self._held[s][c])
                        part = min(record.reshuffled[-1].count(c), room)
                        most += part
                        fill += 0 if unknown[c] else part
                if fill < m and (level >= 2 or (level and record.known[s] is not None)):
                    candidates.append((most - m, s, m, fill))
            # the programme follows the players most likely to lack cards, a few only
            for _, s, m, fill in sorted(candidates)[:TRACKED]:
                trackers.append((s, m))
                fixed.append(fill)
        #: Per hidden hand: his draws after a reshuffle (the most copies he may keep).
        self.budgets = tuple(budgets)
        self.earlier = tuple(earlier)
        #: The players whose draws after the last reshuffle may lack cards: (seat, draws).
        self.trackers = tuple(trackers)
        classes: dict[tuple[int, tuple[Choice, ...]], list[int]] = {}
        for c in CODES:
            if unknown[c]:
                key = (unknown[c], self._choices(c, unknown[c]))
                classes.setdefault(key, []).append(c)
        self.classes = tuple(sorted(classes.items()))
        self._stock_memo: dict[tuple[int, Stocked], int] = {}
        self._hand_memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
        self._free_memo: dict[tuple[int, int, int], int] = {}
        self._prepare()
        start: Stocked = (0, 0, (0,) * len(RESTS), tuple(fixed))
        self.start = start
        self.total = self._count_stock(0, start)
        self._limit = -1
        if not self.total:
            raise InvalidArgument(V + "turns", "no deal of the hidden cards fits this record")

    def _floors(self, state: Stocked) -> tuple[int, ...] | None:
        """At the end of the stock's programme: per hidden hand, the least copies of
        drawn codes he must hold; None if a shown hand's draws cannot all be filled."""
        _, up, _, fills = state
        spare = 1 if self.wild and not up else 0
        floors = list(self.earlier)
        for (s, m), f in zip(self.trackers, fills, strict=True):
            short = m - f - spare
            if self.record.known[s] is not None:
                if short > 0:
                    return None
            else:
                floors[self.seats.index(s)] += short
        return tuple(max(0, f) for f in floors)

    def _choices(self, c: int, left: int) -> tuple[Choice, ...]:
        """What the stock may take of ``c`` (see ``Choice``)."""
        model = self.model
        if model is None:
            return tuple((x, False, _rest_index(left - x, 0, 0), ()) for x in range(left + 1))
        record = self.record
        held = [h[c] for h in self._held]
        base = [cards.count(c) for cards in record.reshuffled]
        r = len(base)
        caps = []
        for s, _ in self.trackers:
            chain = model.chain(s, c, r)
            caps.append(chain_capacity(chain, held[s]) if chain is not None else 0)
        out = []
        for x in range(min(left, base[-1] + (1 if self.wild else 0)) + 1):
            quotas = list(base)
            shows_up = x > quotas[-1]
            quotas[-1] = max(0, quotas[-1] - x)
            need = sum(quotas) - model.alone(c, held, quotas) if self.level else 0
            if need <= left - x:
                feed = 1 if need or (sum(quotas) and self.level >= 2) else 0
                fills = tuple(min(quotas[-1], cap) for cap in caps)
                out.append((x, shows_up, _rest_index(left - x, need, feed), fills))
        return tuple(out)

    # ------------------------------------------------------------------ counting

    def _prepare(self) -> None:
        """The moves of each class for the stock, once."""
        self._stock_table = []
        high = [0] * (len(self.classes) + 1)
        low = [0] * (len(self.classes) + 1)
        for key, codes in self.classes:
            options = key[1]
            if not options:
                raise InvalidArgument(V + "turns", "no place fits a hidden card of this record")
            doubled = len(codes) if any(x == 2 for x, _, _, _ in options) else 0
            moves = []
            for split in _splits(len(codes), len(options)):
                took = twice = ups = 0
                delta = [0] * len(RESTS)
                fills = [0] * len(self.trackers)
                for (x, is_up, rest, fill), m in zip(options, split, strict=True):
                    took += x * m
                    twice += m if x == 2 else 0
                    ups += m if is_up else 0
                    if rest >= 0:
                        delta[rest] += m
                    for k, f in enumerate(fill):
                        fills[k] += f * m
                if ups > 1:
                    continue
                # a stock holding a code twice has half as many distinct orders: every
                # weight is scaled by 2 ** (codes that could be doubled - codes doubled)
                ways = _multinomial(len(codes), split) << (doubled - twice)
                moves.append((ways, took, ups, tuple(delta), tuple(fills), split))
            self._stock_table.append(moves)
        for k in range(len(self.classes) - 1, -1, -1):
            key, codes = self.classes[k]
            takes = [x for x, _, _, _ in key[1]]
            high[k] = high[k + 1] + len(codes) * max(takes)
            low[k] = low[k + 1] + len(codes) * min(takes)
        self._high = high
        self._low = low

    def _count_stock(self, k: int, state: Stocked) -> int:
        key = (k, state)
        memo = self._stock_memo
        if key in memo:
            return memo[key]
        filled, _, rests, _ = state
        total = 0
        if k == len(self.classes):
            floors = self._floors(state)
            if filled == self.stock and floors is not None:
                total = self._count_hands(0, rests, floors)
        elif filled + self._low[k] <= self.stock <= filled + self._high[k]:
            for ways, after, _ in self._stock_moves(k, state):
                total += ways * self._count_stock(k + 1, after)
        memo[key] = total
        return total

    def _stock_moves(
        self, k: int, state: Stocked
    ) -> Iterator[tuple[int, Stocked, tuple[int, ...]]]:
        """Ways the stock can take copies of class ``k``: (weight, state after, codes per
        choice of the class)."""
        filled, up, rests, fills = state
        room = self.stock - filled
        self._work += len(self._stock_table[k])
        if self._work > self._limit >= 0:
            raise _TooBig
        for ways, took, ups, delta, more, split in self._stock_table[k]:
            if took > room or up + ups > 1:
                continue
            after = tuple(a + d for a, d in zip(rests, delta, strict=True))
            fed = tuple(
                min(m, f + g) for f, g, (_, m) in zip(fills, more, self.trackers, strict=True)
            )
            yield ways, (filled + took, up + ups, after, fed), split

    def _count_hands(self, place: int, rests: tuple[int, ...], floors: tuple[int, ...]) -> int:
        later = floors[place:]
        if not any(later):
            rests = _unfed(rests)
        key = (place, rests, later)
        memo = self._hand_memo
        if key in memo:
            return memo[key]
        if place == self.drawers:
            free = _free_counts(rests)
            total = 0 if free is None else self._count_free(place, *free)
        else:
            totals = [0]

            def leaf(ways: int, after: tuple[int, ...], picks: tuple[tuple[int, ...], ...]) -> None:
                totals[0] += ways * self._count_hands(place + 1, after, floors)

            self._walk_hand(place, rests, floors[place], leaf)
            total = totals[0]
        memo[key] = total
        return total

    def _count_free(self, place: int, singles: int, doubles: int) -> int:
        """Ways the hands of players who did not draw after a reshuffle, from
        ``place`` on, take ``singles`` codes with one copy left and ``doubles`` with
        two: any hand may take any of them."""
        key = (place, singles, doubles)
        memo = self._free_memo
        if key in memo:
            return memo[key]
        if place == len(self.seats):
            total = 1 if not singles and not doubles else 0
        else:
            total = 0
            for ways, x, y, z in _free_moves(self.needs[place], singles, doubles):
                total += ways * self._count_free(place + 1, singles - x + z, doubles - y - z)
        memo[key] = total
        return total

    def _walk_hand(
        self,
        place: int,
        rests: tuple[int, ...],
        floor: int,
        leaf: Callable[[int, tuple[int, ...], tuple[tuple[int, ...], ...]], None],
    ) -> None:
        """Every way hand ``place`` can take its cards holding at least ``floor`` copies
        of drawn codes, in a fixed order: ``leaf(ways, rests after, per rest the codes
        taking each of its choices)``."""
        need = self.needs[place]
        budget = self.budgets[place]
        drawn = bool(budget)
        tables = [_hand_table(drawn, i, n) for i, n in enumerate(rests)]
        most = [0] * (len(RESTS) + 1)
        feedable = [0] * (len(RESTS) + 1)
        for i in range(len(RESTS) - 1, -1, -1):
            most[i] = most[i + 1] + max((t[0] for t in tables[i]), default=0)
            feedable[i] = feedable[i + 1] + max((t[2] for t in tables[i]), default=0)
        picks: list[tuple[int, ...]] = [()] * len(RESTS)
        after = [0] * len(RESTS)
        last = len(RESTS)

        def walk(i: int, left: int, spent: int, fed: int, ways: int) -> None:
            self._work += 1
            if i == last:
                leaf(ways, tuple(after), tuple(picks))
                return
            low = left - most[i + 1]
            short = floor - fed - feedable[i + 1]
            for took, used, feeds, w, delta, split in tables[i]:
                if took < low or feeds < short or spent + used > budget:
                    continue
                if took > left:
                    break
                picks[i] = split
                for j in delta:
                    after[j] += 1
                walk(i + 1, left - took, spent + used, fed + feeds, ways * w)
                for j in delta:
                    after[j] -= 1

        if most[0] >= need and feedable[0] >= floor:
            walk(0, need, 0, 0, 1)
        if self._work > self._limit >= 0:
            raise _TooBig

    # ------------------------------------------------------------------ drawing

    def deal(self, rank: int) -> tuple[list[tuple[int, ...]], list[int]]:
        """The deal of number ``rank`` (below ``total``): the free cards of each hidden
        hand, and the stock's cards (sorted)."""
        state = self.start
        stock: list[int] = []
        pools: list[list[int]] = [[] for _ in RESTS]
        for k in range(len(self.classes)):
            key, codes = self.classes[k]
            for ways, after, split in self._stock_moves(k, state):
                block = self._count_stock(k + 1, after)
                if rank >= ways * block:
                    rank -= ways * block
                    continue
                index, rank = divmod(rank, block)
                index %= _multinomial(len(codes), split)
                pool = list(codes)
                for (x, _, rest, _), m in zip(key[1], split, strict=True):
                    index, i = divmod(index, comb(len(pool), m))
                    chosen = _combination(pool, m, i)
                    pool = [c for c in pool if c not in chosen]
                    stock += chosen * x
                    if rest >= 0:
                        pools[rest] += chosen
                state = after
                break
            else:  # pragma: no cover - a rank below the total always lands in a block
                raise AssertionError("rank beyond the count")
        rests = state[2]
        floors = self._floors(state)
        assert floors is not None
        pools = [sorted(p) for p in pools]
        hands: list[tuple[int, ...]] = []
        for place in range(self.drawers):
            if not any(floors[place:]):
                rests, pools = _unfed(rests), _unfed_pools(pools)
            drawn = bool(self.budgets[place])
            moves: list[Hand] = []
            self._walk_hand(place, rests, floors[place], _collect(moves))
            for ways, next_rests, picks in moves:
                block = self._count_hands(place + 1, next_rests, floors)
                if rank >= ways * block:
                    rank -= ways * block
                    continue
                index, rank = divmod(rank, block)
                cards: list[int] = []
                moved: list[list[int]] = [[] for _ in RESTS]
                for j, split in enumerate(picks):
                    pool = pools[j]
                    for (x, _, rest), m in zip(_hand_choices(drawn)[j], split, strict=True):
                        index, i = divmod(index, comb(len(pool), m))
                        chosen = _combination(pool, m, i)
                        pool = [c for c in pool if c not in chosen]
                        cards += chosen * x
                        if rest >= 0:
                            moved[rest] += chosen
                pools = [sorted(m) for m in moved]
                hands.append(tuple(sorted(cards)))
                rests = next_rests
                break
            else:  # pragma: no cover
                raise AssertionError("rank beyond the count")
        # the hands that did not draw after a reshuffle
        pools = _unfed_pools(pools)
        singles = sorted(c for i, (left, _, _) in enumerate(RESTS) if left == 1 for c in pools[i])
        doubles = sorted(c for i, (left, _, _) in enumerate(RESTS) if left == 2 for c in pools[i])
        for place in range(self.drawers, len(self.seats)):
            a, b = len(singles), len(doubles)
            for ways, x, y, z in _free_moves(self.needs[place], a, b):
                block = self._count_free(place + 1, a - x + z, b - y - z)
                if rank >= ways * block:
                    rank -= ways * block
                    continue
                index, rank = divmod(rank, block)
                index, i = divmod(index, comb(a, x))
                one = _combination(singles, x, i)
                index, i = divmod(index, comb(b, y))
                both = _combination(doubles, y, i)
                others = [c for c in doubles if c not in both]
                index, i = divmod(index, comb(len(others), z))
                halved = _combination(others, z, i)
                hands.append(tuple(sorted(one + both + both + halved)))
                singles = sorted([c for c in singles if c not in one] + halved)
                doubles = [c for c in others if c not in halved]
                break
            else:  # pragma: no cover
                raise AssertionError("rank beyond the count")
        return hands, sorted(stock)


def _collect(
    moves: list[Hand],
) -> Callable[[int, tuple[int, ...], tuple[tuple[int, ...], ...]], None]:
    def leaf(ways: int, after: tuple[int, ...], picks: tuple[tuple[int, ...], ...]) -> None:
        moves.append((ways, after, picks))

    return leaf


def _unfed(rests: tuple[int, ...]) -> tuple[int, ...]:
    """The rests with the flag "a drawn code" dropped from codes that need no keeper,
    once no hand left must hold such codes."""
    merged = list(rests)
    merged[0] += merged[2]
    merged[1] += merged[3]
    merged[2] = merged[3] = 0
    return tuple(merged)


def _unfed_pools(pools: list[list[int]]) -> list[list[int]]:
    merged = [list(p) for p in pools]
    merged[0] = sorted(merged[0] + merged[2])
    merged[1] = sorted(merged[1] + merged[3])
    merged[2] = []
    merged[3] = []
    return merged


def _free_counts(rests: Sequence[int]) -> tuple[int, int] | None:
    """The codes with one and with two copies left, if none must be kept by a drawer."""
    singles = doubles = 0
    for (left, need, _), n in zip(RESTS, rests, strict=True):
        if n and need:
            return None
        if left == 1:
            singles += n
        else:
            doubles += n
    return singles, doubles


@cache
def _free_moves(need: int, singles: int, doubles: int) -> tuple[tuple[int, int, int, int], ...]:
    """Ways a hand of ``need`` cards takes free codes: (ways, single codes taken, codes
    taken twice, codes with two copies left taken once)."""
    out = []
    for y in range(min(doubles, need // 2), -1, -1):
        for z in range(min(doubles - y, need - 2 * y), -1, -1):
            x = need - 2 * y - z
            if x <= singles:
                ways = comb(singles, x) * comb(doubles, y) * comb(doubles - y, z)
                out.append((ways, x, y, z))
    return tuple(out)


def _rest_index(left: int, need: int, feed: int) -> int:
    return RESTS.index((left, need, feed)) if left else -1


@cache
def _hand_choices(drawn: bool) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per rest, what a hand may do with a code of it: (copies taken, draws it uses,
    rest left or -1). A hand without draws after a reshuffle keeps no copy that must
    be kept: it leaves enough of them for the others."""
    table = []
    for left, need, feed in RESTS:
        options = []
        for x in range(left, -1, -1):
            kept = min(x, need) if drawn else 0
            still = need - kept
            rest = left - x
            if still > rest:
                continue
            options.append((x, kept, _rest_index(rest, still, feed)))
        table.append(tuple(options))
    return tuple(table)


@cache
def _hand_table(
    drawn: bool, rest: int, n: int
) -> tuple[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """What a hand may do with the ``n`` codes of one rest: (copies taken, draws used,
    copies of drawn codes taken, ways, the rest of each code left (-1s dropped), codes
    per choice)."""
    choices = _hand_choices(drawn)[rest]
    feed = RESTS[rest][2]
    out = []
    for split in _splits(n, len(choices)):
        took = used = 0
        delta: list[int] = []
        for (x, kept, after), m in zip(choices, split, strict=True):
            took += x * m
            used += kept * m
            if after >= 0:
                delta += [after] * m
        out.append((took, used, took * feed, _multinomial(n, split), tuple(delta), split))
    out.sort(key=lambda move: move[0])
    return tuple(out)


@cache
def _splits(n: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``n`` codes among ``parts`` choices, in a fixed order."""
    if parts == 1:
        return ((n,),)
    return tuple((m, *rest) for m in range(n, -1, -1) for rest in _splits(n - m, parts - 1))


def _multinomial(n: int, split: Sequence[int]) -> int:
    ways = 1
    for m in split:
        ways *= comb(n, m)
        n -= m
    return ways


def _combination(items: Sequence[int], k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-subset of ``items`` in lexicographic order."""
    out: list[int] = []
    n = len(items)
    start = 0
    while k:
        for i in range(start, n):
            block = comb(n - i - 1, k - 1)
            if index < block:
                out.append(items[i])
                start = i + 1
                k -= 1
                break
            index -= block
    return out


# --------------------------------------------------------------------------- samples


def determinize(view: View, count: int, seed: int) -> list[State]:
    """``count`` states whose view for ``view.seat`` is ``view`` (``Rules.determinize``)."""
    if count < 0:
        raise InvalidArgument("count", "count must not be negative")
    record, plan = _prepared(view)
    # The public record (bids and turns in order, the pile) is checked first, on the
    # first deal of the superset: a view out of order is refused at its field at once,
    # not after every deal drawn failed the history check.
    _check(_sample(view, *_drawn(record, plan, seed, 0), seed, 0), view)
    samples: list[State] = []
    attempt = 0
    limit = FIRST_ATTEMPTS + ATTEMPTS_PER_SAMPLE * max(count - 1, 0)
    while len(samples) < count:
        if attempt >= (limit if samples else FIRST_ATTEMPTS):
            raise InvalidArgument(
                V + "turns",
                f"no deal of the hidden cards fits this record ({len(samples)} found in "
                f"{attempt:,} deals drawn)",
            )
        sample = _attempt(view, record, plan, seed, attempt)
        attempt += 1
        if sample is not None:
            samples.append(sample)
    return samples


@lru_cache(maxsize=8)
def _prepared(view: View) -> tuple[Record, Plan]:
    """The record and the programme of a view, memoised: a search asks for samples of
    the same view again and again (a view is an immutable value)."""
    record = read_record(view)
    model = Model(record) if record.reshuffles else None
    return record, _plan(record, model)


def _plan(record: Record, model: Model | None) -> Plan:
    """The strongest programme that stays within WORK_LIMIT (the last level always
    does: it counts the stock's choices and free hands only)."""
    try:
        return Plan(record, model, 2)
    except _TooBig:
        return Plan(record, model, 1)


def _attempt(view: View, record: Record, plan: Plan, seed: int, attempt: int) -> State | None:
    """Attempt ``attempt``'s deal as a sample, or None if the record does not fit it."""
    hands, stock = _drawn(record, plan, seed, attempt)
    if plan.model is not None and plan.model.fit(Deal(hands, stock)) is None:
        return None
    return _sample(view, hands, stock, seed, attempt)


def _drawn(
    record: Record, plan: Plan, seed: int, attempt: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Attempt ``attempt``'s deal from the counted superset: the hands and the stock."""
    free, stock = plan.deal(draw_below(seed, 3 * attempt, plan.total))
    hands: list[tuple[int, ...]] = []
    hidden = dict(zip(plan.seats, free, strict=True))
    for s, shown in enumerate(record.known):
        if shown is not None:
            hands.append(shown)
        else:
            hands.append(tuple(sorted(record.forced[s] + hidden[s])))
    return tuple(hands), tuple(stock)


def _sample(
    view: View, hands: tuple[tuple[int, ...], ...], stock: Sequence[int], seed: int, attempt: int
) -> State:
    order = shuffled(stock, seed, 3 * attempt + 1)
    table = view.table._replace(
        seed=draw_below(seed, 3 * attempt + 2, SEED_LIMIT),
        counter=1 + view.table.hand_number + view.reshuffles,
    )
    return State(
        table,
        view.bets,
        view.phase,
        view.to_act,
        hands,
        tuple(order),
        view.pile,
        view.turns,
        view.taken,
        view.taken_card,
        view.reshuffles,
    )


def _check(sample: State, view: View) -> None:
    """The public part of a view is checked by the engine's own validation, on a deal of
    the superset (every sample shares it); a fault is reported at the view's field."""
    try:
        validate(sample)
    except InvalidState as e:
        raise InvalidArgument(view_field(e.field, view.seat), e.reason) from None


def view_field(field: str, seat: int) -> str:
    """The view's field for a field of a state built from it."""
    state = "state.ramino."
    if field.startswith(state + "hands["):
        index = int(field[len(state + "hands[") :].split("]")[0])
        return V + "hand" if index == seat else f"{V}hand_sizes[{index}]"
    if field.startswith(state + "stock"):
        return V + "stock_size"
    if field.startswith(state + "rng"):
        return "view"
    if field.startswith(state):
        return V + field[len(state) :]
    return "view" + field.removeprefix("state")


# --------------------------------------------------------------------------- bound


def moves_bound(state: State, to_match_end: bool) -> int:
    """An upper bound on the moves from ``state`` to the end of the hand, or of the match.

    *A hand.* Bidding: each open or raise lifts the stake by at least 1 up to
    ``max_stake`` (a buio too), so at most ``max_stake - S`` more (``max_stake`` before
    an opening); each player passes at most once; between two raises each player
    accepts (or stands) at most once, so at most ``players`` accepts per stake.
    Play: every turn is two moves; a hand ends at the latest at the discard after the
    last card of the last allowed stock is drawn (a reshuffle makes a stock of
    ``104 - players x hand_size - 1`` cards), so at most ``D`` turns draw, and before
    each draw at most ``3p`` turns in a row take from the pile (§3.4.7).

    *A match.* It ends after ``match_hands`` decided hands, or ``match_hands`` void
    hands in a row: with ``d`` decided so far and ``v`` void in a row before this
    hand, at most ``(m - v) + (m - d - 1) x m`` hands are played from this one on
    (``m - 1 - v`` voids, a decided hand, then ``m - 1`` voids and a decided hand for
    each one still needed), each a whole hand at most."""
    if state.phase is Phase.OVER:
        return 0
    table = state.table
    options = table.options
    players = table.players
    after_reshuffle = 2 * len(CODES) - players * options.hand_size - 1
    bets = state.bets
    active = sum(st is Status.ACTIVE for st in bets.statuses)
    if state.phase is Phase.PLAY:
        draws = len(state.stock) + (options.max_reshuffles - state.reshuffles) * after_reshuffle
        limit = PILE_TURNS_PER_PLAYER * active
        turns = draws * (limit + 1) - (
            pile_streak(state.turns) if state.taken is Source.NONE else 0
        )
        hand = 2 * turns + (1 if state.taken is not Source.NONE else 0)
    else:
        raises = options.max_stake - bets.stake if bets.stake else options.max_stake
        bidding = raises + active + (raises + 1) * players
        blind = 1 if state.phase is Phase.BUIO_DECISION else 0
        hand = blind + bidding + _play_bound(options.max_reshuffles, after_reshuffle, active)
    if not to_match_end:
        return hand
    m = options.match_hands
    assert m is not None
    hands = (m - table.void_streak) + (m - table.decided_hands - 1) * m
    whole = (
        1
        + options.max_stake
        + players
        + (options.max_stake + 1) * players
        + _play_bound(options.max_reshuffles, after_reshuffle, players)
    )
    return hand + max(hands - 1, 0) * whole


def _play_bound(max_reshuffles: int, after_reshuffle: int, participants: int) -> int:
    """Moves of a whole play phase: (1 + max_reshuffles) stocks of ``after_reshuffle``
    cards (the deal's stock is as long), 3p pile turns before each draw."""
    draws = (1 + max_reshuffles) * after_reshuffle
    return 2 * draws * (PILE_TURNS_PER_PLAYER * participants + 1)
