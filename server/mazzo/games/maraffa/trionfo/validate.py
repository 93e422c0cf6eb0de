"""Checks of a Trionfo state that came from outside (maraffa-forms.md A.12).

Nothing in a hand-built state is trusted: the 40 cards exactly once, an auction the
rules could have produced, a declaration that fits the contract, hand sizes that fit
the tricks, a deal that would not already have ended, totals that sum to 0. Errors
name the wire field at fault, as ../validate.py does for the other forms.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from mazzo.core.cards import code
from mazzo.core.checks import check_dealing, check_hand_number, check_seat, options_in_state
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.maraffa.cards import BIT, DECK, IN_DECK, SUIT
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.options import SignalSet
from mazzo.games.maraffa.state import HandScore
from mazzo.games.maraffa.trionfo.auction import Auction, AuctionError, replay
from mazzo.games.maraffa.trionfo.rules import CORE_LEAD_SIGNALS, check_options
from mazzo.games.maraffa.trionfo.scoring import (
    deal_score,
    outcome,
    payments,
    seat_of_play,
    trick_leaders,
)
from mazzo.games.maraffa.trionfo.state import (
    CARDS_EACH,
    NO_CARD,
    NO_SEAT,
    NO_SUIT,
    SEATS,
    TRICKS,
    DealScore,
    TPhase,
    TrionfoState,
    TrionfoTable,
)
from mazzo.games.maraffa.validate import card_error, hand_score_adds_up

P = "state.maraffa."
T = P + "table."
R = P + "trionfo."
FULL_DECK: Final = sum(BIT[c] for c in DECK)
ALL_THIRDS: Final = 35


def validate(state: TrionfoState) -> None:
    """Raise ``InvalidState`` naming the field if ``state`` breaks an invariant."""
    table = state.table
    check_table(table)
    over = state.phase is TPhase.OVER
    _check_progress(table, over)
    _check_cards(state)
    auction = _check_auction(state)
    _check_declaration(state, auction)
    leaders = trick_leaders(state) if state.played else [table.first_speaker]
    _check_play(state, auction, leaders)
    if table.deal_number == 1:
        _check_first_speaker(state, leaders)
    if over and table.last_deal != deal_score(state, auction):
        raise InvalidState(R + "last_deal", "a finished match's last deal is the deal in the state")


# A table changes once a hand: a few new ones a second under load; 256 is four times
# the 64 matches in flight of the soak and the bench (codec.common.TABLE_ENTRIES).
@lru_cache(maxsize=256)
def check_table(table: TrionfoTable) -> None:
    """Checks of the match-level fields; memoised, as they change once a deal."""
    try:
        check_options(table.options)
    except InvalidArgument as e:
        raise options_in_state(e, T, "maraffa") from e
    check_dealing(table, SEATS, P)
    check_seat(table.first_speaker, SEATS, R + "first_speaker")
    check_hand_number(table.deal_number, T + "hand_number", "deal")
    if table.deal_number > 1 and table.first_speaker != (table.dealer + 1) % SEATS:
        raise InvalidState(R + "first_speaker", "from deal 2 the first speaker is next(dealer)")
    if len(table.totals) != SEATS or sum(table.totals) != 0:
        raise InvalidState("state.match_score", "five totals, one per seat, summing to 0 (A.7.2)")
    if table.last_deal is not None:
        _check_deal_score(table.last_deal, R + "last_deal")


def _check_progress(table: TrionfoTable, over: bool) -> None:
    """Deals counted against deals dealt and ``match_deals`` (A.7.1)."""
    options = table.options
    finished = table.deal_number if over else table.deal_number - 1
    counted = table.deals_counted
    field = R + "deals_counted"
    if not 0 <= counted <= finished or (options.count_thrown_in and counted != finished):
        raise InvalidState(field, f"{counted} deals counted after {finished} finished")
    if over != (counted >= options.match_deals) or counted > options.match_deals:
        raise InvalidState(field, f"the match is over after exactly {options.match_deals} deals")
    last = table.last_deal
    if (last is None) != (finished == 0):
        raise InvalidState(R + "last_deal", "once a deal has finished, the last deal is recorded")
    if last is not None and last.deal_number != finished:
        raise InvalidState(R + "last_deal.deal_number", f"the last deal finished is {finished}")


def _check_hand_score(score: HandScore, field: str) -> None:
    """A side's hand within a deal: scored as a classic hand whose fractions are dropped."""
    if not hand_score_adds_up(score, keep_thirds=False, marafona=False):
        raise InvalidState(field, "the score's components do not add up")


def _check_deal_score(score: DealScore, field: str) -> None:
    """A finished deal as recorded: paid as its contract and outcome say (A.6.3)."""
    if score.contract == 0:
        if score.payments != (0,) * SEATS or score.declarer != NO_SEAT or score.won is not None:
            raise InvalidState(field, "a thrown-in deal has no declarer and pays nothing")
        return
    if not 1 <= score.contract <= Contract.MASO_DEI_MASI:
        raise InvalidState(field + ".contract", f"unknown contract {score.contract}")
    check_seat(score.declarer, SEATS, field + ".declarer")
    chiamo = score.contract == Contract.CHIAMO
    if chiamo:
        check_seat(score.amico, SEATS, field + ".amico")
    elif score.amico != NO_SEAT:
        raise InvalidState(field + ".amico", "only CHIAMO has an amico")
    if score.signori is None or score.popolo is None or score.won is None:
        raise InvalidState(field, "a finished deal has both sides' scores and an outcome")
    _check_hand_score(score.signori, field + ".signori")
    _check_hand_score(score.popolo, field + ".popolo")
    if score.signori.thirds + score.popolo.thirds > ALL_THIRDS:
        raise InvalidState(field, f"a deal holds {ALL_THIRDS} thirds")
    if not 1 <= score.decided_at <= TRICKS:
        raise InvalidState(field + ".decided_at", "a deal is decided by trick 8")
    if score.payments != payments(score.contract, score.declarer, score.amico, score.won):
        raise InvalidState(field + ".payments", "the payments do not match the contract (A.6.3)")


def _check_cards(state: TrionfoState) -> None:
    """The 40 cards exactly once across hands and played cards (A.12)."""
    if len(state.hands) != SEATS:
        raise InvalidState(P + "hands", "there must be 5 hands")
    held = 0
    for hand in state.hands:
        held |= hand
    played = state.played
    played_mask = sum(BIT[c] for c in played)
    total = sum(h.bit_count() for h in state.hands) + len(played)
    if total == len(DECK) and held | played_mask == FULL_DECK:
        return
    card_error(state.hands, (("played", played),))


def _check_auction(state: TrionfoState) -> Auction:
    table = state.table
    try:
        auction = replay(state.bids, table.first_speaker, table.options.trionfo_auction)
    except AuctionError as e:
        raise InvalidState(f"{R}auction[{e.index}]", e.reason) from e
    phase = state.phase
    if phase is TPhase.AUCTION and auction.over:
        raise InvalidState(R + "auction", "the auction is over, so the phase cannot be AUCTION")
    if phase in (TPhase.DECLARE, TPhase.PLAY) and (not auction.over or auction.thrown_in):
        raise InvalidState(R + "auction", f"phase {phase.name} needs an auction won by a bid")
    if phase is TPhase.OVER and not auction.over:
        raise InvalidState(R + "auction", "the match cannot end in the middle of an auction")
    if phase is TPhase.OVER and auction.thrown_in and not table.options.count_thrown_in:
        raise InvalidState(R + "auction", "a thrown-in deal does not count (count_thrown_in)")
    if phase is TPhase.AUCTION and state.to_act != auction.to_speak:
        raise InvalidState(
            "state.to_act", f"seat {auction.to_speak} speaks now, not {state.to_act}"
        )
    if phase is TPhase.DECLARE and state.to_act != auction.declarer:
        raise InvalidState("state.to_act", f"seat {auction.declarer} declares, not {state.to_act}")
    return auction


def _check_declaration(state: TrionfoState, auction: Auction) -> None:
    """Trump and called card set iff the declaration was made; the called card only
    under CHIAMO, and not of the trump suit (A.4.1)."""
    declared = state.phase is TPhase.PLAY or (state.phase is TPhase.OVER and not auction.thrown_in)
    called = state.called_card
    if not declared:
        if state.trump != NO_SUIT:
            raise InvalidState(P + "trump", "trump is set only once it is declared")
        if called != NO_CARD:
            raise InvalidState(R + "called_card", "a card is called only at the declaration")
        if state.played:
            raise InvalidState(P + "played", "no card is played before the declaration")
        return
    if not 0 <= state.trump < 4:
        raise InvalidState(P + "trump", "the contract is declared, so trump must be set")
    if auction.high == Contract.CHIAMO:
        if called not in IN_DECK:
            raise InvalidState(R + "called_card", "CHIAMO needs a called card of the pack")
        if SUIT[called] == state.trump:
            raise InvalidState(R + "called_card", "the called card may not be a trump")
    elif called != NO_CARD:
        raise InvalidState(R + "called_card", "a card is called only under CHIAMO")


def _check_play(state: TrionfoState, auction: Auction, leaders: list[int]) -> None:
    """Trick count, hand sizes, signals, the seat to act, and no overdue end of deal."""
    played = state.played
    completed = len(played) // SEATS
    in_trick = len(played) - completed * SEATS
    phase = state.phase
    if completed > TRICKS or (completed == TRICKS and in_trick):
        raise InvalidState(P + "played", f"a deal has {TRICKS} tricks")
    if len(state.signals) != len(played):
        raise InvalidState(P + "signals", "one signal (or none) per card played")
    core = state.table.options.trionfo_signals is SignalSet.CORE
    for i, s in enumerate(state.signals):
        if s and not (core and i % SEATS == 0 and s in CORE_LEAD_SIGNALS):
            raise InvalidState(f"{P}signals[{i}]", f"signal {s} is not allowed here (A.5.5)")
    leader = leaders[-1]
    for s, hand in enumerate(state.hands):
        expected = CARDS_EACH - completed - (1 if (s - leader) % SEATS < in_trick else 0)
        if hand.bit_count() != expected:
            raise InvalidState(
                f"{P}hands[{s}].cards",
                f"seat {s} must hold {expected} cards, not {hand.bit_count()}",
            )
    if phase is TPhase.PLAY:
        # Before the first card too: the seat to act follows from the leader alone.
        expected_seat = (leader + in_trick) % SEATS
        if state.to_act != expected_seat:
            raise InvalidState(
                "state.to_act", f"seat {expected_seat} is to act, not {state.to_act}"
            )
    if not played:
        return
    decided = outcome(state, auction)
    stop = state.table.options.trionfo_stop_when_decided
    if phase is TPhase.PLAY:
        if completed == TRICKS or (stop and decided[0] is not None):
            raise InvalidState(P + "played", "this deal is over: it would have been scored")
    elif in_trick or completed != (decided[1] if stop else TRICKS):
        raise InvalidState(P + "played", "the last deal of a finished match was played out")


def _check_first_speaker(state: TrionfoState, leaders: list[int]) -> None:
    """Deal 1: the first speaker was dealt trionfo_first_speaker_card (A.2.2)."""
    card = state.table.options.trionfo_first_speaker_card
    if card in state.played:
        holder = seat_of_play(leaders, state.played.index(card))
    else:
        holder = next(s for s, hand in enumerate(state.hands) if hand & BIT[card])
    if holder != state.table.first_speaker:
        raise InvalidState(
            R + "first_speaker", f"in deal 1 the first speaker is the seat dealt {code(card)}"
        )
