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

from mazzo.codec import detail_of, envelope
from mazzo.codec.common import (
    MEMO_ENTRIES,
    TABLE_ENTRIES,
    as_wire,
    by_number,
    member_checker,
    members_checker,
    memo_for,
    phase_of,
)
from mazzo.codec.events import EventTable, Via
from mazzo.codec.options import OptionsCodec
from mazzo.codec.wire import entry, entry_encoder, field_entry_encoder, packed
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
from mazzo.games.ramino.options import Options, check_options
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
_UNKNOWN: Final = "unknown value {value}"  # as by_number's


_enum = by_number


_cards = members_checker(IN_PACK, "card {} is not in the Ramino pack")


#: A single card field: 0 is "no card".
_card = member_checker(IN_PACK | {0}, "card {} is not in the Ramino pack")


def _seat(msg: Any, name: str) -> int:
    return getattr(msg, name) if msg.HasField(name) else NO_SEAT


# --------------------------------------------------------------------------- options


_OPTIONS: Final = OptionsCodec(Options, ramino_pb2.RaminoOptions)
_options_from_message = _OPTIONS.from_message


def options_from_wire(msg: ramino_pb2.RaminoOptions, field: str = "options.ramino") -> Options:
    """Wire options: unset fields take their defaults (ramino.md §5)."""
    return _OPTIONS.from_wire(msg, field)  # type: ignore[no-any-return]


def options_to_wire(options: Options, out: ramino_pb2.RaminoOptions) -> None:
    """Every option written explicitly, so a state says which rules it plays by."""
    _OPTIONS.to_wire(options, out)


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
    # Inline, not codec.detail_of and phase_of: this is every request's decoder, and
    # the two calls cost it 2-3% (measured).
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
    return _table_of(t, options, players, seed, counter, T.rstrip("."))


def _table_of(
    t: ramino_pb2.RaminoTable, options: Options, players: int, seed: int, counter: int, field: str
) -> Table:
    """The table of a state or a view (``InvalidState`` at ``field``): its last hand
    and its end as far as the wire allows."""
    return Table(
        options=options,
        players=players,
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        hand_number=t.hand_number,
        decided_hands=t.decided_hands,
        void_streak=t.void_streak,
        last_hand=_result_from(t.last_hand, field + ".last_hand")
        if t.HasField("last_hand")
        else None,
        end=_enum(_ENDS, t.end, field + ".end"),
    )


def _bets_from(b: ramino_pb2.RaminoBets, balances: tuple[int, ...]) -> Bets:
    statuses = tuple(_enum(_STATUSES, s, f"{B}statuses[{i}]") for i, s in enumerate(b.statuses))
    bids = tuple(
        Bid(bid.seat, _enum(_ACTIONS, bid.action, f"{B}bids[{i}].action"), bid.amount)
        for i, bid in enumerate(b.bids)
    )
    seats = (_seat(b, "last_aggressor"), _seat(b, "last_actor"), _seat(b, "buio_player"))
    return _bets_of(b, balances, statuses, bids, seats)


def _bid_of(bid: ramino_pb2.RaminoBid, field: str, error: type[RulesError]) -> Bid:
    return Bid(bid.seat, _enum(_ACTIONS, bid.action, field + ".action", error), bid.amount)


_BETS_SEATS: Final = ("last_aggressor", "last_actor", "buio_player")


def _bets_of(
    b: ramino_pb2.RaminoBets,
    balances: tuple[int, ...],
    statuses: tuple[Status, ...],
    bids: tuple[Bid, ...],
    seats: tuple[int, ...],
) -> Bets:
    """The bets of a state or a view, from their decoded parts."""
    last_aggressor, last_actor, buio_player = seats
    return Bets(
        balances,
        b.pot,
        tuple(b.shares),
        b.carry_over,
        b.tax,
        b.stake,
        tuple(b.committed),
        statuses,
        last_aggressor,
        last_actor,
        buio_player,
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
    return _turn_of(ramino_pb2.RaminoTurn.FromString(data), f"{P}turns[{index}]", InvalidState)


def _turn_of(t: ramino_pb2.RaminoTurn, field: str, error: type[RulesError]) -> Turn:
    """A turn of a state or a view, its source and cards checked (as ``error``)."""
    return Turn(
        t.seat,
        _enum(_SOURCES, t.source, field + ".source", error),
        _card(t.taken, field + ".taken", error),
        _card(t.discard, field + ".discard", error),
    )


# Field numbers of RaminoState and RaminoBets entries written as raw bytes.
_S: Final = ramino_pb2.RaminoState.DESCRIPTOR.fields_by_name
_HANDS, _STOCK, _PILE, _TURNS = (_S[n].number for n in ("hands", "stock", "pile", "turns"))
_BIDS: Final = ramino_pb2.RaminoBets.DESCRIPTOR.fields_by_name["bids"].number
_VIEW_TURNS: Final = ramino_pb2.RaminoView.DESCRIPTOR.fields_by_name["turns"].number


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


def _turn_to(turn: Turn, out: ramino_pb2.RaminoTurn) -> None:
    out.seat = turn.seat
    out.source = ramino_pb2.RaminoSource.ValueType(turn.source)
    out.taken = _wire_card(turn.taken)
    out.discard = _wire_card(turn.discard)


def _bid_to(bid: Bid, out: ramino_pb2.RaminoBid) -> None:
    out.seat = bid.seat
    out.action = ramino_pb2.RaminoBidAction.ValueType(bid.action)
    out.amount = bid.amount


# A state (and a view) lists every turn of its hand, hundreds late in a hand: each
# framed entry is memoised, or encoding is quadratic in the hand's length.
_turn_bytes = field_entry_encoder(ramino_pb2.RaminoTurn, _turn_to, _TURNS)
_view_turn_bytes = field_entry_encoder(ramino_pb2.RaminoTurn, _turn_to, _VIEW_TURNS)
_bid_bytes = field_entry_encoder(ramino_pb2.RaminoBid, _bid_to, _BIDS)


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
    return entry(_HANDS, packed(1, hand))


def state_to_wire(state: State, to_act: int, out: game_pb2.GameState) -> None:
    """Fill a ``GameState`` (envelope and detail) from a domain state."""
    table = state.table
    envelope(out, "ramino", table.players, to_act, state.phase is Phase.OVER, state.bets.balances)
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
        + packed(_STOCK, state.stock)
        + packed(_PILE, state.pile)
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


#: A move as one entry of a repeated ``Move`` field (memoised), and a list of them.
move_bytes = entry_encoder(game_pb2.Move, move_to_wire)


def moves_bytes(moves: Sequence[Move], field_number: int) -> bytes:
    # A def here, not a shared closure: the comprehension over a global is the
    # faster by a few per cent, and this is every LegalMoves reply.
    return b"".join([move_bytes(m, field_number) for m in moves])


# --------------------------------------------------------------------------- events


_EVENTS: Final = EventTable(
    ramino_pb2.RaminoEvent,
    (ev.Event,),
    {
        (ev.BidMade, "bid"): Via(_bid_to),
        (ev.HandClosed, "closure"): Via(_closure_to),
        (ev.HandEnded, "result"): Via(_result_to),
    },
)


def event_to_wire(event: ev.Event, out: game_pb2.Event) -> None:
    _EVENTS.to_wire(event, out.ramino)


# typed: events are NamedTuples, and DiscardTaken(0, c) == CardDiscarded(0, c) as tuples.
_event_bytes = entry_encoder(game_pb2.Event, event_to_wire, typed=True)


def events_bytes(events: Sequence[ev.Event], field_number: int) -> bytes:
    """Events as entries of a repeated ``Event`` field; most recur, so each is memoised."""
    return b"".join([_event_bytes(e, field_number) for e in events])


# --------------------------------------------------------------------------- view and score


def view_to_wire(view: View, out: game_pb2.GameView) -> None:
    envelope(out, "ramino", view.players, view.to_act, view.phase is Phase.OVER, view.balances)
    out.seat = view.seat
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
    m: ramino_pb2.RaminoView = detail_of(msg, "ramino", field, InvalidArgument)
    if not msg.seat < players:
        raise InvalidArgument(f"{field}.seat", f"seat must be 0..{players - 1}")
    f = f"{field}.ramino."
    table = _view_table(m.table, players, f + "table")
    options = table.options
    size = options.hand_size
    finished = f"{field}.finished"
    phase = phase_of(
        _PHASES, m.phase, Phase.OVER, msg.finished, f + "phase", finished, InvalidArgument, _UNKNOWN
    )
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
        turns.append(_turn_of(t, tf, InvalidArgument))
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
        table = _table_of(t, options, players, 0, 0, field)
        check_table(table._replace(counter=1))
    except InvalidState as bad:  # not `e`: compiled, one name has one type per function
        raise InvalidArgument(field + bad.field.removeprefix(T.rstrip(".")), bad.reason) from None
    last = table.last_hand
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
    seats = tuple(_seat(b, n) for n in _BETS_SEATS)
    for name, value in zip(_BETS_SEATS, seats, strict=True):
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
        bids.append(_bid_of(bid, f"{field}.bids[{i}]", InvalidArgument))
    statuses = tuple(
        _enum(_STATUSES, st, f"{field}.statuses[{i}]", InvalidArgument)
        for i, st in enumerate(b.statuses)
    )
    return _bets_of(b, balances, statuses, tuple(bids), seats)


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
