"""The Ramino engine: deal, legal moves and apply, exactly per ramino.md.

Pure functions over immutable ``State`` values. ``apply`` checks every move (the
reason goes in the error) and carries out every step that needs no decision (README
§4.2): the end of the bidding, the reshuffle of the pile, the payout of a closure,
the end of the hand, the tax and the deal of the next hand, the end of the match.

Turns of play are most of a match, so ``legal_moves`` and ``apply`` handle them first
and build the state tuple directly; the bidding and the ends of hands are plain code.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Final

from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.ramino import events as ev
from mazzo.games.ramino.cards import DECK, pack, remove
from mazzo.games.ramino.closures import best_closure, can_close, closing_discards
from mazzo.games.ramino.moves import (
    ACCEPT,
    BUIO,
    CLOSE_HELD,
    CLOSES,
    DISCARDS,
    DRAW,
    NO_BUIO,
    PASS,
    STAND,
    TAKE_DISCARD,
    Kind,
    Move,
    open_bid,
    raise_bid,
)
from mazzo.games.ramino.options import PLAYER_COUNTS, Options, check_options
from mazzo.games.ramino.state import (
    NO_CARD,
    NO_SEAT,
    Bets,
    Bid,
    BidAction,
    ClosureShown,
    HandResult,
    MatchEnd,
    Outcome,
    Phase,
    Source,
    State,
    Status,
    Table,
    Turn,
    active_in_order,
    buio_seat,
    di_mano,
    participants,
    pile_streak,
)

_new: Final = tuple.__new__
_PLAY: Final = Phase.PLAY
_NONE: Final = Source.NONE
_PILE: Final = Source.PILE
_STOCK: Final = Source.STOCK
_ACTIVE: Final = Status.ACTIVE
_DISCARD: Final = Kind.DISCARD
_DRAW: Final = Kind.DRAW
_TAKE: Final = Kind.TAKE_DISCARD
_CLOSE: Final = Kind.CLOSE
_DRAW_OR_TAKE: Final = (DRAW, TAKE_DISCARD)
_DRAW_ONLY: Final = (DRAW,)
_Discarded: Final = ev.CardDiscarded
_Drawn: Final = ev.CardDrawn
_Taken: Final = ev.DiscardTaken
# The imported names a turn of play uses, as Final names: compiled, a module-level
# name that is not Final is a lookup in the module's dict at every use (a Final one is
# a C static); in pure Python both are one global lookup.
_State: Final = State
_Turn: Final = Turn
_insort: Final = insort
_active_in_order: Final = active_in_order
#: After this many turns in a row per participant begun from the pile, draw (§3.4.7).
PILE_TURNS_PER_PLAYER: Final = 3
M = "move.ramino."
_FIELDS: Final = {
    Kind.BUIO: M + "buio",
    Kind.NO_BUIO: M + "no_buio",
    Kind.PASS: M + "pass_bid",
    Kind.OPEN: M + "open_bid.amount",
    Kind.ACCEPT: M + "accept_bid",
    Kind.RAISE: M + "raise_bid.amount",
    Kind.STAND: M + "stand_bid",
    Kind.DRAW: M + "draw",
    Kind.TAKE_DISCARD: M + "take_discard",
    Kind.DISCARD: M + "discard.card",
    Kind.CLOSE: M + "close.discard",
}
_BIDDING_KINDS: Final = frozenset({Kind.PASS, Kind.OPEN, Kind.ACCEPT, Kind.RAISE, Kind.STAND})
_PLAY_KINDS: Final = frozenset({Kind.DRAW, Kind.TAKE_DISCARD, Kind.DISCARD, Kind.CLOSE})
_ACTIONS: Final = {
    Kind.BUIO: BidAction.BUIO,
    Kind.NO_BUIO: BidAction.NO_BUIO,
    Kind.PASS: BidAction.PASS,
    Kind.OPEN: BidAction.OPEN,
    Kind.ACCEPT: BidAction.ACCEPT,
    Kind.RAISE: BidAction.RAISE,
    Kind.STAND: BidAction.STAND,
}


# --------------------------------------------------------------------------- deal


def deal(options: Options, players: int, seed: int) -> tuple[State, list[ev.Event]]:
    """A new match: the first dealer by the seed (draw 0), then the first hand (§2)."""
    if players not in PLAYER_COUNTS:
        raise InvalidArgument("players", f"Ramino is for 2 to 6 players, not {players}")
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    check_options(options, players)
    options = options.resolved(players)
    dealer = draw_below(seed, 0, players) if options.first_dealer is None else options.first_dealer
    balances = (options.starting_chips,) * players
    if sum(sitting_out(options, dealer, balances)) > players - 2:
        raise InvalidArgument(
            "options.ramino.starting_chips",
            "without credit, fewer than two players could take part in the first hand (§4.3)",
        )
    table = Table(options, players, seed, 1, dealer, 0, 0, 0)
    zeros = (0,) * players
    bets = Bets(balances, 0, zeros, 0, 0, 0, zeros, (_ACTIVE,) * players, -1, -1, -1, False, ())
    state, events = start_hand(table, bets, None)
    return state, events


def sitting_out(options: Options, dealer: int, balances: Sequence[int]) -> tuple[bool, ...]:
    """Without credit, who cannot take part in a hand: a balance below ``min_open``, or
    a dealer below his tax (§4.3). With credit, nobody."""
    if options.allow_credit:
        return (False,) * len(balances)
    tax = options.dealer_tax
    return tuple(
        b < options.min_open or (seat == dealer and b < tax) for seat, b in enumerate(balances)
    )


def start_hand(table: Table, bets: Bets, last: State | None) -> tuple[State, list[ev.Event]]:
    """The dealer's tax, the deal and the first decision of a hand (§2.4, §3.1, §3.2);
    or the end of the match if fewer than two players can take part (§4.3)."""
    options = table.options
    players = table.players
    dealer = table.dealer
    out = sitting_out(options, dealer, bets.balances)
    if players - sum(out) < 2:
        assert last is not None  # deal() refuses a match that could not start
        return _finish(last._replace(table=table, bets=bets), [], MatchEnd.NO_PLAYERS)
    balances, shares = list(bets.balances), list(bets.shares)
    pot = bets.pot
    tax = 0
    events: list[ev.Event] = []
    if options.dealer_tax and not out[dealer]:
        tax = options.dealer_tax
        balances[dealer] -= tax
        shares[dealer] += tax
        pot += tax
    statuses = tuple(Status.SITTING_OUT if o else _ACTIVE for o in out)
    table = table._replace(counter=table.counter + 1, hand_number=table.hand_number + 1)
    zeros = (0,) * players
    bets = Bets(
        tuple(balances),
        pot,
        tuple(shares),
        bets.pot,
        tax,
        0,
        zeros,
        statuses,
        -1,
        -1,
        -1,
        False,
        (),
    )
    deck = shuffled(DECK, table.seed, table.counter - 1)
    size = options.hand_size
    dealt = players * size
    hands: list[list[int]] = [[] for _ in range(players)]
    for j in range(dealt):
        hands[(dealer + 1 + j % players) % players].append(deck[j])
    events.append(ev.HandDealt(table.hand_number, dealer, tuple(s for s, o in enumerate(out) if o)))
    if tax:
        events.append(ev.TaxPaid(dealer, tax))
    blind = buio_seat(table)
    if options.buio_on and not out[dealer] and not out[blind]:
        phase, to_act = Phase.BUIO_DECISION, blind
    else:
        phase, to_act = Phase.BIDDING, first_active(statuses, di_mano(table))
    state = State(
        table,
        bets,
        phase,
        to_act,
        tuple(tuple(sorted(h)) for h in hands),
        tuple(deck[dealt + 1 :]),
        (deck[dealt],),
    )
    return state, events


def first_active(statuses: Sequence[Status], start: int) -> int:
    """The first active seat at or after ``start`` in turn order."""
    n = len(statuses)
    for i in range(n):
        seat = (start + i) % n
        if statuses[seat] is _ACTIVE:
            return seat
    return NO_SEAT


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move in the stable order of ramino.md §3.6."""
    phase = state.phase
    if phase is _PLAY:
        if state.taken is not _NONE:
            return _after_taking(state)
        turns = state.turns  # no streak from the pile: the common case, without a call
        if state.pile and (not turns or turns[-1].source is not _PILE or _may_take_discard(state)):
            return _DRAW_OR_TAKE
        return _DRAW_ONLY
    if phase is Phase.BIDDING:
        return _bidding_moves(state)
    if phase is Phase.BUIO_DECISION:
        if _affordable(state, 2 * state.table.options.dealer_tax):
            return (BUIO, NO_BUIO)
        return (NO_BUIO,)
    return ()


def _may_take_discard(state: State) -> bool:
    """A pile to take from, and fewer than 3p turns in a row taken from it (§3.4.7)."""
    if not state.pile:
        return False
    turns = state.turns
    if len(turns) < 2 or turns[-1].source is not _PILE or turns[-2].source is not _PILE:
        return True  # a streak of one at most, and the limit is 6 or more: no counting
    limit = PILE_TURNS_PER_PLAYER * state.bets.statuses.count(_ACTIVE)
    return len(turns) < limit or pile_streak(turns) < limit


def _forbidden(state: State) -> int:
    """The code that may not be discarded this turn: the one taken from the pile
    (§3.4.5), unless ``rediscard_taken_card``."""
    if state.taken is _PILE and not state.table.options.rediscard_taken_card:
        return state.taken_card
    return NO_CARD


def _after_taking(state: State) -> tuple[Move, ...]:
    """DISCARD of each code that may go, then CLOSE of each that leaves a closure (§3.6)."""
    table, _, _, seat, hands, _, _, _, taken, taken_card, _ = state
    hand = hands[seat]
    options = table.options
    forbidden = NO_CARD
    if taken is _PILE and not options.rediscard_taken_card:
        forbidden = taken_card  # §3.4.5
    # The distinct codes but the forbidden one, in order (the hand is sorted): a plain
    # loop, faster than dict.fromkeys and map in both builds, and C once compiled.
    moves: list[Move] = []
    last = NO_CARD
    for c in hand:
        if c != last and c != forbidden:
            moves.append(DISCARDS[c])
        last = c
    jokers, dup = options.imaginary_jokers, options.set_duplicate_suits
    if options.hand_size == 10:
        # Every card of the hand is offered as a discard, and the forbidden code and
        # the second copies are dropped from the few that close: closing_discards
        # reads its ``allowed`` only for the rare hands near a closure, so this spares
        # a list of the allowed codes on every turn.
        last = NO_CARD
        for c in closing_discards(hand, jokers, dup, hand):
            if c != last and c != forbidden:
                moves.append(CLOSES[c])
            last = c
    elif can_close(pack(hand), jokers, dup):
        moves.append(CLOSE_HELD)
    return tuple(moves)


def _affordable(state: State, total: int) -> bool:
    """May the player to act bring his stake to ``total``? Always with credit (§4.3)."""
    bets = state.bets
    seat = state.to_act
    if state.table.options.allow_credit:
        return True
    return total - bets.committed[seat] <= bets.balances[seat]


def _bidding_moves(state: State) -> tuple[Move, ...]:
    """PASS, then ACCEPT or STAND, then OPEN or RAISE by amount (§3.3, §3.6)."""
    bets = state.bets
    options = state.table.options
    stake = bets.stake
    top = options.max_stake
    if bets.buio_block and state.to_act == bets.buio_player:
        raises = [raise_bid(y) for y in range(stake + 1, top + 1) if _affordable(state, y)]
        return (STAND, *raises)
    if stake == 0:
        opens = [open_bid(x) for x in range(options.min_open, top + 1) if _affordable(state, x)]
        return (PASS, *opens)
    moves = [PASS]
    if _affordable(state, stake):
        moves.append(ACCEPT)
    if not bets.buio_block:
        moves.extend(raise_bid(y) for y in range(stake + 1, top + 1) if _affordable(state, y))
    return tuple(moves)


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """The state after ``move`` and the events it caused; raises if it is illegal."""
    kind = move.kind
    if state.phase is _PLAY:
        if kind is _DISCARD:
            return _discard(state, move)
        if kind is _DRAW:
            return _draw(state)
        if kind is _TAKE:
            return _take_discard(state)
        if kind is _CLOSE:
            return _close(state, move)
    verify_phase(state, move)
    if state.phase is Phase.BUIO_DECISION:
        return _buio_decision(state, move)
    return _bid(state, move)


def verify_phase(state: State, move: Move) -> None:
    """Refuse a move the phase does not allow (§8 "phase", "over")."""
    phase = state.phase
    kind = move.kind
    field = _FIELDS.get(kind, "move")
    if phase is Phase.OVER:
        raise NotAllowedNow("move", "the match is over")
    if kind in _PLAY_KINDS and phase is not _PLAY:
        raise IllegalMove(field, f"{move}: the hand is still in its bidding")
    if kind in _BIDDING_KINDS and phase is not Phase.BIDDING:
        why = "bidding is over" if phase is _PLAY else "the buio seat must first choose"
        raise IllegalMove(field, f"{move}: {why}")
    if kind in (Kind.BUIO, Kind.NO_BUIO) and phase is not Phase.BUIO_DECISION:
        options = state.table.options
        if not options.buio_on:
            why = "there is no buio in this match (dealer_tax and buio, §3.2)"
        else:
            why = "a blind opening is chosen only before the bidding (§3.2)"
        raise IllegalMove(field, f"{move}: {why}")


# --------------------------------------------------------------------------- play


def _take_check(state: State, move: Move) -> None:
    if state.taken is not _NONE:
        raise IllegalMove(_FIELDS[move.kind], f"{move}: a card was already taken this turn")


def _draw(state: State) -> tuple[State, list[ev.Event]]:
    table, bets, _, seat, hands, stock, pile, turns, taken, _, reshuffles = state
    if taken is not _NONE:
        _take_check(state, DRAW)
    hand = list(hands[seat])
    _insort(hand, stock[0])  # cards.add, inlined
    held = list(hands)
    held[seat] = tuple(hand)
    new = _new(
        _State,
        (
            table,
            bets,
            _PLAY,
            seat,
            tuple(held),
            stock[1:],
            pile,
            turns,
            _STOCK,
            NO_CARD,
            reshuffles,
        ),
    )
    return new, [_new(_Drawn, (seat, len(stock) - 1))]


def _take_discard(state: State) -> tuple[State, list[ev.Event]]:
    table, bets, _, seat, hands, stock, pile, turns, taken, _, reshuffles = state
    if (
        taken is not _NONE
        or not pile
        or (turns and turns[-1].source is _PILE and not _may_take_discard(state))
    ):
        _take_check(state, TAKE_DISCARD)
        field = _FIELDS[Kind.TAKE_DISCARD]
        if not state.pile:
            raise IllegalMove(field, "take: the discard pile is empty")
        raise IllegalMove(
            field, "take: every participant took from the pile three turns in a row: draw (§3.4.7)"
        )
    card = pile[-1]
    hand = list(hands[seat])
    _insort(hand, card)  # cards.add, inlined
    held = list(hands)
    held[seat] = tuple(hand)
    new = _new(
        _State,
        (table, bets, _PLAY, seat, tuple(held), stock, pile[:-1], turns, _PILE, card, reshuffles),
    )
    return new, [_new(_Taken, (seat, card))]


def _check_discard(state: State, move: Move, c: int, field: str) -> None:
    """The discard of a DISCARD or CLOSE: after taking, held, not the taken code."""
    if state.taken is _NONE:
        raise IllegalMove(field, f"{move}: take a card first (draw or take)")
    if c not in state.hands[state.to_act]:
        raise IllegalMove(field, f"{move}: the card is not in hand")
    if c == _forbidden(state):
        raise IllegalMove(
            field, f"{move}: the card just taken from the pile may not be discarded (§3.4.5)"
        )


def _discard(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    c = move.card
    table, bets, _, seat, hands, stock, pile, turns, taken, taken_card, reshuffles = state
    hand = list(hands[seat])
    if (
        taken is _NONE
        or c not in hand
        or (c == taken_card and taken is _PILE and not table.options.rediscard_taken_card)
    ):
        _check_discard(state, move, c, _FIELDS[Kind.DISCARD])
    hand.remove(c)  # the hand stays sorted
    held = list(hands)
    held[seat] = tuple(hand)
    turns += (_new(_Turn, (seat, taken, taken_card, c)),)
    order = _active_in_order(bets.statuses, (table.dealer + 1) % table.players)  # participants
    events: list[ev.Event] = [_new(_Discarded, (seat, c))]
    new = _new(
        _State,
        (
            table,
            bets,
            _PLAY,
            order[len(turns) % len(order)],
            tuple(held),
            stock,
            pile + (c,),  # noqa: RUF005 (concatenation copies faster than unpacking)
            turns,
            _NONE,
            NO_CARD,
            reshuffles,
        ),
    )
    if not stock:
        return _stock_out(new, events)
    return new, events


def _stock_out(state: State, events: list[ev.Event]) -> tuple[State, list[ev.Event]]:
    """The stock is empty at the start of a turn: reshuffle the pile under its top card
    with the next draw, or, with no reshuffle left, the hand is void (§3.4.6)."""
    table = state.table
    if state.reshuffles >= table.options.max_reshuffles:
        return _end_hand(state, Outcome.EXHAUSTED, NO_SEAT, None, events)
    pile = state.pile
    stock = tuple(shuffled(pile[:-1], table.seed, table.counter))
    reshuffles = state.reshuffles + 1
    events.append(ev.StockReshuffled(len(stock), reshuffles))
    new = state._replace(
        table=table._replace(counter=table.counter + 1),
        stock=stock,
        pile=pile[-1:],
        reshuffles=reshuffles,
    )
    return new, events


def _close(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """CLOSE: the ten cards are valued at their best closure (§3.5) and the hand paid."""
    options = state.table.options
    field = _FIELDS[Kind.CLOSE]
    seat = state.to_act
    hand = state.hands[seat]
    if state.taken is _NONE:
        raise IllegalMove(field, f"{move}: take a card first (draw or take)")
    if options.hand_size == 10:
        if not move.card:
            raise IllegalMove(field, "close: name the discard: ten cards are shown (§3.5.1)")
        _check_discard(state, move, move.card, field)
        ten = remove(hand, move.card)
    else:
        if move.card:
            raise IllegalMove(field, f"{move}: nine-card tables close without a discard (§3.5.1)")
        ten = hand
    if len(move.jokers) > options.imaginary_jokers:
        raise IllegalMove(
            M + "close.jokers",
            f"{move}: at most {options.imaginary_jokers} imaginary joker(s) (§3.5.2)",
        )
    closure = best_closure(ten, options.imaginary_jokers, options.set_duplicate_suits)
    if not closure.multiplier:
        raise IllegalMove(field, f"{move}: these ten cards are not a closure (§3.5.4)")
    shown = ClosureShown(seat, ten, move.card, closure.joker, closure.stands_for, closure.kind)
    hands = list(state.hands)
    hands[seat] = ten
    pile = (*state.pile, move.card) if move.card else state.pile
    turns = (*state.turns, Turn(seat, state.taken, state.taken_card, move.card))
    closed = state._replace(
        hands=tuple(hands), pile=pile, turns=turns, taken=_NONE, taken_card=NO_CARD
    )
    return _end_hand(closed, Outcome.CLOSED, seat, shown, [ev.HandClosed(shown)])


# --------------------------------------------------------------------------- bidding


def _buio_decision(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    """BUIO: the blind opening at twice the tax, raises blocked; NO_BUIO: ordinary
    bidding from di mano (§3.2)."""
    seat = state.to_act
    bets = state.bets
    table = state.table
    if move.kind is Kind.NO_BUIO:
        bid = Bid(seat, BidAction.NO_BUIO)
        new = state._replace(
            bets=bets._replace(bids=(*bets.bids, bid)),
            phase=Phase.BIDDING,
            to_act=first_active(bets.statuses, di_mano(table)),
        )
        return new, [ev.BidMade(bid, 0, 0, bets.pot)]
    if move.kind is not Kind.BUIO:
        raise IllegalMove(_FIELDS.get(move.kind, "move"), f"{move}: buio or no-buio first (§3.2)")
    amount = 2 * table.options.dealer_tax
    if not _affordable(state, amount):
        raise IllegalMove(_FIELDS[Kind.BUIO], f"buio: it costs {amount}, more than the balance")
    bid = Bid(seat, BidAction.BUIO, amount)
    bets = _commit(bets, seat, amount)._replace(
        stake=amount,
        last_aggressor=seat,
        last_actor=seat,
        buio_player=seat,
        buio_block=True,
        bids=(*bets.bids, bid),
    )
    new = state._replace(bets=bets, phase=Phase.BIDDING, to_act=_next_active(bets.statuses, seat))
    return new, [ev.BidMade(bid, amount, amount, bets.pot)]


def _commit(bets: Bets, seat: int, paid: int) -> Bets:
    """Chips go from a balance to the pot as they are committed (§4.3)."""
    if not paid:
        return bets
    balances, committed, shares = list(bets.balances), list(bets.committed), list(bets.shares)
    balances[seat] -= paid
    committed[seat] += paid
    shares[seat] += paid
    return bets._replace(
        balances=tuple(balances),
        committed=tuple(committed),
        shares=tuple(shares),
        pot=bets.pot + paid,
    )


def verify_bid(state: State, move: Move) -> None:
    """Raise ``IllegalMove`` with the reason if a bidding move is not allowed (§3.3, §8)."""
    bets = state.bets
    options = state.table.options
    seat = state.to_act
    kind = move.kind
    field = _FIELDS[kind]
    stake = bets.stake
    blocked_buio = bets.buio_block and seat == bets.buio_player
    if blocked_buio and kind not in (Kind.STAND, Kind.RAISE):
        raise IllegalMove(field, f"{move}: the buio player must stand or raise (§3.2)")
    if kind is Kind.STAND and not blocked_buio:
        raise IllegalMove(field, "stand: only the buio player, when the bidding is back to him")
    if kind is Kind.OPEN:
        if stake:
            raise IllegalMove(field, f"{move}: the hand is already open at {stake}")
        if not options.min_open <= move.amount <= options.max_stake:
            raise IllegalMove(
                field, f"{move}: an opening is {options.min_open}..{options.max_stake}"
            )
    elif kind is Kind.ACCEPT and not stake:
        raise IllegalMove(field, "accept: nobody has opened; nothing to accept")
    elif kind is Kind.RAISE:
        if not stake:
            raise IllegalMove(field, f"{move}: nobody has opened; open instead")
        if bets.buio_block and not blocked_buio:
            raise IllegalMove(field, f"{move}: raises are blocked by the buio (§3.2)")
        if not stake < move.amount <= options.max_stake:
            raise IllegalMove(
                field, f"{move}: a raise goes above {stake}, up to {options.max_stake}"
            )
    total = {Kind.OPEN: move.amount, Kind.RAISE: move.amount, Kind.ACCEPT: stake}.get(kind, 0)
    if total and not _affordable(state, total):
        raise IllegalMove(
            field, f"{move}: it costs more than the balance, and there is no credit (§4.3)"
        )


def _bid(state: State, move: Move) -> tuple[State, list[ev.Event]]:
    verify_bid(state, move)
    seat = state.to_act
    bets = state.bets
    kind = move.kind
    paid = 0
    amount = 0
    if kind is Kind.PASS:
        statuses = list(bets.statuses)
        statuses[seat] = Status.FOLDED
        bets = bets._replace(statuses=tuple(statuses))
    elif kind is Kind.ACCEPT:
        paid = bets.stake - bets.committed[seat]
    elif kind is Kind.OPEN or kind is Kind.RAISE:
        amount = move.amount
        paid = amount - bets.committed[seat]
        block = bets.buio_block and seat != bets.buio_player
        bets = bets._replace(stake=amount, last_aggressor=seat, buio_block=block)
    bid = Bid(seat, _ACTIONS[kind], amount)
    bets = _commit(bets, seat, paid)._replace(last_actor=seat, bids=(*bets.bids, bid))
    events: list[ev.Event] = [ev.BidMade(bid, paid, bets.stake, bets.pot)]
    state = state._replace(bets=bets)
    result = _bidding_result(bets, kind)
    if result is None:
        return state._replace(to_act=_next_active(bets.statuses, seat)), events
    if result is Outcome.VOID:
        return _end_hand(state, Outcome.VOID, NO_SEAT, None, events)
    if result is Outcome.UNCONTESTED:
        winner = next(s for s, st in enumerate(bets.statuses) if st is _ACTIVE)
        return _end_hand(state, Outcome.UNCONTESTED, winner, None, events)
    state = state._replace(phase=_PLAY)
    order = participants(state)
    events.append(ev.PlayStarted(order, bets.stake, bets.pot))
    return state._replace(to_act=order[0]), events


def _bidding_result(bets: Bets, kind: Kind) -> Outcome | None:
    """§3.3 ``bidding_result``: None while bidding goes on; CLOSED stands for PLAY."""
    active = [s for s, st in enumerate(bets.statuses) if st is _ACTIVE]
    if bets.stake == 0:
        return Outcome.VOID if not active else None
    if len(active) == 1:
        return Outcome.UNCONTESTED
    if kind is Kind.STAND:
        return Outcome.CLOSED
    if bets.buio_block:
        return None
    if _next_active(bets.statuses, bets.last_actor) == bets.last_aggressor:
        return Outcome.CLOSED
    return None


def _next_active(statuses: Sequence[Status], seat: int) -> int:
    """The next active seat after ``seat`` in turn order."""
    return first_active(statuses, (seat + 1) % len(statuses))


# --------------------------------------------------------------------------- end of a hand


def _end_hand(
    state: State,
    outcome: Outcome,
    winner: int,
    closure: ClosureShown | None,
    events: list[ev.Event],
) -> tuple[State, list[ev.Event]]:
    """Pay the hand (§4.1, §4.2), then deal the next one or end the match (§4.3)."""
    table = state.table
    bets = state.bets
    options = table.options
    players = table.players
    balances = list(bets.balances)
    extra = [0] * players
    gain = 0
    stake = bets.stake
    taking_part = participants(state) if outcome is not Outcome.VOID else ()
    if closure is not None:
        due = (closure.kind - 1) * stake
        for seat in taking_part:
            if seat != winner:
                paid = due if options.allow_credit else min(due, max(balances[seat], 0))
                balances[seat] -= paid
                extra[seat] = paid
                gain += paid
    decided = outcome is Outcome.CLOSED or outcome is Outcome.UNCONTESTED
    pot, shares = bets.pot, bets.shares
    if decided:
        gain += pot
        balances[winner] += gain
        pot, shares = 0, (0,) * players
    net = tuple(
        -bets.committed[s]
        - (bets.tax if s == table.dealer else 0)
        - extra[s]
        + (gain if s == winner else 0)
        for s in range(players)
    )
    result = HandResult(
        table.hand_number,
        table.dealer,
        outcome,
        winner,
        stake,
        bets.pot,
        taking_part,
        closure,
        tuple(extra),
        net,
    )
    events.append(ev.HandEnded(result, tuple(balances)))
    table = table._replace(
        decided_hands=table.decided_hands + decided,
        void_streak=0 if decided else table.void_streak + 1,
        last_hand=result,
    )
    settled = bets._replace(
        balances=tuple(balances),
        pot=pot,
        shares=shares,
        carry=pot,
        tax=0,
        stake=0,
        committed=(0,) * players,
    )
    ended = state._replace(table=table, bets=settled, taken=_NONE, taken_card=NO_CARD)
    limit = options.match_hands
    assert limit is not None  # options are resolved at the deal
    if table.decided_hands >= limit:
        return _finish(ended, events, MatchEnd.DECIDED_HANDS)
    if table.void_streak >= limit:
        return _finish(ended, events, MatchEnd.VOID_HANDS)
    table = table._replace(dealer=(table.dealer + 1) % players)
    new, dealt = start_hand(table, settled, ended)
    events.extend(dealt)
    return new, events


def _finish(state: State, events: list[ev.Event], end: MatchEnd) -> tuple[State, list[ev.Event]]:
    """The match is over: chips left in the pot go back to who put them in (§4.3)."""
    bets = state.bets
    players = state.table.players
    if bets.pot:
        events.append(ev.PotRefunded(bets.shares))
        balances = tuple(b + s for b, s in zip(bets.balances, bets.shares, strict=True))
        bets = bets._replace(balances=balances, pot=0, shares=(0,) * players, carry=0)
    bets = bets._replace(tax=0, stake=0, committed=(0,) * players)
    top = max(bets.balances)
    winners = tuple(s for s, b in enumerate(bets.balances) if b == top)
    events.append(ev.MatchEnded(end, bets.balances, winners))
    over = state._replace(
        table=state.table._replace(end=end),
        bets=bets,
        phase=Phase.OVER,
        to_act=0,
        taken=_NONE,
        taken_card=NO_CARD,
    )
    return over, events


# --------------------------------------------------------------------------- queries


def finished(state: State) -> bool:
    """Whether the match is over."""
    return state.phase is Phase.OVER


def winners(state: State) -> tuple[int, ...]:
    """Once the match is over: the seats with the highest balance (§4.3 ranking)."""
    if state.phase is not Phase.OVER:
        return ()
    top = max(state.bets.balances)
    return tuple(s for s, b in enumerate(state.bets.balances) if b == top)
