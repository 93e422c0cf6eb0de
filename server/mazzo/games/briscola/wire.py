"""Briscola domain values <-> wire messages. The only Briscola code that sees protobuf.

Cards keep their ids on the wire (the ``Card`` enum uses the same numbering) and the
phase its number, so most fields pass straight through. What comes in is checked here
only as far as the wire allows (enum ranges, seats that index a list, the hands won
told once); the rules' invariants are ``games.briscola.validate``'s, and a view's are
``determinize.check_view``'s. Encodings of finite or slowly changing things (options,
the table, moves, events, completed tricks) are memoised: building protobuf messages
field by field is slow.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from mazzo.codec import detail_of, envelope
from mazzo.codec.common import (
    MEMO_ENTRIES,
    TABLE_ENTRIES,
    as_wire,
    by_number,
    members_checker,
    memo_for,
    memoised_decoder,
    phase_of,
)
from mazzo.codec.events import EventTable, Record, Via
from mazzo.codec.options import OptionsCodec
from mazzo.codec.wire import entry, entry_encoder, field_entry_encoder, packed
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.briscola import events as ev
from mazzo.games.briscola.cards import IN_DECK, TWOS
from mazzo.games.briscola.determinize import check_view
from mazzo.games.briscola.game import BriscolaSideScore
from mazzo.games.briscola.moves import PLAYS, Move, PlayCard
from mazzo.games.briscola.options import MAX_HANDS_TO_WIN, PLAYER_COUNTS, Options
from mazzo.games.briscola.state import NO_SEAT, NO_SIDE, HandScore, Phase, State, Table, Trick
from mazzo.games.briscola.view import View
from mazzo.v1 import briscola_pb2, game_pb2

GAME: Final = "briscola"
P: Final = "state.briscola."
T: Final = P + "table."
_new = tuple.__new__
_wire = as_wire

_PhaseV = briscola_pb2.BriscolaPhase.ValueType
_PHASES: Final = {int(p): p for p in Phase}
_UNKNOWN: Final = "unknown value {value}"  # as by_number's
_cards = members_checker(IN_DECK, "card {} is not in the Briscola pack")

_S: Final = briscola_pb2.BriscolaState.DESCRIPTOR.fields_by_name
_HANDS, _STOCK, _PLAYED = (_S[n].number for n in ("hands", "stock", "played"))
_VIEW_TRICKS: Final = briscola_pb2.BriscolaView.DESCRIPTOR.fields_by_name["tricks"].number


def _wire_card(c: int) -> Any:
    """A card id as the wire enum value it already is (typing only)."""
    return c


# --------------------------------------------------------------------------- options


#: ``removed_two`` is a ``Card`` on the wire, 0 (unset) meaning its default.
_OPTIONS: Final = OptionsCodec(
    Options,
    briscola_pb2.BriscolaOptions,
    {"removed_two": lambda value, default, field: value or default},
)


def _options_from_message(msg: briscola_pb2.BriscolaOptions, field: str) -> Options:
    """The options by name, then the values no table size allows refused (those of
    another table size are the deal's), in field order. After decoding, not as readers
    of ``OptionsCodec``: ``hands_to_win`` 0 is refused only when sent, and a reader
    sees no presence."""
    options: Options = _OPTIONS.from_message(msg, field)
    if not 1 <= options.hands_to_win <= MAX_HANDS_TO_WIN:
        raise InvalidArgument(
            f"{field}.hands_to_win", f"hands_to_win must be 1..{MAX_HANDS_TO_WIN}"
        )
    if options.removed_two not in TWOS:
        raise InvalidArgument(f"{field}.removed_two", "removed_two must be 2S, 2H, 2D or 2C")
    if options.first_dealer is not None and options.first_dealer >= max(PLAYER_COUNTS):
        raise InvalidArgument(f"{field}.first_dealer", "first_dealer must be a seat")
    return options


#: Memoised on the bytes, as ``OptionsCodec.from_wire``, but of the checked options.
_options_from_wire = memoised_decoder(
    briscola_pb2.BriscolaOptions.FromString, _options_from_message
)


def options_from_wire(
    msg: briscola_pb2.BriscolaOptions, field: str = "options.briscola"
) -> Options:
    """Resolve wire options: unset fields take their defaults (briscola.md §5)."""
    return _options_from_wire(msg, field)


def options_to_wire(options: Options, out: briscola_pb2.BriscolaOptions) -> None:
    """Every option written explicitly, so a state says which rules it plays by."""
    _OPTIONS.to_wire(options, out)


# --------------------------------------------------------------------------- scores


#: ``won`` is a bool on the wire, 1 or 0 in the domain.
_SCORE: Final = Record(
    HandScore,
    briscola_pb2.BriscolaHandScore.DESCRIPTOR,
    {"won": Via(bool, lambda value, field: 1 if value else 0)},
)
_score_from_wire = _SCORE.from_wire
_score_to_wire = _SCORE.to_wire


# --------------------------------------------------------------------------- table


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_from_bytes(
    data: bytes, seed: int, counter: int, players: int, hands_won: tuple[int, ...], field: str
) -> Table:
    """Match-level fields change at most once a hand: decoding them is memoised. The
    hands won are told twice (the table's and ``match_score``): they must agree."""
    t = briscola_pb2.BriscolaTable.FromString(data)
    if tuple(t.hands_won) != hands_won:
        raise InvalidArgument(
            field.removesuffix("briscola.table") + "match_score",
            "match_score is the hands won per side, as the table's hands_won says",
        )
    return Table(
        options=_options_from_message(t.options, field + ".options"),
        players=players,
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        hand_number=t.hand_number,
        hands_won=hands_won,
        last_hand=tuple(_score_from_wire(s) for s in t.last_hand),
    )


def _table_of(
    t: briscola_pb2.BriscolaTable,
    seed: int,
    counter: int,
    players: int,
    hands_won: tuple[int, ...],
    field: str,
) -> Table:
    data = t.SerializeToString()
    return memo_for(_table_from_bytes, data)(data, seed, counter, players, hands_won, field)


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_bytes(table: Table) -> bytes:
    """The wire ``BriscolaTable`` of a table (the generator travels in ``rng``)."""
    t = briscola_pb2.BriscolaTable(dealer=table.dealer, hand_number=table.hand_number)
    t.options.MergeFromString(_OPTIONS.to_bytes(table.options))
    t.hands_won.extend(table.hands_won)
    for score in table.last_hand:
        _score_to_wire(score, t.last_hand.add())
    return t.SerializeToString()


# --------------------------------------------------------------------------- state


def _players(players: int, field: str, error: type[InvalidState] | type[InvalidArgument]) -> int:
    if players not in PLAYER_COUNTS:
        raise error(field, f"Briscola is for 2, 3 or 4 players, not {players}")
    return players


def state_from_wire(msg: game_pb2.GameState) -> State:
    """The domain state of a wire state, before validation (see ``validate``)."""
    # Inline, not codec.detail_of and phase_of: this is every request's decoder (as
    # the other games', where the two calls cost it 2-3%).
    if not msg.HasField("briscola"):
        raise InvalidState("state.briscola", "a Briscola state needs its briscola detail")
    b = msg.briscola
    players = _players(msg.players, "state.players", InvalidState)
    phase = by_number(_PHASES, b.phase, P + "phase")
    over = phase is Phase.OVER
    if msg.finished != over:
        raise InvalidState("state.finished", "finished must be true exactly in phase OVER")
    if not msg.to_act < players or (over and msg.to_act):
        raise InvalidState("state.to_act", f"to_act is a seat 0..{players - 1} (0 once over)")
    try:
        table = _table_of(
            b.table, b.rng.seed, b.rng.counter, players, tuple(msg.match_score), T.rstrip(".")
        )
    except InvalidArgument as e:
        raise InvalidState(e.field, e.reason) from None
    return _new(
        State,
        (
            table,
            phase,
            msg.to_act,
            b.trump_card,
            tuple(tuple(h.cards) for h in b.hands),
            tuple(b.stock),
            tuple(b.played),
        ),
    )


@lru_cache(maxsize=MEMO_ENTRIES)
def _hand_bytes(hand: tuple[int, ...]) -> bytes:
    return entry(_HANDS, packed(1, hand))


def state_to_wire(state: State, to_act: int, out: game_pb2.GameState) -> None:
    """Fill a ``GameState`` (envelope and detail) from a domain state."""
    table = state.table
    # Inline, not codec.envelope: this is every reply's encoder, and the call costs it
    # 0.3-0.6% (measured); the view's (view_to_wire) is the shared one.
    out.game = GAME
    out.players = table.players
    out.finished = state.phase is Phase.OVER
    out.to_act = to_act
    out.match_score.extend(table.hands_won)
    b = out.briscola
    b.table.MergeFromString(_table_bytes(table))
    b.rng.seed = table.seed
    b.rng.counter = table.counter
    b.phase = _PhaseV(state.phase)
    b.trump_card = _wire_card(state.trump_card)
    b.MergeFromString(
        b"".join([_hand_bytes(h) for h in state.hands])
        + packed(_STOCK, state.stock)
        + packed(_PLAYED, state.played)
    )


# --------------------------------------------------------------------------- moves


def move_from_wire(msg: game_pb2.Move, field: str = "move") -> Move:
    """The domain move of a wire move (interned: one per card of the pack)."""
    if not msg.HasField("briscola"):
        raise InvalidArgument(field, "a Briscola move is needed (move.briscola)")
    m = msg.briscola
    if m.WhichOneof("action") != "play_card":
        raise InvalidArgument(f"{field}.briscola", "the move names no action")
    c = m.play_card.card
    move = PLAYS[c] if 0 <= c < len(PLAYS) else None
    if move is None:
        raise InvalidArgument(
            f"{field}.briscola.play_card.card", f"card {c} is not in the Briscola pack"
        )
    return move


def move_to_wire(move: Move, out: game_pb2.Move) -> None:
    assert isinstance(move, PlayCard)
    out.briscola.play_card.card = _wire_card(move.card)


#: A move as one entry of a repeated ``Move`` field (memoised), and a list of them.
move_bytes = entry_encoder(game_pb2.Move, move_to_wire)


def moves_bytes(moves: Sequence[Move], field_number: int) -> bytes:
    # A def here, not a shared closure: the comprehension over a global is the
    # faster by a few per cent, and this is every LegalMoves reply.
    return b"".join([move_bytes(m, field_number) for m in moves])


# --------------------------------------------------------------------------- events


#: Every event travels in the oneof branch of its name but a draw, whose branch is
#: ``card_drawn`` (``_DREW``), not ``drew``: ``ev.Event`` without ``Drew``.
_EVENTS: Final = EventTable(
    briscola_pb2.BriscolaEvent,
    (ev.HandDealt | ev.CardPlayed | ev.TrickWon | ev.TrumpCardTaken | ev.HandScored | ev.MatchWon,),
    {
        (ev.HandScored, "scores"): Via(_score_to_wire, _score_from_wire),
        (ev.HandScored, "winner"): Via(absent=NO_SIDE),
    },
)
_DREW: Final = Record(ev.Drew, briscola_pb2.BriscolaCardDrawn.DESCRIPTOR)


def event_to_wire(event: ev.Event, out: game_pb2.Event) -> None:
    if type(event) is ev.Drew:
        _DREW.to_wire(event, out.briscola.card_drawn)
    else:
        _EVENTS.to_wire(event, out.briscola)


# typed: events are NamedTuples, and Drew(1) == (1,) as any other one-seat tuple.
_event_bytes = entry_encoder(game_pb2.Event, event_to_wire, typed=True)


def events_bytes(events: Sequence[ev.Event], field_number: int) -> bytes:
    """Events as entries of a repeated ``Event`` field; most recur, so each is memoised."""
    return b"".join([_event_bytes(e, field_number) for e in events])


# --------------------------------------------------------------------------- view and score


def _trick_to_wire(trick: Trick, out: briscola_pb2.BriscolaTrick) -> None:
    out.leader = trick.leader
    out.cards.extend(_wire(trick.cards))
    if trick.winner != NO_SEAT:
        out.winner = trick.winner


#: Every view of a hand re-sends its completed tricks: each is encoded once.
_view_trick_entry = field_entry_encoder(briscola_pb2.BriscolaTrick, _trick_to_wire, _VIEW_TRICKS)


def view_to_wire(view: View, out: game_pb2.GameView) -> None:
    over = view.phase is Phase.OVER
    envelope(out, GAME, view.players, 0 if over else view.to_act, over, view.table.hands_won)
    out.seat = view.seat
    b = out.briscola
    b.table.MergeFromString(_table_bytes(view.table))
    b.phase = _PhaseV(view.phase)
    b.trump_card = _wire_card(view.trump_card)
    b.hand.extend(_wire(view.hand))
    b.partner_hand.extend(_wire(view.partner_hand))
    b.hand_sizes.extend(view.hand_sizes)
    b.stock_size = view.stock_size
    if view.trump_card_taker != NO_SEAT:
        b.trump_card_taker = view.trump_card_taker
    b.MergeFromString(b"".join([_view_trick_entry(t) for t in view.tricks]))
    _trick_to_wire(view.trick, b.current_trick)
    b.points.extend(view.points)
    b.tricks_won.extend(view.tricks_won)


def side_score_to_wire(detail: BriscolaSideScore, out: briscola_pb2.BriscolaSideScore) -> None:
    out.points = detail.points
    out.tricks = detail.tricks
    if detail.last_hand is not None:
        _score_to_wire(detail.last_hand, out.last_hand)
    out.hands_won = detail.hands_won


def view_from_wire(msg: game_pb2.GameView, field: str = "view") -> View:
    """A view as a client sends it (Determinize, Simulate), checked: the enums known,
    seats in range, cards of the pack, and then the whole view against the rules as
    far as it is public (``determinize.check_view``: every card shown once, the
    tricks' leaders and winners, the sizes, the trump card's place). Errors name the
    wire field (``view.briscola.tricks[2].winner``)."""
    players = _players(msg.players, f"{field}.players", InvalidArgument)
    b: briscola_pb2.BriscolaView = detail_of(msg, GAME, field, InvalidArgument)
    f = f"{field}.briscola."
    _in_range(msg.seat, players, f"{field}.seat")
    _in_range(msg.to_act, players, f"{field}.to_act")
    finished = f"{field}.finished"
    phase = phase_of(
        _PHASES, b.phase, Phase.OVER, msg.finished, f + "phase", finished, InvalidArgument, _UNKNOWN
    )
    table = _table_of(b.table, 0, 0, players, tuple(msg.match_score), f + "table")
    taker = NO_SEAT
    if b.HasField("trump_card_taker"):
        taker = b.trump_card_taker
        _in_range(taker, players, f + "trump_card_taker")
    view = View(
        seat=msg.seat,
        players=players,
        hand=_cards(b.hand, f + "hand", InvalidArgument),
        partner_hand=_cards(b.partner_hand, f + "partner_hand", InvalidArgument),
        hand_sizes=tuple(b.hand_sizes),
        stock_size=b.stock_size,
        trump_card=b.trump_card,
        trump_card_taker=taker,
        trick=_view_trick(b.current_trick, players, f + "current_trick", completed=False),
        tricks=tuple(
            _view_trick(t, players, f"{f}tricks[{k}]", completed=True)
            for k, t in enumerate(b.tricks)
        ),
        points=tuple(b.points),
        tricks_won=tuple(b.tricks_won),
        table=table,
        phase=phase,
        to_act=msg.to_act,
    )
    try:
        check_view(view)
    except InvalidArgument as e:
        # check_view names the fields of a view sent as ``view``.
        raise InvalidArgument(field + e.field.removeprefix("view"), e.reason) from None
    return view


def _in_range(value: int, players: int, field: str) -> None:
    if not 0 <= value < players:
        raise InvalidArgument(field, f"seat {value} is out of range 0..{players - 1}")


def _view_trick(
    msg: briscola_pb2.BriscolaTrick, players: int, field: str, completed: bool
) -> Trick:
    _in_range(msg.leader, players, field + ".leader")
    cards = _cards(msg.cards, field + ".cards", InvalidArgument)
    if completed:
        if not msg.HasField("winner"):
            raise InvalidArgument(field + ".winner", "a completed trick has its winner")
        _in_range(msg.winner, players, field + ".winner")
        return Trick(msg.leader, cards, msg.winner)
    if msg.HasField("winner"):
        raise InvalidArgument(field + ".winner", "the trick being played has no winner yet")
    return Trick(msg.leader, cards, NO_SEAT)
