"""Trionfo, Maraffa for five (maraffa-forms.md A): deal, legal moves and apply.

Pure functions over immutable ``TrionfoState`` values, built like the four-player
engine (../rules.py), whose card tables, move values and trick helpers it shares: an
auction of four rising bids, the declaration of trumps and of a called card whose
holder is the declarer's secret partner, eight tricks of five cards, and payments per
seat. ``apply`` checks every move and carries out every step that needs no decision:
completing a trick, ending and scoring a deal (early with
``trionfo_stop_when_decided``), throwing in a deal nobody bid for, dealing the next
one and ending the match after ``match_deals`` deals.
"""

from __future__ import annotations

from typing import Final

from mazzo.core.errors import IllegalMove, InvalidArgument, NotAllowedNow
from mazzo.core.shuffle import draw_below, shuffled
from mazzo.games.maraffa.cards import BIT, DECK, IN_DECK, SUIT, SUIT_BITS, SUIT_MASK, THIRDS
from mazzo.games.maraffa.events import CardPlayed, TrickWon
from mazzo.games.maraffa.moves import (
    BIDS,
    CALLS,
    PASS,
    TRUMPS,
    Bid,
    CallTrump,
    Claim,
    Contract,
    DeclareTrump,
    Move,
    Pass,
    PlayCard,
    RequestRedeal,
    Signal,
)
from mazzo.games.maraffa.options import (
    MARAFFA_ONLY,
    Options,
    SignalSet,
    changed,
)
from mazzo.games.maraffa.rules import LEAD_CORE_PLAYS, PLAIN_PLAYS, listed
from mazzo.games.maraffa.scoring import LAST_TRICK_THIRDS
from mazzo.games.maraffa.tricks import winning_index
from mazzo.games.maraffa.trionfo.auction import replay
from mazzo.games.maraffa.trionfo.events import (
    AuctionWon,
    BidMade,
    BidPassed,
    ContractDeclared,
    DealDealt,
    DealScored,
    PartnerRevealed,
    ThrownIn,
    TrionfoEvent,
    TrionfoMatchOver,
)
from mazzo.games.maraffa.trionfo.scoring import auction_of, deal_score, outcome
from mazzo.games.maraffa.trionfo.state import (
    NO_CARD,
    NO_SEAT,
    PASSED,
    SEATS,
    TRICKS,
    DealScore,
    TPhase,
    TrionfoState,
    TrionfoTable,
)

#: The trionfo_deal_batch values of A.2.1 (each divides 8, so every seat gets 8).
DEAL_BATCHES: Final = (1, 2, 4, 8)
MAX_MATCH_DEALS: Final = 1_000_000
#: The leader's signals with ``trionfo_signals = core`` (A.5.5), never checked.
CORE_LEAD_SIGNALS: Final = frozenset({Signal.BUSSO, Signal.STRISCIO, Signal.VOLO})
_PLAY: Final = TPhase.PLAY
_new = tuple.__new__
#: AUCTION_MOVES[high]: every bid above ``high``, ascending, then PASS (A.8).
AUCTION_MOVES: Final[tuple[tuple[Move, ...], ...]] = tuple(
    (*(m for m in BIDS[high + 1 :] if m is not None), PASS) for high in range(len(Contract) + 1)
)
#: A.8: under CHIAMO, by suit S H D C, then the called card in canonical order (120).
CALL_MOVES: Final[tuple[Move, ...]] = tuple(
    m for suit in range(4) for c in DECK if SUIT[c] != suit if (m := CALLS[suit][c]) is not None
)
B = "move.maraffa."


# --------------------------------------------------------------------------- deal


def check_options(options: Options) -> None:
    """Reject options out of range for five players, and those of maraffa.md that do not
    apply to Trionfo (A.9)."""
    name = changed(options, MARAFFA_ONLY)
    if name is not None:
        raise InvalidArgument(
            f"options.maraffa.{name}", f"{name} is not an option of Trionfo (players = 5)"
        )
    f = "options.maraffa."
    if options.first_dealer is not None and not 0 <= options.first_dealer < SEATS:
        raise InvalidArgument(f + "first_dealer", "first_dealer must be 0..4")
    if options.trionfo_first_speaker_card not in IN_DECK:
        raise InvalidArgument(
            f + "trionfo_first_speaker_card", "the first speaker's card must be in the Maraffa pack"
        )
    if options.trionfo_deal_batch not in DEAL_BATCHES:
        raise InvalidArgument(f + "trionfo_deal_batch", "trionfo_deal_batch must be 1, 2, 4 or 8")
    if options.trionfo_signals not in (SignalSet.NONE, SignalSet.CORE):
        raise InvalidArgument(f + "trionfo_signals", "trionfo_signals must be none or core")
    if not 1 <= options.match_deals <= MAX_MATCH_DEALS:
        raise InvalidArgument(f + "match_deals", f"match_deals must be 1..{MAX_MATCH_DEALS}")


def deal(options: Options, players: int, seed: int) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """A new match: the first dealer by the seed (draw 0), then deal 1."""
    if players != SEATS:
        raise InvalidArgument("players", f"Trionfo is for 5 players, not {players}")
    if not 0 <= seed < 2**64:
        raise InvalidArgument("seed", "seed must fit in 64 bits")
    check_options(options)
    dealer = draw_below(seed, 0, SEATS) if options.first_dealer is None else options.first_dealer
    return _deal(first_table(options, seed, dealer))


def first_table(options: Options, seed: int, dealer: int) -> TrionfoTable:
    """A match's table before its first deal: no first speaker yet (deal 1's is found at
    the deal), nothing counted; ``positions`` builds its tables from it too."""
    return TrionfoTable(
        options=options,
        seed=seed,
        counter=1,
        dealer=dealer,
        first_speaker=NO_SEAT,
        deal_number=1,
        deals_counted=0,
        totals=(0,) * SEATS,
    )


def dealt_to(dealer: int, batch: int, index: int) -> int:
    """The seat dealt card ``index`` of the shuffled deck: batches of ``batch`` cards,
    anticlockwise from the dealer's right-hand neighbour (A.2.1)."""
    return (dealer + 1 + index // batch) % SEATS


def _deal(table: TrionfoTable) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """Shuffle with the next draw, deal, and find the first speaker (A.2.1-2)."""
    deck = shuffled(DECK, table.seed, table.counter)
    batch = table.options.trionfo_deal_batch
    dealer = table.dealer
    hands = [0] * SEATS
    for i, c in enumerate(deck):
        hands[dealt_to(dealer, batch, i)] |= BIT[c]
    if table.deal_number == 1:
        bit = BIT[table.options.trionfo_first_speaker_card]
        first = next(s for s in range(SEATS) if hands[s] & bit)
    else:
        first = (dealer + 1) % SEATS
    table = table._replace(counter=table.counter + 1, first_speaker=first)
    state = TrionfoState(table, TPhase.AUCTION, first, tuple(hands))
    return state, [DealDealt(table.deal_number, dealer, first)]


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: TrionfoState) -> tuple[Move, ...]:
    """Every legal move in the order of A.8: bids ascending then PASS; declarations by
    suit then called card; plays in canonical card order (then by signal)."""
    phase = state.phase
    if phase is _PLAY:
        hand = state.hands[state.to_act]
        played = state.played
        in_trick = len(played) % SEATS
        if in_trick:
            led = SUIT[played[-in_trick]]
            follow = hand & SUIT_MASK[led]
            if follow:
                return PLAIN_PLAYS[led][follow >> (SUIT_BITS * led)]
            return listed(PLAIN_PLAYS, PLAIN_PLAYS, hand)
        if state.table.options.trionfo_signals is SignalSet.CORE:
            return listed(LEAD_CORE_PLAYS, LEAD_CORE_PLAYS, hand)
        return listed(PLAIN_PLAYS, PLAIN_PLAYS, hand)
    if phase is TPhase.AUCTION:
        return AUCTION_MOVES[auction_of(state).high]
    if phase is TPhase.DECLARE:
        return CALL_MOVES if auction_of(state).high == Contract.CHIAMO else TRUMPS
    return ()


# --------------------------------------------------------------------------- apply


def verify(state: TrionfoState, move: Move) -> None:
    """Raise ``IllegalMove`` (or ``NotAllowedNow``) with the reason if ``move`` is illegal."""
    phase = state.phase
    if phase is TPhase.OVER:
        raise NotAllowedNow("move", "the match is over")
    kind = type(move)
    if kind is PlayCard:
        assert isinstance(move, PlayCard)
        if phase is not _PLAY:
            raise IllegalMove(B + "play_card", f"{move}: trumps have not been declared yet")
        _verify_play(state, move)
    elif kind is Bid or kind is Pass:
        if phase is not TPhase.AUCTION:
            field = B + ("bid" if kind is Bid else "pass_bid")
            raise IllegalMove(field, f"{move}: the auction is over")
        if isinstance(move, Bid):
            high = auction_of(state).high
            if move.contract <= high:
                raise IllegalMove(
                    B + "bid.contract",
                    f"{move}: a bid must be above {Contract(high).name} (A.3.2)",
                )
    elif kind is DeclareTrump or kind is CallTrump:
        _verify_declaration(state, move)
    elif kind is Claim or kind is RequestRedeal:
        field = B + ("claim" if kind is Claim else "request_redeal")
        raise IllegalMove(field, f"{move}: not part of Trionfo (A.5.4)")
    else:
        raise IllegalMove("move", f"not a Maraffa move: {move!r}")


def _verify_declaration(state: TrionfoState, move: Move) -> None:
    if state.phase is not TPhase.DECLARE:
        why = "the auction is not over" if state.phase is TPhase.AUCTION else "already declared"
        raise IllegalMove(B + "declare_trump", f"{move}: {why}")
    assert isinstance(move, DeclareTrump | CallTrump)
    if not 0 <= move.suit < 4:
        raise IllegalMove(B + "declare_trump.suit", f"unknown suit {move.suit}")
    chiamo = auction_of(state).high == Contract.CHIAMO
    if isinstance(move, CallTrump):
        if not chiamo:
            raise IllegalMove(
                B + "declare_trump.called_card", f"{move}: a card is called only under CHIAMO"
            )
        if SUIT[move.card] == move.suit:
            raise IllegalMove(
                B + "declare_trump.called_card",
                f"{move}: the called card may not be of the trump suit (A.4.1)",
            )
    elif chiamo:
        raise IllegalMove(
            B + "declare_trump.called_card", f"{move}: CHIAMO needs a called card (A.4.1)"
        )


def _verify_play(state: TrionfoState, move: PlayCard) -> None:
    hand = state.hands[state.to_act]
    c = move.card
    if not hand & BIT[c]:
        raise IllegalMove(B + "play_card.card", f"{move}: the card is not in hand")
    in_trick = len(state.played) % SEATS
    if in_trick:
        led = SUIT[state.played[-in_trick]]
        if SUIT[c] != led and hand & SUIT_MASK[led]:
            suit = "SHDC"[led]
            raise IllegalMove(B + "play_card.card", f"{move}: must follow suit ({suit} led)")
    signal = move.signal
    if signal:
        if state.table.options.trionfo_signals is not SignalSet.CORE:
            raise IllegalMove(B + "play_card.signal", f"{move}: no signals in this match (A.5.5)")
        if in_trick or signal not in CORE_LEAD_SIGNALS:
            raise IllegalMove(
                B + "play_card.signal",
                f"{move}: only the leader may signal, BUSSO, STRISCIO or VOLO (A.5.5)",
            )
    if move.marafona:
        raise IllegalMove(
            B + "play_card.declare_marafona", f"{move}: there is no marafona in Trionfo (A.5.4)"
        )


def apply(state: TrionfoState, move: Move) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """The state after ``move`` and the events it caused; raises if it is illegal.

    A card play is most of every match, so it is handled right here with the quick
    checks first; ``verify`` names what they refuse.
    """
    if type(move) is not PlayCard or state.phase is not _PLAY:
        return _apply_other(state, move)
    seat = state.to_act
    c = move.card
    hands = list(state.hands)
    hand = hands[seat]
    played = state.played
    n = len(played)
    in_trick = n % SEATS
    if in_trick:
        led = SUIT[played[-in_trick]]
        quick = bool(hand & BIT[c]) and (SUIT[c] == led or not hand & SUIT_MASK[led])
    else:
        quick = bool(hand & BIT[c])
    if not quick or move.signal or move.marafona:
        _verify_play(state, move)  # raises, or accepts a leader's signal
    hands[seat] = hand ^ BIT[c]
    played = (*played, c)
    signals = (*state.signals, move.signal)
    events: list[TrionfoEvent] = [_new(CardPlayed, (seat, c, move.signal, False))]
    if c == state.called_card:
        events.append(PartnerRevealed(seat))
    if in_trick < SEATS - 1:
        after = _new(
            TrionfoState,
            (
                state.table,
                _PLAY,
                (seat + 1) % SEATS,
                tuple(hands),
                state.bids,
                state.trump,
                state.called_card,
                played,
                signals,
            ),
        )
        return after, events
    cards = played[-SEATS:]
    winner = (seat + 1 + winning_index(cards, state.trump)) % SEATS
    number = (n + 1) // SEATS
    last = number == TRICKS
    thirds = sum(map(THIRDS.__getitem__, cards)) + (LAST_TRICK_THIRDS if last else 0)
    events.append(_new(TrickWon, (number, winner, thirds)))
    after = _new(
        TrionfoState,
        (
            state.table,
            _PLAY,
            winner,
            tuple(hands),
            state.bids,
            state.trump,
            state.called_card,
            played,
            signals,
        ),
    )
    if last or (state.table.options.trionfo_stop_when_decided and outcome(after)[0] is not None):
        return _end_deal(after, events)
    return after, events


def _apply_other(state: TrionfoState, move: Move) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """Speeches and the declaration (and every refusal): ``verify`` first, then the
    auction replayed with the new speech says who speaks or declares next, or throws
    the deal in."""
    verify(state, move)
    seat = state.to_act
    if isinstance(move, Bid | Pass):
        level = move.contract if isinstance(move, Bid) else PASSED
        bids = (*state.bids, level)
        table = state.table
        auction = replay(bids, table.first_speaker, table.options.trionfo_auction)
        events: list[TrionfoEvent] = [BidMade(seat, level) if level else BidPassed(seat)]
        after = state._replace(bids=bids)
        if not auction.over:
            return after._replace(to_act=auction.to_speak), events
        if auction.thrown_in:
            events.append(ThrownIn(table.deal_number))
            return _next_deal(after, deal_score(after, auction), table.totals, events)
        events.append(AuctionWon(auction.declarer, auction.high))
        return after._replace(phase=TPhase.DECLARE, to_act=auction.declarer), events
    contract = auction_of(state).high
    called = move.card if isinstance(move, CallTrump) else NO_CARD
    assert isinstance(move, DeclareTrump | CallTrump)
    after = state._replace(
        phase=_PLAY, trump=move.suit, called_card=called, to_act=state.table.first_speaker
    )
    return after, [ContractDeclared(seat, contract, move.suit, called)]


# --------------------------------------------------------------------------- end of a deal


def _end_deal(
    state: TrionfoState, events: list[TrionfoEvent]
) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """Score the deal and pay (A.6), then deal the next one or end the match."""
    score = deal_score(state)
    totals = tuple(t + p for t, p in zip(state.table.totals, score.payments, strict=True))
    events.append(DealScored(score, totals))
    return _next_deal(state, score, totals, events)


def _next_deal(
    state: TrionfoState,
    score: DealScore,
    totals: tuple[int, ...],
    events: list[TrionfoEvent],
) -> tuple[TrionfoState, list[TrionfoEvent]]:
    """Count the deal (a thrown-in one only with ``count_thrown_in``); after
    ``match_deals`` deals the match is over, else the first speaker deals (A.2.3, A.7)."""
    table = state.table
    options = table.options
    counts = score.contract != 0 or options.count_thrown_in
    counted = table.deals_counted + (1 if counts else 0)
    table = table._replace(deals_counted=counted, totals=totals, last_deal=score)
    if counted >= options.match_deals:
        events.append(TrionfoMatchOver(match_winners(totals), totals))
        return state._replace(table=table, phase=TPhase.OVER, to_act=0), events
    table = table._replace(dealer=table.first_speaker, deal_number=table.deal_number + 1)
    new, dealt = _deal(table)
    events.extend(dealt)
    return new, events


# --------------------------------------------------------------------------- queries


def match_winners(totals: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest total; a tie makes every tied seat a winner (A.7.3)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
