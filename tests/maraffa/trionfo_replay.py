"""Helpers of the Trionfo determinization tests: random views from seeded play, and
the replay of a sample's deal from the start of its hand.

Nothing here comes from the sampler (``trionfo.determinize``): a sample is judged by
the engine itself. Its hidden deal is rebuilt as it stood when the hand was dealt
(every card played goes back to the seat that played it), the hand's public moves
(the speeches, the declaration, the plays, as the view records them) are replayed
through ``legal_moves`` and ``apply``, and the replay must end in the sample, every
view along the way agreeing with what the final view shows.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from mazzo.games.maraffa.cards import BIT, DECK
from mazzo.games.maraffa.game import RULES
from mazzo.games.maraffa.moves import PASS, TRUMPS, Bid, Contract, Move, Signal, bid, call, play
from mazzo.games.maraffa.options import Options, SignalSet, TrionfoAuction
from mazzo.games.maraffa.state import HandScore
from mazzo.games.maraffa.trionfo import rules as trionfo
from mazzo.games.maraffa.trionfo.state import (
    NO_CARD,
    NO_SEAT,
    NO_SUIT,
    SEATS,
    DealScore,
    TPhase,
    TrionfoState,
)
from mazzo.games.maraffa.trionfo.validate import validate
from mazzo.games.maraffa.trionfo.view import TrionfoView, view

_ZERO = HandScore(0, 0, 0, 0, 0, 0, 0)
FIVE_OF_SWORDS = Options().trionfo_first_speaker_card


def random_options(rng: random.Random) -> Options:
    """Every option of A.9 that changes a deal or what a view shows."""
    return Options(
        trionfo_first_speaker_card=DECK[rng.randrange(40)]
        if rng.random() < 0.3
        else FIVE_OF_SWORDS,
        trionfo_deal_batch=rng.choice((1, 2, 4, 8)),
        trionfo_auction=rng.choice((TrionfoAuction.CONTINUOUS, TrionfoAuction.SINGLE_ROUND)),
        trionfo_signals=rng.choice((SignalSet.NONE, SignalSet.CORE)),
        trionfo_stop_when_decided=rng.random() < 0.5,
        match_deals=rng.randint(1, 3),
        count_thrown_in=rng.random() < 0.7,
        first_dealer=rng.randrange(SEATS) if rng.random() < 0.3 else None,
    )


def random_move(state: TrionfoState, rng: random.Random) -> Move:
    """A random legal move; in the auction mostly passes and low bids, so that CHIAMO
    (and its secret partner) is the usual contract and deals are rarely thrown in."""
    moves = RULES.legal_moves(state)
    if state.phase is TPhase.AUCTION:
        if rng.random() < 0.5:
            return PASS
        bids = [m for m in moves if isinstance(m, Bid)]
        if bids:
            return bids[0] if rng.random() < 0.75 else rng.choice(bids)
        return PASS
    return rng.choice(moves)


def random_states(seed: int) -> Iterator[TrionfoState]:
    """Every state of seeded random matches, one match after another, forever."""
    rng = random.Random(seed)
    while True:
        state, _ = trionfo.deal(random_options(rng), SEATS, rng.getrandbits(64))
        yield state
        while not state.finished:
            state, _ = trionfo.apply(state, random_move(state, rng))
            yield state


def random_views(seed: int, count: int) -> Iterator[tuple[TrionfoState, TrionfoView]]:
    """``count`` views of random seats at random points of seeded random matches."""
    rng = random.Random(seed ^ 0x5EED)
    made = 0
    for state in random_states(seed):
        if rng.random() < 0.08 or (state.finished and rng.random() < 0.5):
            yield state, view(state, rng.randrange(SEATS))
            made += 1
            if made == count:
                return


# --------------------------------------------------------------------------- replay


def public_moves(v: TrionfoView) -> list[Move]:
    """The moves of the view's hand, in order, as the view records them."""
    moves: list[Move] = [bid(Contract(level)) if level else PASS for _, level in v.speeches]
    if v.trump != NO_SUIT:
        moves.append(call(v.trump, v.called_card) if v.called_card else TRUMPS[v.trump])
    for trick in (*v.tricks, v.trick):
        for c, s in zip(trick.cards, trick.signals, strict=True):
            moves.append(play(c, Signal(s)))
    return moves


def _plays(v: TrionfoView) -> list[tuple[int, int]]:
    return [
        ((t.leader + i) % SEATS, c) for t in (*v.tricks, v.trick) for i, c in enumerate(t.cards)
    ]


def hand_start(sample: TrionfoState, v: TrionfoView) -> TrionfoState:
    """The sample's deal as it was dealt: each card played back in its player's hand,
    and (when the deal is over) the match as it stood before the deal was scored."""
    hands = list(sample.hands)
    for seat, c in _plays(v):
        hands[seat] |= BIT[c]
    table = sample.table
    if sample.phase is TPhase.OVER:
        score = table.last_deal
        assert score is not None
        counted = score.contract != 0 or table.options.count_thrown_in
        before = None
        if table.deal_number > 1:  # any earlier deal will do: the replay overwrites it
            before = DealScore(
                table.deal_number - 1, 0, NO_SEAT, NO_SUIT, NO_CARD, NO_SEAT,
                _ZERO, _ZERO, None, 0, (0,) * SEATS,
            )  # fmt: skip
        table = table._replace(
            deals_counted=table.deals_counted - counted,
            totals=tuple(t - p for t, p in zip(table.totals, score.payments, strict=True)),
            last_deal=before,
        )
    return TrionfoState(table, TPhase.AUCTION, table.first_speaker, tuple(hands))


def replay_agrees(sample: TrionfoState, v: TrionfoView) -> str | None:
    """None if the sample's hidden deal, replayed from the hand's start through the
    hand's public moves, makes every move legal and ends in the sample (and the view),
    with every view on the way agreeing with ``v``; else what went wrong."""
    state = hand_start(sample, v)
    try:
        validate(state)
    except Exception as e:  # the engine's verdict on the dealt hands
        return f"hand start refused: {e}"
    seat = v.seat
    moves = public_moves(v)
    final_plays = _plays(v)
    own = set(v.hand)
    for k, move in enumerate(moves):
        if move not in RULES.legal_moves(state):
            return f"move {k} ({move}) is not legal"
        state, _ = trionfo.apply(state, move)
        if k == len(moves) - 1:
            break
        now = view(state, seat)
        if state.phase is TPhase.OVER or now.table.deal_number != v.table.deal_number:
            return f"the deal ended after move {k}"
        if now.speeches != v.speeches[: len(now.speeches)]:
            return f"speeches differ after move {k}"
        plays = _plays(now)
        if plays != final_plays[: len(plays)]:
            return f"plays differ after move {k}"
        if not own <= set(now.hand):
            return f"the viewer's hand lost a card it still holds, after move {k}"
        if now.amico not in (NO_SEAT, v.amico):
            return f"the amico showed as {now.amico} after move {k}"
    if state != sample:
        return "the replay does not end in the sample"
    if view(state, seat) != v:
        return "the replay's view differs"
    return None
