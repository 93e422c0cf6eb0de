"""The rules of burraco.md written out again, plainly, to check the engine against.

Nothing here imports the engine's rule code: melds are judged by brute force over
every interpretation (§3.2's pseudo-code, §4.1, §7.3), card values come from the
table of §1.2, and hands are scored from the public events alone (§4.2, §2.4.4,
§4.3). Cards are two-character codes (``"7H"``, ``"JK"``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mazzo.core.cards import code
from mazzo.games.burraco import events as ev

RANK_POSITION = {r: i + 1 for i, r in enumerate("A23456789TJQK")}
PULITO, SEMIPULITO, SPORCO = 3, 2, 1
BONUS = {PULITO: 200, SEMIPULITO: 150, SPORCO: 100}


def value(c: str) -> int:
    """§1.2."""
    if c == "JK":
        return 30
    if c[0] == "2":
        return 20
    if c[0] == "A":
        return 15
    return 10 if c[0] in "KQJT98" else 5


def is_wild_card(c: str) -> bool:
    return c == "JK" or c[0] == "2"


@dataclass(frozen=True)
class Reading:
    """One interpretation: the kind, how clean it is, the wild's position (sequences)."""

    kind: str
    clean: int
    wild_position: int = 0
    ace_high: bool = False


def readings(cards: Sequence[str]) -> list[Reading]:
    """Every valid interpretation of a meld (empty: not a meld)."""
    out = []
    wild = [c for c in cards if is_wild_card(c)]
    nat = [c for c in cards if not is_wild_card(c)]
    # valid_combination of §3.2: in a combination every 2 is wild.
    if 3 <= len(cards) <= 9 and len(wild) <= 1 and nat and len({c[0] for c in nat}) == 1:
        clean = PULITO if not wild else SEMIPULITO if len(cards) >= 8 else SPORCO
        out.append(Reading("combination", clean))
    if not 3 <= len(cards) <= 14:
        return out
    # exists_interpretation of §3.2: at most one card is the wild; every other card a
    # natural of one suit (a 2 of that suit at position 2); distinct positions in 1..14,
    # at most one natural ace; naturals and the wild one contiguous block.
    choices: list[int | None] = [None] + [i for i, c in enumerate(cards) if is_wild_card(c)]
    for w in choices:
        others = [c for i, c in enumerate(cards) if i != w]
        if any(c == "JK" for c in others) or len({c[1] for c in others}) != 1:
            continue
        aces = [c for c in others if c[0] == "A"]
        if len(aces) > 1:
            continue
        for ace in (1, 14) if aces else (0,):
            positions = [ace if c[0] == "A" else RANK_POSITION[c[0]] for c in others]
            if len(set(positions)) != len(positions):
                continue
            places = [p for p in range(1, 15) if p not in positions] if w is not None else [0]
            for place in places:
                block = sorted(positions + ([place] if place else []))
                if block[-1] - block[0] + 1 != len(block):
                    continue
                if place:
                    below = sum(p < place for p in positions)
                    above = len(positions) - below
                    clean = SEMIPULITO if max(below, above) >= 7 else SPORCO
                else:
                    clean = PULITO
                out.append(Reading("sequence", clean, place, ace == 14))
    return out


def is_meld(cards: Sequence[str]) -> bool:
    return bool(readings(cards))


def kind_of(cards: Sequence[str]) -> str:
    kinds = {r.kind for r in readings(cards)}
    assert len(kinds) == 1, f"§3.2 rule 5: exactly one kind for {cards}: {kinds}"
    return kinds.pop()


def canonical(cards: Sequence[str]) -> Reading:
    """§7.3: the cleanest reading; then ace low; then a free wild at the high end."""
    options = readings(cards)
    assert options, f"not a meld: {cards}"
    best = max(r.clean for r in options)
    options = [r for r in options if r.clean == best]
    low_ace = [r for r in options if not r.ace_high]
    options = low_ace or options
    return max(options, key=lambda r: r.wild_position)


def burraco_bonus(cards: Sequence[str], semipulito: bool) -> tuple[int, int]:
    """§4.1: (kind, bonus) of a meld; kind 0 under 7 cards."""
    if len(cards) < 7:
        return 0, 0
    clean = max(r.clean for r in readings(cards))
    if clean == SEMIPULITO and not semipulito:
        clean = SPORCO
    return clean, BONUS[clean]


def codes_of(cards: Iterable[int]) -> list[str]:
    return [code(c) for c in cards]


# --------------------------------------------------------------------------- scores from events


@dataclass
class Hand:
    players: int
    melds: dict[int, tuple[int, list[str]]] = field(default_factory=dict)
    takers: set[int] = field(default_factory=set)
    solo: int = -1


@dataclass
class Scorer:
    """Follows a match's events and recomputes every hand score and the match result."""

    players: int
    semipulito: bool = True
    totals: list[int] = field(default_factory=list)
    hands_scored: int = 0
    hand: Hand | None = None
    closer: int = -1
    shown: list[list[str]] = field(default_factory=list)
    finished: bool = False
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        self.totals = [0] * (2 if self.players == 4 else self.players)

    def sides(self) -> list[tuple[int, ...]]:
        """§2.1, §2.4.3."""
        assert self.hand is not None
        if self.players == 4:
            return [(0, 2), (1, 3)]
        if self.players == 2 or self.hand.solo < 0:
            return [(s,) for s in range(self.players)]
        pair = tuple(s for s in range(3) if s != self.hand.solo)
        return sorted([(self.hand.solo,), pair])

    def feed(self, event: object) -> None:
        match event:
            case ev.HandDealt():
                self.hand = Hand(self.players)
                self.closer = -1
            case ev.MeldOpened(seat, meld_id, cards, _):
                assert self.hand is not None and meld_id == len(self.hand.melds)
                self.hand.melds[meld_id] = (seat, codes_of(cards))
                assert is_meld(self.hand.melds[meld_id][1])
            case ev.LaidOff(_, meld_id, cards):
                assert self.hand is not None
                self.hand.melds[meld_id][1].extend(codes_of(cards))
                assert is_meld(self.hand.melds[meld_id][1])
            case ev.PozzettoTaken(seat, _, _, _):
                assert self.hand is not None
                self.hand.takers.add(seat)
            case ev.PairFormed(solo, _):
                assert self.hand is not None and self.players == 3
                self.hand.solo = solo
            case ev.Closed(seat):
                self.closer = seat
            case ev.HandEnded(closer, hands):
                assert closer == self.closer
                self.shown = [codes_of(h) for h in hands]
            case ev.HandScored(scores, credits, totals):
                self.check_hand(scores, credits, totals)
            case ev.MatchEnded(winners, totals):
                assert list(totals) == self.totals
                self.finished = True
                self.winners = tuple(winners)

    def side_score(self, seats: tuple[int, ...]) -> tuple[int, ...]:
        """§4.2: (melded, bonuses, closing, in_hand, no_pozzetto, score)."""
        assert self.hand is not None
        melded = bonuses = 0
        for opener, cards in self.hand.melds.values():
            if opener in seats:
                melded += sum(value(c) for c in cards)
                bonuses += burraco_bonus(cards, self.semipulito)[1]
        closing = 100 if self.closer in seats else 0
        in_hand = sum(value(c) for s in seats for c in self.shown[s])
        no_pozzetto = 0 if self.hand.takers & set(seats) else 100
        score = melded + bonuses + closing - in_hand - no_pozzetto
        return melded, bonuses, closing, in_hand, no_pozzetto, score

    def check_hand(
        self, scores: Sequence[object], credits: Sequence[int], totals: Sequence[int]
    ) -> None:
        sides = self.sides()
        assert [s.seats for s in scores] == sides  # type: ignore[attr-defined]
        expected_credit = [0] * len(self.totals)
        for seats, got in zip(sides, scores, strict=True):
            want = self.side_score(seats)
            assert tuple(got)[1:7] == want, f"§4.2 side {seats}: want {want}, got {got}"
            for seat in seats:
                if self.players == 4:
                    expected_credit[seat % 2] = want[-1]
                elif len(seats) == 2:
                    expected_credit[seat] = math.ceil(want[-1] / 2)  # §2.4.4
                else:
                    expected_credit[seat] = want[-1]
        assert list(credits) == expected_credit
        self.totals = [t + c for t, c in zip(self.totals, expected_credit, strict=True)]
        assert list(totals) == self.totals
        self.hands_scored += 1


def expected_result(
    totals: Sequence[int], hands_played: int, target: int, hands: int, max_hands: int
) -> tuple[bool, tuple[int, ...]]:
    """§4.3: is the match over after ``hands_played`` hands, and who won."""
    top = max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == top)
    single = leaders if len(leaders) == 1 else ()
    if hands:
        return hands_played >= hands, single
    if top >= target and single:
        return True, single
    return hands_played >= max_hands, single
