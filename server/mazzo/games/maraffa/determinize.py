"""Maraffa for 2, 3 and 4 players: the hidden cards of a view, dealt anew (issue 15).

``determinize(view, count, seed)`` gives ``count`` whole states whose view for
``view.seat`` is ``view``, drawn uniformly among every deal of the unknown cards to
the hidden places (the hands the viewer cannot see, then the order of the 2-player
stock) that the view allows. What the view implies is a hard constraint (listed in
``docs/maraffa.md``, "Determinization"); nothing else is inferred from how anyone
played.

How. Every hidden card gets the set of places that may hold it (a void shown,
a card that must be with one seat). Constraints that are counts ("he still holds
at least one low card of the suit", "not all three top trumps with him") stay
counts. Cards with the same places and the same part in the counts form a class;
the number of ways to fill every place's exact size is counted class by class
(multinomials, with the counts' running totals in the state: ``_Counter``), and a
sample is drawn class by class in proportion to those numbers, then each class's
cards are shuffled into their places. That is exactly uniform; the stock's order is
then a uniform shuffle. Every draw is ``core.shuffle`` of the request's seed with a
fixed counter scheme (``_COUNTERS``), so the samples depend on (view, count, seed)
only.

``moves_bound`` bounds the moves to the end of the hand or of the match.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Final, NamedTuple

from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa.cards import (
    BIT,
    FOUR_OF_COINS,
    LOW_FOR_STRISCIO,
    MARAFONA,
    STRENGTH,
    SUIT,
    SUIT_MASK,
    TRUMP_ACE,
    cards_of,
    deck_of,
    hand_thirds,
    mask_of,
)
from mazzo.games.maraffa.moves import REDEAL, Signal
from mazzo.games.maraffa.options import MarafonaRule, Series
from mazzo.games.maraffa.rules import WEAK_HAND_THIRDS, apply
from mazzo.games.maraffa.scoring import tally, target_units, tricks_per_hand
from mazzo.games.maraffa.signals import LEADER_SIGNALS, enabled
from mazzo.games.maraffa.state import NO_SEAT, NO_SUIT, Phase, State, Table, sides_of
from mazzo.games.maraffa.tricks import winning_index
from mazzo.games.maraffa.validate import check_table, validate
from mazzo.games.maraffa.view import View, controller_of

#: Counter scheme: sample ``j`` draws with counters ``j * _COUNTERS + k``: k = 0 the
#: sample's generator seed, k = 1 the stock's order, k = 2 + 2i how many cards of
#: class i go to each place, k = 3 + 2i which of them (a shuffle). A view has at
#: most 40 hidden cards, hence at most 40 classes: k < 128.
_COUNTERS: Final = 128
_STOCK: Final = -2
_LEADER_SIGNALS: Final = frozenset(LEADER_SIGNALS)
_FACTORIAL: Final = [math.factorial(n) for n in range(41)]


class _Play(NamedTuple):
    seat: int
    card: int
    signal: int
    trick: int
    #: Position in its trick (0: the lead), and the field that shows it.
    position: int
    field: str


class _Count(NamedTuple):
    """Between ``lo`` and ``hi`` of the hidden cards ``cards`` are in place ``place``."""

    place: int
    cards: frozenset[int]
    lo: int
    hi: int
    field: str


class _Problem(NamedTuple):
    """The hidden cards and where they may go."""

    #: Seat of each hidden place, ``_STOCK`` for the 2-player stock.
    places: tuple[int, ...]
    #: How many hidden cards each place takes.
    sizes: tuple[int, ...]
    #: Per hidden card (canonical order), the places that may hold it.
    allowed: dict[int, frozenset[int]]
    #: The count constraints that are not a plain "may hold" (kept in order).
    counts: tuple[_Count, ...]


def _unsatisfiable(field: str, why: str) -> InvalidArgument:
    return InvalidArgument(field, f"no deal of the cards gives this view: {why}")


# --------------------------------------------------------------------------- public checks


class _Public(NamedTuple):
    """What the view shows, laid out for the sampler."""

    seats: int
    viewer: int
    dummy: int | None
    #: Per seat: the cards the viewer sees in that hand now, or None if hidden.
    shown: tuple[tuple[int, ...] | None, ...]
    plays: tuple[_Play, ...]
    #: 2 players: (trick, seat, card) of each draw.
    draws: tuple[tuple[int, int, int], ...]


def _plays(view: View, prefix: str, seats: int) -> tuple[_Play, ...]:
    out: list[_Play] = []
    for k, trick in enumerate(view.tricks):
        for i, c in enumerate(trick.cards):
            field = f"{prefix}.maraffa.tricks[{k}].cards[{i}]"
            out.append(_Play((trick.leader + i) % seats, c, trick.signals[i], k, i, field))
    k = len(view.tricks)
    trick = view.trick
    for i, c in enumerate(trick.cards):
        field = f"{prefix}.maraffa.current_trick.cards[{i}]"
        out.append(_Play((trick.leader + i) % seats, c, trick.signals[i], k, i, field))
    return tuple(out)


def check_view(view: View, prefix: str = "view") -> _Public:
    """Check what the view shows against the rules, as far as no hidden card is
    involved; raise ``InvalidArgument`` naming the field (``view.maraffa.tricks[2]``)."""
    m = prefix + ".maraffa."
    table = view.table
    seats = table.seats
    options = table.options
    try:
        check_table(table._replace(seed=0, counter=1))
    except InvalidState as e:
        raise InvalidArgument(_view_field(e.field, prefix), e.reason) from None
    if view.players != table.players:
        raise InvalidArgument(prefix + ".players", "players does not match the table")
    if not 0 <= view.seat < seats:
        raise InvalidArgument(prefix + ".seat", f"seat must be 0..{seats - 1}")
    dummy = options.dummy_seat if table.players == 3 and seats == 4 else None
    if view.dummy_seat != dummy:
        raise InvalidArgument(m + "dummy_seat", "dummy_seat is set exactly with a dummy")
    viewer = controller_of(dummy) if dummy is not None and view.seat == dummy else view.seat
    phase = view.phase
    if not 0 <= view.to_act < seats:
        raise InvalidArgument(prefix + ".to_act", f"to_act must be 0..{seats - 1}")
    per_hand = tricks_per_hand(seats)
    completed = len(view.tricks)
    played_any = completed or view.trick.cards
    if phase is Phase.TRUMP:
        if view.trump != NO_SUIT:
            raise InvalidArgument(m + "trump", "trump is set only once it is declared")
        if played_any:
            raise InvalidArgument(m + "tricks", "no card is played before trump is declared")
    elif (phase is Phase.PLAY or played_any) and not 0 <= view.trump < 4:
        raise InvalidArgument(m + "trump", "cards are played, so trump must be set")
    if completed > per_hand or (completed == per_hand and phase is not Phase.OVER):
        raise InvalidArgument(m + "tricks", f"a hand has {per_hand} tricks, then it is scored")
    # Every card once: what is shown and played (cards.py deck of the form), and drawn.
    deck = mask_of(deck_of(seats, options.removed_four))
    seen = 0
    for name, cards in (("hand", view.hand), ("dummy_hand", view.dummy_hand)):
        for i, c in enumerate(cards):
            seen = _once(seen, c, deck, f"{m}{name}[{i}]")
    for k, trick in enumerate((*view.tricks, view.trick)):
        where = f"{m}tricks[{k}]" if k < completed else m + "current_trick"
        if len(trick.signals) != len(trick.cards):
            raise InvalidArgument(where + ".signals", "one signal (or none) per card")
        for i, c in enumerate(trick.cards):
            seen = _once(seen, c, deck, f"{where}.cards[{i}]")
    drawn_mask = 0
    for i, c in enumerate(view.drawn):
        drawn_mask = _once(drawn_mask, c, deck, f"{m}drawn[{i}]")
    _check_tricks(view, m, seats, per_hand)
    leader = view.trick.leader
    in_trick = len(view.trick.cards)
    if phase is not Phase.OVER and view.to_act != (leader + in_trick) % seats:
        raise InvalidArgument(prefix + ".to_act", "to_act is not the seat whose turn it is")
    plays = _plays(view, prefix, seats)
    # Hand, stock and drawn sizes (maraffa.md §8).
    if seats == 2:
        base = 10 if completed <= 10 else 20 - completed
        if view.stock_size != 20 - 2 * min(completed, 10):
            raise InvalidArgument(m + "stock_size", "the stock size does not fit the tricks")
        if len(view.drawn) != 2 * min(completed, 10):
            raise InvalidArgument(m + "drawn", "two cards are drawn after each of tricks 1-10")
    else:
        base = per_hand - completed
        if view.stock_size:
            raise InvalidArgument(m + "stock_size", "only the 2-player form has a stock")
        if view.drawn:
            raise InvalidArgument(m + "drawn", "only the 2-player form draws")
    if len(view.hand_sizes) != seats:
        raise InvalidArgument(m + "hand_sizes", f"one size per seat: {seats}")
    for s in range(seats):
        expected = base - (1 if (s - leader) % seats < in_trick else 0)
        if view.hand_sizes[s] != expected:
            raise InvalidArgument(
                f"{m}hand_sizes[{s}]",
                f"seat {s} must hold {expected} cards, not {view.hand_sizes[s]}",
            )
    # The hands the viewer sees (§7.1, §3.2.3).
    hidden = (table.battezzante + 2) % 4
    hidden_seat = hidden if seats == 4 and table.hand_number > 1 and phase is Phase.TRUMP else None
    if view.hand_hidden != (hidden_seat == viewer):
        raise InvalidArgument(
            m + "hand_hidden", "the battezzante's partner, and only he, is blind in the trump phase"
        )
    shown: list[tuple[int, ...] | None] = [None] * seats
    if view.hand_hidden:
        if view.hand:
            raise InvalidArgument(m + "hand", "a hidden hand shows no cards")
    else:
        if len(view.hand) != view.hand_sizes[viewer]:
            raise InvalidArgument(m + "hand", "the hand does not match its size in hand_sizes")
        shown[viewer] = view.hand
    if dummy is not None and viewer == controller_of(dummy) and hidden_seat != dummy:
        if len(view.dummy_hand) != view.hand_sizes[dummy]:
            raise InvalidArgument(
                m + "dummy_hand", "the dummy's hand does not match its size in hand_sizes"
            )
        shown[dummy] = view.dummy_hand
    elif view.dummy_hand:
        raise InvalidArgument(m + "dummy_hand", "this seat does not see the dummy's cards")
    _check_signals(view, plays, m, seats)
    draws = _check_draws(view, plays, shown, m, seats)
    _check_marafona(view, plays, m, seats)
    return _Public(seats, viewer, dummy, tuple(shown), plays, draws)


def _once(seen: int, c: int, deck: int, field: str) -> int:
    bit = BIT[c] if 0 <= c < len(BIT) else 0
    if not bit & deck:
        raise InvalidArgument(field, f"card {c} is not in this form's deck")
    if seen & bit:
        raise InvalidArgument(field, "the card is shown twice")
    return seen | bit


def _check_tricks(view: View, m: str, seats: int, per_hand: int) -> None:
    """Tricks' sizes, leaders and winners (§3.3)."""
    if len(view.tricks) > per_hand:
        raise InvalidArgument(m + "tricks", f"a hand has {per_hand} tricks")
    leader = view.table.battezzante
    for k, trick in enumerate(view.tricks):
        f = f"{m}tricks[{k}]"
        if len(trick.cards) != seats or len(trick.signals) != seats:
            raise InvalidArgument(f + ".cards", f"a completed trick has {seats} cards")
        if trick.leader != leader:
            raise InvalidArgument(f + ".leader", f"seat {leader} leads this trick")
        leader = (leader + winning_index(trick.cards, view.trump)) % seats
        if trick.winner != leader:
            raise InvalidArgument(f + ".winner", f"seat {leader} wins this trick")
    trick = view.trick
    f = m + "current_trick"
    if trick.leader != leader:
        raise InvalidArgument(f + ".leader", f"seat {leader} leads this trick")
    if len(trick.cards) >= seats or len(trick.signals) != len(trick.cards):
        raise InvalidArgument(f + ".cards", f"a trick being played has under {seats} cards")
    if len(view.tricks) == per_hand and trick.cards:
        raise InvalidArgument(f + ".cards", "the hand is over")
    if trick.winner != NO_SEAT:
        raise InvalidArgument(f + ".winner", "the trick being played has no winner yet")


def _check_signals(view: View, plays: tuple[_Play, ...], m: str, seats: int) -> None:
    """What a signal needs that does not depend on hidden cards (§3.5)."""
    allowed = enabled(view.table.options, seats)
    trump = view.trump
    top = MARAFONA[trump] if trump != NO_SUIT else 0
    fallen = 0
    for index, p in enumerate(plays):
        if p.position == 0:
            fallen = mask_of(q.card for q in plays if q.trick < p.trick)
        sig = p.signal
        if not sig:
            continue
        lead = plays[index - p.position]
        field = p.field.replace(".cards[", ".signals[")
        if sig not in allowed:
            raise InvalidArgument(field, f"signal {Signal(sig).name} is not enabled")
        suit = SUIT[p.card]
        if sig == Signal.TAGLIO:
            if p.position == 0 or SUIT[lead.card] == trump or suit != trump:
                raise InvalidArgument(field, "TAGLIO goes only with a cut of a non-trump lead")
        elif p.position:
            raise InvalidArgument(field, f"only the leader may signal {Signal(sig).name}")
        elif sig == Signal.FUORI_TUTTO and (suit != trump or fallen & top):
            raise InvalidArgument(field, "FUORI_TUTTO: a trump lead before any top trump fell")
        elif sig == Signal.TAGLIA and suit == trump:
            raise InvalidArgument(field, "TAGLIA goes only with a non-trump lead")


def _check_draws(
    view: View,
    plays: tuple[_Play, ...],
    shown: list[tuple[int, ...] | None],
    m: str,
    seats: int,
) -> tuple[tuple[int, int, int], ...]:
    """2 players: the winner of each of tricks 1-10 draws first, the loser next (§2.3.2);
    a drawn card is then held until its holder plays it."""
    if seats != 2:
        return ()
    draws = []
    played_at = {p.card: p for p in plays}
    for i, c in enumerate(view.drawn):
        k = i // 2
        winner = view.tricks[k].winner
        seat = winner if i % 2 == 0 else 1 - winner
        draws.append((k, seat, c))
        field = f"{m}drawn[{i}]"
        p = played_at.get(c)
        if p is not None:
            if p.seat != seat or p.trick <= k:
                raise _unsatisfiable(field, "a drawn card is played by its drawer, later")
        elif shown[1 - seat] is not None and c in (shown[1 - seat] or ()):
            raise _unsatisfiable(field, "a drawn card is in the other hand")
        elif shown[seat] is not None and c not in (shown[seat] or ()):
            raise _unsatisfiable(field, "a drawn card, not played, is still in its hand")
    return tuple(draws)


def _check_marafona(view: View, plays: tuple[_Play, ...], m: str, seats: int) -> None:
    """A declared marafona: by whom and when it could be declared (§3.4)."""
    seat = view.marafona_seat
    if seat == NO_SEAT:
        return
    table = view.table
    rule = table.options.marafona_rule
    f = m + "marafona_seat"
    if not 0 <= seat < seats:
        raise InvalidArgument(f, f"seat must be 0..{seats - 1}")
    if rule is MarafonaRule.OFF:
        raise InvalidArgument(f, "the marafona is off in this match")
    if not any(p.trick == 0 and p.seat == seat for p in plays):
        raise InvalidArgument(f, "the marafona is declared on the declarer's play to trick 1")
    if rule is not MarafonaRule.ANY_HOLDER_FIRST_TRICK and seat != table.battezzante:
        raise InvalidArgument(f, "only the battezzante may declare the marafona")
    if rule is MarafonaRule.BATTEZZANTE_ACE_LEAD and plays[0].card != TRUMP_ACE[view.trump]:
        raise InvalidArgument(f, "the marafona is declared by leading the ace of trumps")


def _view_field(field: str, prefix: str) -> str:
    """A state's field (from ``validate``) named as the view's."""
    m = prefix + ".maraffa."
    if field.startswith("state.maraffa.hands["):
        return m + "hand_sizes[" + field.removeprefix("state.maraffa.hands[").split("]")[0] + "]"
    for state_field, view_field in (
        ("state.maraffa.played", m + "tricks"),
        ("state.maraffa.signals", m + "tricks"),
        ("state.maraffa.stock", m + "stock_size"),
        ("state.maraffa.rng", m + "table"),
    ):
        if field.startswith(state_field):
            return view_field
    if field.startswith("state.maraffa."):
        return m + field.removeprefix("state.maraffa.")
    return prefix + "." + field.removeprefix("state.") if field.startswith("state.") else prefix


# --------------------------------------------------------------------------- constraints


def _problem(view: View, public: _Public, prefix: str) -> tuple[_Problem, list[_Count]]:
    """The hidden places, the hidden cards, and every constraint the view implies, in
    the order of the plays that imply them (the first one that no deal can meet is
    named)."""
    m = prefix + ".maraffa."
    table = view.table
    options = table.options
    seats = public.seats
    shown = public.shown
    plays = public.plays
    draws = public.draws
    places = tuple(s for s in range(seats) if shown[s] is None)
    if seats == 2:
        places += (_STOCK,)
    place_of = {s: i for i, s in enumerate(places)}
    # Known now: the shown hands; in the 2-player form also the opponent's drawn cards
    # that he has not played.
    played = {p.card for p in plays}
    known_now: list[set[int]] = [set(h) if h is not None else set() for h in shown]
    for _, seat, c in draws:
        if c not in played:
            known_now[seat].add(c)
    hidden_cards = set(deck_of(seats, options.removed_four))
    hidden_cards -= played
    for s in range(seats):
        hidden_cards -= known_now[s]
    hidden_cards -= set(view.drawn)
    sizes = []
    for place in places:
        if place == _STOCK:
            sizes.append(view.stock_size)
        else:
            size = view.hand_sizes[place] - len(known_now[place])
            if size < 0:
                raise _unsatisfiable(m + "drawn", "more drawn cards held than the hand holds")
            sizes.append(size)
    if sum(sizes) != len(hidden_cards):  # pragma: no cover - follows from check_view
        raise _unsatisfiable(m + "hand_sizes", "the sizes do not add up to the deck")
    allowed = {c: frozenset(range(len(places))) for c in sorted(hidden_cards)}
    hidden_mask = mask_of(hidden_cards)
    counts: list[_Count] = []

    def known_at(seat: int, index: int) -> int:
        """The known part of ``seat``'s hand just before play ``index``."""
        trick = plays[index].trick if index < len(plays) else len(view.tricks)
        mask = mask_of(known_now[seat])
        for p in plays[index:]:
            if p.seat == seat:
                mask |= BIT[p.card]
        for k, s, c in draws:
            if s == seat and k >= trick:
                mask &= ~BIT[c]
        return mask

    def hold(seat: int, index: int, cards: int, lo: int, hi: int, field: str) -> None:
        """Between lo and hi of ``cards`` (a mask) were in ``seat``'s hand just before
        play ``index``: the known part is checked, the rest is a constraint on the
        hidden cards of that seat (which it has held since the deal)."""
        known = (known_at(seat, index) & cards).bit_count()
        unknown = cards & hidden_mask
        if seat not in place_of:
            unknown = 0
        n = unknown.bit_count()
        lo, hi = max(0, lo - known), min(hi - known, n)
        if hi < 0 or lo > n:
            raise _unsatisfiable(field, "the cards shown contradict this play")
        if lo or hi < n:
            counts.append(_Count(place_of[seat], frozenset(cards_of(unknown)), lo, hi, field))

    trump = view.trump
    # 1. In hand 1 the battezzante is the seat dealt 4D; with 2 players 4D may have been
    #    dealt to the stock, and then next(dealer) is battezzante (§3.2.1, §2.3.4).
    if table.hand_number == 1:
        _four_of_coins(view, public, places, allowed, known_now, m)
    top = MARAFONA[trump] if trump != NO_SUIT else 0
    many = len(plays) + 99
    for index, p in enumerate(plays):
        lead = plays[index - p.position]
        led = SUIT[lead.card]
        # 2. Must follow suit (§3.3.3; 2 players: §2.3.5).
        obliged = seats != 2 or options.two_player_must_follow or p.trick >= 10
        if p.position and SUIT[p.card] != led and obliged:
            hold(p.seat, index, SUIT_MASK[led], 0, 0, p.field)
        # 3. A checked signal's truth condition (§3.5), on the hand after the lead.
        if options.signals_checked and p.position == 0 and p.signal:
            suit_mask = SUIT_MASK[SUIT[p.card]] & ~BIT[p.card]
            field = p.field.replace(".cards[", ".signals[")
            if p.signal == Signal.STRISCIO:
                low = suit_mask & mask_of(LOW_FOR_STRISCIO)
                hold(p.seat, index + 1, low, 1, many, field)
            elif p.signal == Signal.VOLO:
                hold(p.seat, index + 1, suit_mask, 0, 0, field)
            elif p.signal == Signal.RISTRISCIO:
                hold(p.seat, index + 1, suit_mask, 2, many, field)
            elif p.signal == Signal.FUORI_TUTTO:
                hold(p.seat, index, top, 0, 0, field)
            elif p.signal == Signal.BUONA:
                fallen = mask_of(q.card for q in plays if q.trick < p.trick)
                stronger = mask_of(
                    c for c in cards_of(SUIT_MASK[SUIT[p.card]]) if STRENGTH[c] > STRENGTH[p.card]
                )
                stronger &= ~fallen
                hold(p.seat, index, stronger, stronger.bit_count(), many, field)
        # 4. The marafona: declared (the declarer held 3-2-A of trumps at his play to
        #    trick 1), or, when declaring is automatic, not declared where it would be.
        if p.trick == 0 and top:
            field = m + "marafona_seat"
            if view.marafona_seat == p.seat:
                hold(p.seat, index, top, 3, 3, field)
            elif view.marafona_seat == NO_SEAT and _auto_declares(view, p, index):
                hold(p.seat, index, top, 0, 2, p.field)
    problem = _Problem(places, tuple(sizes), allowed, ())
    return problem, counts


def _auto_declares(view: View, play: _Play, index: int) -> bool:
    """Would this play to trick 1 declare a held marafona automatically (§3.4.3)?"""
    options = view.table.options
    rule = options.marafona_rule
    if not options.marafona_auto_declare or rule is MarafonaRule.OFF:
        return False
    if rule is MarafonaRule.ANY_HOLDER_FIRST_TRICK:
        return True
    if play.seat != view.table.battezzante:
        return False
    return rule is MarafonaRule.BATTEZZANTE_ONLY or (
        index == 0 and play.card == TRUMP_ACE[view.trump]
    )


def _four_of_coins(
    view: View,
    public: _Public,
    places: tuple[int, ...],
    allowed: dict[int, frozenset[int]],
    known_now: list[set[int]],
    m: str,
) -> None:
    """Hand 1: where 4D may have been dealt."""
    table = view.table
    seats = public.seats
    battezzante = table.battezzante
    may_stock = seats == 2 and battezzante == (table.dealer + 1) % seats
    field = m + "table.battezzante"
    four = FOUR_OF_COINS
    if four in allowed:
        where = {i for i, s in enumerate(places) if s == battezzante or (s == _STOCK and may_stock)}
        allowed[four] = allowed[four] & frozenset(where)
        if not allowed[four]:
            raise _unsatisfiable(field, "in hand 1 the battezzante was dealt 4D")
        return
    if four in view.drawn:
        origin = _STOCK
    else:
        origin = next((p.seat for p in public.plays if p.card == four), NO_SEAT)
        if origin == NO_SEAT:
            origin = next(s for s in range(seats) if four in known_now[s])
    if origin != battezzante and not (origin == _STOCK and may_stock):
        raise _unsatisfiable(field, "in hand 1 the battezzante was dealt 4D")


# --------------------------------------------------------------------------- counting


class _Stage(NamedTuple):
    cards: tuple[int, ...]
    #: Places that may take this class's cards (indices into _Problem.places).
    holders: tuple[int, ...]
    #: Per count constraint of the current group: where in ``holders`` its place is,
    #: or -1 when these cards are not its cards or cannot go there.
    adds: tuple[int, ...]
    #: Where the group's running counts saturate (hi + 1, or lo without upper bound).
    caps: tuple[int, ...]
    #: Last stage of its group: each constraint's (lo, hi), checked after it.
    checks: tuple[tuple[int, int], ...] | None
    #: Counters the next stage starts with.
    next_width: int


class _Counter:
    """The number of ways to place the hidden cards, stage by stage: ``ways(i, room,
    counts)`` is how many ways stages i.. can fill the places' remaining ``room``,
    given the running ``counts`` of the current group's constraints.

    Constraints that say "none of these cards with that seat" or "all of them" only
    narrow where cards may go; the others are counted (``_Stage``)."""

    def __init__(self, problem: _Problem, counts: list[_Count]) -> None:
        allowed = dict(problem.allowed)
        kept = []
        for count in counts:
            if count.hi == 0:
                for c in count.cards:
                    allowed[c] = allowed[c] - {count.place}
            elif count.lo == len(count.cards):
                for c in count.cards:
                    allowed[c] = allowed[c] & {count.place}
            else:
                kept.append(count)
        self.possible = all(allowed.values())
        self.stages = _stages(allowed, kept) if self.possible else []
        self.sizes = problem.sizes
        places = len(problem.sizes)
        # Per stage and place: cards of stages i.. that may go there (a quick prune).
        reach = [[0] * places for _ in range(len(self.stages) + 1)]
        for i in range(len(self.stages) - 1, -1, -1):
            reach[i] = list(reach[i + 1])
            for h in self.stages[i].holders:
                reach[i][h] += len(self.stages[i].cards)
        self.reach = reach
        self.memo: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
        width = len(self.stages[0].adds) if self.stages else 0
        self.start = (0, tuple(self.sizes), (0,) * width)

    def total(self) -> int:
        return self.ways(*self.start) if self.possible else 0

    def ways(self, i: int, room: tuple[int, ...], counts: tuple[int, ...]) -> int:
        if i == len(self.stages):
            return 0 if any(room) else 1
        key = (i, room, counts)
        got = self.memo.get(key)
        if got is None:
            got = 0
            if all(r <= c for r, c in zip(room, self.reach[i], strict=True)):
                for weight, next_room, next_counts in self.moves(i, room, counts):
                    got += weight * self.ways(i + 1, next_room, next_counts)
            self.memo[key] = got
        return got

    def moves(
        self, i: int, room: tuple[int, ...], counts: tuple[int, ...]
    ) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Each split of stage i's cards over its holders, in a fixed order: (ways,
        room after, counts after); the split itself is ``room - room after``."""
        stage = self.stages[i]
        n = len(stage.cards)
        for split in _splits(n, [room[h] for h in stage.holders]):
            next_room = list(room)
            weight = _FACTORIAL[n]
            for h, k in zip(stage.holders, split, strict=True):
                next_room[h] -= k
                weight //= _FACTORIAL[k]
            new = list(counts)
            for j, at in enumerate(stage.adds):
                if at >= 0:
                    new[j] = min(new[j] + split[at], stage.caps[j])
            if stage.checks is not None:
                if not all(lo <= c <= hi for c, (lo, hi) in zip(new, stage.checks, strict=True)):
                    continue
                new = [0] * stage.next_width
            yield weight, tuple(next_room), tuple(new)


def _splits(n: int, rooms: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write n as a sum over the rooms, each part within its room."""
    if len(rooms) == 1:
        if n <= rooms[0]:
            yield (n,)
        return
    rest = sum(rooms[1:])
    for k in range(max(0, n - rest), min(n, rooms[0]) + 1):
        for tail in _splits(n - k, rooms[1:]):
            yield (k, *tail)


def _stages(allowed: dict[int, frozenset[int]], counts: list[_Count]) -> list[_Stage]:
    """Classes of hidden cards: cards with the same places and the same part in the
    count constraints. Cards tied by constraints (whose card sets overlap) are one
    group, counted together with the constraints' running totals; then the rest."""
    groups: list[tuple[list[int], set[int]]] = []
    for j, count in enumerate(counts):
        merged = [g for g in groups if g[1] & count.cards]
        members = [j]
        cards = set(count.cards)
        for g in merged:
            members += g[0]
            cards |= g[1]
            groups.remove(g)
        groups.append((sorted(members), cards))
    stages: list[_Stage] = []
    in_group: set[int] = set()
    for gi, (members, cards) in enumerate(groups):
        classes: dict[tuple[frozenset[int], tuple[bool, ...]], list[int]] = {}
        for c in sorted(cards):
            key = (allowed[c], tuple(c in counts[j].cards for j in members))
            classes.setdefault(key, []).append(c)
        in_group |= cards
        next_width = len(groups[gi + 1][0]) if gi + 1 < len(groups) else 0
        caps = tuple(
            counts[j].hi + 1 if counts[j].hi < len(counts[j].cards) else counts[j].lo
            for j in members
        )
        checks = tuple((counts[j].lo, counts[j].hi) for j in members)
        for k, class_cards in enumerate(classes.values()):
            holders = tuple(sorted(allowed[class_cards[0]]))
            adds = tuple(
                holders.index(counts[j].place)
                if class_cards[0] in counts[j].cards and counts[j].place in holders
                else -1
                for j in members
            )
            check = checks if k == len(classes) - 1 else None
            stages.append(_Stage(tuple(class_cards), holders, adds, caps, check, next_width))
    free: dict[frozenset[int], list[int]] = {}
    for c in sorted(allowed):
        if c not in in_group:
            free.setdefault(allowed[c], []).append(c)
    for where, class_cards in free.items():
        stages.append(_Stage(tuple(class_cards), tuple(sorted(where)), (), (), (), 0))
    return stages


# --------------------------------------------------------------------------- sampling


def determinize(view: View, count: int, seed: int) -> list[State]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``)."""
    public = check_view(view)
    problem, counts = _problem(view, public, "view")
    counter = _Counter(problem, counts)
    if not counter.total():
        raise _culprit(problem, counts)
    states = [_sample(view, public, problem, counter, seed, j) for j in range(count)]
    if states:
        try:
            validate(states[0])
        except InvalidState as e:
            raise InvalidArgument(_view_field(e.field, "view"), e.reason) from None
    return states


def _culprit(problem: _Problem, counts: list[_Count]) -> InvalidArgument:
    """The first constraint, in the order of play, after which no deal is left."""
    for j in range(len(counts) + 1):  # only for a view that is refused
        if not _Counter(problem, counts[:j]).total():
            field = counts[j - 1].field if j else "view.maraffa.hand_sizes"
            return _unsatisfiable(field, "the hidden cards cannot all be placed")
    return _unsatisfiable("view", "the hidden cards cannot all be placed")  # pragma: no cover


def _sample(
    view: View, public: _Public, problem: _Problem, counter: _Counter, seed: int, j: int
) -> State:
    base = j * _COUNTERS
    i, room, counts = counter.start
    dealt: list[list[int]] = [[] for _ in problem.places]
    for i, stage in enumerate(counter.stages):
        r = draw_below(seed, base + 2 + 2 * i, counter.ways(i, room, counts))
        for weight, next_room, next_counts in counter.moves(i, room, counts):
            w = weight * counter.ways(i + 1, next_room, next_counts)
            if r < w:
                break
            r -= w
        cards = stage.cards
        split = [room[h] - next_room[h] for h in stage.holders]
        if len(cards) > 1 and max(split) < len(cards):
            cards = tuple(shuffled(cards, seed, base + 3 + 2 * i))
        at = 0
        for h, k in zip(stage.holders, split, strict=True):
            dealt[h].extend(cards[at : at + k])
            at += k
        room, counts = next_room, next_counts
    seats = public.seats
    hands = [0] * seats
    for s in range(seats):
        cards_shown = public.shown[s]
        if cards_shown is not None:
            hands[s] = mask_of(cards_shown)
    for _, s, c in public.draws:
        if public.shown[s] is None and all(p.card != c for p in public.plays):
            hands[s] |= BIT[c]
    stock: tuple[int, ...] = ()
    for h, place in enumerate(problem.places):
        if place == _STOCK:
            stock = tuple(shuffled(sorted(dealt[h]), seed, base + 1))
        else:
            hands[place] |= mask_of(dealt[h])
    table = view.table._replace(seed=draw_below(seed, base, 2**64), counter=1)
    played = tuple(p.card for p in public.plays)
    signals = tuple(p.signal for p in public.plays)
    state = State(
        table,
        view.phase,
        view.to_act,
        view.trump,
        tuple(hands),
        played,
        signals,
        stock,
        view.drawn,
        view.marafona_seat,
        (),
    )
    return state._replace(won=tally(state))


# --------------------------------------------------------------------------- bounds

#: Hands a game may go on after a tie at the top raised its target (§4.2.2, B.3.3):
#: the rules set no limit (see ``moves_bound``), these are the allowance.
TIE_HANDS: Final = {2: 8, 3: 16}
#: Beyond this many hands left in a match, redeals are bounded by one per hand
#: instead of by reading the generator's deals one by one (``_redeals``).
_SCAN_HANDS: Final = 2000


def moves_bound(state: State, to_match_end: bool) -> int:
    """An upper bound on the moves from ``state`` to the end of the hand (when it is
    scored, or a claim ends the game), or of the match.

    The hand: every card left (in hands and the 2-player stock) is one play, the
    trump phase one declaration, and each redeal one move. Redeals have no limit in
    the rules (§3.2.4) but the deals they would bring are fixed by the state's
    generator: a redeal is possible only while the battezzante's hand is weak, so the
    longest chain is read off those deals. The hand's bound is exact unless someone
    claims or a possible redeal is not asked for.

    The match: each hand adds at least ``gain`` to the sum of the sides' totals (its
    card points: 11 with two sides, 10 or 11 with three, always 35 thirds; §4.1,
    B.3.1), and once that sum exceeds ``sides * (target - 1)`` some side is at the
    target, so the game ends after the hand unless the top is tied. That gives the
    hands of this game and of each game the series may still play (best of three: at
    most 3 games, 4 with three players). A tie at the top raises the target and play
    goes on (§4.2.2); the rules do not bound how often that repeats, so each game is
    allowed ``TIE_HANDS`` more hands. With two sides a tie that follows a tie needs a
    marafona with exactly 4 card points, so eight ties running are out of reach in
    practice; with three players a tie is commoner, hence sixteen. Redeals in the
    future hands: a deal can be redealt only if some seat's hand in it is weak, and
    the generator fixes the deals, so the redeals are at most the weak deals met
    before the hands needed are dealt (read deal by deal; beyond ``_SCAN_HANDS``
    hands, one redeal per hand is allowed).
    """
    if state.phase is Phase.OVER:
        return 0
    hand = _hand_bound(state)
    if not to_match_end:
        return hand
    table = state.table
    options = table.options
    seats = table.seats
    sides = sides_of(seats)
    gain = 35 if options.keep_thirds else (11 if sides == 2 else 10)
    ties = TIE_HANDS[sides]

    def hands_for(total: int, target: int) -> int:
        """Hands that bring the sum of the totals from ``total`` past the point where
        some side must be at ``target``."""
        return max(0, -(-(sides * (target - 1) + 1 - total) // gain))

    future = max(0, hands_for(sum(table.totals), table.effective_target) - 1) + ties
    if options.series is Series.BEST_OF_THREE:
        for game in range(table.game_number + 1, sides + 2):
            future += hands_for(0, target_units(options, game)) + ties
    per_hand = 1 + len(deck_of(seats, options.removed_four))
    redeals = _redeals(table, future) if options.redeal_weak_hand else 0
    return hand + future * per_hand + redeals


def _hand_bound(state: State) -> int:
    cards = sum(h.bit_count() for h in state.hands) + len(state.stock)
    if state.phase is Phase.PLAY:
        return cards
    redeals = 0
    options = state.table.options
    while (
        options.redeal_weak_hand
        and hand_thirds(state.hands[state.table.battezzante]) < WEAK_HAND_THIRDS
    ):
        state = apply(state, REDEAL)[0]
        redeals += 1
    return redeals + 1 + cards


def _redeals(table: Table, hands: int) -> int:
    """The most redeals ``hands`` more hands can take: weak deals (some seat's hand
    worth under 4 thirds) met before the ``hands``-th deal that is not weak."""
    if hands > _SCAN_HANDS:
        return hands
    deck = deck_of(table.seats, table.options.removed_four)
    seats = table.seats
    counter = table.counter
    weak = 0
    while hands:
        cards = shuffled(deck, table.seed, counter)
        counter += 1
        if seats == 3:
            groups = [cards[i::3] for i in range(3)]
        else:
            batches = [cards[5 * b : 5 * b + 5] for b in range(8 if seats == 4 else 4)]
            groups = [batches[g] + batches[g + seats] for g in range(seats)]
        if any(hand_thirds(mask_of(g)) < WEAK_HAND_THIRDS for g in groups):
            weak += 1
        else:
            hands -= 1
    return weak
