"""The fast paths of a turn of play against plain reference listings (ramino.md §3.4, §3.6).

``rules.legal_moves`` skips work wherever it can: the whole-hand and per-discard tests
of ``closures.closing_discards`` settle most hands before any search, and the pile
limit is decided without counting when the last turn was a draw. Here positions of
seeded random play, for every player count, with the joker on and off and with and
without repeated suits in sets, are listed again the slow and obvious way:

- DISCARD: every distinct code held, in order, but the card just taken from the pile;
- CLOSE: every such code whose discard leaves ten cards that ``best_closure`` values
  at 1 or more (itself checked against the spec's loop in test_closures.py, and here
  against the loop too on the first positions that close);
- DRAW always, TAKE when the pile has a card and the turns in a row begun from it are
  fewer than three per participant.
"""

from __future__ import annotations

import random

import pytest

from mazzo.core.cards import codes
from mazzo.games.ramino import reference, rules
from mazzo.games.ramino.cards import card_at, pack
from mazzo.games.ramino.closures import best_closure, can_close, closing_discards
from mazzo.games.ramino.moves import CLOSE_HELD, DRAW, TAKE_DISCARD, Kind, Move
from mazzo.games.ramino.options import Options
from mazzo.games.ramino.state import Phase, Source, State, participants, pile_streak

#: Positions after taking, per configuration (40 configurations: 8,000 in all).
POSITIONS = 200
#: Positions with a CLOSE whose every discard is also valued by the spec's loop.
SPEC_CHECKS = 3


def without(hand: tuple[int, ...], c: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(c)
    return tuple(rest)


def expected_moves(state: State) -> tuple[Move, ...]:
    """The listing of a turn of play, written out plainly from the rules text."""
    options = state.table.options
    hand = state.hands[state.to_act]
    if state.taken is Source.NONE:
        limit = 3 * len(participants(state))
        take = bool(state.pile) and (len(state.turns) < limit or pile_streak(state.turns) < limit)
        return (DRAW, TAKE_DISCARD) if take else (DRAW,)
    forbidden = (
        state.taken_card
        if state.taken is Source.PILE and not options.rediscard_taken_card
        else None
    )
    allowed = [c for c in sorted(set(hand)) if c != forbidden]
    moves = [Move(Kind.DISCARD, card=c) for c in allowed]
    jokers, dup = options.imaginary_jokers, options.set_duplicate_suits
    if options.hand_size == 10:
        for c in allowed:
            if best_closure(without(hand, c), jokers, dup).multiplier:
                moves.append(Move(Kind.CLOSE, card=c))
    elif best_closure(hand, jokers, dup).multiplier:
        moves.append(CLOSE_HELD)
    return tuple(moves)


def spec_closing(state: State) -> list[int]:
    """The closing discards by the spec's own loop (slow: only a few positions)."""
    options = state.table.options
    hand = state.hands[state.to_act]
    return [
        c
        for c in sorted(set(hand))
        if reference.best_closure(
            without(hand, c), options.imaginary_jokers, options.set_duplicate_suits
        )[0]
    ]


def near_closure(state: State, rnd: random.Random) -> State:
    """The same position with the player's hand replaced by a near-closure of the
    spec's sampler plus one card (the card taken, if it came from the pile): random
    play seldom holds one, so the CLOSE listing would be compared too rarely."""
    ten = reference.sample_hand(rnd)
    size = state.table.options.hand_size
    extra = rnd.choice([c for c in range(1, 53) if ten.count(c) < 2])
    hand = tuple(sorted((*ten[:size], extra)))
    hands = list(state.hands)
    hands[state.to_act] = hand
    taken_card = extra if state.taken is Source.PILE else state.taken_card
    return state._replace(hands=tuple(hands), taken_card=taken_card)


def check(state: State, spec_checks: int) -> bool:
    """Compare the listing of ``state``; with ``spec_checks``, also the closing
    discards by the spec's loop. Returns whether the position may close."""
    options = state.table.options
    legal = rules.legal_moves(state)
    hand = state.hands[state.to_act]
    assert legal == expected_moves(state), (codes(hand), state.taken, state.taken_card)
    if state.taken is Source.NONE:
        return False
    closes = [m.card for m in legal if m.kind is Kind.CLOSE]
    if options.hand_size == 10:  # can_close agrees on every discard
        jokers, dup = options.imaginary_jokers, options.set_duplicate_suits
        for c in set(hand):
            ten = without(hand, c)
            assert can_close(pack(ten), jokers, dup) == bool(
                best_closure(ten, jokers, dup).multiplier
            ), (codes(hand), c)
        if closes and spec_checks:
            discards = {m.card for m in legal if m.kind is Kind.DISCARD}
            assert closes == [c for c in spec_closing(state) if c in discards], codes(hand)
    return any(m.kind is Kind.CLOSE for m in legal)


def walk(options: Options, players: int, seed: int) -> tuple[int, int]:
    """Play random matches until ``POSITIONS`` positions after taking were compared,
    every second one also with a near-closure hand; returns (positions compared,
    positions with a CLOSE)."""
    rnd = random.Random(seed)
    compared = closing = 0
    match = 0
    while compared < POSITIONS:
        state, _ = rules.deal(options, players, seed * 1000 + match)
        match += 1
        while state.phase is not Phase.OVER and compared < POSITIONS:
            if state.phase is Phase.PLAY:
                closing += check(state, spec_checks=0)
                if state.taken is not Source.NONE:
                    compared += 1
                    if compared % 2 == 0:
                        spec = closing < SPEC_CHECKS
                        closing += check(near_closure(state, rnd), spec_checks=spec)
            legal = rules.legal_moves(state)
            state, _ = rules.apply(state, legal[rnd.randrange(len(legal))])
    return compared, closing


CONFIGS = [
    (players, jokers, dup, size)
    for players in (2, 3, 4, 5, 6)
    for jokers in (0, 1)
    for dup in (False, True)
    for size in (10, 9)
]


@pytest.mark.parametrize(("players", "jokers", "dup", "size"), CONFIGS)
def test_play_listings_match_the_plain_reference(
    players: int, jokers: int, dup: bool, size: int
) -> None:
    options = Options(
        hand_size=size,
        imaginary_jokers=jokers,
        set_duplicate_suits=dup,
        rediscard_taken_card=players % 2 == 1,
    )
    seed = 100 * players + 10 * jokers + 2 * dup + (size == 9)
    compared, closing = walk(options, players, seed)
    assert compared == POSITIONS
    assert closing >= 3  # the CLOSE listing was really compared


def test_crowded_hands_keep_every_closing_discard() -> None:
    """Eleven cards drawn from a few ranks of a few suits, both packs: codes repeat and
    combinations overlap, the cases where a second copy counts as weak. The whole-hand
    and per-discard tests must never drop a discard that ``can_close`` accepts."""
    rnd = random.Random(21)
    compared = closing = 0
    while compared < 3000:
        suits = rnd.sample(range(4), rnd.choice([2, 3, 4]))
        low = rnd.randint(0, 8)
        ranks = range(low, min(13, low + rnd.choice([3, 4, 5, 6])))
        pool = [card_at(s, r) for s in suits for r in ranks] * 2
        if len(pool) < 11:
            continue
        hand = tuple(sorted(rnd.sample(pool, 11)))
        allowed = sorted(set(hand))
        m = pack(hand)
        for jokers in (0, 1):
            for dup in (False, True):
                every = tuple(d for d in allowed if can_close(m - pack([d]), jokers, dup))
                assert closing_discards(hand, jokers, dup, allowed) == every, (
                    codes(hand),
                    jokers,
                    dup,
                )
                compared += 1
                closing += bool(every)
    assert closing > 1000
