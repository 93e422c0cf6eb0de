"""Trionfo's scoring of a deal (maraffa-forms.md A.6): card points decide, game points pay.

Card points (thirds, floored) only decide whether the declarer's side (*signori*)
made its contract; the payments are fixed per contract. Everything here is computed
from the cards played, the auction and the called card.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mazzo.core.rules import ScoreReport, SideScore
from mazzo.games.maraffa.cards import ACES, BIT, THIRDS
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.scoring import LAST_TRICK_THIRDS
from mazzo.games.maraffa.state import HandScore
from mazzo.games.maraffa.tricks import winning_index
from mazzo.games.maraffa.trionfo.auction import Auction, replay
from mazzo.games.maraffa.trionfo.state import (
    NO_CARD,
    NO_SEAT,
    SEATS,
    TRICKS,
    DealScore,
    Role,
    TPhase,
    TrionfoState,
)

#: Six card points, in thirds: the declarer's side wins CHIAMO, DI_PIU (and MASO).
SIX_POINTS: Final = 18
#: One whole card point, in thirds: under MASO the opponents may not reach it first.
ONE_POINT: Final = 3
#: Per card id: 256 for an ace, 1 for a card worth one third (as in ../scoring.py).
_COUNT: Final = [256 if c in ACES else THIRDS[c] for c in range(54)]
#: What each popolo member pays (or receives) per contract when the declarer is alone:
#: the declarer gets four times as much (A.6.3).
_UNIT: Final = {Contract.CHIAMO: 2, Contract.DI_PIU: 2, Contract.MASO: 4, Contract.MASO_DEI_MASI: 8}


def auction_of(state: TrionfoState) -> Auction:
    """The auction of the state's deal (speakers, declarer, contract)."""
    table = state.table
    return replay(state.bids, table.first_speaker, table.options.trionfo_auction)


def trick_winners(state: TrionfoState) -> list[int]:
    """The winner of every completed trick; trick 1 is led by the first speaker (A.4.5)."""
    played, trump = state.played, state.trump
    leader = state.table.first_speaker
    winners = []
    for k in range(0, len(played) // SEATS * SEATS, SEATS):
        leader = (leader + winning_index(played[k : k + SEATS], trump)) % SEATS
        winners.append(leader)
    return winners


def trick_leaders(state: TrionfoState) -> list[int]:
    """The leader of every trick of the deal, the one being played included."""
    return [state.table.first_speaker, *trick_winners(state)]


def seat_of_play(leaders: list[int], index: int) -> int:
    """Who made play number ``index`` of the deal."""
    return (leaders[index // SEATS] + index % SEATS) % SEATS


def called_card_played(state: TrionfoState) -> bool:
    return state.called_card != NO_CARD and state.called_card in state.played


def amico_of(state: TrionfoState) -> int:
    """The seat that holds or played the called card; NO_SEAT when none is called.
    A secret until the card is played: only the scoring and the referee ask."""
    called = state.called_card
    if called == NO_CARD:
        return NO_SEAT
    bit = BIT[called]
    for seat, hand in enumerate(state.hands):
        if hand & bit:
            return seat
    if called in state.played:
        return seat_of_play(trick_leaders(state), state.played.index(called))
    return NO_SEAT


def _trick_thirds(state: TrionfoState) -> list[int]:
    played = state.played
    thirds = [
        sum(THIRDS[c] for c in played[k : k + SEATS])
        for k in range(0, len(played) // SEATS * SEATS, SEATS)
    ]
    if len(thirds) == TRICKS:
        thirds[-1] += LAST_TRICK_THIRDS
    return thirds


def decide(
    contract: int, declarer: int, signori: int, winners: list[int], thirds: list[int]
) -> tuple[bool | None, int]:
    """The outcome and the trick that settled it, scanning the tricks in order (A.6.2);
    ``(None, 0)`` while the outcome can still change. ``signori`` is a mask of seats."""
    d = o = 0
    for k, (winner, t) in enumerate(zip(winners, thirds, strict=True), 1):
        ours = signori >> winner & 1
        if ours:
            d += t
        else:
            o += t
        if contract == Contract.MASO_DEI_MASI:
            if not ours:
                return False, k
            if k == TRICKS:
                return True, k
        elif contract == Contract.MASO:
            # One trick moves only one of d, o: which comes first is well defined.
            if o >= ONE_POINT:
                return False, k
            if d >= SIX_POINTS:
                return True, k
        elif d >= SIX_POINTS:
            return True, k
        elif o >= SIX_POINTS:
            return False, k
    return None, 0


def payments(contract: int, declarer: int, amico: int, won: bool) -> tuple[int, ...]:
    """Game points per seat (A.6.3); they sum to 0."""
    sign = 1 if won else -1
    if contract == Contract.CHIAMO and amico not in (NO_SEAT, declarer):
        pay = [-sign] * SEATS
        pay[declarer] = 2 * sign
        pay[amico] = sign
        return tuple(pay)
    unit = _UNIT[Contract(contract)]
    pay = [-unit * sign] * SEATS
    pay[declarer] = 4 * unit * sign
    return tuple(pay)


def signori_mask(contract: int, declarer: int, amico: int) -> int:
    """The declarer's side: with the amico only under CHIAMO (A.6.1)."""
    mask = 1 << declarer
    if contract == Contract.CHIAMO and amico != NO_SEAT:
        mask |= 1 << amico
    return mask


def _hand_score(count: int, last: int) -> HandScore:
    aces, third_cards = count >> 8, count & 255
    thirds = 3 * aces + third_cards + LAST_TRICK_THIRDS * last
    return HandScore(aces, third_cards, last, thirds, thirds // 3, 0, thirds // 3)


def seat_scores(state: TrionfoState) -> tuple[HandScore, ...]:
    """What each seat took in this deal's tricks (public: the tricks are)."""
    counts = [0] * SEATS
    played = state.played
    winners = trick_winners(state)
    for k, winner in enumerate(winners):
        counts[winner] += sum(_COUNT[c] for c in played[k * SEATS : (k + 1) * SEATS])
    last = winners[-1] if len(winners) == TRICKS else NO_SEAT
    return tuple(_hand_score(counts[s], int(s == last)) for s in range(SEATS))


def _side_scores(state: TrionfoState, signori: int) -> tuple[HandScore, HandScore]:
    counts = [0, 0]  # signori, popolo
    played = state.played
    winners = trick_winners(state)
    last = [0, 0]
    for k, winner in enumerate(winners):
        side = 0 if signori >> winner & 1 else 1
        counts[side] += sum(_COUNT[c] for c in played[k * SEATS : (k + 1) * SEATS])
        if k + 1 == TRICKS:
            last[side] = 1
    return _hand_score(counts[0], last[0]), _hand_score(counts[1], last[1])


def outcome(state: TrionfoState, auction: Auction | None = None) -> tuple[bool | None, int]:
    """The outcome of the deal so far, and the trick that settled it (private: it
    depends on who the amico is)."""
    auction = auction or auction_of(state)
    if not auction.high or state.trump < 0:
        return None, 0
    amico = amico_of(state)
    signori = signori_mask(auction.high, auction.declarer, amico)
    return decide(
        auction.high, auction.declarer, signori, trick_winners(state), _trick_thirds(state)
    )


def deal_score(state: TrionfoState, auction: Auction | None = None) -> DealScore:
    """The deal so far with everything filled in, secrets included: what is recorded
    once the deal is over. Views and Score of a deal in progress use ``public_score``."""
    auction = auction or auction_of(state)
    number = state.table.deal_number
    if not auction.over or auction.thrown_in:
        # No contract yet; or nobody bid, and nobody pays.
        zero = _hand_score(0, 0) if auction.thrown_in else None
        paid = (0,) * SEATS if auction.thrown_in else ()
        return DealScore(
            number, 0, NO_SEAT, state.trump, NO_CARD, NO_SEAT, zero, zero, None, 0, paid
        )
    contract, declarer = auction.high, auction.declarer
    amico = amico_of(state)
    signori = signori_mask(contract, declarer, amico)
    sides = _side_scores(state, signori)
    won, at = decide(contract, declarer, signori, trick_winners(state), _trick_thirds(state))
    return DealScore(
        deal_number=number,
        contract=contract,
        declarer=declarer,
        trump=state.trump,
        called_card=state.called_card,
        amico=amico,
        signori=sides[0],
        popolo=sides[1],
        won=won,
        decided_at=at,
        payments=() if won is None else payments(contract, declarer, amico, won),
    )


def sides_public(state: TrionfoState, contract: int) -> bool:
    """May anybody know who is on the declarer's side? Yes once the contract is known,
    unless it is CHIAMO and the called card has not been played (A.11.3)."""
    if not contract:
        return False
    return contract != Contract.CHIAMO or called_card_played(state)


def public_score(state: TrionfoState) -> DealScore:
    """The deal so far as anybody may know it: the amico, the sides' scores and the
    outcome are left out while the called card is unplayed."""
    auction = auction_of(state)
    score = deal_score(state, auction)
    if not auction.over or auction.thrown_in or sides_public(state, auction.high):
        return score
    return score._replace(
        amico=NO_SEAT, signori=None, popolo=None, won=None, decided_at=0, payments=()
    )


class TrionfoSideScore(NamedTuple):
    """One seat's score (each seat is its own side in the match totals)."""

    #: What this seat took in this deal's tricks.
    current: HandScore
    #: Its part in this deal, once public.
    role: Role
    #: The deal in progress, as far as it is public (``public_score``).
    deal: DealScore
    #: The last finished deal, complete; None before the first ends.
    last_deal: DealScore | None


def roles(state: TrionfoState, deal: DealScore) -> tuple[Role, ...]:
    """Each seat's part in the deal as ``deal`` (a public score) shows it."""
    if not deal.contract:
        return (Role.UNKNOWN,) * SEATS
    out = []
    for seat in range(SEATS):
        if seat == deal.declarer:
            out.append(Role.DECLARER)
        elif seat == deal.amico:
            out.append(Role.AMICO)
        elif sides_public(state, deal.contract):
            out.append(Role.POPOLO)
        else:
            out.append(Role.UNKNOWN)
    return tuple(out)


def score_report(state: TrionfoState) -> ScoreReport:
    """Score of a Trionfo state: one side per seat, nothing that is still secret (the
    amico, and what depends on him, stay out until the called card is played)."""
    table = state.table
    deal = public_score(state)
    current = seat_scores(state)
    parts = roles(state, deal)
    sides = tuple(
        SideScore(
            side=seat,
            seats=(seat,),
            match_total=table.totals[seat],
            detail=TrionfoSideScore(current[seat], parts[seat], deal, table.last_deal),
        )
        for seat in range(SEATS)
    )
    finished = state.phase is TPhase.OVER
    best = max(table.totals)
    winners = tuple(s for s, t in enumerate(table.totals) if t == best) if finished else ()
    return ScoreReport(sides, finished, winners)
