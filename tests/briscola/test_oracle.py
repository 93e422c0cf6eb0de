"""An independent reference: Briscola written again from briscola.md in plain code,
with cards as text codes, the shuffle of README §7 and no import from the engine. A
few hundred seeded random matches are played by both; at every step they must agree
on the seat to act, the legal cards, the hands and the stock size, and at every trick
and hand end on the winner, the points, the draws and the match."""

from __future__ import annotations

import hashlib
import math
import random

import pytest

from mazzo.core.cards import code as engine_code
from mazzo.games.briscola import events as ev
from mazzo.games.briscola.game import RULES
from mazzo.games.briscola.options import Options

# --------------------------------------------------------------------------- README §7


def _block(seed: int, counter: int, k: int) -> bytes:
    data = seed.to_bytes(8, "little") + counter.to_bytes(8, "little") + k.to_bytes(4, "little")
    return hashlib.blake2b(data, digest_size=64, person=b"mazzo-v1").digest()


def draw_below(seed: int, counter: int, n: int) -> int:
    blocks = -(-(n.bit_length() + 64) // 512)
    bits = 512 * blocks
    limit = (2**bits // n) * n
    k = 0
    while True:
        x = int.from_bytes(b"".join(_block(seed, counter, k + i) for i in range(blocks)), "big")
        if x < limit:
            return x % n
        k += blocks


def shuffled(deck: list[str], seed: int, counter: int) -> list[str]:
    cards = list(deck)
    r = draw_below(seed, counter, math.factorial(len(cards)))
    for i in range(len(cards) - 1, 0, -1):
        r, j = divmod(r, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# --------------------------------------------------------------------------- briscola.md

STRENGTH = {"A": 10, "3": 9, "K": 8, "Q": 7, "J": 6, "7": 5, "6": 4, "5": 3, "4": 2, "2": 1}
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}
CANONICAL = [r + s for s in "SHDC" for r in "A234567JQK"]


def canonical(cards: list[str]) -> list[str]:
    return sorted(cards, key=CANONICAL.index)


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    led = plays[0][1][1]
    trumps = [p for p in plays if p[1][1] == trump]
    pool = trumps if trumps else [p for p in plays if p[1][1] == led]
    return max(pool, key=lambda p: STRENGTH[p[1][0]])[0]


class Reference:
    def __init__(self, players: int, seed: int, hands_to_win: int) -> None:
        self.n = players
        self.seed = seed
        self.hands_to_win = hands_to_win
        self.sides = 2 if players == 4 else players
        self.won = [0] * self.sides
        self.dealer = draw_below(seed, 0, players)
        self.counter = 1
        self.over = False
        self.log: list[tuple[object, ...]] = []
        self.deal()

    def side(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def deal(self) -> None:
        deck = [c for c in CANONICAL if not (self.n == 3 and c == "2C")]
        d = shuffled(deck, self.seed, self.counter)
        self.counter += 1
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        for k in range(1, self.n + 1):
            self.hands[(self.dealer + k) % self.n] = d[3 * (k - 1) : 3 * k]
        self.trump_card = d[3 * self.n]
        self.stock = [*d[3 * self.n + 1 :], self.trump_card]
        self.turn = (self.dealer + 1) % self.n
        self.trick: list[tuple[int, str]] = []
        self.points = [0] * self.sides
        self.log.append(("dealt", self.dealer, self.trump_card))

    def legal(self) -> list[str]:
        return [] if self.over else canonical(self.hands[self.turn])

    def play(self, card: str) -> None:
        self.hands[self.turn].remove(card)
        self.trick.append((self.turn, card))
        self.turn = (self.turn + 1) % self.n
        if len(self.trick) < self.n:
            return
        winner = trick_winner(self.trick, self.trump_card[1])
        points = sum(POINTS[c[0]] for _, c in self.trick)
        self.points[self.side(winner)] += points
        self.log.append(("trick", winner, points))
        self.trick = []
        self.turn = winner
        if self.stock:
            order = [(winner + i) % self.n for i in range(self.n)]
            for seat in order:
                self.hands[seat].append(self.stock.pop(0))
            self.log.append(("drew", order, self.trump_card in self.hands[order[-1]]))
        if not any(self.hands):
            self.end_hand()

    def end_hand(self) -> None:
        best = max(self.points)
        winner = self.points.index(best) if self.points.count(best) == 1 else -1
        if winner >= 0:
            self.won[winner] += 1
        self.log.append(("hand", tuple(self.points), winner, tuple(self.won)))
        if winner >= 0 and self.won[winner] == self.hands_to_win:
            self.over = True
            return
        if winner >= 0:
            self.dealer = (self.dealer + 1) % self.n
        self.deal()


# --------------------------------------------------------------------------- the comparison


def engine_log(events: list[object]) -> list[tuple[object, ...]]:
    """The engine's events in the reference's terms: a trick's draws (the seats in
    order, and whether the last took the trump card) right after the trick."""
    out: list[tuple[object, ...]] = []
    drew: list[int] = []
    trump_taken = False
    for e in [*events, None]:
        if isinstance(e, ev.Drew | ev.TrumpCardTaken):
            drew.append(e.seat)
            trump_taken = isinstance(e, ev.TrumpCardTaken)
            continue
        if drew:
            out.append(("drew", drew, trump_taken))
            drew = []
        if isinstance(e, ev.TrickWon):
            out.append(("trick", e.seat, e.points))
        elif isinstance(e, ev.HandScored):
            out.append(("hand", tuple(s.points for s in e.scores), e.winner, e.hands_won))
        elif isinstance(e, ev.HandDealt):
            out.append(("dealt", e.dealer, engine_code(e.trump_card)))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_agrees_with_the_reference(players: int) -> None:
    for seed in range(100):
        hands_to_win = 1 + seed % 2
        rng = random.Random(seed * 7 + players)
        options = Options(hands_to_win=hands_to_win)
        state, events = RULES.deal(options, players, seed)
        ref = Reference(players, seed, hands_to_win)
        got = engine_log(list(events))
        while True:
            assert RULES.finished(state) == ref.over
            if ref.over:
                break
            assert RULES.to_act(state) == ref.turn
            legal = [engine_code(m.card) for m in RULES.legal_moves(state)]
            assert legal == ref.legal()
            assert [[engine_code(c) for c in h] for h in state.hands] == [
                canonical(h) for h in ref.hands
            ]
            assert len(state.stock) == len(ref.stock)
            choice = rng.randrange(len(legal))
            state, events = RULES.apply(state, RULES.legal_moves(state)[choice])
            ref.play(legal[choice])
            got += engine_log(list(events))
        assert got == ref.log, seed
        report = RULES.score(state)
        assert [s.match_total for s in report.sides] == ref.won
        assert report.winners == (ref.won.index(hands_to_win),)
