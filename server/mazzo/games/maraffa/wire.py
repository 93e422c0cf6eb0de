"""Maraffa domain values <-> wire messages. The only Maraffa code that sees protobuf.

Cards keep their ids on the wire (the ``Card`` enum uses the same numbering) and
signals their numbers, so most fields pass straight through. What comes in is
checked here only as far as the wire allows (enum ranges, cards of the pack); the
rules' invariants are checked by ``games.maraffa.validate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from google.protobuf.message import Message

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
from mazzo.codec.events import EventTable, Record, Via, one_up
from mazzo.codec.options import OptionsCodec
from mazzo.codec.wire import (
    LENGTH_DELIMITED,
    entry,
    entry_encoder,
    field_entry_encoder,
    varint,
)
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.maraffa import events as ev
from mazzo.games.maraffa.cards import BIT, IN_DECK, cards_of
from mazzo.games.maraffa.determinize import check_view
from mazzo.games.maraffa.game import MaraffaSideScore
from mazzo.games.maraffa.moves import (
    BIDS,
    CALLS,
    CLAIM,
    PASS,
    PLAYS,
    REDEAL,
    TRUMPS,
    Bid,
    CallTrump,
    DeclareTrump,
    Move,
    PlayCard,
    Signal,
)
from mazzo.games.maraffa.options import DECK39_ONLY, MARAFFA_ONLY, TRIONFO_ONLY, Options, seats_for
from mazzo.games.maraffa.rules import check_options
from mazzo.games.maraffa.scoring import tally, tricks_per_hand
from mazzo.games.maraffa.state import (
    NO_SEAT,
    NO_SUIT,
    ClaimResult,
    HandScore,
    Phase,
    State,
    Table,
    Trick,
)
from mazzo.games.maraffa.trionfo import events as tev
from mazzo.games.maraffa.trionfo.state import DealScore
from mazzo.games.maraffa.trionfo.view import TrionfoView
from mazzo.games.maraffa.validate import hand_mask
from mazzo.games.maraffa.view import View
from mazzo.v1 import cards_pb2, game_pb2, maraffa_pb2

P = "state.maraffa."
T = P + "table."
_new = tuple.__new__

# Card ids, suits + 1, signal and phase numbers are the wire enums' numbers, so the
# codec passes them through; these name the wire types for the type checker.
_CardV = cards_pb2.Card.ValueType
_SuitV = cards_pb2.Suit.ValueType
_SignalV = maraffa_pb2.MaraffaSignal.ValueType
_PhaseV = maraffa_pb2.MaraffaPhase.ValueType


_wire = as_wire


#: The key byte of MaraffaHand.cards as a packed field (field 1, length-delimited).
_PACKED_CARDS: Final = 1 << 3 | 2
_IN_DECK_BYTES: Final = frozenset(IN_DECK)
_SIGNALS: Final = frozenset(int(s) for s in Signal)
_PHASES: Final = {int(p): p for p in Phase}


# --------------------------------------------------------------------------- options


def _card_option(value: int, default: int, field: str) -> int:
    """A card-valued option: unset means its default; a card outside the pack is refused."""
    if value == 0:
        return default
    return _card(value, field, InvalidArgument)


_OPTIONS: Final = OptionsCodec(
    Options,
    maraffa_pb2.MaraffaOptions,
    {"removed_four": _card_option, "trionfo_first_speaker_card": _card_option},
)
_options_from_message = _OPTIONS.from_message


def options_from_wire(msg: maraffa_pb2.MaraffaOptions, field: str = "options.maraffa") -> Options:
    """Resolve wire options: unset fields take their defaults (maraffa.md §5)."""
    return _OPTIONS.from_wire(msg, field)  # type: ignore[no-any-return]


def options_to_wire(options: Options, out: maraffa_pb2.MaraffaOptions) -> None:
    """Every option written explicitly, those of every form (ListGames' defaults)."""
    _OPTIONS.to_wire(options, out)


#: Which options a state writes: those of its form, every one filled in, so a state
#: says which rules it plays by (and a four-player state is what it always was).
CLASSIC, DECK39, TRIONFO, ALL_FORMS = range(4)
_THREE_ONLY: Final = ("three_player_form", *DECK39_ONLY)
_STOCK_ONLY: Final = ("two_player_must_follow", "dummy_seat")  # the 39-card form has neither
_FORM_BYTES: Final = {
    CLASSIC: _OPTIONS.encoder((*(n for n in MARAFFA_ONLY if n not in _THREE_ONLY), "first_dealer")),
    DECK39: _OPTIONS.encoder((*(n for n in MARAFFA_ONLY if n not in _STOCK_ONLY), "first_dealer")),
    TRIONFO: _OPTIONS.encoder((*TRIONFO_ONLY, "first_dealer")),
    ALL_FORMS: _OPTIONS.to_bytes,
}


def form_of(options: Options, players: int) -> int:
    if players == 5:
        return TRIONFO
    return DECK39 if players == 3 and options.deck39 else CLASSIC


def fill_options(options: Options, out: maraffa_pb2.MaraffaOptions, form: int) -> None:
    """Write the options of ``form`` (CLASSIC, DECK39, TRIONFO or ALL_FORMS) into ``out``."""
    out.MergeFromString(_FORM_BYTES[form](options))


# --------------------------------------------------------------------------- state


_cards = members_checker(IN_DECK, "card {} is not in the Maraffa pack")
_card = member_checker(IN_DECK, "card {} is not in the Maraffa pack")
#: A card field where 0 is "no card" (Trionfo's called card).
card_or_none = member_checker(IN_DECK | {0}, "card {} is not in the Maraffa pack")
_signals = members_checker(_SIGNALS, "unknown signal {}")


_SCORE: Final = Record(HandScore, maraffa_pb2.MaraffaHandScore.DESCRIPTOR)
_CLAIM: Final = Record(ClaimResult, maraffa_pb2.MaraffaClaimResult.DESCRIPTOR)
_score = _SCORE.from_wire
_score_to_wire = _SCORE.to_wire
_claim_to_wire = _CLAIM.to_wire


def state_from_wire(msg: game_pb2.GameState) -> State:
    """The domain state of a wire state, before validation (see ``validate``)."""
    # Inline, not codec.detail_of and phase_of: this is every request's decoder, and
    # the two calls cost it 2-3% (measured).
    if not msg.HasField("maraffa"):
        raise InvalidState("state.maraffa", "a Maraffa state needs its maraffa detail")
    m = msg.maraffa
    players = msg.players
    if players not in (2, 3, 4):
        raise InvalidState(
            "state.players", f"this decoder is for 2, 3 or 4 players, not {players} (5: Trionfo)"
        )
    if m.HasField("trionfo"):
        raise InvalidState(P + "trionfo", "the trionfo detail is for five players only")
    phase = _PHASES.get(m.phase)
    if phase is None:
        raise InvalidState(P + "phase", f"unknown phase {m.phase}")
    if msg.finished != (phase is Phase.OVER):
        raise InvalidState("state.finished", "finished must be true exactly in phase OVER")
    trump = m.trump
    if not 0 <= trump <= 4:
        raise InvalidState(P + "trump", f"unknown suit {trump}")
    rng = m.rng
    data = m.table.SerializeToString()
    table = memo_for(_table_from_bytes, data)(
        data, rng.seed, rng.counter, tuple(msg.match_score), players
    )
    played = _cards(m.played, P + "played")
    signals = _signals(m.signals, P + "signals")
    if len(signals) < len(played):
        # Trailing plays without a signal may be left out; keep the lists parallel.
        signals += (0,) * (len(played) - len(signals))
    state: State = _new(
        State,
        (
            table,
            phase,
            msg.to_act,
            trump - 1 if trump else NO_SUIT,
            tuple([_hand(h, i) for i, h in enumerate(m.hands)]),
            played,
            signals,
            _cards(m.stock, P + "stock"),
            _cards(m.drawn, P + "drawn"),
            m.marafona_seat if m.HasField("marafona_seat") else NO_SEAT,
            (),
        ),
    )
    # The tricks' tally (State.won) is not on the wire: it follows from the plays.
    return _new(State, (*state[:-1], tally(state)))


def _hand(msg: maraffa_pb2.MaraffaHand, seat: int) -> int:
    """A hand's mask. Fast path: a packed field of one-byte varints is exactly the card
    ids, which is what every valid hand serialises to; anything else (an empty hand,
    a foreign or repeated card) takes the checked path, which names the fault."""
    data = msg.SerializeToString()
    if len(data) > 2 and data[0] == _PACKED_CARDS and data[1] == len(data) - 2:
        cards = data[2:]
        if _IN_DECK_BYTES.issuperset(cards):
            mask = sum(map(BIT.__getitem__, cards))
            if mask.bit_count() == len(cards):
                return mask
    return hand_mask(msg.cards, f"{P}hands[{seat}].cards")


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_from_bytes(
    data: bytes, seed: int, counter: int, totals: tuple[int, ...], players: int
) -> Table:
    """Match-level fields change at most once a hand: decoding them is memoised."""
    t = maraffa_pb2.MaraffaTable.FromString(data)
    options = _options_from_message(t.options, T + "options")
    return _table_of(t, options, players, seed, counter, totals)


def _table_of(
    t: maraffa_pb2.MaraffaTable,
    options: Options,
    players: int,
    seed: int,
    counter: int,
    totals: tuple[int, ...],
) -> Table:
    """The table of a state or a view (whose generator is zeroed), its options decoded."""
    return Table(
        options=options,
        players=players,
        seats=seats_for(options, players),
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        battezzante=t.battezzante,
        hand_number=t.hand_number,
        game_number=t.game_number,
        games_won=tuple(t.games_won),
        totals=totals,
        effective_target=t.effective_target,
        redeal_requests=tuple(t.redeal_requests),
        last_hand=tuple(_score(s) for s in t.last_hand_scores),
        last_claim=_CLAIM.from_wire(t.last_claim) if t.HasField("last_claim") else None,
    )


def _trick_to_wire(trick: Trick, out: maraffa_pb2.MaraffaTrick, completed: bool) -> None:
    out.leader = trick.leader
    out.cards.extend(_wire(trick.cards))
    if any(trick.signals):
        out.signals.extend(_wire(trick.signals))
    if completed:
        out.winner = trick.winner


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_bytes(table: Table) -> bytes:
    """The wire ``MaraffaTable`` of a table, memoised like its decoding."""
    t = maraffa_pb2.MaraffaTable()
    fill_options(table.options, t.options, form_of(table.options, table.players))
    t.dealer = table.dealer
    t.battezzante = table.battezzante
    t.hand_number = table.hand_number
    t.game_number = table.game_number
    t.games_won.extend(table.games_won)
    t.effective_target = table.effective_target
    t.redeal_requests.extend(table.redeal_requests)
    for score in table.last_hand:
        _score_to_wire(score, t.last_hand_scores.add())
    if table.last_claim is not None:
        _claim_to_wire(table.last_claim, t.last_claim)
    return t.SerializeToString()


def _hands_bytes(hands: tuple[int, ...]) -> bytes:
    """The ``hands`` entries of a ``MaraffaState`` (repeated field bytes).

    Each hand is memoised on its own: a move changes one hand, so a played-forward
    state re-encodes one hand, not all of them.
    """
    return b"".join([_hand_entry(hand) for hand in hands])


@lru_cache(maxsize=MEMO_ENTRIES)
def _hand_entry(hand: int) -> bytes:
    msg = maraffa_pb2.MaraffaHand()
    msg.cards.extend(_wire(cards_of(hand)))
    return entry(_HANDS, msg.SerializeToString())


_HANDS: Final = maraffa_pb2.MaraffaState.DESCRIPTOR.fields_by_name["hands"].number


def state_to_wire(state: State, to_act: int, out: game_pb2.GameState) -> None:
    """Fill a ``GameState`` (envelope and detail) from a domain state."""
    out.MergeFromString(state_bytes(state, to_act))


def state_bytes(state: State, to_act: int) -> bytes:
    """The serialised ``GameState`` of a domain state, exactly as protobuf writes it.

    This encoding is on the path of every move, and a played-forward state differs
    from the last by one hand and a card or two, so it is written from memoised
    pieces and one-byte card ids rather than field by field through protobuf. The
    bytes are protobuf's own canonical encoding (fields in number order, cards
    packed), which tests/maraffa/test_state_bytes.py checks against protobuf; a
    client that parses and re-serialises the state therefore sends back these very
    bytes, which is what the service's state memo looks up.
    """
    table = state.table
    phase = state.phase
    detail = b"".join(
        (
            _table_entry(table),
            _rng_entry(table.seed, table.counter),
            _PHASE[phase],
            _TRUMP[state.trump],
            _hands_bytes(state.hands),
            _packed(_PLAYED, state.played),
            _packed(_SIGNALS_KEY, state.signals) if any(state.signals) else b"",
            _packed(_STOCK, state.stock),
            _packed(_DRAWN, state.drawn),
            b"" if state.marafona_seat == NO_SEAT else _MARAFONA + varint(state.marafona_seat),
        )
    )
    return b"".join(
        (
            _ENVELOPE[table.players],
            _TO_ACT + varint(to_act) if to_act else b"",
            _FINISHED if phase is Phase.OVER else b"",
            _match_score(table.totals),
            _DETAIL + varint(len(detail)),
            detail,
        )
    )


def _key(message: type[Message], field: str, wire_type: int = LENGTH_DELIMITED) -> bytes:
    return varint(message.DESCRIPTOR.fields_by_name[field].number << 3 | wire_type)


_VARINT: Final = 0
_ENVELOPE: Final = {
    players: game_pb2.GameState(game="maraffa", players=players).SerializeToString()
    for players in (2, 3, 4)
}
_TO_ACT: Final = _key(game_pb2.GameState, "to_act", _VARINT)
_FINISHED: Final = game_pb2.GameState(finished=True).SerializeToString()
_DETAIL: Final = _key(game_pb2.GameState, "maraffa")
_PHASE: Final = {
    phase: maraffa_pb2.MaraffaState(phase=_PhaseV(phase)).SerializeToString() for phase in Phase
}
_TRUMP: Final = {
    suit: maraffa_pb2.MaraffaState(trump=_SuitV(suit + 1)).SerializeToString() for suit in range(4)
} | {NO_SUIT: b""}
_PLAYED: Final = _key(maraffa_pb2.MaraffaState, "played")
_SIGNALS_KEY: Final = _key(maraffa_pb2.MaraffaState, "signals")
_STOCK: Final = _key(maraffa_pb2.MaraffaState, "stock")
_DRAWN: Final = _key(maraffa_pb2.MaraffaState, "drawn")
_MARAFONA: Final = _key(maraffa_pb2.MaraffaState, "marafona_seat", _VARINT)
_TABLE: Final = maraffa_pb2.MaraffaState.DESCRIPTOR.fields_by_name["table"].number
_RNG: Final = maraffa_pb2.MaraffaState.DESCRIPTOR.fields_by_name["rng"].number


def _packed(key: bytes, values: tuple[int, ...]) -> bytes:
    """A packed repeated enum field of card ids or signals: every value is below 128,
    so each is one varint byte, the value itself."""
    if not values:
        return b""
    return key + varint(len(values)) + bytes(values)


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_entry(table: Table) -> bytes:
    return entry(_TABLE, _table_bytes(table))


@lru_cache(maxsize=TABLE_ENTRIES)
def _rng_entry(seed: int, counter: int) -> bytes:
    return entry(_RNG, maraffa_pb2.MaraffaRng(seed=seed, counter=counter).SerializeToString())


@lru_cache(maxsize=TABLE_ENTRIES)
def _match_score(totals: tuple[int, ...]) -> bytes:
    return game_pb2.GameState(match_score=totals).SerializeToString()


# --------------------------------------------------------------------------- moves


def move_from_wire(msg: game_pb2.Move, field: str = "move") -> Move:
    """The interned domain move of a wire move."""
    if not msg.HasField("maraffa"):
        raise InvalidArgument(field, "a Maraffa move is needed (move.maraffa)")
    m = msg.maraffa
    action = m.WhichOneof("action")
    if action == "play_card":
        play = m.play_card
        if play.card not in IN_DECK:
            raise InvalidArgument(
                f"{field}.maraffa.play_card.card", f"card {play.card} is not in the Maraffa pack"
            )
        if play.signal not in _SIGNALS:
            raise InvalidArgument(
                f"{field}.maraffa.play_card.signal", f"unknown signal {play.signal}"
            )
        return PLAYS[play.card][play.signal][play.declare_marafona]
    if action == "declare_trump":
        suit = m.declare_trump.suit
        if not 1 <= suit <= 4:
            raise InvalidArgument(f"{field}.maraffa.declare_trump.suit", f"unknown suit {suit}")
        called = m.declare_trump.called_card
        if not called:
            return TRUMPS[suit - 1]
        call = CALLS[suit - 1][called] if called in IN_DECK else None
        if call is None:
            raise InvalidArgument(
                f"{field}.maraffa.declare_trump.called_card",
                f"card {called} is not in the Maraffa pack",
            )
        return call
    if action == "request_redeal":
        return REDEAL
    if action == "claim":
        return CLAIM
    if action == "bid":
        contract = m.bid.contract
        bid = BIDS[contract] if 1 <= contract < len(BIDS) else None
        if bid is None:
            raise InvalidArgument(f"{field}.maraffa.bid.contract", f"unknown contract {contract}")
        return bid
    if action == "pass_bid":
        return PASS
    raise InvalidArgument(f"{field}.maraffa", "the move names no action")


def move_to_wire(move: Move, out: game_pb2.Move) -> None:
    m = out.maraffa
    if type(move) is PlayCard:
        play = m.play_card
        play.card = _CardV(move.card)
        if move.signal:
            play.signal = _SignalV(move.signal)
        if move.marafona:
            play.declare_marafona = True
    elif move is CLAIM:
        m.claim.SetInParent()
    elif move is PASS:
        m.pass_bid.SetInParent()
    elif type(move) is Bid:
        m.bid.contract = maraffa_pb2.MaraffaContract.ValueType(move.contract)
    elif type(move) is CallTrump:
        m.declare_trump.suit = _SuitV(move.suit + 1)
        m.declare_trump.called_card = _CardV(move.card)
    elif move is REDEAL:
        m.request_redeal.SetInParent()
    else:
        assert isinstance(move, DeclareTrump)
        m.declare_trump.suit = _SuitV(move.suit + 1)


#: A move as one entry of a repeated ``Move`` field (memoised: moves are few), and a
#: list of them: responses that list moves are assembled from these with
#: ``MergeFromString``, which costs a fraction of building each ``Move`` in Python.
move_bytes = entry_encoder(game_pb2.Move, move_to_wire)


def moves_bytes(moves: Sequence[Move], field_number: int) -> bytes:
    return b"".join([move_bytes(m, field_number) for m in moves])


# --------------------------------------------------------------------------- events


AnyEvent = ev.Event | tev.TrionfoEvent


def contract_to_wire(
    deal: DealScore | TrionfoView,
    out: maraffa_pb2.MaraffaTrionfoDeal | maraffa_pb2.MaraffaTrionfoView,
) -> None:
    """A Trionfo deal's contract as a score or a view shows it: what is not known (yet)
    stays unset."""
    if deal.contract:
        out.contract = maraffa_pb2.MaraffaContract.ValueType(deal.contract)
    if deal.declarer != NO_SEAT:
        out.declarer = deal.declarer
    if deal.called_card:
        out.called_card = _CardV(deal.called_card)
    if deal.amico != NO_SEAT:
        out.amico = deal.amico


def deal_to_wire(score: DealScore, out: maraffa_pb2.MaraffaTrionfoDeal) -> None:
    """A Trionfo deal's score; what is None or unset in it stays unset on the wire."""
    out.deal_number = score.deal_number
    contract_to_wire(score, out)
    if score.trump != NO_SUIT:
        out.trump = _SuitV(score.trump + 1)
    if score.signori is not None:
        _score_to_wire(score.signori, out.signori)
    if score.popolo is not None:
        _score_to_wire(score.popolo, out.popolo)
    if score.won is not None:
        out.won = score.won
    out.decided_at = score.decided_at
    out.payments.extend(score.payments)


_EVENTS: Final = EventTable(
    maraffa_pb2.MaraffaEvent,
    (ev.Event, tev.TrionfoEvent),  # CardPlayed and TrickWon are shared
    {
        (ev.TrumpDeclared, "suit"): Via(one_up),
        (ev.HandScored, "scores"): Via(_score_to_wire),
        (ev.Claimed, "result"): Via(_claim_to_wire),
        (tev.ContractDeclared, "suit"): Via(one_up),
        (tev.DealScored, "score"): Via(deal_to_wire),
    },
)


def event_to_wire(event: AnyEvent, out: game_pb2.Event) -> None:
    _EVENTS.to_wire(event, out.maraffa)


# typed: events are NamedTuples, and events of different kinds can be equal as tuples
# (TrumpDeclared(0, 2) == CardDrawn(0, 2)); the key must tell them apart.
_event_bytes = entry_encoder(game_pb2.Event, event_to_wire, typed=True)


def events_bytes(events: Sequence[AnyEvent], field_number: int) -> bytes:
    """Events as entries of a repeated ``Event`` field; most recur, so each is memoised."""
    return b"".join([_event_bytes(e, field_number) for e in events])


# --------------------------------------------------------------------------- view and score


def view_to_wire(view: View, out: game_pb2.GameView) -> None:
    envelope(out, "maraffa", view.players, view.to_act, view.phase is Phase.OVER, view.totals)
    out.seat = view.seat
    m = out.maraffa
    m.table.MergeFromString(_table_bytes(view.table))
    m.phase = _PhaseV(view.phase)
    if view.trump != NO_SUIT:
        m.trump = _SuitV(view.trump + 1)
    m.hand.extend(_wire(view.hand))
    m.hand_hidden = view.hand_hidden
    if view.dummy_seat is not None:
        m.dummy_seat = view.dummy_seat
    m.dummy_hand.extend(_wire(view.dummy_hand))
    m.hand_sizes.extend(view.hand_sizes)
    m.stock_size = view.stock_size
    m.drawn.extend(_wire(view.drawn))
    m.MergeFromString(b"".join([_view_trick_entry(t) for t in view.tricks]))
    _trick_to_wire(view.trick, m.current_trick, completed=False)
    if view.marafona_seat != NO_SEAT:
        m.marafona_seat = view.marafona_seat


_VIEW_TRICKS: Final = maraffa_pb2.MaraffaView.DESCRIPTOR.fields_by_name["tricks"].number


def _completed_trick_to_wire(trick: Trick, out: maraffa_pb2.MaraffaTrick) -> None:
    _trick_to_wire(trick, out, completed=True)


# Every view of a hand re-sends its completed tricks: each is encoded once.
_view_trick_entry = field_entry_encoder(
    maraffa_pb2.MaraffaTrick, _completed_trick_to_wire, _VIEW_TRICKS
)


def side_score_to_wire(detail: MaraffaSideScore, out: maraffa_pb2.MaraffaSideScore) -> None:
    _score_to_wire(detail.current_hand, out.current_hand)
    if detail.last_hand is not None:
        _score_to_wire(detail.last_hand, out.last_hand)
    out.games_won = detail.games_won


# The pieces the five-player codec (maraffa_trionfo.py) shares with this one.
hand_from_wire = _hand
cards_from_wire = _cards
signals_from_wire = _signals
score_from_wire = _score
score_to_wire = _score_to_wire
trick_to_wire = _trick_to_wire
hands_bytes = _hands_bytes
options_from_message = _options_from_message


def view_from_wire(msg: game_pb2.GameView, field: str = "view") -> View:
    """A view as a client sends it (Determinize, Simulate), checked: every card of the
    pack and shown once, every list within what the rules allow, seats in range, and
    the whole view against the rules as far as it is public
    (``determinize.check_view``). Errors name the wire field (``view.maraffa.hand[3]``).
    Hands are sets: their cards come back in canonical order."""
    players = msg.players
    if players not in (2, 3, 4):
        raise InvalidArgument(
            f"{field}.players", f"this decoder is for 2, 3 or 4 players, not {players}"
        )
    m: maraffa_pb2.MaraffaView = detail_of(msg, "maraffa", field, InvalidArgument)
    f = f"{field}.maraffa."
    if m.HasField("trionfo"):
        raise InvalidArgument(f + "trionfo", "the trionfo detail is for five players only")
    table = _view_table(m.table, f + "table", tuple(msg.match_score), players)
    seats = table.seats
    per_hand = tricks_per_hand(seats)
    most = 20 if seats == 2 else per_hand  # cards a hand can hold
    _in_range(msg.seat, seats, f"{field}.seat")
    _in_range(msg.to_act, seats, f"{field}.to_act")
    finished = f"{field}.finished"
    phase = phase_of(
        _PHASES, m.phase, Phase.OVER, msg.finished, f + "phase", finished, InvalidArgument
    )
    if not 0 <= m.trump <= 4:
        raise InvalidArgument(f + "trump", f"unknown suit {m.trump}")
    hand = _view_cards(m.hand, most, f + "hand")
    dummy_hand = _view_cards(m.dummy_hand, most, f + "dummy_hand")
    dummy_seat = None
    if m.HasField("dummy_seat"):
        dummy_seat = m.dummy_seat
        _in_range(dummy_seat, seats, f + "dummy_seat")
    if len(m.hand_sizes) != seats:
        raise InvalidArgument(f + "hand_sizes", f"one size per seat: {seats}")
    for s, size in enumerate(m.hand_sizes):
        if size > most:
            raise InvalidArgument(f"{f}hand_sizes[{s}]", f"a hand holds at most {most} cards")
    if m.stock_size > 20:
        raise InvalidArgument(f + "stock_size", "the stock holds at most 20 cards")
    if len(m.drawn) > 20:
        raise InvalidArgument(f + "drawn", "at most 20 cards are drawn in a hand")
    drawn = _cards(m.drawn, f + "drawn")
    if len(m.tricks) > per_hand:
        raise InvalidArgument(f + "tricks", f"a hand has {per_hand} tricks")
    tricks = tuple(
        _view_trick(t, seats, f"{f}tricks[{k}]", completed=True) for k, t in enumerate(m.tricks)
    )
    trick = _view_trick(m.current_trick, seats, f + "current_trick", completed=False)
    marafona_seat = NO_SEAT
    if m.HasField("marafona_seat"):
        marafona_seat = m.marafona_seat
        _in_range(marafona_seat, seats, f + "marafona_seat")
    view = View(
        seat=msg.seat,
        players=players,
        dummy_seat=dummy_seat,
        hand=hand,
        hand_hidden=m.hand_hidden,
        dummy_hand=dummy_hand,
        hand_sizes=tuple(m.hand_sizes),
        stock_size=m.stock_size,
        drawn=drawn,
        trick=trick,
        tricks=tricks,
        table=table,
        phase=phase,
        trump=m.trump - 1 if m.trump else NO_SUIT,
        to_act=msg.to_act,
        marafona_seat=marafona_seat,
    )
    check_view(view, field)
    return view


def _in_range(value: int, seats: int, field: str) -> None:
    if not 0 <= value < seats:
        raise InvalidArgument(field, f"seat {value} is out of range 0..{seats - 1}")


def _view_cards(cards: Sequence[int], most: int, field: str) -> tuple[int, ...]:
    """A hand shown in a view: at most ``most`` cards of the pack, each once; returned
    in canonical order."""
    if len(cards) > most:
        raise InvalidArgument(field, f"a hand holds at most {most} cards")
    try:
        return cards_of(hand_mask(_cards(cards, field), field))
    except InvalidState as e:
        raise InvalidArgument(e.field, e.reason) from None


def _view_trick(msg: maraffa_pb2.MaraffaTrick, seats: int, field: str, completed: bool) -> Trick:
    _in_range(msg.leader, seats, field + ".leader")
    if len(msg.cards) > seats:
        raise InvalidArgument(field + ".cards", f"a trick has at most {seats} cards")
    cards = _cards(msg.cards, field + ".cards")
    if len(msg.signals) > len(cards):
        raise InvalidArgument(field + ".signals", "at most one signal per card")
    signals = _signals(msg.signals, field + ".signals")
    signals += (0,) * (len(cards) - len(signals))
    if completed:
        _in_range(msg.winner, seats, field + ".winner")
        return Trick(msg.leader, cards, signals, msg.winner)
    if msg.winner:
        raise InvalidArgument(field + ".winner", "the trick being played has no winner yet")
    return Trick(msg.leader, cards, signals, NO_SEAT)


def _view_table(
    msg: maraffa_pb2.MaraffaTable, field: str, totals: tuple[int, ...], players: int
) -> Table:
    """The public match fields of a view (no generator: a view never has it)."""
    options = _options_from_message(msg.options, field + ".options")
    try:
        check_options(options, players)
    except InvalidArgument as e:
        raise InvalidArgument(
            field + ".options." + e.field.removeprefix("options.maraffa."), e.reason
        ) from None
    return _table_of(msg, options, players, 0, 0, totals)
