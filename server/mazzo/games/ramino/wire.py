"""Ramino domain values <-> wire messages. The only Ramino code that sees protobuf.

Cards keep their ids on the wire (the ``Card`` enum uses the same numbering), and every
domain enum has its wire enum's numbers, so most fields pass straight through. What
comes in is checked here only as far as the wire allows (enum ranges, cards of the
pack); the rules' invariants are checked by ``games.ramino.validate``.

A state carries the whole public record of its hand (bids, turns), so lists of small
messages are encoded from memoised bytes of each entry, and lists of cards are written
as packed bytes directly (every card id is a one-byte varint).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final

from mazzo.codec.common import (
    MEMO_ENTRIES,
    TABLE_ENTRIES,
    as_wire,
    by_number,
    members_checker,
    memo_for,
    memoised_decoder,
    memoised_encoder,
    option_enum,
)
from mazzo.codec.wire import entry
from mazzo.core.errors import InvalidArgument, InvalidState, RulesError
from mazzo.games.ramino import events as ev
from mazzo.games.ramino.cards import IN_PACK
from mazzo.games.ramino.closures import ClosureType
from mazzo.games.ramino.game import RaminoSideScore
from mazzo.games.ramino.moves import (
    ACCEPT,
    BUIO,
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
from mazzo.games.ramino.options import BuioSeat, Options, check_options
from mazzo.games.ramino.rules import PILE_TURNS_PER_PLAYER
from mazzo.games.ramino.state import (
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
)
from mazzo.games.ramino.validate import check_table
from mazzo.games.ramino.view import View
from mazzo.v1 import game_pb2, ramino_pb2

P = "state.ramino."
T = P + "table."
B = P + "bets."
_new = tuple.__new__

_PHASES: Final = {int(p): p for p in Phase}
_STATUSES: Final = {int(s): s for s in Status}
_SOURCES: Final = {int(s): s for s in Source}
_ACTIONS: Final = {int(a): a for a in BidAction}
_OUTCOMES: Final = {int(o): o for o in Outcome}
_ENDS: Final = {int(e): e for e in MatchEnd}
_KINDS: Final = {int(k): k for k in ClosureType if k}


_enum = by_number


def _packed(field_number: int, cards: Sequence[int]) -> bytes:
    """A packed ``repeated Card`` field; card ids are one-byte varints."""
    return entry(field_number, bytes(cards)) if cards else b""


_cards = members_checker(IN_PACK, "card {} is not in the Ramino pack")


def _card(value: int, field: str, error: type[RulesError] = InvalidState) -> int:
    """A single card field: 0 is "no card"."""
    if value and value not in IN_PACK:
        raise error(field, f"card {value} is not in the Ramino pack")
    return value


def _seat(msg: Any, name: str) -> int:
    return getattr(msg, name) if msg.HasField(name) else NO_SEAT


# --------------------------------------------------------------------------- options


def options_from_wire(msg: ramino_pb2.RaminoOptions, field: str = "options.ramino") -> Options:
    """Wire options: unset fields take their defaults (ramino.md §5). Memoised: a match
    keeps its options from deal to end."""
    return _options_from_wire(msg, field)


def _options_from_message(msg: ramino_pb2.RaminoOptions, field: str) -> Options:
    d = Options()
    has = msg.HasField
    return Options(
        hand_size=msg.hand_size if has("hand_size") else d.hand_size,
        imaginary_jokers=msg.imaginary_jokers if has("imaginary_jokers") else d.imaginary_jokers,
        min_open=msg.min_open if has("min_open") else d.min_open,
        max_stake=msg.max_stake if has("max_stake") else d.max_stake,
        dealer_tax=msg.dealer_tax if has("dealer_tax") else d.dealer_tax,
        buio=msg.buio if has("buio") else None,
        buio_seat=option_enum(msg.buio_seat, BuioSeat, d.buio_seat, f"{field}.buio_seat"),
        set_duplicate_suits=msg.set_duplicate_suits,
        rediscard_taken_card=msg.rediscard_taken_card,
        max_reshuffles=msg.max_reshuffles if has("max_reshuffles") else d.max_reshuffles,
        starting_chips=msg.starting_chips if has("starting_chips") else d.starting_chips,
        allow_credit=msg.allow_credit if has("allow_credit") else d.allow_credit,
        match_hands=msg.match_hands if has("match_hands") else None,
        first_dealer=msg.first_dealer if has("first_dealer") else None,
    )


_options_from_wire = memoised_decoder(ramino_pb2.RaminoOptions.FromString, _options_from_message)


def _options_message(options: Options) -> ramino_pb2.RaminoOptions:
    out = ramino_pb2.RaminoOptions(
        hand_size=options.hand_size,
        imaginary_jokers=options.imaginary_jokers,
        min_open=options.min_open,
        max_stake=options.max_stake,
        dealer_tax=options.dealer_tax,
        buio_seat=ramino_pb2.RaminoBuioSeat.ValueType(options.buio_seat),
        set_duplicate_suits=options.set_duplicate_suits,
        rediscard_taken_card=options.rediscard_taken_card,
        max_reshuffles=options.max_reshuffles,
        starting_chips=options.starting_chips,
        allow_credit=options.allow_credit,
    )
    if options.buio is not None:
        out.buio = options.buio
    if options.match_hands is not None:
        out.match_hands = options.match_hands
    if options.first_dealer is not None:
        out.first_dealer = options.first_dealer
    return out


_options_bytes = memoised_encoder(_options_message)


def options_to_wire(options: Options, out: ramino_pb2.RaminoOptions) -> None:
    """Every option written explicitly, so a state says which rules it plays by."""
    out.MergeFromString(_options_bytes(options))


# --------------------------------------------------------------------------- records


def _closure_from(msg: ramino_pb2.RaminoClosure, field: str) -> ClosureShown:
    return ClosureShown(
        msg.seat,
        _cards(msg.cards, field + ".cards"),
        _card(msg.discard, field + ".discard"),
        _card(msg.joker, field + ".joker"),
        _card(msg.stands_for, field + ".stands_for"),
        _enum(_KINDS, msg.type, field + ".type"),
    )


def _closure_to(closure: ClosureShown, out: ramino_pb2.RaminoClosure) -> None:
    out.seat = closure.seat
    out.cards.extend(_wire(closure.cards))
    out.discard = _wire_card(closure.discard)
    out.joker = _wire_card(closure.joker)
    out.stands_for = _wire_card(closure.stands_for)
    out.type = ramino_pb2.RaminoClosureType.ValueType(closure.kind)


def _result_from(msg: ramino_pb2.RaminoHandResult, field: str) -> HandResult:
    return HandResult(
        msg.hand_number,
        msg.dealer,
        _enum(_OUTCOMES, msg.outcome, field + ".outcome"),
        _seat(msg, "winner"),
        msg.posta,
        msg.pot,
        tuple(msg.participants),
        _closure_from(msg.closure, field + ".closure") if msg.HasField("closure") else None,
        tuple(msg.extra_paid),
        tuple(msg.net),
    )


def _result_to(result: HandResult, out: ramino_pb2.RaminoHandResult) -> None:
    out.hand_number = result.hand_number
    out.dealer = result.dealer
    out.outcome = ramino_pb2.RaminoOutcome.ValueType(result.outcome)
    if result.winner != NO_SEAT:
        out.winner = result.winner
    out.posta = result.posta
    out.pot = result.pot
    out.participants.extend(result.participants)
    if result.closure is not None:
        _closure_to(result.closure, out.closure)
    out.extra_paid.extend(result.extra_paid)
    out.net.extend(result.net)


_wire = as_wire


def _wire_card(c: int) -> Any:
    return c


# --------------------------------------------------------------------------- state


def state_from_wire(msg: game_pb2.GameState) -> State:
    """The domain state of a wire state, before validation (see ``validate``)."""
    if not msg.HasField("ramino"):
        raise InvalidState("state.ramino", "a Ramino state needs its ramino detail")
    m = msg.ramino
    players = msg.players
    if not 2 <= players <= 6:
        raise InvalidState("state.players", f"Ramino is for 2 to 6 players, not {players}")
    phase = _enum(_PHASES, m.phase, P + "phase")
    if msg.finished != (phase is Phase.OVER):
        raise InvalidState("state.finished", "finished must be true exactly in phase OVER")
    data = m.table.SerializeToString()
    table = memo_for(_table_from_bytes, data)(data, m.rng.seed, m.rng.counter, players)
    return _new(
        State,
        (
            table,
            _bets_from(m.bets, tuple(msg.match_score)),
            phase,
            msg.to_act,
            tuple(_cards(h.cards, f"{P}hands[{i}].cards") for i, h in enumerate(m.hands)),
            _cards(m.stock, P + "stock"),
            _cards(m.pile, P + "pile"),
            _turns_from_bytes(tuple(t.SerializeToString() for t in m.turns)),
            _enum(_SOURCES, m.taken, P + "taken"),
            _card(m.taken_card, P + "taken_card"),
            m.reshuffles,
        ),
    )


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_from_bytes(data: bytes, seed: int, counter: int, players: int) -> Table:
    """Match-level fields change once a hand: decoding them is memoised."""
    t = ramino_pb2.RaminoTable.FromString(data)
    try:
        options = _options_from_message(t.options, T + "options")
    except InvalidArgument as e:
        raise InvalidState(e.field, e.reason) from e
    return Table(
        options=options,
        players=players,
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        hand_number=t.hand_number,
        decided_hands=t.decided_hands,
        void_streak=t.void_streak,
        last_hand=_result_from(t.last_hand, T + "last_hand") if t.HasField("last_hand") else None,
        end=_enum(_ENDS, t.end, T + "end"),
    )


def _bets_from(b: ramino_pb2.RaminoBets, balances: tuple[int, ...]) -> Bets:
    statuses = tuple(_enum(_STATUSES, s, f"{B}statuses[{i}]") for i, s in enumerate(b.statuses))
    bids = tuple(
        Bid(bid.seat, _enum(_ACTIONS, bid.action, f"{B}bids[{i}].action"), bid.amount)
        for i, bid in enumerate(b.bids)
    )
    return Bets(
        balances,
        b.pot,
        tuple(b.shares),
        b.carry_over,
        b.tax,
        b.stake,
        tuple(b.committed),
        statuses,
        _seat(b, "last_aggressor"),
        _seat(b, "last_actor"),
        _seat(b, "buio_player"),
        b.buio_block,
        bids,
    )


def _turns_from_bytes(entries: tuple[bytes, ...]) -> tuple[Turn, ...]:
    decode: Callable[..., Turn] = _turn_from_bytes
    if max(map(len, entries), default=0) > _TURN_KEY_LIMIT:
        decode = _turn_from_bytes.__wrapped__  # see MEMO_KEY_LIMIT: keep no long key
    return tuple(decode(data, i) for i, data in enumerate(entries))


#: A real turn entry is a few bytes; 65,536 memoised turns of this size are 4 MB.
_TURN_KEY_LIMIT: Final = 64


@lru_cache(maxsize=MEMO_ENTRIES)
def _turn_from_bytes(data: bytes, index: int) -> Turn:
    """A turn of play; most recur (a seat, a source, two cards), so decoding is memoised."""
    t = ramino_pb2.RaminoTurn.FromString(data)
    field = f"{P}turns[{index}]"
    return Turn(
        t.seat,
        _enum(_SOURCES, t.source, field + ".source"),
        _card(t.taken, field + ".taken"),
        _card(t.discard, field + ".discard"),
    )


# Field numbers of RaminoState and RaminoBets entries written as raw bytes.
_S: Final = ramino_pb2.RaminoState.DESCRIPTOR.fields_by_name
_HANDS, _STOCK, _PILE, _TURNS = (_S[n].number for n in ("hands", "stock", "pile", "turns"))
_BIDS: Final = ramino_pb2.RaminoBets.DESCRIPTOR.fields_by_name["bids"].number


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_bytes(table: Table) -> bytes:
    """The wire ``RaminoTable`` of a table, memoised like its decoding."""
    t = ramino_pb2.RaminoTable(
        dealer=table.dealer,
        hand_number=table.hand_number,
        decided_hands=table.decided_hands,
        void_streak=table.void_streak,
        end=ramino_pb2.RaminoMatchEnd.ValueType(table.end),
    )
    options_to_wire(table.options, t.options)
    if table.last_hand is not None:
        _result_to(table.last_hand, t.last_hand)
    return t.SerializeToString()


@lru_cache(maxsize=MEMO_ENTRIES)
def _turn_body(turn: Turn) -> bytes:
    """A serialised ``RaminoTurn``; turns recur (a seat, a source, two cards)."""
    msg = ramino_pb2.RaminoTurn(
        seat=turn.seat,
        source=ramino_pb2.RaminoSource.ValueType(turn.source),
        taken=_wire_card(turn.taken),
        discard=_wire_card(turn.discard),
    )
    return msg.SerializeToString()


@lru_cache(maxsize=MEMO_ENTRIES)
def _turn_bytes(turn: Turn) -> bytes:
    """A framed ``turns`` entry of the state, memoised: a state (and a view) lists every
    turn of its hand, hundreds late in a hand, so framing each anew on every move made
    encoding quadratic in the hand's length."""
    return entry(_TURNS, _turn_body(turn))


@lru_cache(maxsize=MEMO_ENTRIES)
def _bid_bytes(bid: Bid) -> bytes:
    msg = ramino_pb2.RaminoBid(
        seat=bid.seat, action=ramino_pb2.RaminoBidAction.ValueType(bid.action), amount=bid.amount
    )
    return entry(_BIDS, msg.SerializeToString())


#: Bets of more bids are encoded without the memo: a stake of 1,000 raised a chip at a
#: time makes hands of thousands of bids, and 16,384 such entries would hold gigabytes.
#: At the default max_stake of 5 a hand has 38 bids at most.
_BETS_MEMO_BIDS: Final = 64


def _bets_bytes(bets: Bets) -> bytes:
    if len(bets.bids) <= _BETS_MEMO_BIDS:
        return _memo_bets_bytes(bets)
    return _memo_bets_bytes.__wrapped__(bets)


@lru_cache(maxsize=MEMO_ENTRIES)
def _memo_bets_bytes(bets: Bets) -> bytes:
    """``RaminoBets`` without the balances (they are GameState.match_score); memoised,
    as bets do not change during play."""
    b = ramino_pb2.RaminoBets(
        pot=bets.pot,
        carry_over=bets.carry,
        tax=bets.tax,
        stake=bets.stake,
        buio_block=bets.buio_block,
    )
    b.shares.extend(bets.shares)
    b.committed.extend(bets.committed)
    b.statuses.extend(_wire(bets.statuses))
    for name in ("last_aggressor", "last_actor", "buio_player"):
        value = getattr(bets, name)
        if value != NO_SEAT:
            setattr(b, name, value)
    return b.SerializeToString() + b"".join(_bid_bytes(bid) for bid in bets.bids)


@lru_cache(maxsize=MEMO_ENTRIES)
def _hand_bytes(hand: tuple[int, ...]) -> bytes:
    return entry(_HANDS, _packed(1, hand))


def state_to_wire(state: State, to_act: int, out: game_pb2.GameState) -> None:
    """Fill a ``GameState`` (envelope and detail) from a domain state."""
    table = state.table
    out.game = "ramino"
    out.players = table.players
    out.finished = state.phase is Phase.OVER
    out.to_act = to_act
    out.match_score.extend(state.bets.balances)
    m = out.ramino
    m.table.MergeFromString(_table_bytes(table))
    m.rng.seed = table.seed
    m.rng.counter = table.counter
    m.phase = ramino_pb2.RaminoPhase.ValueType(state.phase)
    m.bets.MergeFromString(_bets_bytes(state.bets))
    m.taken = ramino_pb2.RaminoSource.ValueType(state.taken)
    m.taken_card = _wire_card(state.taken_card)
    m.reshuffles = state.reshuffles
    m.MergeFromString(
        b"".join([_hand_bytes(h) for h in state.hands])
        + _packed(_STOCK, state.stock)
        + _packed(_PILE, state.pile)
        + b"".join(map(_turn_bytes, state.turns))
    )


# --------------------------------------------------------------------------- moves


_SIMPLE: Final = {
    "buio": BUIO,
    "no_buio": NO_BUIO,
    "pass_bid": PASS,
    "accept_bid": ACCEPT,
    "stand_bid": STAND,
    "draw": DRAW,
    "take_discard": TAKE_DISCARD,
}
_FIELDS: Final = {move: name for name, move in _SIMPLE.items()}


def move_from_wire(msg: game_pb2.Move, field: str = "move") -> Move:
    """The domain move of a wire move (interned when it is one a listing offers)."""
    if not msg.HasField("ramino"):
        raise InvalidArgument(field, "a Ramino move is needed (move.ramino)")
    m = msg.ramino
    action = m.WhichOneof("action")
    f = f"{field}.ramino."
    if action in _SIMPLE:
        return _SIMPLE[action]
    if action == "open_bid":
        return open_bid(m.open_bid.amount)
    if action == "raise_bid":
        return raise_bid(m.raise_bid.amount)
    if action == "discard":
        c = m.discard.card
        if c not in IN_PACK:
            raise InvalidArgument(f + "discard.card", f"card {c} is not in the Ramino pack")
        return DISCARDS[c]
    if action == "close":
        close = m.close
        discard = _card(close.discard, f + "close.discard", InvalidArgument)
        jokers = tuple(
            (
                _card(j.card, f"{f}close.jokers[{i}].card", InvalidArgument),
                _card(j.stands_for, f"{f}close.jokers[{i}].stands_for", InvalidArgument),
            )
            for i, j in enumerate(close.jokers)
        )
        groups = tuple(
            tuple(_card(c, f"{f}close.groups[{i}].cards", InvalidArgument) for c in g.cards)
            for i, g in enumerate(close.groups)
        )
        if not jokers and not groups:
            return CLOSES[discard]
        return Move(Kind.CLOSE, card=discard, jokers=jokers, groups=groups)
    raise InvalidArgument(f"{field}.ramino", "the move names no action")


def move_to_wire(move: Move, out: game_pb2.Move) -> None:
    m = out.ramino
    kind = move.kind
    if move in _FIELDS:
        getattr(m, _FIELDS[move]).SetInParent()
    elif kind is Kind.OPEN:
        m.open_bid.amount = move.amount
    elif kind is Kind.RAISE:
        m.raise_bid.amount = move.amount
    elif kind is Kind.DISCARD:
        m.discard.card = _wire_card(move.card)
    else:
        close = m.close
        close.SetInParent()
        close.discard = _wire_card(move.card)
        for c, stands_for in move.jokers:
            close.jokers.add(card=_wire_card(c), stands_for=_wire_card(stands_for))
        for group in move.groups:
            close.groups.add().cards.extend(_wire(group))


@lru_cache(maxsize=MEMO_ENTRIES)
def move_bytes(move: Move, field_number: int) -> bytes:
    """A move encoded as one entry of a repeated ``Move`` field (memoised)."""
    msg = game_pb2.Move()
    move_to_wire(move, msg)
    return entry(field_number, msg.SerializeToString())


def moves_bytes(moves: Sequence[Move], field_number: int) -> bytes:
    return b"".join([move_bytes(m, field_number) for m in moves])


# --------------------------------------------------------------------------- events


def events_bytes(events: Sequence[ev.Event], field_number: int) -> bytes:
    """Events as entries of a repeated ``Event`` field; most recur, so each is memoised."""
    return b"".join([_event_bytes(e, field_number) for e in events])


# typed: events are NamedTuples, and DiscardTaken(0, c) == CardDiscarded(0, c) as tuples.
@lru_cache(maxsize=MEMO_ENTRIES, typed=True)
def _event_bytes(event: ev.Event, field_number: int) -> bytes:
    msg = game_pb2.Event()
    event_to_wire(event, msg)
    return entry(field_number, msg.SerializeToString())


def _bid_to(bid: Bid, out: ramino_pb2.RaminoBid) -> None:
    out.seat = bid.seat
    out.action = ramino_pb2.RaminoBidAction.ValueType(bid.action)
    out.amount = bid.amount


def event_to_wire(event: ev.Event, out: game_pb2.Event) -> None:
    m = out.ramino
    match event:
        case ev.CardDrawn(seat, stock_size):
            m.card_drawn.seat, m.card_drawn.stock_size = seat, stock_size
        case ev.CardDiscarded(seat, c):
            m.card_discarded.seat, m.card_discarded.card = seat, _wire_card(c)
        case ev.DiscardTaken(seat, c):
            m.discard_taken.seat, m.discard_taken.card = seat, _wire_card(c)
        case ev.BidMade(bid, paid, stake, pot):
            _bid_to(bid, m.bid_made.bid)
            m.bid_made.paid, m.bid_made.stake, m.bid_made.pot = paid, stake, pot
        case ev.HandDealt(hand_number, dealer, sitting_out):
            m.hand_dealt.hand_number, m.hand_dealt.dealer = hand_number, dealer
            m.hand_dealt.sitting_out.extend(sitting_out)
        case ev.TaxPaid(seat, amount):
            m.tax_paid.seat, m.tax_paid.amount = seat, amount
        case ev.PlayStarted(participants, posta, pot):
            m.play_started.participants.extend(participants)
            m.play_started.posta, m.play_started.pot = posta, pot
        case ev.StockReshuffled(stock_size, reshuffles):
            m.stock_reshuffled.stock_size = stock_size
            m.stock_reshuffled.reshuffles = reshuffles
        case ev.HandClosed(closure):
            _closure_to(closure, m.hand_closed.closure)
        case ev.HandEnded(result, balances):
            _result_to(result, m.hand_ended.result)
            m.hand_ended.balances.extend(balances)
        case ev.PotRefunded(refunds):
            m.pot_refunded.refunds.extend(refunds)
        case ev.MatchEnded(end, balances, winners):
            m.match_ended.end = ramino_pb2.RaminoMatchEnd.ValueType(end)
            m.match_ended.balances.extend(balances)
            m.match_ended.winners.extend(winners)


# --------------------------------------------------------------------------- view and score


def view_to_wire(view: View, out: game_pb2.GameView) -> None:
    out.game = "ramino"
    out.players = view.players
    out.seat = view.seat
    out.to_act = view.to_act
    out.finished = view.phase is Phase.OVER
    out.match_score.extend(view.balances)
    m = out.ramino
    m.table.MergeFromString(_table_bytes(view.table))
    m.phase = ramino_pb2.RaminoPhase.ValueType(view.phase)
    m.bets.MergeFromString(_bets_bytes(view.bets))
    m.hand.extend(_wire(view.hand))
    m.hand_hidden = view.hand_hidden
    m.hand_sizes.extend(view.hand_sizes)
    m.stock_size = view.stock_size
    m.pile.extend(_wire(view.pile))
    m.MergeFromString(b"".join(map(_view_turn_bytes, view.turns)))
    m.taken = ramino_pb2.RaminoSource.ValueType(view.taken)
    m.taken_card = _wire_card(view.taken_card)
    m.reshuffles = view.reshuffles


_VIEW_TURNS: Final = ramino_pb2.RaminoView.DESCRIPTOR.fields_by_name["turns"].number


@lru_cache(maxsize=MEMO_ENTRIES)
def _view_turn_bytes(turn: Turn) -> bytes:
    """A framed ``turns`` entry of the view, memoised as ``_turn_bytes``."""
    return entry(_VIEW_TURNS, _turn_body(turn))


def side_score_to_wire(detail: RaminoSideScore, out: ramino_pb2.RaminoSideScore) -> None:
    out.balance = detail.balance
    out.committed = detail.committed
    out.pot_share = detail.pot_share
    out.status = ramino_pb2.RaminoStatus.ValueType(detail.status)
    if detail.last_hand_net is not None:
        out.last_hand_net = detail.last_hand_net


def view_from_wire(msg: game_pb2.GameView, field: str = "view") -> View:
    """A view as a client sends it (Determinize, Simulate), checked as far as a view
    alone allows: every enum known, every seat in range, every card of the pack and no
    card shown more than twice (the hand and the pile; a closure's ten cards), every
    list as long as the rules allow at most, the hand, the stock and the pile adding up
    to 104 cards. Faults are ``InvalidArgument`` at the wire field (``view.ramino.
    pile[3]``). Whether the record hangs together (the bids, the turns, the pile they
    leave) is for the sampler, which replays it."""
    if not 2 <= msg.players <= 6:
        raise InvalidArgument(
            f"{field}.players", f"Ramino is for 2 to 6 players, not {msg.players}"
        )
    players = msg.players
    if msg.WhichOneof("detail") != "ramino":
        raise InvalidArgument(f"{field}.ramino", "a Ramino view needs its ramino detail")
    if not msg.seat < players:
        raise InvalidArgument(f"{field}.seat", f"seat must be 0..{players - 1}")
    m = msg.ramino
    f = f"{field}.ramino."
    table = _view_table(m.table, players, f + "table")
    options = table.options
    size = options.hand_size
    phase = _enum(_PHASES, m.phase, f + "phase", InvalidArgument)
    if msg.finished != (phase is Phase.OVER):
        raise InvalidArgument(f"{field}.finished", "finished must be true exactly in phase OVER")
    if not msg.to_act < players or (phase is Phase.OVER and msg.to_act):
        raise InvalidArgument(f"{field}.to_act", "to_act is a seat (0 once the match is over)")
    if len(msg.match_score) != players:
        raise InvalidArgument(f"{field}.match_score", "match_score holds one balance per seat")
    bets = _view_bets(m.bets, tuple(msg.match_score), players, options, f + "bets")
    hand = _cards(m.hand, f + "hand", InvalidArgument)
    if list(hand) != sorted(hand):
        raise InvalidArgument(f + "hand", "a hand lists its cards in canonical order")
    if m.hand_hidden and (phase is not Phase.BUIO_DECISION or msg.seat != msg.to_act or hand):
        raise InvalidArgument(
            f + "hand_hidden", "only the buio seat deciding blind has his hand hidden, and empty"
        )
    if len(m.hand_sizes) != players:
        raise InvalidArgument(f + "hand_sizes", "hand_sizes holds one count per seat")
    for i, n in enumerate(m.hand_sizes):
        if not size <= n <= size + 1:
            raise InvalidArgument(f"{f}hand_sizes[{i}]", f"a hand holds {size} or {size + 1} cards")
    if not m.hand_hidden and len(hand) != m.hand_sizes[msg.seat]:
        raise InvalidArgument(
            f + "hand", f"hand_sizes[{msg.seat}] says {m.hand_sizes[msg.seat]} cards"
        )
    pile = _cards(m.pile, f + "pile", InvalidArgument)
    total = 2 * len(IN_PACK)
    if sum(m.hand_sizes) + m.stock_size + len(pile) != total:
        raise InvalidArgument(f + "stock_size", f"hands, stock and pile must hold {total} cards")
    shown: dict[int, int] = {}
    for name, cards in (("hand", hand), ("pile", pile)):
        for i, c in enumerate(cards):
            shown[c] = shown.get(c, 0) + 1
            if shown[c] > 2:
                raise InvalidArgument(f"{f}{name}[{i}]", "a card is shown more than twice")
    limit = _most_turns(options, players)
    if len(m.turns) > limit:
        raise InvalidArgument(f + "turns", f"a hand has at most {limit} turns")
    turns = []
    for i, t in enumerate(m.turns):
        tf = f"{f}turns[{i}]"
        if not t.seat < players:
            raise InvalidArgument(tf + ".seat", f"seat must be 0..{players - 1}")
        turns.append(
            Turn(
                t.seat,
                _enum(_SOURCES, t.source, tf + ".source", InvalidArgument),
                _card(t.taken, tf + ".taken", InvalidArgument),
                _card(t.discard, tf + ".discard", InvalidArgument),
            )
        )
    taken = _enum(_SOURCES, m.taken, f + "taken", InvalidArgument)
    taken_card = _card(m.taken_card, f + "taken_card", InvalidArgument)
    if taken_card and taken is not Source.PILE:
        raise InvalidArgument(f + "taken_card", "only a card taken from the pile is named")
    if m.reshuffles > options.max_reshuffles:
        raise InvalidArgument(f + "reshuffles", f"at most {options.max_reshuffles} reshuffles")
    return View(
        seat=msg.seat,
        players=players,
        to_act=msg.to_act,
        phase=phase,
        table=table,
        bets=bets,
        hand=hand,
        hand_hidden=m.hand_hidden,
        hand_sizes=tuple(m.hand_sizes),
        stock_size=m.stock_size,
        pile=pile,
        turns=tuple(turns),
        taken=taken,
        taken_card=taken_card,
        reshuffles=m.reshuffles,
    )


def _view_table(t: ramino_pb2.RaminoTable, players: int, field: str) -> Table:
    """A view's table: the options resolved and allowed, the counters in range, the last
    hand's record well formed (``validate.check_table``, with the view's fields)."""
    try:
        options = _options_from_message(t.options, field + ".options")
        check_options(options, players)
    except InvalidArgument as e:
        raise InvalidArgument(field + ".options." + e.field.split(".")[-1], e.reason) from None
    if not t.options.HasField("buio") or not t.options.HasField("match_hands"):
        raise InvalidArgument(field + ".options", "a view carries its options resolved")
    try:
        last = _result_from(t.last_hand, field + ".last_hand") if t.HasField("last_hand") else None
        table = Table(
            options,
            players,
            0,
            0,
            t.dealer,
            t.hand_number,
            t.decided_hands,
            t.void_streak,
            last,
            _enum(_ENDS, t.end, field + ".end"),
        )
        check_table(table._replace(counter=1))
    except InvalidState as bad:  # not `e`: compiled, one name has one type per function
        raise InvalidArgument(field + bad.field.removeprefix(T.rstrip(".")), bad.reason) from None
    if last is not None and last.closure is not None:
        counts: dict[int, int] = {}
        for i, c in enumerate(last.closure.cards):
            counts[c] = counts.get(c, 0) + 1
            if counts[c] > 2:
                raise InvalidArgument(
                    f"{field}.last_hand.closure.cards[{i}]", "a card shown twice at most"
                )
    return table


def _view_bets(
    b: ramino_pb2.RaminoBets, balances: tuple[int, ...], players: int, options: Options, field: str
) -> Bets:
    for name in ("shares", "committed", "statuses"):
        if len(getattr(b, name)) != players:
            raise InvalidArgument(f"{field}.{name}", f"{name} holds one entry per seat")
    seats = {n: _seat(b, n) for n in ("last_aggressor", "last_actor", "buio_player")}
    for name, value in seats.items():
        if not value < players:
            raise InvalidArgument(f"{field}.{name}", f"seat must be 0..{players - 1}")
    limit = _most_bids(options, players)
    if len(b.bids) > limit:
        raise InvalidArgument(f"{field}.bids", f"a hand has at most {limit} bids")
    bids = []
    for i, bid in enumerate(b.bids):
        if not bid.seat < players:
            raise InvalidArgument(f"{field}.bids[{i}].seat", f"seat must be 0..{players - 1}")
        if bid.amount > options.max_stake:
            raise InvalidArgument(f"{field}.bids[{i}].amount", "an amount is at most max_stake")
        action = _enum(_ACTIONS, bid.action, f"{field}.bids[{i}].action", InvalidArgument)
        bids.append(Bid(bid.seat, action, bid.amount))
    statuses = tuple(
        _enum(_STATUSES, st, f"{field}.statuses[{i}]", InvalidArgument)
        for i, st in enumerate(b.statuses)
    )
    return Bets(
        balances,
        b.pot,
        tuple(b.shares),
        b.carry_over,
        b.tax,
        b.stake,
        tuple(b.committed),
        statuses,
        seats["last_aggressor"],
        seats["last_actor"],
        seats["buio_player"],
        b.buio_block,
        tuple(bids),
    )


def _most_bids(options: Options, players: int) -> int:
    """Bids a hand can have (ramino.md §3.2, §3.3): the buio decision, each opening or
    raise lifting the stake by 1 at least, a pass per player, an accept (or stand) per
    player and stake."""
    return 1 + options.max_stake + players + (options.max_stake + 1) * players


def _most_turns(options: Options, players: int) -> int:
    """Turns a hand can have (§3.4.6, §3.4.7): every stock drawn out, at most 3p turns
    from the pile before each draw."""
    stock = 2 * len(IN_PACK) - players * options.hand_size - 1
    return (1 + options.max_reshuffles) * stock * (PILE_TURNS_PER_PLAYER * players + 1)
