"""Burraco: the hidden cards of a view, dealt anew (``Rules.determinize``), and a bound
on the moves left (``Rules.moves_bound``).

What a seat's view implies, and all the sampler uses (burraco.md §7):

- The melds, the discard pile and the viewer's own hand are public to him; so are the
  cards each player took with the discard pile (``PileTaken`` in the hand's history)
  and has not laid down or discarded since: they are in his hand. Copies are alike, so
  this is kept as a multiset per seat (``known``): a pick-up adds its cards, a meld,
  lay-off or discard takes away the copies of its cards that are known.
- Hand sizes, the stock's size and the sizes of the untaken pozzetti; a pozzetto
  taken *con lo scarto* and still locked is its taker's whole hand (the viewer's own
  included: then his hand is hidden from him too).
- The end of a hand shows every hand (``HandEnded``): in a finished match those are
  known in full.
- The player to act in his MELD stage must hold a legal discard (§8): with one card
  in hand, it is not ``forbidden_discard`` and, if his side has its pozzetto, not a
  wild card; with two, not two copies of ``forbidden_discard``. That is the only place
  where a hidden card's identity is constrained; every other unknown card may be in
  any hidden place.

Nothing is inferred from how anyone played (which cards he kept or melded).

Uniform sampling. The unknown cards (the deck less everything public) are dealt to
the hidden places: the unknown part of each hand and each untaken pozzetto (multisets)
and the stock (a sequence). Every distinct assignment is equally likely, copies being
alike. The number of completions of a partial deal depends only on how many unknown
codes are left with one and with two copies, and how many jokers (a *profile*), so
``_ways`` counts them by dynamic programming over places and profiles (a stock of
``S`` cards holding ``a2`` codes twice and ``j`` jokers has ``S! / (2^a2 j!)``
orders). A sample draws each place's pattern (how many codes it takes twice, once
from a doubled code, once from a single code, how many jokers) in proportion to its
completions, then the codes uniformly within each class, and finally shuffles the
stock. The constrained hand of the player to act (one or two unknown cards) comes
first, its contents enumerated code by code.

Seeds. Sample ``i`` of a request makes its draws from ``mazzo.core.shuffle`` with the
request's seed and counters ``i * 65536 + k``, ``k = 0, 1, …`` in order: ``k = 0``
gives the sample's own generator seed (below ``2^64``; its counter is
``hand_number + 1``, as in a dealt match), then each place in turn (a pattern draw and
one shuffle per class of codes), then the stock's shuffle.

A view is checked before it is trusted: the first sample's hand start is rebuilt
(cards played return to their holders, the cards each draw took are put back on top
of the stock) and the hand's public moves are replayed on it; any move that is not
legal, or an end that is not the view, refuses the view with ``InvalidArgument``
naming the field.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate
from math import comb, factorial
from typing import Any, Final

from mazzo.core.cards import JOKER, code
from mazzo.core.errors import IllegalMove, InvalidArgument, InvalidState, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.burraco import events as ev
from mazzo.games.burraco import rules
from mazzo.games.burraco.cards import COPIES, WILD
from mazzo.games.burraco.melds import PULITO, interpret, signature
from mazzo.games.burraco.moves import DISCARDS, DRAW, PICK_UP, Move, lay_off, meld
from mazzo.games.burraco.state import NO_SEAT, Meld, Stage, State, new_meld
from mazzo.games.burraco.validate import validate
from mazzo.games.burraco.view import View

V = "view.burraco."
#: Counters per sample: sample ``i`` draws with counters ``i * STRIDE + k``.
STRIDE: Final = 1 << 16
HAND_SIZE: Final = 11
DECK_SIZE: Final = 108


# --------------------------------------------------------------------------- counting


@lru_cache(maxsize=1 << 12)
def _patterns(z: int, n1: int, n2: int, j: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """The ways a place of ``z`` cards can take from a profile: ``(x2, y2, x1, jj, ways)``
    with ``x2`` codes taken twice, ``y2`` doubled codes taken once, ``x1`` single codes,
    ``jj`` jokers, and ``ways`` the number of distinct multisets of that pattern."""
    out = []
    for x2 in range(min(n2, z // 2) + 1):
        for y2 in range(min(n2 - x2, z - 2 * x2) + 1):
            left = z - 2 * x2 - y2
            for jj in range(min(j, left) + 1):
                x1 = left - jj
                if x1 <= n1:
                    ways = comb(n2, x2) * comb(n2 - x2, y2) * comb(n1, x1)
                    out.append((x2, y2, x1, jj, ways))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _ways(sizes: tuple[int, ...], stock: int, n1: int, n2: int, j: int) -> int:
    """Distinct deals of a profile (``n1`` codes with one copy, ``n2`` with two, ``j``
    jokers) to unordered places of ``sizes`` (sorted) and then an ordered stock of
    ``stock`` cards (which takes all the rest)."""
    if not sizes:
        if n1 + 2 * n2 + j != stock:
            return 0
        orders: int = factorial(stock) // (2**n2 * factorial(j))
        return orders
    rest = sizes[1:]
    total = 0
    for x2, y2, x1, jj, ways in _patterns(sizes[0], n1, n2, j):
        total += ways * _ways(rest, stock, n1 - x1 + y2, n2 - x2 - y2, j - jj)
    return total


@lru_cache(maxsize=1 << 14)
def _choices(
    z: int, rest: tuple[int, ...], stock: int, n1: int, n2: int, j: int
) -> tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]]:
    """A place's patterns with the cumulative number of deals each leads to."""
    weights = []
    patterns = []
    for x2, y2, x1, jj, ways in _patterns(z, n1, n2, j):
        w = ways * _ways(rest, stock, n1 - x1 + y2, n2 - x2 - y2, j - jj)
        if w:
            weights.append(w)
            patterns.append((x2, y2, x1, jj))
    return tuple(accumulate(weights)), tuple(patterns)


def _profile(pool: Counter[int]) -> tuple[int, int, int]:
    n1 = sum(1 for c, m in pool.items() if c != JOKER and m == 1)
    n2 = sum(1 for c, m in pool.items() if c != JOKER and m == 2)
    return n1, n2, pool[JOKER]


def _after(pool: Counter[int], cards: tuple[int, ...]) -> tuple[int, int, int]:
    """The profile once ``cards`` (which it holds) are taken from ``pool``."""
    left = Counter(pool)
    left.subtract(cards)
    return _profile(+left)


# --------------------------------------------------------------------------- the plan


class _Plan:
    """What every sample of one view shares: the public part of the state, the known
    cards, the hidden places and the unknown pool."""

    def __init__(self, view: View) -> None:
        self.view = view
        n = view.players
        self.known, self.shown = _known(view)
        hidden: list[int] = [0] * n
        public: Counter[int] = Counter(view.pile)
        for m in view.melds:
            public.update(m.cards)
        for s in range(n):
            size = view.hand_sizes[s]
            if self.shown is not None:
                if len(self.shown[s]) != size:
                    raise InvalidArgument(
                        f"{V}hand_sizes[{s}]", "the hand shown at the hand's end has another size"
                    )
                public.update(self.shown[s])
                continue
            if s == view.seat and not view.hand_hidden:
                if _missing(view.hand, self.known[s]):
                    raise InvalidArgument(
                        V + "hand", "the hand lacks cards taken with the discard pile and kept"
                    )
                public.update(view.hand)
                continue
            if s == view.seat and self.known[s]:
                raise InvalidArgument(
                    V + "hand_hidden", "a hidden hand is a pozzetto: no card of it is known"
                )
            if sum(self.known[s].values()) > size:
                raise InvalidArgument(
                    f"{V}hand_sizes[{s}]",
                    f"seat {s} holds {sum(self.known[s].values())} cards taken with the pile",
                )
            public.update(self.known[s])
            hidden[s] = size - sum(self.known[s].values())
        pool: Counter[int] = Counter()
        for c in range(1, 54):
            left = COPIES[c] - public[c]
            if left < 0:
                raise InvalidArgument(
                    V + "discard_pile",
                    f"{code(c)} is shown {public[c]} times; the deck has {COPIES[c]}",
                )
            if left:
                pool[c] = left
        self.pool = pool
        self.hidden = hidden
        untaken = [i for i, p in enumerate(view.pozzetti) if p.taker == NO_SEAT]
        places = sum(hidden) + view.stock_size + sum(view.pozzetti[i].size for i in untaken)
        if places != sum(pool.values()):
            raise InvalidArgument(
                V + "stock_size",
                f"the hidden places hold {places} cards, but {sum(pool.values())} are unseen",
            )
        # The places in sampling order: the constrained hand first, the stock last.
        first = self._constrained()
        order: list[tuple[str, int]] = []
        if first is not None:
            order.append(("hand", first))
        order += [("hand", s) for s in range(n) if hidden[s] and s != first]
        order += [("pozzetto", i) for i in untaken if view.pozzetti[i].size]
        self.order = order
        self.sizes = [hidden[k] if kind == "hand" else view.pozzetti[k].size for kind, k in order]
        self.first = first
        self.profile = _profile(pool)
        self.melds = tuple(_meld(i, m.seat, m.cards) for i, m in enumerate(view.melds))
        self.firsts: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None = None
        if first is not None:
            self.firsts = self._first_choices()
        total = self._total()
        if not total:
            raise InvalidArgument(
                f"{V}hand_sizes[{view.to_act}]",
                "no cards the player to act could hold leave him a legal discard (§8)",
            )

    def _constrained(self) -> int | None:
        """The seat to act, if the legal-discard rule of §8 bites on his hidden cards."""
        view = self.view
        if view.stage is not Stage.MELD or self.shown is not None:
            return None
        seat = view.to_act
        if seat == view.seat or not self.hidden[seat] or view.hand_sizes[seat] > 2:
            return None
        if view.hand_sizes[seat] == 2 and not view.forbidden:
            return None
        return seat

    def _allowed(self, hand: tuple[int, ...]) -> bool:
        """Whether the player to act, holding ``hand``, has a legal discard (§8)."""
        view = self.view
        forbidden = view.forbidden
        if len(hand) >= 2:
            return not forbidden or hand.count(forbidden) < len(hand)
        c = hand[0]
        if c == forbidden:
            return False
        side = _side_mask(view, view.to_act)
        if not any(p.taker >= 0 and side >> p.taker & 1 for p in view.pozzetti):
            return True
        if WILD[c]:
            return False
        clean = view.table.options.closing_needs_clean
        return any(
            side >> m.seat & 1 and len(m.cards) >= 7 and (not clean or m.interp.clean is PULITO)
            for m in self.melds
        )

    def _first_choices(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Every content of the constrained hand's unknown part, with its deals."""
        seat = self.view.to_act
        u = self.hidden[seat]
        known = tuple(self.known[seat].elements())
        codes = sorted(self.pool)
        contents: list[tuple[int, ...]]
        if u == 1:
            contents = [(c,) for c in codes]
        else:
            contents = [
                (a, b) for i, a in enumerate(codes) for b in codes[i:] if a != b or self.pool[a] > 1
            ]
        rest = tuple(sorted(self.sizes[1:]))
        weights = []
        kept = []
        for cards in contents:
            if not self._allowed(tuple(sorted(known + cards))):
                continue
            n1, n2, j = _after(self.pool, cards)
            w = _ways(rest, self.view.stock_size, n1, n2, j)
            if w:
                weights.append(w)
                kept.append(cards)
        return tuple(accumulate(weights)), tuple(kept)

    def _total(self) -> int:
        if self.firsts is not None:
            return self.firsts[0][-1] if self.firsts[0] else 0
        return _ways(tuple(sorted(self.sizes)), self.view.stock_size, *self.profile)

    # ------------------------------------------------------------------- one sample

    def sample(self, seed: int, index: int) -> State:
        base = index * STRIDE
        k = 0

        def counter() -> int:
            nonlocal k
            k += 1
            return base + k

        table_seed = draw_below(seed, base, 1 << 64)
        pool = Counter(self.pool)
        dealt: dict[tuple[str, int], list[int]] = {}
        start = 0
        if self.firsts is not None:
            cumulative, contents = self.firsts
            r = draw_below(seed, counter(), cumulative[-1])
            cards = contents[bisect_right(cumulative, r)]
            pool.subtract(cards)
            pool = +pool
            dealt[self.order[0]] = list(cards)
            start = 1
        for p in range(start, len(self.order)):
            dealt[self.order[p]] = self._deal_place(pool, p, seed, counter)
        stock = shuffled(sorted(pool.elements()), seed, counter())
        return self._state(dealt, stock, table_seed)

    def _deal_place(
        self, pool: Counter[int], p: int, seed: int, counter: Callable[[], int]
    ) -> list[int]:
        n1, n2, j = _profile(pool)
        rest = tuple(sorted(self.sizes[p + 1 :]))
        cumulative, patterns = _choices(self.sizes[p], rest, self.view.stock_size, n1, n2, j)
        r = draw_below(seed, counter(), cumulative[-1])
        x2, y2, x1, jj = patterns[bisect_right(cumulative, r)]
        doubles = sorted(c for c, m in pool.items() if c != JOKER and m == 2)
        singles = sorted(c for c, m in pool.items() if c != JOKER and m == 1)
        cards: list[int] = []
        if x2 + y2:
            doubles = shuffled(doubles, seed, counter())
            for c in doubles[:x2]:
                cards += (c, c)
            cards += doubles[x2 : x2 + y2]
        if x1:
            cards += shuffled(singles, seed, counter())[:x1]
        cards += [JOKER] * jj
        pool.subtract(cards)
        for c in cards:
            if not pool[c]:
                del pool[c]
        return cards

    def _state(self, dealt: dict[tuple[str, int], list[int]], stock: list[int], seed: int) -> State:
        view = self.view
        n = view.players
        hands = []
        for s in range(n):
            if self.shown is not None:
                hands.append(tuple(sorted(self.shown[s])))
            elif s == view.seat and not view.hand_hidden:
                hands.append(view.hand)
            else:
                hands.append(
                    tuple(sorted([*self.known[s].elements(), *dealt.get(("hand", s), ())]))
                )
        pozzetti = tuple(
            tuple(sorted(dealt.get(("pozzetto", i), ()))) if p.taker == NO_SEAT else ()
            for i, p in enumerate(view.pozzetti)
        )
        locked = 0
        for p in view.pozzetti:
            if p.locked and p.taker >= 0:
                locked |= 1 << p.taker
        table = view.table._replace(seed=seed, counter=view.table.hand_number + 1)
        return State(
            table=table,
            stage=view.stage,
            to_act=view.to_act,
            hands=tuple(hands),
            stock=tuple(stock),
            pile=view.pile,
            melds=self.melds,
            pozzetti=pozzetti,
            takers=tuple(p.taker for p in view.pozzetti),
            locked=locked,
            forbidden=view.forbidden,
            last_turn=view.last_turn,
            pickups=view.pickups,
            solo=view.solo,
            log=view.history,
        )


def _side_mask(view: View, seat: int) -> int:
    n = view.players
    if n == 4:
        return 0b0101 << (seat & 1)
    if n == 2 or view.solo < 0 or view.solo == seat:
        return 1 << seat
    return 0b111 & ~(1 << view.solo)


def _meld(i: int, seat: int, cards: tuple[int, ...]) -> Meld:
    sig = signature(cards)
    if isinstance(sig, str):
        raise InvalidArgument(f"{V}melds[{i}].cards", sig)
    interp = interpret(sig)
    if isinstance(interp, str):
        raise InvalidArgument(f"{V}melds[{i}].cards", interp)
    return new_meld(seat, tuple(sorted(cards)), sig)


def _missing(hand: tuple[int, ...], known: Counter[int]) -> bool:
    held = Counter(hand)
    return any(held[c] < m for c, m in known.items())


def _known(view: View) -> tuple[list[Counter[int]], tuple[tuple[int, ...], ...] | None]:
    """Per seat, the cards taken with the pile and still held (multisets); and every
    hand, if the hand's end showed them."""
    n = view.players
    known: list[Counter[int]] = [Counter() for _ in range(n)]
    shown = None
    for i, e in enumerate(view.history):
        seat = getattr(e, "seat", 0)
        if isinstance(e, ev.PileTaken | ev.MeldOpened | ev.LaidOff | ev.Discarded) and not (
            0 <= seat < n
        ):
            raise InvalidArgument(f"{V}history[{i}]", f"seat {seat} is out of range")
        if isinstance(e, ev.PileTaken):
            known[seat].update(e.cards)
        elif isinstance(e, ev.MeldOpened | ev.LaidOff):
            _play(known[seat], e.cards)
        elif isinstance(e, ev.Discarded):
            _play(known[seat], (e.card,))
        elif isinstance(e, ev.HandEnded):
            if len(e.hands) != n:
                raise InvalidArgument(f"{V}history[{i}]", f"the hand's end shows {n} hands")
            shown = tuple(tuple(h) for h in e.hands)
    return known, shown


def _play(known: Counter[int], cards: tuple[int, ...]) -> None:
    for c in cards:
        if known[c]:
            known[c] -= 1
            if not known[c]:
                del known[c]


# --------------------------------------------------------------------------- checks


def _checked(plan: _Plan, sample: State) -> None:
    """Refuse a view whose first sample the rules would not accept, or whose history
    does not lead, move by move, to it."""
    try:
        validate(sample)
    except InvalidState as e:
        raise InvalidArgument(_view_field(e.field), e.reason) from None
    _replay(plan.view, sample)


_STATE_FIELDS: Final = {
    "state.burraco.hands": V + "hand_sizes",
    "state.burraco.stock": V + "stock_size",
    "state.burraco.locked_seats": V + "pozzetti",
    "state.burraco.rng": V + "table",
    "state.burraco.pozzetti": V + "pozzetti",
}


def _view_field(field: str) -> str:
    """The view's field for a state's field (the state has more)."""
    for prefix, name in _STATE_FIELDS.items():
        if field.startswith(prefix):
            rest = field.removeprefix(prefix)
            if prefix.endswith(("hands", "pozzetti")) and rest.startswith("["):
                return name + rest.split("]")[0] + "]"
            return name
    return "view." + field.removeprefix("state.")


def _replay(view: View, sample: State) -> None:
    """Rebuild the hand's start from ``sample`` and replay the history's moves on it."""
    history = view.history
    if not history or not isinstance(history[0], ev.HandDealt):
        raise InvalidArgument(V + "history", "a hand's history starts with its HandDealt")
    start = _hand_start(view, sample)
    state = start
    i = 1
    while i < len(history):
        e = history[i]
        move = _move_of(e)
        where = f"{V}history[{i}]"
        if move is None:
            raise InvalidArgument(where, "an event no move of the seat to act caused here")
        if state.stage is Stage.OVER or e.seat != state.to_act:
            raise InvalidArgument(where, f"seat {e.seat} is not the seat to act")
        try:
            state, produced = rules.apply(state, move)
        except (IllegalMove, NotAllowedNow) as err:
            raise InvalidArgument(where, f"not a legal move here: {err.reason}") from None
        for k, got in enumerate(produced):
            if (
                i + k >= len(history)
                or type(history[i + k]) is not type(got)
                or (history[i + k] != got)
            ):
                raise InvalidArgument(
                    f"{V}history[{min(i + k, len(history) - 1)}]",
                    f"the move of history[{i}] gives {got}",
                )
        i += len(produced)
    if state != sample:
        raise InvalidArgument(
            _first_state_difference(state, sample), "the history does not lead to this position"
        )


def _first_state_difference(a: State, b: State) -> str:
    names = {
        "table": "table",
        "stage": "stage",
        "to_act": "to_act",
        "hands": "hand_sizes",
        "stock": "stock_size",
        "pile": "discard_pile",
        "melds": "melds",
        "pozzetti": "pozzetti",
        "takers": "pozzetti",
        "locked": "pozzetti",
        "forbidden": "forbidden_discard",
        "last_turn": "last_turn",
        "pickups": "pickup_turns",
        "solo": "solo_seat",
        "log": "history",
    }
    for name in State._fields:
        if getattr(a, name) != getattr(b, name):
            if name == "table" and a.table.totals != b.table.totals:
                return "view.match_score"
            return "view.to_act" if name == "to_act" else V + names[name]
    return V + "history"


def _move_of(e: Any) -> Move | None:
    if type(e) is ev.Drew:
        return DRAW
    if type(e) is ev.PileTaken:
        return PICK_UP
    if type(e) is ev.MeldOpened:
        return meld(e.cards, e.kind)
    if type(e) is ev.LaidOff:
        return lay_off(e.meld_id, e.cards)
    if type(e) is ev.Discarded:
        return DISCARDS[e.card] if 1 <= e.card <= 53 else None
    return None


def _deal_sizes(players: int, pozzetti: int) -> tuple[int, tuple[int, ...]]:
    """The stock's size and the pozzetti's sizes at a deal (§2.3, §2.4)."""
    if players == 3 and pozzetti == 3:
        return 41, (11, 11, 11)
    if players == 3:
        return 45, (18, 11)
    return 108 - 22 - 1 - HAND_SIZE * players, (11, 11)


def _hand_start(view: View, sample: State) -> State:
    """The hand's first state: cards played go back to their players, cards taken with
    the pile back to the pile, pozzetti taken back in place, and each draw's card (one
    not known to be held then) back on top of the stock."""
    n = view.players
    history = view.history
    dealt = history[0]
    assert isinstance(dealt, ev.HandDealt)
    # Forward: the known cards of the drawing seat just after each draw.
    known: list[Counter[int]] = [Counter() for _ in range(n)]
    after_draw: dict[int, Counter[int]] = {}
    for i, e in enumerate(history):
        if type(e) is ev.PileTaken:
            known[e.seat].update(e.cards)
        elif type(e) in (ev.MeldOpened, ev.LaidOff):
            _play(known[e.seat], e.cards)
        elif type(e) is ev.Discarded:
            _play(known[e.seat], (e.card,))
        elif type(e) is ev.Drew and 0 <= e.seat < n:
            after_draw[i] = Counter(known[e.seat])
    hands = [Counter(h) for h in sample.hands]
    stock = list(sample.stock)
    pile = list(sample.pile)
    pozzetti = [list(p) for p in sample.pozzetti]
    for i in range(len(history) - 1, 0, -1):
        e = history[i]
        t = type(e)
        if t in (ev.MeldOpened, ev.LaidOff, ev.Discarded, ev.PileTaken, ev.Drew) and not (
            0 <= e.seat < n
        ):
            raise InvalidArgument(f"{V}history[{i}]", f"seat {e.seat} is out of range")
        if t is ev.MeldOpened or t is ev.LaidOff:
            hands[e.seat].update(e.cards)
        elif t is ev.Discarded:
            hands[e.seat][e.card] += 1
            if not pile or pile[-1] != e.card:
                raise InvalidArgument(f"{V}history[{i}]", "the discard is not on the pile")
            pile.pop()
        elif t is ev.PileTaken:
            if pile:
                raise InvalidArgument(f"{V}history[{i}]", "the pile was taken whole")
            pile = list(e.cards)
            if _missing(tuple(hands[e.seat].elements()), Counter(e.cards)):
                raise InvalidArgument(f"{V}history[{i}]", "the pile's cards are not in hand")
            hands[e.seat].subtract(e.cards)
            hands[e.seat] = +hands[e.seat]
        elif t is ev.Drew:
            unknown = hands[e.seat] - after_draw[i]
            if not unknown:
                raise InvalidArgument(f"{V}history[{i}]", "no card of the hand can be the draw")
            c = max(unknown)
            hands[e.seat][c] -= 1
            hands[e.seat] = +hands[e.seat]
            stock.insert(0, c)
        elif t is ev.PozzettoTaken:
            if not 0 <= e.pozzetto < len(pozzetti) or not 0 <= e.seat < n:
                raise InvalidArgument(f"{V}history[{i}]", "no such pozzetto or seat")
            pozzetti[e.pozzetto] = list(hands[e.seat].elements())
            hands[e.seat] = Counter()
    if pile != [dealt.up_card]:
        raise InvalidArgument(V + "discard_pile", "the pile does not follow from the history")
    stock_size, sizes = _deal_sizes(n, len(pozzetti))
    if any(sum(h.values()) != HAND_SIZE for h in hands):
        raise InvalidArgument(V + "hand_sizes", "the hands did not start with 11 cards each")
    if len(stock) != stock_size or tuple(len(p) for p in pozzetti) != sizes:
        raise InvalidArgument(V + "stock_size", "the stock or the pozzetti do not fit a deal")
    if tuple(dealt.pozzetti) != sizes:
        raise InvalidArgument(V + "history[0]", "the pozzetti dealt do not fit the form")
    table = sample.table
    if view.stage is Stage.OVER:
        scored = next((e for e in history if type(e) is ev.HandScored), None)
        if scored is None or len(scored.credits) != len(table.totals):
            raise InvalidArgument(V + "history", "a finished match's hand was scored")
        totals = tuple(t - c for t, c in zip(table.totals, scored.credits, strict=True))
        table = table._replace(totals=totals, last_hand=(), last_credits=())
    if dealt.hand_number != table.hand_number or dealt.dealer != table.dealer:
        raise InvalidArgument(V + "history[0]", "the hand dealt is not the table's")
    return State(
        table=table,
        stage=Stage.ACQUIRE,
        to_act=(table.dealer + 1) % n,
        hands=tuple(tuple(sorted(h.elements())) for h in hands),
        stock=tuple(stock),
        pile=(dealt.up_card,),
        melds=(),
        pozzetti=tuple(tuple(sorted(p)) for p in pozzetti),
        takers=(NO_SEAT,) * len(pozzetti),
        log=(dealt,),
    )


# --------------------------------------------------------------------------- the API


def determinize(view: View, count: int, seed: int) -> list[State]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``
    and the module's docstring)."""
    if not 0 <= seed < 1 << 64:
        raise InvalidArgument("seed", "the seed must fit in 64 bits")
    if not 0 <= count < STRIDE:
        raise InvalidArgument("count", f"count must be below {STRIDE}")
    plan = _Plan(view)
    states = []
    for i in range(count):
        sample = plan.sample(seed, i)
        if i == 0:
            _checked(plan, sample)
        states.append(sample)
    return states


def _hand_bound(players: int, stock: int, pickups: int) -> int:
    """Turns left from the ACQUIRE stage with ``stock`` cards in the stock and ``pickups``
    turns in a row begun with PICK_UP."""
    limit = rules.PICK_UP_TURNS_PER_SEAT * players
    draws = stock - 2
    return max(0, limit - pickups) + draws + max(0, draws - 1) * limit


def moves_bound(state: State, to_match_end: bool) -> int:
    """An upper bound on the moves from ``state`` to the end of the hand (or the match).

    The hand. A turn is one acquire, some melds and lay-offs, and one discard. Only a
    DRAW shortens the stock, and the DRAW that leaves 2 cards makes its turn the hand's
    last (§3.6); so from ``s`` cards at most ``s - 2`` more turns draw. Between two
    draws at most ``3n`` turns begin with PICK_UP (§3.1), and before the next draw at
    most ``3n - pickups``; so at most ``(3n - pickups) + (s - 2) + (s - 3) * 3n`` more
    turns begin, two moves each. Every MELD and LAY_OFF puts at least one card on the
    table for good, and the stock keeps 2 cards and the pile 1: at most
    ``108 - melded - 3`` of them. A closing only ends the hand sooner.

    The match. Hand scores can be negative, so no number of points per hand bounds
    the hands left to a target; the match has at most ``hands`` (or ``max_hands``)
    hands (§4.3), and each later hand is bounded as above from its deal (108 - 3
    melds, the full stock of its form, the larger of the 3-player forms).
    """
    if state.stage is Stage.OVER:
        return 0
    table = state.table
    n = table.players
    melded = sum(len(m.cards) for m in state.melds)
    melds_left = DECK_SIZE - 3 - melded
    if state.stage is Stage.MELD:
        turns_after = 0 if state.last_turn else _hand_bound(n, len(state.stock), state.pickups)
        bound = 1 + 2 * turns_after + melds_left
    else:
        bound = 2 * _hand_bound(n, len(state.stock), state.pickups) + melds_left
    if not to_match_end:
        return bound
    options = table.options
    hands_left = (options.hands or options.max_hands) - table.hand_number
    stock = max(_deal_sizes(n, 2)[0], _deal_sizes(n, 3)[0])
    per_hand = 2 * _hand_bound(n, stock, 0) + DECK_SIZE - 3
    return bound + max(0, hands_left) * per_hand
