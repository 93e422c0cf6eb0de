"""``builtin:heuristic`` for Maraffa: a simple card player, reading only the ActRequest.

It knows what a club player does first: claim as soon as the claim is good; choose
trumps by length and the 3-2-A; lead a card nobody can beat in its suit, else a
worthless one; give points to a partner who holds the trick; take a trick with the
lowest card that wins it, cutting with a trump only when there are points in it;
otherwise throw the cheapest card. Deterministic, and far stronger than random.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazzo.games.maraffa.cards import DECK, STRENGTH, SUIT, THIRDS
from mazzo.games.maraffa.tricks import winning_index
from mazzo.v1 import bot_pb2, game_pb2, maraffa_pb2

#: The marafona (3, 2 and A of trumps) is worth 3 points to its declarer's side.
MARAFONA_POINTS = 3
#: Cutting with a trump is worth it from this many thirds in the trick.
CUT_FOR_THIRDS = 2
_ACE_STRENGTH = 8
#: Per card: the cards of its suit that beat it.
_STRONGER = {
    card: tuple(c for c in DECK if SUIT[c] == SUIT[card] and STRENGTH[c] > STRENGTH[card])
    for card in DECK
}


def act(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
    return bot_pb2.ActResponse(index=choose(request))


def choose(request: bot_pb2.ActRequest) -> int:
    """The index of the chosen legal move."""
    moves = request.legal_moves
    view = request.view.maraffa
    claim = next((i for i, m in enumerate(moves) if m.maraffa.HasField("claim")), None)
    if claim is not None and _claim_is_good(request):
        return claim
    if view.phase == maraffa_pb2.MARAFFA_PHASE_TRUMP:
        return _choose_trump(request.legal_moves, _my_cards(request))
    plays = _plays(moves)
    if not plays:
        return next(i for i, m in enumerate(moves) if i != claim)
    card = _choose_card(request, list(plays))
    return plays[card]


def _my_cards(request: bot_pb2.ActRequest) -> list[int]:
    view = request.view.maraffa
    if view.HasField("dummy_seat") and request.seat == view.dummy_seat:
        return list(view.dummy_hand)
    return list(view.hand)


def _plays(moves: Sequence[game_pb2.Move]) -> dict[int, int]:
    """card -> index of its plain play, or of the play that declares the marafona."""
    plays: dict[int, int] = {}
    for i, m in enumerate(moves):
        if not m.maraffa.HasField("play_card"):
            continue
        play = m.maraffa.play_card
        if play.signal:
            continue
        if play.card not in plays or play.declare_marafona:
            plays[play.card] = i
    return plays


def _claim_is_good(request: bot_pb2.ActRequest) -> bool:
    """Would a claim win now? The same sum as the rules' (maraffa.md §3.6)."""
    view = request.view.maraffa
    team = request.seat % 2
    # Seats 0 and 1 of the 2-player form are sides 0 and 1 too.
    thirds = sum(THIRDS[c] for t in view.tricks if t.winner % 2 == team for c in t.cards)
    options = view.table.options
    keep_thirds = options.fractions == maraffa_pb2.MARAFFA_FRACTIONS_KEEP_THIRDS
    marafona = view.HasField("marafona_seat") and view.marafona_seat % 2 == team
    total = request.view.match_score[team] if len(request.view.match_score) > team else 0
    target = view.table.effective_target
    if options.claim_rule == maraffa_pb2.MARAFFA_CLAIM_RULE_STRICT_ONE_THIRD:
        if keep_thirds:
            return total + thirds >= target + 1
        return 3 * total + thirds >= 3 * target + 1
    bonus = MARAFONA_POINTS * (3 if keep_thirds else 1) if marafona else 0
    value = total + (thirds if keep_thirds else thirds // 3) + bonus
    return value >= target


def _choose_trump(moves: Sequence[game_pb2.Move], cards: list[int]) -> int:
    best, best_score = 0, -1.0
    for i, m in enumerate(moves):
        if not m.maraffa.HasField("declare_trump"):
            continue
        suit = m.maraffa.declare_trump.suit - 1
        mine = [c for c in cards if SUIT[c] == suit]
        tops = {STRENGTH[c] for c in mine} & {10, 9, 8}
        score = 3.0 * len(mine) + sum(STRENGTH[c] for c in mine) / 10 + 2.0 * len(tops)
        if len(tops) == 3:
            score += 10.0
        if score > best_score:
            best, best_score = i, score
    return best


def _choose_card(request: bot_pb2.ActRequest, playable: list[int]) -> int:
    view = request.view.maraffa
    seats = len(view.hand_sizes)
    trump = view.trump - 1
    trick = list(view.current_trick.cards)
    if not trick:
        return _lead(view, playable, trump)
    best = winning_index(tuple(trick), trump)
    winner = (view.current_trick.leader + best) % seats
    last = len(trick) == seats - 1
    led = SUIT[trick[0]]
    if seats == 4 and winner % 2 == request.seat % 2:
        safe = last or SUIT[trick[best]] == trump or STRENGTH[trick[best]] >= _ACE_STRENGTH
        if safe:
            return _richest(playable, trump)
        return _cheapest(playable, trump)
    beats = [c for c in playable if _beats(c, trick[best], led, trump)]
    in_trick = sum(THIRDS[c] for c in trick)
    last_trick = sum(view.hand_sizes) <= seats
    plain = [c for c in beats if SUIT[c] != trump]
    if plain:
        if last:
            return max(plain, key=lambda c: (THIRDS[c], -STRENGTH[c]))
        return min(plain, key=lambda c: STRENGTH[c])
    if beats and (in_trick >= CUT_FOR_THIRDS or last_trick):
        return min(beats, key=lambda c: STRENGTH[c])
    return _cheapest(playable, trump)


def _beats(card: int, best: int, led: int, trump: int) -> bool:
    if SUIT[card] == SUIT[best]:
        return STRENGTH[card] > STRENGTH[best]
    return SUIT[card] == trump


def _lead(view: maraffa_pb2.MaraffaView, playable: list[int], trump: int) -> int:
    gone = {c for t in view.tricks for c in t.cards}
    mine = set(playable)
    masters = [c for c in playable if SUIT[c] != trump and _is_master(c, gone | mine)]
    if masters:
        return max(masters, key=lambda c: (THIRDS[c], STRENGTH[c]))
    return _cheapest(playable, trump)


def _is_master(card: int, known: set[int]) -> bool:
    """No card of its suit still out (neither played nor ours) is stronger."""
    return all(c in known for c in _STRONGER[card])


def _cheapest(playable: list[int], trump: int) -> int:
    return min(playable, key=lambda c: (THIRDS[c], SUIT[c] == trump, STRENGTH[c]))


def _richest(playable: list[int], trump: int) -> int:
    return max(playable, key=lambda c: (SUIT[c] != trump, THIRDS[c], -STRENGTH[c]))
