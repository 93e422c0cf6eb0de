"""Trionfo (Maraffa for five) states, views and scores <-> wire.

A five-player state is a ``MaraffaState`` whose ``trionfo`` detail holds what the
four-player fields do not: the first speaker, the speeches of the auction, the called
card, the deals counted and the last deal. The shared fields keep their meaning
(hands, played cards and signals, trump, phase, the generator), the table's
``hand_number`` is the deal number, and the fields only the other forms use must be
unset. Moves and events are the shared ``MaraffaMove`` / ``MaraffaEvent`` (codec
``maraffa.py``). As there, decoding checks only what the wire allows; the rules'
invariants are ``trionfo.validate``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from mazzo.codec import detail_of, envelope
from mazzo.codec.common import TABLE_ENTRIES, as_wire, memo_for, phase_of
from mazzo.core.cards import code
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.maraffa.cards import BIT, IN_DECK, cards_of
from mazzo.games.maraffa.moves import Signal
from mazzo.games.maraffa.options import TrionfoAuction
from mazzo.games.maraffa.state import Trick
from mazzo.games.maraffa.trionfo.determinize import MAX_SPEECHES
from mazzo.games.maraffa.trionfo.rules import check_options
from mazzo.games.maraffa.trionfo.scoring import TrionfoSideScore
from mazzo.games.maraffa.trionfo.state import (
    CARDS_EACH,
    NO_CARD,
    NO_SEAT,
    NO_SUIT,
    PASSED,
    TRICKS,
    DealScore,
    TPhase,
    TrionfoState,
    TrionfoTable,
)
from mazzo.games.maraffa.trionfo.view import TrionfoView
from mazzo.games.maraffa.wire import (
    TRIONFO,
    card_or_none,
    cards_from_wire,
    contract_to_wire,
    deal_to_wire,
    fill_options,
    hand_from_wire,
    hands_bytes,
    options_from_message,
    score_from_wire,
    score_to_wire,
    signals_from_wire,
    trick_to_wire,
)
from mazzo.v1 import cards_pb2, game_pb2, maraffa_pb2

P = "state.maraffa."
T = P + "table."
R = P + "trionfo."
SEATS: Final = 5
_new = tuple.__new__
_PHASES: Final = {int(p): p for p in TPhase}
_UNKNOWN: Final = "phase {value} is not one of Trionfo's"
#: Wire speeches: the contract levels 1..4, and this for a pass (domain PASSED = 0).
_SPEECH_PASS: Final = maraffa_pb2.MARAFFA_SPEECH_PASS
_SPEECHES: Final = {1: 1, 2: 2, 3: 3, 4: 4, _SPEECH_PASS: PASSED}
_CardV = cards_pb2.Card.ValueType
_SuitV = cards_pb2.Suit.ValueType
_ContractV = maraffa_pb2.MaraffaContract.ValueType
_SpeechV = maraffa_pb2.MaraffaSpeech.ValueType
_VIEW_SIGNALS: Final = frozenset(int(s) for s in Signal)


_wire = as_wire


# --------------------------------------------------------------------------- state


def _table_not_used(t: maraffa_pb2.MaraffaTable) -> list[tuple[str, int]]:
    """The table's fields of the other forms (a state's and a view's), with whether set."""
    return [
        ("table.battezzante", t.battezzante),
        ("table.game_number", t.game_number),
        ("table.games_won", len(t.games_won)),
        ("table.effective_target", t.effective_target),
        ("table.redeal_requests", len(t.redeal_requests)),
        ("table.last_hand_scores", len(t.last_hand_scores)),
        ("table.last_claim", t.HasField("last_claim")),
    ]


def _not_used(msg: game_pb2.GameState) -> None:
    """The fields of the other forms must be unset: a state has one meaning."""
    m = msg.maraffa
    unused = [
        *_table_not_used(m.table),
        ("stock", len(m.stock)),
        ("drawn", len(m.drawn)),
        ("marafona_seat", m.HasField("marafona_seat")),
    ]
    for name, value in unused:
        if value:
            raise InvalidState(P + name, f"{name} is not used with five players")


def deal_from_wire(msg: maraffa_pb2.MaraffaTrionfoDeal, field: str) -> DealScore:
    if not 0 <= msg.contract <= 4:
        raise InvalidState(field + ".contract", f"unknown contract {msg.contract}")
    if not 0 <= msg.trump <= 4:
        raise InvalidState(field + ".trump", f"unknown suit {msg.trump}")
    if msg.called_card and msg.called_card not in IN_DECK:
        raise InvalidState(field + ".called_card", f"card {msg.called_card} is not in the pack")
    return DealScore(
        deal_number=msg.deal_number,
        contract=msg.contract,
        declarer=msg.declarer if msg.HasField("declarer") else NO_SEAT,
        trump=msg.trump - 1 if msg.trump else NO_SUIT,
        called_card=msg.called_card or NO_CARD,
        amico=msg.amico if msg.HasField("amico") else NO_SEAT,
        signori=score_from_wire(msg.signori) if msg.HasField("signori") else None,
        popolo=score_from_wire(msg.popolo) if msg.HasField("popolo") else None,
        won=msg.won if msg.HasField("won") else None,
        decided_at=msg.decided_at,
        payments=tuple(msg.payments),
    )


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_from_bytes(
    table: bytes,
    last_deal: bytes | None,
    first_speaker: int,
    deals_counted: int,
    seed: int,
    counter: int,
    totals: tuple[int, ...],
) -> TrionfoTable:
    """Match-level fields change once a deal: decoding them is memoised."""
    t = maraffa_pb2.MaraffaTable.FromString(table)
    last = None
    if last_deal is not None:
        last = deal_from_wire(maraffa_pb2.MaraffaTrionfoDeal.FromString(last_deal), R + "last_deal")
    return TrionfoTable(
        options=options_from_message(t.options, T + "options"),
        seed=seed,
        counter=counter,
        dealer=t.dealer,
        first_speaker=first_speaker,
        deal_number=t.hand_number,
        deals_counted=deals_counted,
        totals=totals,
        last_deal=last,
    )


def state_from_wire(msg: game_pb2.GameState) -> TrionfoState:
    """The domain state of a five-player wire state, before validation."""
    # Inline, not codec.detail_of and phase_of: this is every request's decoder, and
    # the two calls cost it 2-3% (measured).
    if not msg.HasField("maraffa"):
        raise InvalidState("state.maraffa", "a Maraffa state needs its maraffa detail")
    m = msg.maraffa
    if not m.HasField("trionfo"):
        raise InvalidState(
            "state.players", "players = 5 is Trionfo, whose state needs state.maraffa.trionfo"
        )
    phase = _PHASES.get(m.phase)
    if phase is None:
        raise InvalidState(P + "phase", f"phase {m.phase} is not one of Trionfo's")
    if msg.finished != (phase is TPhase.OVER):
        raise InvalidState("state.finished", "finished must be true exactly in phase OVER")
    _not_used(msg)
    if not 0 <= m.trump <= 4:
        raise InvalidState(P + "trump", f"unknown suit {m.trump}")
    tr = m.trionfo
    bids = []
    for i, speech in enumerate(tr.auction):
        level = _SPEECHES.get(speech)
        if level is None:
            raise InvalidState(f"{R}auction[{i}]", f"unknown speech {speech}")
        bids.append(level)
    called = tr.called_card
    if called and called not in IN_DECK:
        raise InvalidState(R + "called_card", f"card {called} is not in the Maraffa pack")
    data = m.table.SerializeToString()
    last_deal = tr.last_deal.SerializeToString() if tr.HasField("last_deal") else None
    table = memo_for(_table_from_bytes, data, last_deal)(
        data,
        last_deal,
        tr.first_speaker,
        tr.deals_counted,
        m.rng.seed,
        m.rng.counter,
        tuple(msg.match_score),
    )
    played = cards_from_wire(m.played, P + "played")
    signals = signals_from_wire(m.signals, P + "signals")
    if len(signals) < len(played):
        signals += (0,) * (len(played) - len(signals))
    return _new(
        TrionfoState,
        (
            table,
            phase,
            msg.to_act,
            tuple([hand_from_wire(h, i) for i, h in enumerate(m.hands)]),
            tuple(bids),
            m.trump - 1 if m.trump else NO_SUIT,
            called or NO_CARD,
            played,
            signals,
        ),
    )


def _speech(level: int) -> maraffa_pb2.MaraffaSpeech.ValueType:
    return _SpeechV(level if level else _SPEECH_PASS)


@lru_cache(maxsize=TABLE_ENTRIES)
def _table_bytes(table: TrionfoTable) -> bytes:
    """The table part of a wire state (``MaraffaState.table`` and the match fields of
    ``MaraffaState.trionfo``), as bytes of a ``MaraffaState``; memoised."""
    m = maraffa_pb2.MaraffaState()
    fill_options(table.options, m.table.options, TRIONFO)
    m.table.dealer = table.dealer
    m.table.hand_number = table.deal_number
    tr = m.trionfo
    tr.first_speaker = table.first_speaker
    tr.deals_counted = table.deals_counted
    if table.last_deal is not None:
        deal_to_wire(table.last_deal, tr.last_deal)
    return m.SerializeToString()


def state_to_wire(state: TrionfoState, to_act: int, out: game_pb2.GameState) -> None:
    table = state.table
    envelope(out, "maraffa", SEATS, to_act, state.phase is TPhase.OVER, table.totals)
    m = out.maraffa
    m.MergeFromString(hands_bytes(state.hands))
    m.MergeFromString(_table_bytes(table))
    m.rng.seed = table.seed
    m.rng.counter = table.counter
    m.phase = maraffa_pb2.MaraffaPhase.ValueType(state.phase)
    if state.trump != NO_SUIT:
        m.trump = _SuitV(state.trump + 1)
    m.played.extend(_wire(state.played))
    if any(state.signals):
        m.signals.extend(_wire(state.signals))
    tr = m.trionfo
    tr.auction.extend([_speech(level) for level in state.bids])
    if state.called_card:
        tr.called_card = _CardV(state.called_card)


# --------------------------------------------------------------------------- view and score


def view_to_wire(view: TrionfoView, out: game_pb2.GameView) -> None:
    table = view.table
    envelope(out, "maraffa", SEATS, view.to_act, view.phase is TPhase.OVER, view.totals)
    out.seat = view.seat
    m = out.maraffa
    state_part = maraffa_pb2.MaraffaState.FromString(_table_bytes(table))
    m.table.CopyFrom(state_part.table)
    m.phase = maraffa_pb2.MaraffaPhase.ValueType(view.phase)
    if view.trump != NO_SUIT:
        m.trump = _SuitV(view.trump + 1)
    m.hand.extend(_wire(view.hand))
    m.hand_sizes.extend(view.hand_sizes)
    for trick in view.tricks:
        trick_to_wire(trick, m.tricks.add(), completed=True)
    trick_to_wire(view.trick, m.current_trick, completed=False)
    v = m.trionfo
    v.first_speaker = table.first_speaker
    v.deals_counted = table.deals_counted
    for seat, level in view.speeches:
        v.auction.add(seat=seat, speech=_speech(level))
    contract_to_wire(view, v)
    if table.last_deal is not None:
        deal_to_wire(table.last_deal, v.last_deal)


def side_score_to_wire(detail: TrionfoSideScore, out: maraffa_pb2.MaraffaSideScore) -> None:
    score_to_wire(detail.current, out.current_hand)
    t = out.trionfo
    t.role = maraffa_pb2.MaraffaTrionfoRole.ValueType(detail.role)
    deal_to_wire(detail.deal, t.deal)
    if detail.last_deal is not None:
        deal_to_wire(detail.last_deal, t.last_deal)


def _view_cards(values: Sequence[int], field: str, seen: list[int]) -> tuple[int, ...]:
    """Cards of a view: each of the pack, and each at most once in the whole view
    (``seen`` is the mask of those met so far, updated)."""
    for i, c in enumerate(values):
        bit = BIT[c] if c in IN_DECK else 0
        if not bit:
            raise InvalidArgument(f"{field}[{i}]", f"card {c} is not in the Maraffa pack")
        if seen[0] & bit:
            raise InvalidArgument(f"{field}[{i}]", f"{code(c)} appears more than once in the view")
        seen[0] |= bit
    return tuple(values)


def _view_seat(value: int, field: str) -> int:
    if not 0 <= value < SEATS:
        raise InvalidArgument(field, f"seat {value} is out of range 0..{SEATS - 1}")
    return value


def _view_trick(
    msg: maraffa_pb2.MaraffaTrick, field: str, completed: bool, seen: list[int]
) -> Trick:
    leader = _view_seat(msg.leader, field + ".leader")
    limit = SEATS if completed else SEATS - 1
    if len(msg.cards) > limit or (completed and len(msg.cards) != SEATS):
        what = "a completed trick has 5 cards" if completed else "the trick being played has 0..4"
        raise InvalidArgument(field + ".cards", what)
    cards = _view_cards(msg.cards, field + ".cards", seen)
    if len(msg.signals) > len(cards):
        raise InvalidArgument(field + ".signals", "at most one signal per card")
    for i, signal in enumerate(msg.signals):
        if signal not in _VIEW_SIGNALS:
            raise InvalidArgument(f"{field}.signals[{i}]", f"unknown signal {signal}")
    signals = (*msg.signals, *(0,) * (len(cards) - len(msg.signals)))
    if completed:
        winner = _view_seat(msg.winner, field + ".winner")
    elif msg.winner:
        raise InvalidArgument(field + ".winner", "the trick being played has no winner yet")
    else:
        winner = NO_SEAT
    return Trick(leader, cards, tuple(int(s) for s in signals), winner)


def _view_not_used(m: maraffa_pb2.MaraffaView, field: str) -> None:
    """Fields of the other forms' views, and table fields Trionfo does not use."""
    unused = [
        ("hand_hidden", m.hand_hidden),
        ("dummy_seat", m.HasField("dummy_seat")),
        ("dummy_hand", len(m.dummy_hand)),
        ("stock_size", m.stock_size),
        ("drawn", len(m.drawn)),
        ("marafona_seat", m.HasField("marafona_seat")),
        *_table_not_used(m.table),
    ]
    for name, value in unused:
        if value:
            raise InvalidArgument(f"{field}.{name}", f"{name} is not used with five players")


def view_from_wire(msg: game_pb2.GameView, field: str = "view") -> TrionfoView:
    """A view as a client sends it (Determinize, Simulate), checked field by field:
    seats in range, cards of the pack and each at most once, every list within what
    a deal allows, hand sizes that fit the tricks. Whether the rules could have
    produced it is the sampler's question (it refuses a view no deal gives)."""
    if msg.players != SEATS:
        raise InvalidArgument(field + ".players", "a Trionfo view is for 5 players")
    m: maraffa_pb2.MaraffaView = detail_of(msg, "maraffa", field, InvalidArgument)
    mf = field + ".maraffa"
    if not m.HasField("trionfo"):
        raise InvalidArgument(mf + ".trionfo", "a five-player view needs its trionfo part")
    seat = _view_seat(msg.seat, field + ".seat")
    to_act = _view_seat(msg.to_act, field + ".to_act")
    finished = field + ".finished"
    phase = phase_of(
        _PHASES,
        m.phase,
        TPhase.OVER,
        msg.finished,
        mf + ".phase",
        finished,
        InvalidArgument,
        _UNKNOWN,
    )
    if len(msg.match_score) != SEATS:
        raise InvalidArgument(field + ".match_score", "one total per seat")
    _view_not_used(m, mf)
    options = options_from_message(m.table.options, mf + ".table.options")
    try:
        check_options(options)
    except InvalidArgument as e:
        name = e.field.removeprefix("options.maraffa.")
        raise InvalidArgument(f"{mf}.table.options.{name}", e.reason) from e
    dealer = _view_seat(m.table.dealer, mf + ".table.dealer")
    if m.table.hand_number < 1:
        raise InvalidArgument(mf + ".table.hand_number", "deal numbers start at 1")
    if not 0 <= m.trump <= 4:
        raise InvalidArgument(mf + ".trump", f"unknown suit {m.trump}")
    seen = [0]
    if len(m.hand) > CARDS_EACH:
        raise InvalidArgument(mf + ".hand", f"a hand holds at most {CARDS_EACH} cards")
    hand = _view_cards(m.hand, mf + ".hand", seen)
    if len(m.tricks) > TRICKS:
        raise InvalidArgument(mf + ".tricks", f"a deal has {TRICKS} tricks")
    tricks = tuple(_view_trick(t, f"{mf}.tricks[{k}]", True, seen) for k, t in enumerate(m.tricks))
    trick = _view_trick(m.current_trick, mf + ".current_trick", False, seen)
    if len(tricks) == TRICKS and trick.cards:
        raise InvalidArgument(mf + ".current_trick", f"a deal has {TRICKS} tricks")
    sizes = tuple(m.hand_sizes)
    if len(sizes) != SEATS:
        raise InvalidArgument(mf + ".hand_sizes", "one hand size per seat")
    for s, size in enumerate(sizes):
        expected = (
            CARDS_EACH - len(tricks) - (1 if (s - trick.leader) % SEATS < len(trick.cards) else 0)
        )
        if size != expected:
            raise InvalidArgument(
                f"{mf}.hand_sizes[{s}]", f"seat {s} holds {expected} cards after the tricks shown"
            )
    if len(hand) != sizes[seat]:
        raise InvalidArgument(mf + ".hand", f"the hand size of seat {seat} is {sizes[seat]}")
    tr = m.trionfo
    tf = mf + ".trionfo"
    first_speaker = _view_seat(tr.first_speaker, tf + ".first_speaker")
    limit = SEATS if options.trionfo_auction is TrionfoAuction.SINGLE_ROUND else MAX_SPEECHES
    if len(tr.auction) > limit:
        raise InvalidArgument(tf + ".auction", f"an auction has at most {limit} speeches")
    speeches = []
    for i, speech in enumerate(tr.auction):
        level = _SPEECHES.get(speech.speech)
        if level is None:
            raise InvalidArgument(f"{tf}.auction[{i}].speech", f"unknown speech {speech.speech}")
        speeches.append((_view_seat(speech.seat, f"{tf}.auction[{i}].seat"), level))
    declarer = _view_seat(tr.declarer, tf + ".declarer") if tr.HasField("declarer") else NO_SEAT
    if not 0 <= tr.contract <= 4:
        raise InvalidArgument(tf + ".contract", f"unknown contract {tr.contract}")
    called = card_or_none(tr.called_card, tf + ".called_card", InvalidArgument)
    amico = _view_seat(tr.amico, tf + ".amico") if tr.HasField("amico") else NO_SEAT
    last = None
    if tr.HasField("last_deal"):
        if len(tr.last_deal.payments) not in (0, SEATS):
            raise InvalidArgument(tf + ".last_deal.payments", "one payment per seat, or none")
        try:
            last = deal_from_wire(tr.last_deal, tf + ".last_deal")
        except InvalidState as bad:  # not `e`: compiled, one name has one type per function
            raise InvalidArgument(bad.field, bad.reason) from bad
    table = TrionfoTable(
        options=options,
        seed=0,
        counter=0,
        dealer=dealer,
        first_speaker=first_speaker,
        deal_number=m.table.hand_number,
        deals_counted=tr.deals_counted,
        totals=tuple(msg.match_score),
        last_deal=last,
    )
    return TrionfoView(
        seat=seat,
        hand=cards_of(sum(BIT[c] for c in hand)),
        hand_sizes=sizes,
        speeches=tuple(speeches),
        declarer=declarer,
        contract=tr.contract,
        trump=m.trump - 1 if m.trump else NO_SUIT,
        called_card=called or NO_CARD,
        amico=amico,
        trick=trick,
        tricks=tricks,
        table=table,
        phase=phase,
        to_act=to_act,
    )
