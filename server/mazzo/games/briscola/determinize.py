"""Briscola: the hidden cards of a view, dealt anew (briscola.md §7.4).

``determinize(view, count, seed)`` gives ``count`` whole states whose view for
``view.seat`` is ``view``. Nothing in Briscola's play limits where a hidden card may
be: no one must follow suit, so no play shows a void, and draws show no card but the
face-up trump card. So the deals the view allows are exactly these: the hidden cards
(the pack less the viewer's hand, a partner's hand shown, every card played and the
trump card) spread over the hidden places (each other hand, less the trump card for
the seat known to hold it; then the stock above the trump card, in order), every
such spread alike. A uniform shuffle of the hidden cards, cut into the places in
seat order then the stock, draws exactly that.

Sample ``j`` uses the request seed's draws ``2j`` (the sample's own generator seed)
and ``2j + 1`` (the shuffle), so the samples depend on (view, count, seed) only, and
the first samples of a count are those of a smaller one.

``moves_bound`` bounds the moves to the end of the hand or of the match.
"""

from __future__ import annotations

from typing import Final

from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.briscola.cards import POINTS, SUIT, deck_of, winning_index
from mazzo.games.briscola.options import side_of, sides_of
from mazzo.games.briscola.state import NO_SEAT, Phase, State
from mazzo.games.briscola.tricks import (
    DECK_SIZE,
    DRAW_ROUNDS,
    HAND_SIZE,
    STOCK_SIZE,
    TRICKS,
    first_leader,
    trump_card_taker,
)
from mazzo.games.briscola.validate import check_match, check_table, validate
from mazzo.games.briscola.view import View

_COUNTERS: Final = 2
#: Hands a match may take beyond those that some side must win or lose: a drawn hand
#: (60-60; with three players a tie at the top) counts for no one and is dealt again,
#: which the rules do not bound. A 60-60 hand is rare enough that eight in one match
#: are out of reach in practice.
DRAW_HANDS: Final = 8


def _view_field(field: str) -> str:
    return "view." + field.removeprefix("state.")


def _refuse(field: str, why: str) -> InvalidArgument:
    return InvalidArgument(field, why)


def check_view(view: View) -> tuple[list[int], list[int]]:
    """Check what the view shows against the rules; raise ``InvalidArgument`` naming the
    field (``view.briscola.tricks[2].winner``). Returns the hidden places: their seats
    (``-1`` the stock) and how many hidden cards each takes."""
    b = "view.briscola."
    table = view.table
    try:
        check_table(table._replace(seed=0, counter=1))
    except InvalidState as e:
        raise _refuse(_view_field(e.field), e.reason) from None
    n = table.players
    if view.players != n:
        raise _refuse("view.players", "players does not match the table")
    if not 0 <= view.seat < n:
        raise _refuse("view.seat", f"seat must be 0..{n - 1}")
    if view.phase not in (Phase.PLAY, Phase.OVER):
        raise _refuse("view.phase", "the phase is PLAY or OVER")
    over = view.phase is Phase.OVER
    try:
        check_match(table, over)
    except InvalidState as e:
        raise _refuse(_view_field(e.field), e.reason) from None
    # Tricks: sizes, leaders and winners.
    trump = SUIT[view.trump_card] if 0 <= view.trump_card < len(SUIT) else -1
    deck = deck_of(n, table.options.removed_two)
    if view.trump_card not in deck:
        raise _refuse(b + "trump_card", f"card {view.trump_card} is not in the pack")
    per_hand = TRICKS[n]
    if len(view.tricks) > per_hand:
        raise _refuse(b + "tricks", f"a hand has {per_hand} tricks")
    seen: set[int] = set()

    def once(c: int, field: str) -> None:
        if c not in deck:
            raise _refuse(field, f"card {c} is not in the pack")
        if c in seen:
            raise _refuse(field, "the card is shown twice")
        seen.add(c)

    lead = [first_leader(table.dealer, n)]
    played: list[int] = []
    for k, trick in enumerate(view.tricks):
        f = f"{b}tricks[{k}]"
        if len(trick.cards) != n:
            raise _refuse(f + ".cards", f"a completed trick has {n} cards")
        for i, c in enumerate(trick.cards):
            once(c, f"{f}.cards[{i}]")
        if trick.leader != lead[-1]:
            raise _refuse(f + ".leader", f"seat {lead[-1]} leads this trick")
        lead.append((lead[-1] + winning_index(trick.cards, trump)) % n)
        if trick.winner != lead[-1]:
            raise _refuse(f + ".winner", f"seat {lead[-1]} wins this trick")
        played.extend(trick.cards)
    trick = view.trick
    f = b + "current_trick"
    if trick.leader != lead[-1]:
        raise _refuse(f + ".leader", f"seat {lead[-1]} leads this trick")
    if len(trick.cards) >= n or trick.winner != NO_SEAT:
        raise _refuse(f + ".cards", f"a trick being played has under {n} cards and no winner")
    for i, c in enumerate(trick.cards):
        once(c, f"{f}.cards[{i}]")
    played.extend(trick.cards)
    completed = len(view.tricks)
    in_trick = len(trick.cards)
    if over != (completed == per_hand):
        raise _refuse(b + "tricks", "the match is over exactly when the last hand is played out")
    if in_trick and completed == per_hand:
        raise _refuse(f + ".cards", "the hand is over")
    if not over and view.to_act != (lead[-1] + in_trick) % n:
        raise _refuse("view.to_act", "to_act is not the seat whose turn it is")
    # Sizes.
    rounds = DRAW_ROUNDS[n]
    if view.stock_size != STOCK_SIZE[n] - n * min(completed, rounds):
        raise _refuse(b + "stock_size", "the stock size does not fit the tricks")
    if len(view.hand_sizes) != n:
        raise _refuse(b + "hand_sizes", f"one size per seat: {n}")
    base = HAND_SIZE - max(0, completed - rounds)
    for s in range(n):
        expected = base - (1 if (s - lead[-1]) % n < in_trick else 0)
        if view.hand_sizes[s] != expected:
            raise _refuse(f"{b}hand_sizes[{s}]", f"seat {s} must hold {expected} cards")
    seat = view.seat
    if len(view.hand) != view.hand_sizes[seat] or list(view.hand) != sorted(view.hand):
        raise _refuse(b + "hand", "the hand, in canonical order, of its size in hand_sizes")
    for i, c in enumerate(view.hand):
        once(c, f"{b}hand[{i}]")
    partner = (seat + 2) % 4
    shown = n == 4 and table.options.partners_show_hands and not over and not view.stock_size
    if shown:
        if len(view.partner_hand) != view.hand_sizes[partner] or list(view.partner_hand) != sorted(
            view.partner_hand
        ):
            raise _refuse(b + "partner_hand", "the partner's hand, in order, of its size")
        for i, c in enumerate(view.partner_hand):
            once(c, f"{b}partner_hand[{i}]")
    elif view.partner_hand:
        raise _refuse(b + "partner_hand", "partners see each other's cards only as §2.3.3 says")
    # The trump card: under the stock, then with the seat that drew it last.
    taker = NO_SEAT if view.stock_size else trump_card_taker(lead, n)
    if view.trump_card_taker != taker:
        raise _refuse(b + "trump_card_taker", f"the trump card was drawn by {taker}")
    trump_card = view.trump_card
    hidden_taker = NO_SEAT
    if taker == NO_SEAT:
        if trump_card in seen:
            raise _refuse(b + "trump_card", "the trump card lies under the stock")
    elif trump_card in played:
        i = played.index(trump_card)
        if i < rounds * n or (lead[i // n] + i % n) % n != taker:
            raise _refuse(b + "trump_card", f"seat {taker} drew the trump card and played it")
    elif taker == seat or (shown and taker == partner):
        mine = view.hand if taker == seat else view.partner_hand
        if trump_card not in mine:
            raise _refuse(b + "hand", f"seat {taker} drew the trump card and still holds it")
    elif trump_card in seen:
        raise _refuse(b + "trump_card", f"seat {taker} drew the trump card and still holds it")
    else:
        hidden_taker = taker
        if not view.hand_sizes[taker]:
            raise _refuse(f"{b}hand_sizes[{taker}]", "the seat holding the trump card has none")
    # Points and tricks per side follow from the tricks.
    sides = sides_of(n)
    points = [0] * sides
    tricks_won = [0] * sides
    for k, t in enumerate(view.tricks):
        side = side_of(lead[k + 1], n)
        tricks_won[side] += 1
        for c in t.cards:
            points[side] += POINTS[c]
    if tuple(points) != view.points or tuple(tricks_won) != view.tricks_won:
        raise _refuse(b + "points", "the points and tricks of each side follow from the tricks")
    # The hidden places.
    seats: list[int] = []
    sizes: list[int] = []
    for s in range(n):
        if s == seat or (shown and s == partner):
            continue
        seats.append(s)
        sizes.append(view.hand_sizes[s] - (1 if s == hidden_taker else 0))
    seats.append(-1)
    sizes.append(max(0, view.stock_size - 1))
    hidden = len(deck) - len(seen) - (0 if trump_card in seen else 1)
    if sum(sizes) != hidden:  # pragma: no cover (the sizes above fit the pack)
        raise _refuse(b + "hand_sizes", "the hidden cards do not fit the hidden places")
    return seats, sizes


def determinize(view: View, count: int, seed: int) -> list[State]:
    """``count`` states whose view for ``view.seat`` is ``view`` (see ``Rules.determinize``)."""
    if count < 0:
        raise InvalidArgument("count", "count must be >= 0")
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    seats, sizes = check_view(view)
    n = view.players
    shown: set[int] = {*view.hand, *view.partner_hand, view.trump_card}
    played: tuple[int, ...] = ()
    for t in view.tricks:
        played += t.cards
    played += view.trick.cards
    shown.update(played)
    unknown = [c for c in deck_of(n, view.table.options.removed_two) if c not in shown]
    states: list[State] = []
    for j in range(count):
        base = _COUNTERS * j
        cards = shuffled(unknown, seed, base + 1)
        hands: list[tuple[int, ...]] = [()] * n
        hands[view.seat] = view.hand
        if view.partner_hand:
            hands[(view.seat + 2) % 4] = view.partner_hand
        at = 0
        stock: tuple[int, ...] = ()
        for s, size in zip(seats, sizes, strict=True):
            part = cards[at : at + size]
            at += size
            if s < 0:
                stock = (*part, view.trump_card) if view.stock_size else ()
            else:
                if view.trump_card_taker == s and view.trump_card not in played:
                    part.append(view.trump_card)
                hands[s] = tuple(sorted(part))
        table = view.table._replace(seed=draw_below(seed, base, 2**64), counter=1)
        states.append(
            State(table, view.phase, view.to_act, view.trump_card, tuple(hands), stock, played)
        )
    if states:
        try:
            validate(states[0])
        except InvalidState as e:  # pragma: no cover (check_view covers what it checks)
            raise _refuse(_view_field(e.field), e.reason) from None
    return states


def moves_bound(state: State, to_match_end: bool) -> int:
    """An upper bound on the moves from ``state`` to the end of the hand, or of the match.

    The hand: one play per card left in the hands and the stock (exact). The match:
    after this hand at most ``sum(hands_to_win - 1 - won)`` hands can be decisive
    without some side reaching its hands (each gives one side a hand), plus the one
    that does (if this one is drawn), and
    ``DRAW_HANDS`` drawn hands are allowed for (the rules do not bound them); each
    hand is one play per card of the pack."""
    if state.phase is Phase.OVER:
        return 0
    hand = sum(len(h) for h in state.hands) + len(state.stock)
    if not to_match_end:
        return hand
    table = state.table
    needed = table.options.hands_to_win
    future = sum(needed - 1 - w for w in table.hands_won) + 1 + DRAW_HANDS
    return hand + future * DECK_SIZE[table.players]
