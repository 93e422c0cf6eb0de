"""Build a Trionfo state from readable parts: worked examples, puzzles, test positions.

    state = trionfo_position(
        hands=["3C 2C AC 6H 5D 4D JS 7S", "", "", "", ""],  # unnamed cards are filled in
        bids="pass chiamo pass pass pass",                  # every speech so far
        trump="H",
        called="3C",
        played="AD 3D 6D",                                  # every card played this deal
        dealer=0,
    )

Cards not named anywhere go to the hands that are short of their size, in canonical
order. The result is checked like any state that comes in (``validate``), so a
position that could not arise by the rules is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.core.cards import SUITS, card, cards
from mazzo.games.maraffa.cards import DECK, mask_of
from mazzo.games.maraffa.moves import Contract
from mazzo.games.maraffa.options import Options
from mazzo.games.maraffa.state import HandScore
from mazzo.games.maraffa.trionfo.auction import replay
from mazzo.games.maraffa.trionfo.rules import first_table
from mazzo.games.maraffa.trionfo.scoring import trick_leaders
from mazzo.games.maraffa.trionfo.state import (
    CARDS_EACH,
    NO_CARD,
    NO_SEAT,
    NO_SUIT,
    PASSED,
    SEATS,
    DealScore,
    TPhase,
    TrionfoState,
)
from mazzo.games.maraffa.trionfo.validate import validate


def speeches(text: str) -> tuple[int, ...]:
    """Speeches from text: ``"pass chiamo di_piu"`` -> ``(0, 1, 2)``."""
    return tuple(PASSED if w == "pass" else Contract[w.upper()] for w in text.split())


def thrown_in(deal_number: int) -> DealScore:
    """The record of a deal nobody bid for: the default ``last_deal`` of a position."""
    zero = HandScore(0, 0, 0, 0, 0, 0, 0)
    return DealScore(
        deal_number, 0, NO_SEAT, NO_SUIT, NO_CARD, NO_SEAT, zero, zero, None, 0, (0,) * SEATS
    )


def trionfo_position(
    *,
    hands: Sequence[str],
    bids: str = "",
    trump: str | None = None,
    called: str | None = None,
    played: str = "",
    signals: Sequence[int] | None = None,
    dealer: int = 0,
    first_speaker: int | None = None,
    deal_number: int = 1,
    options: Options | None = None,
    totals: Sequence[int] | None = None,
    deals_counted: int | None = None,
    last_deal: DealScore | None = None,
    seed: int = 0,
) -> TrionfoState:
    """A validated state. The first speaker defaults to the rules' own: in deal 1 the
    seat holding (or having played) the first-speaker card, later ``next(dealer)``."""
    options = options or Options()
    named = [list(cards(h)) if h else [] for h in hands]
    play = cards(played) if played else ()
    used = {c for h in named for c in h} | set(play)
    spare = [c for c in DECK if c not in used]
    speech = speeches(bids)
    trump_suit = SUITS.index(trump) if trump else NO_SUIT
    if first_speaker is None:
        first_speaker = (dealer + 1) % SEATS
        if deal_number == 1:
            target = options.trionfo_first_speaker_card
            holders = [s for s, h in enumerate(named) if target in h]
            first_speaker = holders[0] if holders else first_speaker
    table = first_table(options, seed, dealer)
    table = table._replace(
        first_speaker=first_speaker,
        deal_number=deal_number,
        deals_counted=deal_number - 1 if deals_counted is None else deals_counted,
        totals=table.totals if totals is None else tuple(totals),
        last_deal=last_deal
        if last_deal is not None or deal_number == 1
        else thrown_in(deal_number - 1),
    )
    auction = replay(speech, first_speaker, options.trionfo_auction)
    if trump:
        phase = TPhase.PLAY
    elif auction.over and not auction.thrown_in:
        phase = TPhase.DECLARE
    else:
        phase = TPhase.AUCTION
    draft = TrionfoState(table, phase, 0, (0,) * SEATS, speech, trump_suit, NO_CARD, play)
    leader = trick_leaders(draft)[-1] if trump else first_speaker
    completed = len(play) // SEATS
    in_trick = len(play) - completed * SEATS
    for s in range(SEATS):
        size = CARDS_EACH - completed - (1 if (s - leader) % SEATS < in_trick else 0)
        while len(named[s]) < size and spare:
            named[s].append(spare.pop(0))
    if phase is TPhase.PLAY:
        to_act = (leader + in_trick) % SEATS
    elif phase is TPhase.DECLARE:
        to_act = auction.declarer
    else:
        to_act = auction.to_speak
    state = TrionfoState(
        table=table,
        phase=phase,
        to_act=to_act,
        hands=tuple(mask_of(h) for h in named),
        bids=speech,
        trump=trump_suit,
        called_card=card(called) if called else NO_CARD,
        played=play,
        signals=tuple(signals) if signals is not None else (0,) * len(play),
    )
    validate(state)
    return state
