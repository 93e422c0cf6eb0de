"""Burraco domain values <-> wire messages. The only Burraco code that sees protobuf.

Cards keep their ids on the wire (the ``Card`` enum uses the same numbering), so
hands, piles and melds pass straight through. What comes in is checked here only as
far as the wire allows (enum ranges, cards of the deck, seats that index a list);
the rules' invariants are checked by ``games.burraco.validate``. Encodings of
finite or slowly changing things (options, the table, moves, events, melds) are
memoised: building protobuf messages field by field is slow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from mazzo.codec import detail_of, envelope
from mazzo.codec.common import (
    MEMO_ENTRIES,
    TABLE_ENTRIES,
    as_wire,
    member_checker,
    members_checker,
    memo_for,
    phase_of,
)
from mazzo.codec.events import EventTable, Record, Via
from mazzo.codec.options import OptionsCodec
from mazzo.codec.wire import entry, entry_encoder, field_entry_encoder
from mazzo.core.cards import RANKS, code
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.burraco import events as ev
from mazzo.games.burraco.cards import COPIES, DECK
from mazzo.games.burraco.game import BurracoSideScore
from mazzo.games.burraco.melds import Burraco, Kind, interpret, signature
from mazzo.games.burraco.moves import (
    DISCARDS,
    DRAW,
    MELDS_BY_KEY,
    PICK_UP,
    Discard,
    Draw,
    LayOff,
    Move,
    OpenMeld,
    PickUp,
    lay_off,
)
from mazzo.games.burraco.moves import meld as make_meld
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.rules import PICK_UP_TURNS_PER_SEAT
from mazzo.games.burraco.state import (
    NO_CARD,
    NO_SEAT,
    HandScore,
    Meld,
    Stage,
    State,
    Table,
    new_meld,
)
from mazzo.games.burraco.validate import check_table
from mazzo.games.burraco.view import MeldView, PozzettoView, PublicScore, View
from mazzo.v1 import burraco_pb2, cards_pb2, game_pb2

P = "state.burraco."
T = P + "table."
_new = tuple.__new__

_CardV = cards_pb2.Card.ValueType
_SuitV = cards_pb2.Suit.ValueType
_StageV = burraco_pb2.BurracoStage.ValueType
_KindV = burraco_pb2.BurracoMeldKind.ValueType
_BurracoV = burraco_pb2.BurracoKind.ValueType
_STAGES: Final = {int(s): s for s in Stage}
_CARDS: Final = frozenset(range(1, 54))
_HISTORY_FIELD: Final = burraco_pb2.BurracoState.DESCRIPTOR.fields_by_name["history"].number
_VIEW_HISTORY: Final = burraco_pb2.BurracoView.DESCRIPTOR.fields_by_name["history"].number
_VIEW_MELDS: Final = burraco_pb2.BurracoView.DESCRIPTOR.fields_by_name["melds"].number
_MELDS_FIELD: Final = burraco_pb2.BurracoState.DESCRIPTOR.fields_by_name["melds"].number
_HANDS_FIELD: Final = burraco_pb2.BurracoState.DESCRIPTOR.fields_by_name["hands"].number


_wire = as_wire
_cards = members_checker(_CARDS, "card {} is not in the Burraco deck")
_card_or_none = member_checker(_CARDS | {NO_CARD}, "card {} is not in the Burraco deck")


# --------------------------------------------------------------------------- options


_OPTIONS: Final = OptionsCodec(Options, burraco_pb2.BurracoOptions)
_options_from_message = _OPTIONS.from_message
_options_bytes = _OPTIONS.to_bytes


def options_from_wire(msg: burraco_pb2.BurracoOptions, field: str = "options.burraco") -> Options:
    """Resolve wire options: unset fields take their defaults (burraco.md §5)."""
    return _OPTIONS.from_wire(msg, field)  # type: ignore[no-any-return]


def options_to_wire(options: Options, out: burraco_pb2.BurracoOptions) -> None:
    """Every option written explicitly, so a state says which rules it plays by."""
    _OPTIONS.to_wire(options, out)


# --------------------------------------------------------------------------- scores


_SCORE: Final = Record(HandScore, burraco_pb2.BurracoHandScore.DESCRIPTOR)
_score_from_wire = _SCORE.from_wire
_score_to_wire = _SCORE.to_wire


# --------------------------------------------------------------------------- state


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_from_bytes(
    data: bytes, seed: int, counter: int, totals: tuple[int, ...], players: int
) -> Table:
    """Match-level fields change at most once a hand: decoding them is memoised."""
    t = burraco_pb2.BurracoTable.FromString(data)
    return Table(
        options=_options_from_message(t.options, T + "options"),
        players=players,
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        hand_number=t.hand_number,
        totals=totals,
        last_hand=tuple(_score_from_wire(s) for s in t.last_hand_scores),
        last_credits=tuple(t.last_hand_credits),
        three_pozzetti=t.three_pozzetti,
    )


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_bytes(table: Table) -> bytes:
    """The wire ``BurracoTable`` of a table (the generator and totals travel elsewhere)."""
    t = burraco_pb2.BurracoTable(
        dealer=table.dealer, hand_number=table.hand_number, three_pozzetti=table.three_pozzetti
    )
    t.options.MergeFromString(_options_bytes(table.options))
    for score in table.last_hand:
        _score_to_wire(score, t.last_hand_scores.add())
    t.last_hand_credits.extend(table.last_credits)
    return t.SerializeToString()


def state_from_wire(msg: game_pb2.GameState) -> State:
    """The domain state of a wire state, before validation (see ``validate``)."""
    # Inline, not codec.detail_of and phase_of: this is every request's decoder, and
    # the two calls cost it 2-3% (measured).
    if not msg.HasField("burraco"):
        raise InvalidState("state.burraco", "a Burraco state needs its burraco detail")
    b = msg.burraco
    players = msg.players
    if players not in (2, 3, 4):
        raise InvalidState("state.players", f"Burraco is for 2, 3 or 4 players, not {players}")
    stage = _STAGES.get(b.stage)
    if stage is None:
        raise InvalidState(P + "stage", f"unknown stage {b.stage}")
    if msg.finished != (stage is Stage.OVER):
        raise InvalidState("state.finished", "finished must be true exactly in stage OVER")
    data = b.table.SerializeToString()
    table = memo_for(_table_from_bytes, data)(
        data, b.rng.seed, b.rng.counter, tuple(msg.match_score), players
    )
    hands = tuple(
        tuple(sorted(_cards(h.cards, f"{P}hands[{i}].cards", InvalidState)))
        for i, h in enumerate(b.hands)
    )
    melds = tuple(_meld_from_wire(m, i, players) for i, m in enumerate(b.melds))
    pozzetti = []
    takers = []
    for i, p in enumerate(b.pozzetti):
        pozzetti.append(tuple(sorted(_cards(p.cards, f"{P}pozzetti[{i}].cards", InvalidState))))
        if p.HasField("taken_by"):
            _seat(p.taken_by, players, f"{P}pozzetti[{i}].taken_by")
            takers.append(p.taken_by)
        else:
            takers.append(NO_SEAT)
    locked = 0
    for i, s in enumerate(b.locked_seats):
        _seat(s, players, f"{P}locked_seats[{i}]")
        locked |= 1 << s
    forbidden = b.forbidden_discard
    if forbidden != NO_CARD and forbidden not in _CARDS:
        raise InvalidState(P + "forbidden_discard", f"card {forbidden} is not in the Burraco deck")
    solo = NO_SEAT
    if b.HasField("solo_seat"):
        _seat(b.solo_seat, players, P + "solo_seat")
        solo = b.solo_seat
    history = tuple(event_from_wire(e, f"{P}history[{i}]") for i, e in enumerate(b.history))
    return _new(
        State,
        (
            table,
            stage,
            msg.to_act,
            hands,
            _cards(b.stock, P + "stock", InvalidState),
            _cards(b.discard_pile, P + "discard_pile", InvalidState),
            melds,
            tuple(pozzetti),
            tuple(takers),
            locked,
            forbidden,
            b.last_turn,
            b.pickup_turns,
            solo,
            history,
        ),
    )


def _seat(seat: int, players: int, field: str) -> None:
    if not 0 <= seat < players:
        raise InvalidState(field, f"seat {seat} is out of range 0..{players - 1}")


def _meld_from_wire(m: burraco_pb2.BurracoMeld, i: int, players: int) -> Meld:
    field = f"{P}melds[{i}]"
    _seat(m.seat, players, field + ".seat")
    cards = tuple(sorted(_cards(m.cards, field + ".cards", InvalidState)))
    return _meld_of(m.seat, cards, field)


@lru_cache(maxsize=MEMO_ENTRIES)
def _meld_of(seat: int, cards: tuple[int, ...], field: str) -> Meld:
    sig = signature(cards)
    if isinstance(sig, str):
        raise InvalidState(field + ".cards", sig)
    interp = interpret(sig)
    if isinstance(interp, str):
        raise InvalidState(field + ".cards", interp)
    return new_meld(seat, cards, sig)


@lru_cache(maxsize=MEMO_ENTRIES)
def _meld_bytes(meld: Meld) -> bytes:
    body = burraco_pb2.BurracoMeld(seat=meld.seat, cards=_wire(meld.cards)).SerializeToString()
    return entry(_MELDS_FIELD, body)


@lru_cache(maxsize=MEMO_ENTRIES)
def _hands_bytes(hands: tuple[tuple[int, ...], ...]) -> bytes:
    return b"".join(
        entry(_HANDS_FIELD, burraco_pb2.BurracoHand(cards=_wire(h)).SerializeToString())
        for h in hands
    )


def _turn_to_wire(
    turn: State | View, out: burraco_pb2.BurracoState | burraco_pb2.BurracoView
) -> None:
    """Where the turn stands, alike in a state and a view."""
    if turn.forbidden:
        out.forbidden_discard = _CardV(turn.forbidden)
    out.last_turn = turn.last_turn
    out.pickup_turns = turn.pickups
    if turn.solo != NO_SEAT:
        out.solo_seat = turn.solo


def state_to_wire(state: State, to_act: int, out: game_pb2.GameState) -> None:
    """Fill a ``GameState`` (envelope and detail) from a domain state."""
    table = state.table
    envelope(out, "burraco", table.players, to_act, state.stage is Stage.OVER, table.totals)
    b = out.burraco
    b.MergeFromString(
        _hands_bytes(state.hands)
        + b"".join([_meld_bytes(m) for m in state.melds])
        + b"".join([_history_entry(e) for e in state.log])
    )
    b.table.MergeFromString(_table_bytes(table))
    b.rng.seed = table.seed
    b.rng.counter = table.counter
    b.stage = _StageV(state.stage)
    b.stock.extend(_wire(state.stock))
    b.discard_pile.extend(_wire(state.pile))
    for cards, taker in zip(state.pozzetti, state.takers, strict=True):
        p = b.pozzetti.add()
        p.cards.extend(_wire(cards))
        if taker != NO_SEAT:
            p.taken_by = taker
    b.locked_seats.extend(s for s in range(table.players) if state.locked >> s & 1)
    _turn_to_wire(state, b)


# --------------------------------------------------------------------------- moves


def move_from_wire(msg: game_pb2.Move, field: str = "move") -> Move:
    """The domain move of a wire move (listed moves come back as their interned values)."""
    if not msg.HasField("burraco"):
        raise InvalidArgument(field, "a Burraco move is needed (move.burraco)")
    m = msg.burraco
    action = m.WhichOneof("action")
    f = f"{field}.burraco."
    if action == "draw":
        return DRAW
    if action == "pick_up":
        return PICK_UP
    if action == "discard":
        c = m.discard.card
        if c not in _CARDS:
            raise InvalidArgument(f + "discard.card", f"card {c} is not in the Burraco deck")
        return DISCARDS[c]
    if action == "meld":
        cards = tuple(sorted(_cards(m.meld.cards, f + "meld.cards", InvalidArgument)))
        kind = m.meld.kind
        if kind not in (0, 1, 2):
            raise InvalidArgument(f + "meld.kind", f"unknown meld kind {kind}")
        if kind == 0 and len(cards) == 3:
            listed = MELDS_BY_KEY.get(cards[0] << 12 | cards[1] << 6 | cards[2])
            if listed is not None:
                return listed
        return make_meld(cards, Kind(kind) if kind else None)
    if action == "lay_off":
        cards = _cards(m.lay_off.cards, f + "lay_off.cards", InvalidArgument)
        return lay_off(m.lay_off.meld_id, cards)
    raise InvalidArgument(f.rstrip("."), "the move names no action")


def move_to_wire(move: Move, out: game_pb2.Move) -> None:
    m = out.burraco
    if isinstance(move, Discard):
        m.discard.card = _CardV(move.card)
    elif isinstance(move, Draw):
        m.draw.SetInParent()
    elif isinstance(move, PickUp):
        m.pick_up.SetInParent()
    elif isinstance(move, OpenMeld):
        m.meld.cards.extend(_wire(move.cards))
        if move.kind is not None:
            m.meld.kind = _KindV(move.kind)
    else:
        assert isinstance(move, LayOff)
        m.lay_off.meld_id = move.meld_id
        m.lay_off.cards.extend(_wire(move.cards))


#: A move as one entry of a repeated ``Move`` field (memoised), and a list of them.
move_bytes = entry_encoder(game_pb2.Move, move_to_wire)


def moves_bytes(moves: Sequence[Move], field_number: int) -> bytes:
    # A def here, not a shared closure: the comprehension over a global is the
    # faster by a few per cent, and this is every LegalMoves reply.
    return b"".join([move_bytes(m, field_number) for m in moves])


# --------------------------------------------------------------------------- events


def _hand_to_wire(hand: tuple[int, ...], out: burraco_pb2.BurracoHand) -> None:
    out.cards.extend(_wire(hand))


def _hand_from_wire(msg: burraco_pb2.BurracoHand) -> tuple[int, ...]:
    return tuple(msg.cards)


def _meld_kind(value: int, field: str) -> Kind:
    if value not in (1, 2):
        raise InvalidState(field, "a meld is a combination or a sequence")
    return Kind(value)


_EVENTS: Final = EventTable(
    burraco_pb2.BurracoEvent,
    (ev.Event,),
    {
        (ev.MeldOpened, "kind"): Via(from_wire=_meld_kind),
        (ev.HandEnded, "closer"): Via(absent=NO_SEAT),
        (ev.HandEnded, "hands"): Via(_hand_to_wire, _hand_from_wire),
        (ev.HandScored, "scores"): Via(_score_to_wire, _score_from_wire),
    },
)


def event_to_wire(event: ev.Event, out: game_pb2.Event) -> None:
    _EVENTS.to_wire(event, out.burraco)


# Events are NamedTuples, and equal tuples of different kinds (Drew(1), Closed(1)) compare
# equal: the caches of their encodings are typed, so each kind has its own entries.
_event_bytes = entry_encoder(game_pb2.Event, event_to_wire, typed=True)


def events_bytes(events: Sequence[ev.Event], field_number: int) -> bytes:
    """Events as entries of a repeated ``Event`` field; most recur, so each is memoised."""
    return b"".join([_event_bytes(e, field_number) for e in events])


#: A history entry of a state or a view: the history grows by an event or two a move
#: and every state and view re-sends all of it.
_history_entry = field_entry_encoder(
    burraco_pb2.BurracoEvent, _EVENTS.to_wire, _HISTORY_FIELD, typed=True
)
_view_history_entry = field_entry_encoder(
    burraco_pb2.BurracoEvent, _EVENTS.to_wire, _VIEW_HISTORY, typed=True
)


def event_from_wire(m: burraco_pb2.BurracoEvent, field: str) -> ev.Event:
    """A history entry of a state; only its form is checked (the rules never read it)."""
    return _EVENTS.from_wire(m, field)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- view and score


def _meld_view_to_wire(meld: MeldView, out: burraco_pb2.BurracoMeldView) -> None:
    out.id = meld.id
    out.seat = meld.seat
    out.side.extend(meld.side)
    out.kind = _KindV(meld.kind)
    out.cards.extend(_wire(meld.cards))
    if meld.wild:
        out.wild = _CardV(meld.wild)
    out.wild_position = meld.wild_position
    out.ace_high = meld.ace_high
    out.low, out.high = meld.low, meld.high
    if meld.kind is Kind.COMBINATION:
        out.rank = RANKS[meld.rank_or_suit]
    else:
        out.suit = _SuitV(meld.rank_or_suit + 1)
    if meld.burraco is not Burraco.NONE:
        out.burraco = _BurracoV(meld.burraco)


# A meld changes only when cards are laid off on it: most views re-send the same ones.
_meld_view_entry = field_entry_encoder(burraco_pb2.BurracoMeldView, _meld_view_to_wire, _VIEW_MELDS)


def view_to_wire(view: View, out: game_pb2.GameView) -> None:
    envelope(out, "burraco", view.players, view.to_act, view.stage is Stage.OVER, view.totals)
    out.seat = view.seat
    b = out.burraco
    b.table.MergeFromString(_table_bytes(view.table))
    b.stage = _StageV(view.stage)
    b.hand.extend(_wire(view.hand))
    b.hand_hidden = view.hand_hidden
    b.hand_sizes.extend(view.hand_sizes)
    b.side.extend(view.side)
    b.MergeFromString(b"".join([_meld_view_entry(m) for m in view.melds]))
    b.discard_pile.extend(_wire(view.pile))
    b.stock_size = view.stock_size
    for p in view.pozzetti:
        pv = b.pozzetti.add(size=p.size, locked=p.locked)
        if p.taker != NO_SEAT:
            pv.taken_by = p.taker
    _turn_to_wire(view, b)
    for score in view.public_scores:
        b.public_scores.add(seats=score.seats, melded=score.melded, bonuses=score.bonuses)
    b.MergeFromString(b"".join([_view_history_entry(e) for e in view.history]))


def side_score_to_wire(detail: BurracoSideScore, out: burraco_pb2.BurracoSideScore) -> None:
    _score_to_wire(detail.current_hand, out.current_hand)
    out.current_credit = detail.current_credit
    if detail.last_hand is not None:
        _score_to_wire(detail.last_hand, out.last_hand)
    if detail.last_credit is not None:
        out.last_credit = detail.last_credit


#: The longest history a view may carry: a hand has at most about 1,120 moves (see
#: ``determinize.moves_bound`` from a deal), and a move causes two events or so.
MAX_HISTORY: Final = 4096
#: Every meld holds 3 cards or more.
MAX_MELDS: Final = 108 // 3
_SUIT_OF: Final = {int(s): s - 1 for s in range(1, 5)}


def view_from_wire(msg: game_pb2.GameView, field: str = "view") -> View:
    """A view as a client sends it (Determinize, Simulate), checked as far as a view
    alone allows: every list within what the rules allow, every card of the deck and at
    most as many times as the deck holds it, seats in range, counts that add up to the
    deck. Whether a deal of the hidden cards gives this view is the sampler's to say."""
    b: burraco_pb2.BurracoView = detail_of(msg, "burraco", field, InvalidArgument)
    f = field + ".burraco."
    n = msg.players
    if n not in (2, 3, 4):
        raise InvalidArgument(field + ".players", f"Burraco is for 2, 3 or 4 players, not {n}")

    def seat(value: int, where: str) -> int:
        if not 0 <= value < n:
            raise InvalidArgument(where, f"seat {value} is out of range 0..{n - 1}")
        return value

    def cards(values: Sequence[int], where: str, most: int = 108) -> tuple[int, ...]:
        if len(values) > most:
            raise InvalidArgument(where, f"at most {most} cards")
        return _cards(values, where, InvalidArgument)

    viewer = seat(msg.seat, field + ".seat")
    finished = field + ".finished"
    stage = phase_of(
        _STAGES, b.stage, Stage.OVER, msg.finished, f + "stage", finished, InvalidArgument
    )
    to_act = seat(msg.to_act, field + ".to_act")
    sides = 2 if n == 4 else n
    if len(msg.match_score) != sides:
        raise InvalidArgument(field + ".match_score", f"match_score needs {sides} totals")
    table = _view_table(b.table, tuple(msg.match_score), n, f + "table")
    hand = tuple(sorted(cards(b.hand, f + "hand")))
    if b.hand_hidden and hand:
        raise InvalidArgument(f + "hand", "a hidden hand shows no card")
    if len(b.hand_sizes) != n:
        raise InvalidArgument(f + "hand_sizes", f"one hand size per seat: {n}")
    for i, size in enumerate(b.hand_sizes):
        if size > 108:
            raise InvalidArgument(f"{f}hand_sizes[{i}]", "more cards than the deck")
    if not b.hand_hidden and len(hand) != b.hand_sizes[viewer]:
        raise InvalidArgument(f"{f}hand_sizes[{viewer}]", "the viewer's hand has another size")
    if len(b.side) > n:
        raise InvalidArgument(f + "side", f"at most {n} seats")
    side = tuple(seat(s, f"{f}side[{i}]") for i, s in enumerate(b.side))
    if len(b.melds) > MAX_MELDS:
        raise InvalidArgument(f + "melds", f"at most {MAX_MELDS} melds")
    melds = tuple(_meld_view_from_wire(m, f"{f}melds[{i}]", n) for i, m in enumerate(b.melds))
    pile = cards(b.discard_pile, f + "discard_pile")
    if b.stock_size > 108:
        raise InvalidArgument(f + "stock_size", "more cards than the deck")
    count = 3 if table.three_pozzetti else 2
    if len(b.pozzetti) != count:
        raise InvalidArgument(f + "pozzetti", f"this hand has {count} pozzetti")
    pozzetti = []
    for i, p in enumerate(b.pozzetti):
        where = f"{f}pozzetti[{i}]"
        if p.size > 18:
            raise InvalidArgument(where + ".size", "a pozzetto holds at most 18 cards")
        taker = seat(p.taken_by, where + ".taken_by") if p.HasField("taken_by") else NO_SEAT
        if p.locked and taker == NO_SEAT:
            raise InvalidArgument(where + ".locked", "only a taken pozzetto is locked")
        pozzetti.append(PozzettoView(p.size, taker, p.locked))
    forbidden = _card_or_none(b.forbidden_discard, f + "forbidden_discard", InvalidArgument)
    if b.pickup_turns > PICK_UP_TURNS_PER_SEAT * n:
        raise InvalidArgument(f + "pickup_turns", f"at most {PICK_UP_TURNS_PER_SEAT * n}")
    solo = seat(b.solo_seat, f + "solo_seat") if b.HasField("solo_seat") else NO_SEAT
    if len(b.public_scores) > n:
        raise InvalidArgument(f + "public_scores", f"at most {n} sides")
    scores = tuple(
        PublicScore(
            tuple(seat(s, f"{f}public_scores[{i}].seats[{k}]") for k, s in enumerate(p.seats)),
            p.melded,
            p.bonuses,
        )
        for i, p in enumerate(b.public_scores)
    )
    if len(b.history) > MAX_HISTORY:
        raise InvalidArgument(f + "history", f"at most {MAX_HISTORY} events")
    history = tuple(_view_event(e, f"{f}history[{i}]", n) for i, e in enumerate(b.history))
    # Every card at most as often as the deck holds it; the places add up to the deck.
    shown = Counter(hand)
    shown.update(pile)
    for m in melds:
        shown.update(m.cards)
    for c, times in shown.items():
        if times > COPIES[c]:
            raise InvalidArgument(
                f + "discard_pile", f"{code(c)} is shown {times} times; the deck has {COPIES[c]}"
            )
    total = (
        sum(b.hand_sizes)
        + sum(len(m.cards) for m in melds)
        + len(pile)
        + b.stock_size
        + sum(p.size for p in pozzetti)
    )
    if total != len(DECK):
        raise InvalidArgument(
            f + "stock_size", f"hands, melds, pile, stock and pozzetti hold {total} cards, not 108"
        )
    return View(
        seat=viewer,
        players=n,
        stage=stage,
        to_act=to_act,
        hand=hand,
        hand_hidden=b.hand_hidden,
        hand_sizes=tuple(b.hand_sizes),
        side=side,
        melds=melds,
        pile=pile,
        stock_size=b.stock_size,
        pozzetti=tuple(pozzetti),
        forbidden=forbidden,
        last_turn=b.last_turn,
        pickups=b.pickup_turns,
        solo=solo,
        table=table,
        public_scores=scores,
        history=history,
    )


def _view_table(
    t: burraco_pb2.BurracoTable, totals: tuple[int, ...], players: int, field: str
) -> Table:
    """A view's table (generator zeroed), with the checks of a state's table."""
    data = t.SerializeToString()
    table = memo_for(_table_from_bytes, data)(data, 0, 0, totals, players)
    try:
        check_table(table._replace(counter=1))
    except InvalidState as e:
        where = e.field
        if where.startswith(T):
            where = field + "." + where.removeprefix(T)
        elif where == "state.match_score":
            where = field.removesuffix("burraco.table") + "match_score"
        raise InvalidArgument(where, e.reason) from None
    return table


def _meld_view_from_wire(m: burraco_pb2.BurracoMeldView, field: str, players: int) -> MeldView:
    if not 0 <= m.seat < players:
        raise InvalidArgument(field + ".seat", f"seat {m.seat} is out of range")
    if len(m.side) > players or any(not 0 <= s < players for s in m.side):
        raise InvalidArgument(field + ".side", "seats out of range")
    if m.kind not in (1, 2):
        raise InvalidArgument(field + ".kind", "a meld is a combination or a sequence")
    kind = Kind(m.kind)
    if not 3 <= len(m.cards) <= 14:
        raise InvalidArgument(field + ".cards", "a meld has 3 to 14 cards")
    cards = _cards(m.cards, field + ".cards", InvalidArgument)
    sig = signature(cards)
    if isinstance(sig, str) or isinstance(interpret(sig), str):
        why = sig if isinstance(sig, str) else str(interpret(sig))
        raise InvalidArgument(field + ".cards", why)
    _card_or_none(m.wild, field + ".wild", InvalidArgument)
    if kind is Kind.COMBINATION:
        if m.rank not in RANKS:
            raise InvalidArgument(field + ".rank", f"unknown rank {m.rank!r}")
        rank_or_suit = RANKS.index(m.rank)
    else:
        if m.suit not in _SUIT_OF:
            raise InvalidArgument(field + ".suit", f"unknown suit {m.suit}")
        rank_or_suit = _SUIT_OF[m.suit]
    if m.burraco not in (0, 1, 2, 3):
        raise InvalidArgument(field + ".burraco", f"unknown burraco kind {m.burraco}")
    return MeldView(
        id=m.id,
        seat=m.seat,
        side=tuple(m.side),
        kind=kind,
        cards=cards,
        wild=m.wild,
        wild_position=m.wild_position,
        ace_high=m.ace_high,
        low=m.low,
        high=m.high,
        rank_or_suit=rank_or_suit,
        burraco=Burraco(m.burraco),
    )


def _view_event(m: burraco_pb2.BurracoEvent, field: str, players: int) -> ev.Event:
    """A history event of a view: its form, its seats and its cards checked."""
    try:
        event = event_from_wire(m, field)
    except InvalidState as e:
        raise InvalidArgument(e.field, e.reason) from None
    kind = m.WhichOneof("event")
    for name in ("seat", "solo", "dealer"):
        value = getattr(event, name, None)
        if value is not None and not 0 <= value < players:
            raise InvalidArgument(f"{field}.{kind}.{name}", f"seat {value} is out of range")
    for name in ("cards", "card", "up_card"):
        value = getattr(event, name, None)
        if value is None:
            continue
        values = value if isinstance(value, tuple) else (value,)
        if len(values) > 108:
            raise InvalidArgument(f"{field}.{kind}.{name}", "more cards than the deck")
        _cards(values, f"{field}.{kind}.{name}", InvalidArgument)
    if isinstance(event, ev.HandEnded):
        if len(event.hands) > players:
            raise InvalidArgument(f"{field}.hand_ended.hands", f"at most {players} hands")
        for i, h in enumerate(event.hands):
            _cards(h, f"{field}.hand_ended.hands[{i}].cards", InvalidArgument)
    return event
