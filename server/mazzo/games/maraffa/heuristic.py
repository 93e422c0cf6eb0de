"""``builtin:heuristic`` for Maraffa: a simple card player, reading only the ActRequest.

It knows what a club player does first: claim as soon as the claim is good; choose
trumps by length and the 3-2-A; lead a card nobody can beat in its suit, else a
worthless one; give points to a partner who holds the trick; take a trick with the
lowest card that wins it, cutting with a trump only when there are points in it;
otherwise throw the cheapest card. Deterministic, and far stronger than random.

Every form plays: four players and the 3-player dummy (the partner is the seat
opposite), the 39-card game for three and the 2-player stock game (each for
himself), and Trionfo for five, where it bids ``CHIAMO`` (or ``DI_PIU`` with a
very long suit) from the length and the 3-2-A of its best suit, calls the
strongest card it lacks outside trumps, and treats as partners the seats it knows
to be on its side (the declarer and the amico, or the popolo once the amico is
known).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mazzo.games.maraffa.cards import DECK, STRENGTH, SUIT, THIRDS
from mazzo.games.maraffa.moves import Claim, PlayCard, Signal
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


def choose(request: bot_pb2.ActRequest) -> int:
    """The index of the chosen legal move."""
    moves = request.legal_moves
    view = request.view.maraffa
    claim = next((i for i, m in enumerate(moves) if m.maraffa.HasField("claim")), None)
    if claim is not None and _claim_is_good(request):
        return claim
    if view.phase == maraffa_pb2.MARAFFA_PHASE_AUCTION:
        return _bid(moves, _my_cards(request))
    if view.phase in (maraffa_pb2.MARAFFA_PHASE_TRUMP, maraffa_pb2.MARAFFA_PHASE_DECLARE):
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


def _side(seat: int, seats: int) -> int:
    """The side of a seat: pairs with four seats (the dummy's too), else each alone."""
    return seat % 2 if seats == 4 else seat


def _claim_is_good(request: bot_pb2.ActRequest) -> bool:
    """Would a claim win now? The same sum as the rules' (maraffa.md §3.6)."""
    view = request.view.maraffa
    seats = len(view.hand_sizes)
    team = _side(request.seat, seats)
    thirds = sum(THIRDS[c] for t in view.tricks if _side(t.winner, seats) == team for c in t.cards)
    options = view.table.options
    keep_thirds = options.fractions == maraffa_pb2.MARAFFA_FRACTIONS_KEEP_THIRDS
    marafona = view.HasField("marafona_seat") and _side(view.marafona_seat, seats) == team
    total = request.view.match_score[team] if len(request.view.match_score) > team else 0
    target = view.table.effective_target
    if options.claim_rule == maraffa_pb2.MARAFFA_CLAIM_RULE_STRICT_ONE_THIRD:
        if keep_thirds:
            return total + thirds >= target + 1
        return 3 * total + thirds >= 3 * target + 1
    bonus = MARAFONA_POINTS * (3 if keep_thirds else 1) if marafona else 0
    value = total + (thirds if keep_thirds else thirds // 3) + bonus
    return value >= target


def _suit_score(cards: list[int], suit: int) -> float:
    """How good a trump suit is: its length first, then its 3-2-A."""
    mine = [c for c in cards if SUIT[c] == suit]
    tops = {STRENGTH[c] for c in mine} & {10, 9, 8}
    score = 3.0 * len(mine) + sum(STRENGTH[c] for c in mine) / 10 + 2.0 * len(tops)
    if len(tops) == 3:
        score += 10.0
    return score


def _choose_trump(moves: Sequence[game_pb2.Move], cards: list[int]) -> int:
    """The best suit; in Trionfo's CHIAMO also the called card: the strongest card
    not in hand (never calling oneself while another call is possible), from the
    suit where the hand is longest, so the partner's card backs the hand's own."""
    held = set(cards)
    per_suit = [sum(1 for c in cards if SUIT[c] == s) for s in range(4)]
    best, best_score = 0, -1e9
    for i, m in enumerate(moves):
        if not m.maraffa.HasField("declare_trump"):
            continue
        declare = m.maraffa.declare_trump
        score = 100.0 * _suit_score(cards, declare.suit - 1)
        called = declare.called_card
        if called:
            score += -50.0 if called in held else STRENGTH[called] + per_suit[SUIT[called]] / 10
        if score > best_score:
            best, best_score = i, score
    return best


#: Trionfo bids (maraffa-forms.md A.3): CHIAMO from this suit score, DI_PIU from the next.
CHIAMO_FROM = 13.0
DI_PIU_FROM = 30.0


def _bid(moves: Sequence[game_pb2.Move], cards: list[int]) -> int:
    """Trionfo's auction: the lowest bid the hand is worth, else pass."""
    strength = max(_suit_score(cards, s) for s in range(4))
    level = 2 if strength >= DI_PIU_FROM else 1 if strength >= CHIAMO_FROM else 0
    passing = next((i for i, m in enumerate(moves) if m.maraffa.HasField("pass_bid")), 0)
    bids = [(m.maraffa.bid.contract, i) for i, m in enumerate(moves) if m.maraffa.HasField("bid")]
    fitting = [b for b in bids if b[0] <= level]
    return min(fitting)[1] if fitting else passing


def _friends(request: bot_pb2.ActRequest) -> set[int]:
    """The seats known to play on this seat's side."""
    view = request.view.maraffa
    seats = len(view.hand_sizes)
    me = request.seat
    if seats == 4:
        return {(me + 2) % 4}
    if seats != 5 or not view.trionfo.HasField("declarer"):
        return set()
    t = view.trionfo
    declarer = t.declarer
    amico = t.amico if t.HasField("amico") else None
    if amico is None and t.called_card and t.called_card in view.hand:
        amico = me
    if amico is None:
        return set()
    signori = {declarer, amico}
    if me in signori:
        return signori - {me}
    return set(range(seats)) - signori - {me}


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
    if winner in _friends(request):
        safe = last or SUIT[trick[best]] == trump or STRENGTH[trick[best]] >= _ACE_STRENGTH
        if safe:
            return _richest(playable, trump)
        return _cheapest(playable, trump)
    beats = [c for c in playable if _beats(c, trick[best], led, trump)]
    in_trick = sum(THIRDS[c] for c in trick)
    last_trick = sum(view.hand_sizes) <= seats and view.stock_size == 0
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


# --------------------------------------------------------------------------- for search


def avoid_at_random(move: Any) -> bool:
    """A random player claims only when nothing else is legal: a claim ends the game at
    once, so random claims would only test the claim rule."""
    return type(move) is Claim


def avoid_at_random_on_wire(move: game_pb2.Move) -> bool:
    return move.maraffa.HasField("claim")


def search_candidates(legal: Sequence[Any]) -> list[int]:
    """The legal moves worth playing out. A signal changes nothing the playouts can see
    (no builtin policy reads signals), so a card's signalled plays would only repeat its
    plain play's numbers at their cost: search plays cards plain."""
    plain = {(m.card, m.marafona) for m in legal if type(m) is PlayCard and not m.signal}
    return [
        i
        for i, m in enumerate(legal)
        if not (
            type(m) is PlayCard and m.signal is not Signal.NONE and (m.card, m.marafona) in plain
        )
    ]
