"""What a Ramino view says about the cards it hides, and whether a deal fits it.

A view gives the whole public record of the hand: the pile, every turn (who took the
pile's top card and which, who drew from the stock, every discard), the stock's size
and the reshuffles. ``read_record`` replays that record without the hidden cards:

- the pile, token by token from the up card, so every reshuffle is placed (the turn
  whose draw emptied the stock) and the cards it put in the new stock are known, all
  but the up card itself when the view no longer names it (it is named while it lies
  at the bottom of the pile, or when a player takes it);
- each player's timeline of takes, draws (each draw a *slot*: the card is hidden, the
  stock it came from is known) and discards;
- the cards each player is known to hold: those taken from the pile and not
  discarded since (``forced``).

A deal of the hidden cards (every hidden hand and the stock) fits the view if some
history gives it: a starting deal and an order of every reshuffled stock that make
every public move legal and end in that deal. Read backwards, a player's hand only
loses cards at a take (the card named) and at a draw (the card drawn); a draw from
the first stock may be any card (that stock held everything not dealt), a draw after
reshuffle ``j`` a card of that reshuffle. So a deal fits iff the draws after the
reshuffles can be given cards with

- every slot one card; the slots after reshuffle ``j`` take exactly that
  reshuffle's cards (those of the last one: what is not still in the stock);
- for each player ``P``, card ``c`` and point ``p`` of his timeline: the slots after
  ``p`` given ``c`` are at most ``cap(p) = H(c) + D(c) - T(c)``, with ``H`` his hand at
  the end and ``D``, ``T`` his discards and takes of ``c`` after ``p`` (his hand,
  read backwards, never runs short of ``c``);
- and, once per view, each draw from the first stock has a card its player does not
  need for an earlier take (``check_first_stock``).

``fit`` decides it with a maximum flow: slots -> (player, card) chains whose edges
carry the caps of nested suffixes -> (reshuffle, card) quotas. With the slots of one
reshuffle only (the default ``max_reshuffles = 1``) the flow is exact. With more, a
player's caps count his slots of every reshuffle at once, which one flow cannot
express: the reshuffles are first given cards one at a time from the last, each
player's copies used by the later ones taken off his hand for the earlier ones
(``_sequential``: each step exact given the later ones, so a success is a fit); if
that fails, the flow over all the slots with each reshuffle's caps counted alone (a
relaxation) decides a refusal, and a solution of it that breaks a cap across
reshuffles is split into cases on that cap (``_solve``), so the answer is exact
either way.
``witness`` turns a fitting deal into the history: the starting hands, the up card,
the first stock and each reshuffled stock in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from mazzo.core.errors import InvalidArgument
from mazzo.games.ramino.cards import CODES, DECK
from mazzo.games.ramino.state import NO_CARD, Outcome, Phase, Source
from mazzo.games.ramino.view import View

#: The up card while the view names it nowhere (it went into the first reshuffle).
UNKNOWN: Final = 0
TAKE, DRAW, DISCARD = 0, 1, 2
V = "view.ramino."


class Slot(NamedTuple):
    """A draw from the stock: its card is hidden, the stock it came from is known."""

    seat: int
    #: 0: the stock of the deal; j >= 1: the stock made by reshuffle j.
    segment: int
    #: 2 x the turn's index (a turn's discard comes at 2 x index + 1).
    time: int
    #: The card discarded in the same turn (NO_CARD: none yet).
    discard: int
    #: Index of this draw among its player's events.
    event: int


class Record(NamedTuple):
    """The public record of the hand a view shows, replayed."""

    players: int
    hand_size: int
    seat: int
    sizes: tuple[int, ...]
    #: Per seat, the whole hand when the view shows it (the viewer's; a closer's in a
    #: finished match), else None.
    known: tuple[tuple[int, ...] | None, ...]
    #: Per seat, the cards he is known to hold (taken from the pile, not discarded).
    forced: tuple[tuple[int, ...], ...]
    #: The seats whose hands are dealt anew, ascending.
    hidden: tuple[int, ...]
    stock_size: int
    #: The up card, or UNKNOWN: then it is one more card of the first reshuffle.
    up: int
    #: Per reshuffle, the cards it put in the stock that the view names (sorted).
    reshuffled: tuple[tuple[int, ...], ...]
    #: Every draw of the hand in time order.
    slots: tuple[Slot, ...]
    #: Per seat, his events in time order: (time, TAKE / DRAW / DISCARD, card or slot).
    timelines: tuple[tuple[tuple[int, int, int], ...], ...]
    pile: tuple[int, ...]

    @property
    def reshuffles(self) -> int:
        return len(self.reshuffled)

    @property
    def wild(self) -> bool:
        """The up card went into the first reshuffle unnamed."""
        return self.up == UNKNOWN


def read_record(view: View) -> Record:
    """Replay the public record of ``view``'s hand; a record no hand can give is
    ``InvalidArgument`` naming the view's field."""
    players = view.players
    closing = _closing_turn(view)
    replay = _Replay(players, 2 * len(CODES) - players * view.table.options.hand_size - 1)
    for k in range(len(view.turns)):
        _replay_turn(replay, view, k, closing)
    if closing >= 0 and len(view.turns) == 0:
        raise InvalidArgument(V + "turns", "a closed hand has its closing turn")
    _replay_taken(replay, view)
    _check_ends_as_shown(replay, view)
    known = _known_hands(view, closing)
    _check_shown_sizes(view, known)
    forced = tuple(_forced(replay.timelines[s]) for s in range(players))
    _check_forced(view, known, forced)
    record = Record(
        players,
        view.table.options.hand_size,
        view.seat,
        tuple(view.hand_sizes),
        tuple(known),
        tuple(forced[s] if known[s] is None else () for s in range(players)),
        tuple(s for s in range(players) if known[s] is None),
        replay.stock,
        replay.up,
        replay.named_reshuffles(),
        tuple(replay.slots),
        tuple(tuple(t) for t in replay.timelines),
        view.pile,
    )
    check_first_stock(record)
    return record


class _Replay:
    """The record replayed so far: the pile token by token from the up card (UNKNOWN
    while the view names it nowhere), the stock's size, the reshuffles, the draws and
    each seat's timeline."""

    def __init__(self, players: int, stock: int) -> None:
        self.pile: list[int] = [UNKNOWN]
        self.up = UNKNOWN
        self.stock = stock
        self.reshuffled: list[tuple[int, ...]] = []
        self.slots: list[Slot] = []
        self.timelines: list[list[tuple[int, int, int]]] = [[] for _ in range(players)]

    def take(self, seat: int, time: int, card: int) -> bool:
        """Take the pile's top card, said to be ``card``: false when it is another (the
        unnamed up card is whatever it is said to be)."""
        top = self.pile.pop()
        if top == UNKNOWN:
            self.up = card
        elif top != card:
            return False
        self.timelines[seat].append((time, TAKE, card))
        return True

    def draw(self, seat: int, time: int, discard: int) -> None:
        """Draw from the stock: a slot, its card hidden."""
        self.stock -= 1
        events = self.timelines[seat]
        events.append((time, DRAW, len(self.slots)))
        self.slots.append(Slot(seat, len(self.reshuffled), time, discard, len(events) - 1))

    def discard(self, seat: int, time: int, card: int) -> None:
        self.pile.append(card)
        self.timelines[seat].append((time, DISCARD, card))

    def reshuffle(self) -> None:
        """The pile under its top card becomes the stock."""
        self.reshuffled.append(tuple(self.pile[:-1]))
        self.stock = len(self.pile) - 1
        self.pile = self.pile[-1:]

    def named_reshuffles(self) -> tuple[tuple[int, ...], ...]:
        """Per reshuffle, the cards it put in the stock that the view names (sorted)."""
        sets = []
        for cards in self.reshuffled:
            named = tuple(sorted(c for c in cards if c != UNKNOWN))
            sets.append(named)
        return tuple(sets)


def _closing_turn(view: View) -> int:
    """The index of the turn that closed the hand, in a finished view of a closed
    hand; else -1."""
    last = view.table.last_hand
    if view.phase is Phase.OVER and last is not None and last.outcome is Outcome.CLOSED:
        return len(view.turns) - 1
    return -1


def _replay_turn(replay: _Replay, view: View, k: int, closing: int) -> None:
    """Turn ``k``: its take or draw, its discard (none only for a closure of a hand of
    9), and a reshuffle when it emptied the stock."""
    turn = view.turns[k]
    field = f"{V}turns[{k}]"
    seat = turn.seat
    if turn.source is Source.PILE:
        if not replay.pile:
            raise InvalidArgument(field + ".source", "the pile is empty at this turn")
        if not replay.take(seat, 2 * k, turn.taken):
            raise InvalidArgument(field + ".taken", "this is not the card on top of the pile")
    elif turn.source is Source.STOCK:
        if not replay.stock:
            raise InvalidArgument(field + ".source", "the stock is empty at this turn")
        replay.draw(seat, 2 * k, turn.discard)
    else:
        raise InvalidArgument(field + ".source", "every turn takes a card")
    if turn.discard != NO_CARD:
        replay.discard(seat, 2 * k + 1, turn.discard)
    elif k != closing or view.table.options.hand_size != 9:
        raise InvalidArgument(field + ".discard", "a turn ends with a discard")
    if not replay.stock and k != closing:
        _reshuffle(replay, view, k, field)


def _reshuffle(replay: _Replay, view: View, k: int, field: str) -> None:
    """The stock ran out at turn ``k``: it is reshuffled, unless no reshuffle is left,
    which only the last turn of a finished hand may leave so."""
    if len(replay.reshuffled) >= view.table.options.max_reshuffles:
        if k != len(view.turns) - 1 or view.phase is not Phase.OVER:
            raise InvalidArgument(field, "the stock ran out with no reshuffle left")
        return
    if len(replay.pile) < 2:
        raise InvalidArgument(field, "a reshuffle needs cards under the top one")
    replay.reshuffle()


def _replay_taken(replay: _Replay, view: View) -> None:
    """The card taken in the turn in play, if any."""
    current = len(view.turns)
    if view.taken is Source.PILE:
        if not replay.pile:
            raise InvalidArgument(V + "taken", "the pile was empty")
        if not replay.take(view.to_act, 2 * current, view.taken_card):
            raise InvalidArgument(V + "taken_card", "this is not the card on top of the pile")
    elif view.taken is Source.STOCK:
        if not replay.stock:
            raise InvalidArgument(V + "taken", "the stock was empty")
        replay.draw(view.to_act, 2 * current, NO_CARD)


def _check_ends_as_shown(replay: _Replay, view: View) -> None:
    """The replay leaves the stock, reshuffles and pile the view shows; the pile names
    the up card while it lies at the bottom."""
    stock, reshuffled, pile = replay.stock, replay.reshuffled, replay.pile
    if stock != view.stock_size:
        raise InvalidArgument(V + "stock_size", f"the record leaves {stock} cards in the stock")
    if len(reshuffled) != view.reshuffles:
        raise InvalidArgument(V + "reshuffles", f"the record makes {len(reshuffled)} reshuffles")
    if len(pile) != len(view.pile):
        raise InvalidArgument(V + "pile", f"the record leaves {len(pile)} cards on the pile")
    for i, (token, card) in enumerate(zip(pile, view.pile, strict=True)):
        if token == UNKNOWN:
            replay.up = card
        elif token != card:
            raise InvalidArgument(f"{V}pile[{i}]", "the record puts another card here")


def _known_hands(view: View, closing: int) -> list[tuple[int, ...] | None]:
    """Per seat, the whole hand when the view shows it: the viewer's own, unless
    hidden, and the closer's closure in a finished closed hand."""
    known: list[tuple[int, ...] | None] = [None] * view.players
    if not view.hand_hidden:
        known[view.seat] = view.hand
    last = view.table.last_hand
    if closing >= 0 and last is not None and last.closure is not None:
        closer = last.closure.seat
        if known[closer] is not None and known[closer] != last.closure.cards:
            raise InvalidArgument(V + "hand", "the closer's hand is the closure shown")
        known[closer] = last.closure.cards
    return known


def _check_shown_sizes(view: View, known: Sequence[tuple[int, ...] | None]) -> None:
    sizes = view.hand_sizes
    for s, shown in enumerate(known):
        if shown is not None and len(shown) != sizes[s]:
            field = V + "hand" if s == view.seat else f"{V}hand_sizes[{s}]"
            raise InvalidArgument(field, "the hand shown does not have this many cards")


def _check_forced(
    view: View, known: Sequence[tuple[int, ...] | None], forced: Sequence[tuple[int, ...]]
) -> None:
    """The cards each player is known to hold: in his hand when it is shown, no more
    than its size when it is hidden."""
    for s, shown in enumerate(known):
        if shown is not None and Counter(forced[s]) - Counter(shown):
            field = V + "hand" if s == view.seat else V + "table.last_hand.closure.cards"
            raise InvalidArgument(field, "a card taken from the pile and kept is missing")
    for s in range(view.players):
        if known[s] is None and len(forced[s]) > view.hand_sizes[s]:
            raise InvalidArgument(f"{V}hand_sizes[{s}]", "fewer cards than those taken and kept")


def _forced(events: Iterable[tuple[int, int, int]]) -> tuple[int, ...]:
    """The cards taken from the pile and not discarded since: for each code, its takes
    minus discards at the end, less the lowest that balance ever reached."""
    balance: Counter[int] = Counter()
    low: Counter[int] = Counter()
    for _, kind, value in events:
        if kind == TAKE:
            balance[value] += 1
        elif kind == DISCARD:
            balance[value] -= 1
            low[value] = min(low[value], balance[value])
    return tuple(sorted(c for c in balance for _ in range(balance[c] - low[c])))


def _needed(events: Sequence[tuple[int, int, int]], before: int) -> Counter[int]:
    """The copies of each code a player must hold just before event ``before`` so that
    every earlier take finds its card (read backwards: takes remove, discards add)."""
    run: Counter[int] = Counter()
    need: Counter[int] = Counter()
    for k in range(before - 1, -1, -1):
        _, kind, value = events[k]
        if kind == TAKE:
            run[value] += 1
            need[value] = max(need[value], run[value])
        elif kind == DISCARD:
            run[value] -= 1
    return need


def check_first_stock(record: Record) -> None:
    """Each draw from the deal's stock must leave its player a card he does not need
    for an earlier take (read backwards, that draw may remove any other card): the
    cards needed there are at most ``hand_size``. True of every hand really played."""
    for seat, events in enumerate(record.timelines):
        for slot in record.slots:
            if (
                slot.seat == seat
                and slot.segment == 0
                and sum(_needed(events, slot.event).values()) > record.hand_size
            ):
                raise InvalidArgument(
                    V + "turns", f"seat {seat} cannot hold every card he took and kept"
                )


# --------------------------------------------------------------------------- caps


class Chain(NamedTuple):
    """One player's slots of one reshuffle, as seen by one card: ``records`` are the
    nested suffixes that bind, as (cap offset, first slot position): the slots from
    that position on may take the card at most ``H + offset`` times (``H``: his copies
    at the end). Offsets strictly decrease."""

    records: tuple[tuple[int, int], ...]
    slots: int


class Player(NamedTuple):
    """A player's timeline, prepared for the caps."""

    events: tuple[tuple[int, int, int], ...]
    #: Per code with takes or discards: D - T from each event index to the end.
    suffix: dict[int, tuple[int, ...]]
    #: Per reshuffle j >= 1: his slots of it (indices into Record.slots), in order.
    segments: dict[int, tuple[int, ...]]
    #: Per (code, reshuffle): the chain; codes absent use ``plain``.
    chains: dict[tuple[int, int], Chain]
    plain: dict[int, Chain]
    #: His slots after any reshuffle, in order, and their chains over them all.
    late: tuple[int, ...]
    spans: dict[int, Chain]
    span: Chain


def prepare(record: Record) -> tuple[Player, ...]:
    players = []
    for seat, events in enumerate(record.timelines):
        codes = {v for _, kind, v in events if kind != DRAW}
        suffix: dict[int, tuple[int, ...]] = {}
        for c in codes:
            run = [0] * (len(events) + 1)
            for i in range(len(events) - 1, -1, -1):
                _, kind, value = events[i]
                delta = 0
                if value == c and kind == TAKE:
                    delta = -1
                elif value == c and kind == DISCARD:
                    delta = 1
                run[i] = run[i + 1] + delta
            suffix[c] = tuple(run)
        segments: dict[int, list[int]] = {}
        for index, slot in enumerate(record.slots):
            if slot.seat == seat and slot.segment:
                segments.setdefault(slot.segment, []).append(index)
        chains: dict[tuple[int, int], Chain] = {}
        plain: dict[int, Chain] = {}
        for j, indices in segments.items():
            plain[j] = Chain(((0, 0),), len(indices))
            at = [record.slots[i].event for i in indices]
            for c, run_c in suffix.items():
                chains[c, j] = _chain(run_c, at)
        late = tuple(i for j in sorted(segments) for i in segments[j])
        at_late = [record.slots[i].event for i in late]
        players.append(
            Player(
                events,
                suffix,
                {j: tuple(v) for j, v in segments.items()},
                chains,
                plain,
                late,
                {c: _chain(run_c, at_late) for c, run_c in suffix.items()},
                Chain(((0, 0),), len(late)),
            )
        )
    return tuple(players)


def _chain(run: Sequence[int], at: Sequence[int], extra: Sequence[tuple[int, int]] = ()) -> Chain:
    """The binding suffixes of slots at event indices ``at`` for one code whose D - T
    suffix sums are ``run``; ``extra``: (event index, offset) caps added by a split."""
    lows = []
    previous = -1
    for event in at:
        lows.append(min(run[previous + 1 : event + 1]))
        previous = event
    for event, offset in extra:
        for k, e in enumerate(at):
            if e >= event:
                lows[k] = min(lows[k], offset)
                break
    records: list[tuple[int, int]] = []
    for k, low in enumerate(lows):
        if not records or low < records[-1][0]:
            records.append((low, k))
    return Chain(tuple(records), len(at))


def chain_capacity(chain: Chain, held: int) -> int:
    """The most slots of a chain that can take the card when ``held`` copies are in
    the hand at the end (a flow through the chain alone)."""
    flow = 0
    records = chain.records
    ends = [start for _, start in records[1:]] + [chain.slots]
    usable = len(records)
    for k, (offset, _) in enumerate(records):
        if held + offset <= 0:
            usable = k
            break
    for k in range(usable - 1, -1, -1):
        offset, start = records[k]
        flow = min(flow + ends[k] - start, held + offset)
    return flow


# --------------------------------------------------------------------------- the flow


class _Graph:
    """A small max-flow network: edge ``e`` and its reverse ``e ^ 1``."""

    __slots__ = ("adj", "cap", "to")

    def __init__(self, nodes: int) -> None:
        self.to: list[int] = []
        self.cap: list[int] = []
        self.adj: list[list[int]] = [[] for _ in range(nodes)]

    def node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def edge(self, u: int, v: int, cap: int) -> int:
        e = len(self.to)
        self.to += (v, u)
        self.cap += (cap, 0)
        self.adj[u].append(e)
        self.adj[v].append(e + 1)
        return e

    def push(self, path: Sequence[int]) -> bool:
        """One unit along ``path`` (edge ids) if every edge has room."""
        cap = self.cap
        if all(cap[e] > 0 for e in path):
            for e in path:
                cap[e] -= 1
                cap[e ^ 1] += 1
            return True
        return False

    def augment(self, source: int, sink: int) -> bool:
        """One unit along a shortest augmenting path, if there is one."""
        parent = [-1] * len(self.adj)
        parent[source] = -2
        queue = [source]
        to, cap, adj = self.to, self.cap, self.adj
        for u in queue:
            for e in adj[u]:
                v = to[e]
                if cap[e] > 0 and parent[v] == -1:
                    parent[v] = e
                    if v == sink:
                        while v != source:
                            e = parent[v]
                            cap[e] -= 1
                            cap[e ^ 1] += 1
                            v = to[e ^ 1]
                        return True
                    queue.append(v)
        return False


class Deal(NamedTuple):
    """A deal of the hidden cards: every seat's hand (the shown ones too) and the stock
    as a multiset (any order of it fits)."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


#: Caps added by a split (``Model._solve``): (seat, code, reshuffle) -> (event index,
#: most slots of that reshuffle from that event on that may take the code).
Cuts = dict[tuple[int, int, int], tuple[tuple[int, int], ...]]
#: Splits tried before giving up on one deal (never reached in the tests; reaching it
#: is an error rather than a guess, which would bias the samples).
BRANCH_LIMIT: Final = 10_000


class Model:
    """The constraints of one view, ready to test deals against (``fit``)."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.players = prepare(record)
        self.sets = [Counter(cards) for cards in record.reshuffled]
        #: The slots after a reshuffle (indices into record.slots), in time order.
        self.late = [i for i, s in enumerate(record.slots) if s.segment]
        self.positions: dict[int, int] = {}
        for player in self.players:
            for indices in player.segments.values():
                for k, i in enumerate(indices):
                    self.positions[i] = k
        self._splits = 0

    def quota(self, stock: Iterable[int]) -> tuple[list[Counter[int]], int, int] | None:
        """The cards each reshuffle's slots must take given the stock left: one Counter
        per reshuffle; the wild units (1 while the unnamed up card may be any card the
        slots took); the up card when the stock shows it (a card beyond what the first
        reshuffle names). None if the stock holds cards no reshuffle put there."""
        record = self.record
        quotas = [Counter(q) for q in self.sets]
        if not quotas:
            return quotas, 0, 0
        last = quotas[-1]
        shown = 0
        for c in stock:
            if last[c] > 0:
                last[c] -= 1
            elif record.wild and len(quotas) == 1 and not shown:
                shown = c
            else:
                return None
        return quotas, int(record.wild and not shown), shown

    def chain(self, seat: int, code: int, segment: int) -> Chain | None:
        player = self.players[seat]
        if segment not in player.segments:
            return None
        return player.chains.get((code, segment), player.plain[segment])

    def alone(self, code: int, held: Sequence[int], quotas: Sequence[int]) -> int:
        """How many of one code's copies drawn after the reshuffles (``quotas`` per
        reshuffle) can go to distinct slots of their reshuffle whose players keep them,
        by every cap of ``code`` (players holding ``held`` copies at the end). Exact
        for one code: a flow from each reshuffle's copies to its slots, then up each
        player's chain of caps. The other codes are ignored (they may want the same
        slots), so all of them fitting is a necessary condition of a fitting deal."""
        total = sum(quotas)
        if not total:
            return 0
        record = self.record
        g = _Graph(2 + len(quotas))
        source, sink = 0, 1
        for j, q in enumerate(quotas, start=1):
            if q:
                g.edge(source, 1 + j, q)
        for seat, player in enumerate(self.players):
            if not player.late:
                continue
            chain = player.spans.get(code, player.span)
            h = held[seat]
            nodes: list[int] = []
            target = sink
            for offset, _ in chain.records:
                if h + offset <= 0:
                    break
                node = g.node()
                g.edge(node, target, h + offset)
                nodes.append(node)
                target = node
            if not nodes:
                continue
            groups: Counter[tuple[int, int]] = Counter()
            k = 0
            starts = [start for _, start in chain.records]
            for position, i in enumerate(player.late):
                while k + 1 < len(starts) and starts[k + 1] <= position:
                    k += 1
                if k < len(nodes):
                    groups[k, record.slots[i].segment] += 1
            for (k, j), n in groups.items():
                if quotas[j - 1]:
                    g.edge(1 + j, nodes[k], n)
        flow = 0
        while flow < total and g.augment(source, sink):
            flow += 1
        return flow

    def fit(self, deal: Deal) -> dict[int, int] | None:
        """A card for every slot after a reshuffle with which ``deal`` fits the view
        (slot index -> card; key -1: the up card when the view does not name it), or
        None if no history gives ``deal``."""
        quota = self.quota(deal.stock)
        if quota is None:
            return None
        quotas, wild, shown = quota
        held = [Counter(hand) for hand in deal.hands]
        self._splits = 0
        result = self._sequential(held, quotas, wild)
        if result is None and len(quotas) > 1:
            result = self._solve(held, quotas, wild, {})
        if result is not None and self.record.wild:
            result[-1] = shown or result[-1]
        return result

    def _sequential(
        self, held: list[Counter[int]], quotas: list[Counter[int]], wild: int
    ) -> dict[int, int] | None:
        """The reshuffles one at a time from the last: each one's slots get cards by a
        flow, the players' copies its slots used taken off their hands for the earlier
        ones (each step exact given the later ones). None if some step fails, which
        with one reshuffle means no fit, and with more only that these later choices
        do not lead to one."""
        record = self.record
        left = [Counter(h) for h in held]
        assignment: dict[int, int] = {}
        for j in range(len(quotas), 0, -1):
            late = [i for i in self.late if record.slots[i].segment == j]
            alone = [q if k == j - 1 else Counter() for k, q in enumerate(quotas)]
            unit = wild if j == 1 else 0
            if not late:
                if unit or +alone[j - 1]:
                    return None
                continue
            g, missing, options, quota_nodes = self._network(left, alone, unit, {}, late)
            if missing:
                return None
            for n, i in enumerate(late):
                for c, e in options[n]:
                    if g.cap[e] == 0:
                        assignment[i] = c
                        left[record.slots[i].seat][c] -= 1
                        break
            if unit:
                assignment[-1] = 0
                for (_, c), q in quota_nodes.items():
                    if q is not None and q[2] >= 0 and g.cap[q[2]] == 0:
                        assignment[-1] = c
        return assignment

    def _solve(
        self, held: list[Counter[int]], quotas: list[Counter[int]], wild: int, cuts: Cuts
    ) -> dict[int, int] | None:
        assignment = self._flow(held, quotas, wild, cuts)
        if assignment is None:
            return None
        broken = self._cross_check(held, assignment)
        if broken is None:
            return assignment
        seat, code, event, cap, segments = broken
        for split in _compositions(cap, len(segments)):
            self._splits += 1
            if self._splits > BRANCH_LIMIT:
                raise RuntimeError("ramino determinize: too many splits for one deal")
            more = dict(cuts)
            for j, a in zip(segments, split, strict=True):
                more[seat, code, j] = (*cuts.get((seat, code, j), ()), (event, a))
            found = self._solve(held, quotas, wild, more)
            if found is not None:
                return found
        return None

    def _cross_check(
        self, held: list[Counter[int]], assignment: dict[int, int]
    ) -> tuple[int, int, int, int, tuple[int, ...]] | None:
        """A cap broken by slots of different reshuffles together: (seat, code, event
        index, cap, the reshuffles with such slots from that event on)."""
        slots = self.record.slots
        by: dict[tuple[int, int], list[int]] = {}
        for i, c in assignment.items():
            if i >= 0:
                by.setdefault((slots[i].seat, c), []).append(i)
        for (seat, c), indices in by.items():
            if len({slots[i].segment for i in indices}) < 2:
                continue
            player = self.players[seat]
            run = player.suffix.get(c)
            events = sorted(slots[i].event for i in indices)
            count = len(events)
            k = 0
            for e in range(len(player.events) + 1):
                while k < len(events) and events[k] < e:
                    k += 1
                after = count - k
                cap = held[seat][c] + (run[e] if run else 0)
                if after > cap:
                    late = {slots[i].segment for i in indices if slots[i].event >= e}
                    return seat, c, e, cap, tuple(sorted(late))
        return None

    def feed(
        self, seat: int, held: list[Counter[int]], quotas: list[Counter[int]], wild: int
    ) -> int:
        """How many of ``seat``'s slots after a reshuffle can be given a card (the
        other players' slots ignored)."""
        late = [i for i in self.late if self.record.slots[i].seat == seat]
        _, missing, _, _ = self._network(held, quotas, wild, {}, late)
        return len(late) - missing

    def _flow(
        self, held: list[Counter[int]], quotas: list[Counter[int]], wild: int, cuts: Cuts
    ) -> dict[int, int] | None:
        late = self.late
        if not late:
            return {-1: 0} if wild else {}
        g, missing, options, quota_nodes = self._network(held, quotas, wild, cuts, late)
        if missing:
            return None
        assignment: dict[int, int] = {}
        for n, i in enumerate(late):
            for c, e in options[n]:
                if g.cap[e] == 0:
                    assignment[i] = c
                    break
        if wild:
            assignment[-1] = 0
            for (_, c), q in quota_nodes.items():
                if q is not None and q[2] >= 0 and g.cap[q[2]] == 0:
                    assignment[-1] = c
        return assignment

    def _network(
        self,
        held: list[Counter[int]],
        quotas: list[Counter[int]],
        wild: int,
        cuts: Cuts,
        late: Sequence[int],
    ) -> tuple[
        _Graph,
        int,
        list[list[tuple[int, int]]],
        dict[tuple[int, int], tuple[int, int, int] | None],
    ]:
        """The flow of ``late``'s slots to their cards, pushed as far as it goes: the
        graph, the slots left without a card, per slot (code, edge) of each choice,
        the quota nodes."""
        record = self.record
        g = _Graph(3 + len(late))
        source, sink, wild_node = 0, 1, 2
        wild_exit = g.edge(wild_node, sink, 1) if wild else -1
        quota_nodes: dict[tuple[int, int], tuple[int, int, int] | None] = {}

        def quota_of(j: int, c: int) -> tuple[int, int, int] | None:
            key = (j, c)
            if key not in quota_nodes:
                amount = quotas[j - 1][c]
                via_wild = bool(wild) and j == 1
                if not amount and not via_wild:
                    quota_nodes[key] = None
                else:
                    node = g.node()
                    out = g.edge(node, sink, amount)
                    quota_nodes[key] = (node, out, g.edge(node, wild_node, 1) if via_wild else -1)
            return quota_nodes[key]

        chain_nodes: dict[tuple[int, int, int], tuple[Chain, list[tuple[int, int]]] | None] = {}

        def chain_of(seat: int, c: int, j: int) -> tuple[Chain, list[tuple[int, int]]] | None:
            key = (seat, c, j)
            if key not in chain_nodes:
                chain_nodes[key] = None
                exit_ = quota_of(j, c)
                h = held[seat][c]
                player = self.players[seat]
                if exit_ is not None:
                    cut = cuts.get(key)
                    if cut:
                        at = [record.slots[i].event for i in player.segments[j]]
                        run = player.suffix.get(c, (0,) * (len(player.events) + 1))
                        chain = _chain(run, at, [(e, a - h) for e, a in cut])
                    else:
                        chain = player.chains.get((c, j), player.plain[j])
                    nodes: list[tuple[int, int]] = []
                    target = exit_[0]
                    for offset, _ in chain.records:
                        if h + offset <= 0:
                            break
                        node = g.node()
                        nodes.append((node, g.edge(node, target, h + offset)))
                        target = node
                    if nodes:
                        chain_nodes[key] = (chain, nodes)
            return chain_nodes[key]

        options: list[list[tuple[int, int]]] = []
        for n, i in enumerate(late):
            slot = record.slots[i]
            seat, j = slot.seat, slot.segment
            node = 3 + n
            start = g.edge(source, node, 1)
            position = self.positions[i]
            codes = set(held[seat]) | set(self.players[seat].suffix)
            if not (wild and j == 1):
                codes &= {c for c, a in quotas[j - 1].items() if a}
            mine: list[tuple[int, int]] = []
            placed = False
            for c in sorted(codes, key=lambda c: (c != slot.discard, c)):
                found = chain_of(seat, c, j)
                if found is None:
                    continue
                chain, nodes = found
                k = 0
                for x, (_, first) in enumerate(chain.records):
                    if first <= position:
                        k = x
                if k >= len(nodes):
                    continue
                e = g.edge(node, nodes[k][0], 1)
                mine.append((c, e))
                if placed:
                    continue
                path = [start, e, *(nodes[x][1] for x in range(k, -1, -1))]
                exit_ = quota_nodes[j, c]
                assert exit_ is not None
                placed = g.push([*path, exit_[1]]) or (
                    exit_[2] >= 0 and g.push([*path, exit_[2], wild_exit])
                )
            options.append(mine)
        missing = sum(1 for n in range(len(late)) if g.cap[g.adj[source][n]] > 0)
        while missing and g.augment(source, sink):
            missing -= 1
        return g, missing, options, quota_nodes


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` ordered non-negative integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


# --------------------------------------------------------------------------- history


class History(NamedTuple):
    """A history that gives a deal: the hands as dealt, the up card, the deal's stock
    and each reshuffled stock (top card first)."""

    hands: tuple[tuple[int, ...], ...]
    up: int
    stock: tuple[int, ...]
    reshuffles: tuple[tuple[int, ...], ...]


def witness(
    record: Record, hands: Sequence[Sequence[int]], stock: Sequence[int], cards: dict[int, int]
) -> History:
    """The history of a fitting deal (``cards``: what ``Model.fit`` returned; ``stock``
    in order, top first): each player's hand read backwards from the end, a draw from
    the deal's stock taking back the highest card he does not need for an earlier take."""
    slots = record.slots
    drawn = dict(cards)
    start: list[tuple[int, ...]] = []
    for seat, events in enumerate(record.timelines):
        hand = Counter(hands[seat])
        for index in range(len(events) - 1, -1, -1):
            _, kind, value = events[index]
            if kind == DISCARD:
                hand[value] += 1
                continue
            if kind == DRAW and slots[value].segment == 0:
                need = _needed(events, index)
                card = max(c for c in hand if hand[c] > need[c])
                drawn[value] = card
            else:
                card = value if kind == TAKE else drawn[value]
            if hand[card] <= 0:
                raise ValueError(f"seat {seat} cannot give back {card} at event {index}")
            hand[card] -= 1
        start.append(tuple(sorted(hand.elements())))
    r = record.reshuffles
    first = [drawn[i] for i, s in enumerate(slots) if s.segment == 0]
    if r == 0:
        first += list(stock)
    stocks = []
    for j in range(1, r + 1):
        cards_j = [drawn[i] for i, s in enumerate(slots) if s.segment == j]
        if j == r:
            cards_j += list(stock)
        stocks.append(tuple(cards_j))
    up = record.up if record.up != UNKNOWN else cards[-1]
    history = History(tuple(start), up, tuple(first), tuple(stocks))
    everything = Counter(first)
    everything[up] += 1
    for hand_ in start:
        everything.update(hand_)
    if everything != Counter(DECK):
        raise ValueError("the history does not deal the 104 cards")
    return history
