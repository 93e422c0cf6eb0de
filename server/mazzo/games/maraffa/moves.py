"""Maraffa moves: small immutable values with a text form, interned.

Every possible move exists once (``play(c, s, m)`` returns the same object each
time), so listing legal moves allocates nothing and moves compare by identity.

Text form, used in errors, logs and tests: ``play 7S``, ``play KS striscio``,
``play AH marafona``, ``trump H``, ``redeal``, ``claim``; with five players (Trionfo,
maraffa-forms.md A) also ``bid chiamo``, ``pass`` and ``trump H call 3C``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from mazzo.core.cards import SUITS, card, code
from mazzo.games.maraffa.cards import DECK


class Signal(IntEnum):
    """Signals in the stable listing order of maraffa.md §3.3 (NONE first)."""

    NONE = 0
    BUSSO = 1
    STRISCIO = 2
    VOLO = 3
    TAGLIO = 4
    FUORI_TUTTO = 5
    TAGLIA = 6
    RISTRISCIO = 7
    BUONA = 8


class Contract(IntEnum):
    """Trionfo's four bids, in rising order (maraffa-forms.md A.3.1)."""

    CHIAMO = 1
    DI_PIU = 2
    MASO = 3
    MASO_DEI_MASI = 4


class Move:
    """Base of the Maraffa moves."""

    __slots__ = ()

    def __repr__(self) -> str:
        # A def, not ``__repr__ = __str__`` in each class: mypyc cannot compile that
        # alias (SystemError at import).
        return str(self)


class PlayCard(Move):
    __slots__ = ("card", "key", "marafona", "signal")
    card: int
    signal: Signal
    marafona: bool
    #: ``(card * 9 + signal) * 2 + marafona``: the play as one small int, for flat
    #: lookup tables (an int index is cheaper than an IntEnum one, compiled).
    key: int

    def __init__(self, card: int, signal: Signal, marafona: bool) -> None:
        self.card = card
        self.signal = signal
        self.marafona = marafona
        self.key = (card * 9 + signal) * 2 + marafona

    def __str__(self) -> str:
        text = "play " + code(self.card)
        if self.signal:
            text += " " + self.signal.name.lower()
        if self.marafona:
            text += " marafona"
        return text


class DeclareTrump(Move):
    __slots__ = ("suit",)
    suit: int

    def __init__(self, suit: int) -> None:
        self.suit = suit

    def __str__(self) -> str:
        return "trump " + SUITS[self.suit]


class RequestRedeal(Move):
    __slots__ = ()

    def __str__(self) -> str:
        return "redeal"


class Claim(Move):
    __slots__ = ()

    def __str__(self) -> str:
        return "claim"


class Bid(Move):
    """Trionfo: bid a contract, strictly above the highest bid so far."""

    __slots__ = ("contract",)
    contract: Contract

    def __init__(self, contract: Contract) -> None:
        self.contract = contract

    def __str__(self) -> str:
        return "bid " + self.contract.name.lower()


class Pass(Move):
    """Trionfo: pass in the auction."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pass"


class CallTrump(Move):
    """Trionfo under CHIAMO: name trumps and call a card; its holder is the partner."""

    __slots__ = ("card", "suit")
    suit: int
    card: int

    def __init__(self, suit: int, card: int) -> None:
        self.suit = suit
        self.card = card

    def __str__(self) -> str:
        return f"trump {SUITS[self.suit]} call {code(self.card)}"


#: PLAYS[card][signal][marafona]: every play move, built once.
PLAYS: Final[list[tuple[tuple[PlayCard, PlayCard], ...]]] = [()] * 54
for _c in DECK:
    PLAYS[_c] = tuple((PlayCard(_c, s, False), PlayCard(_c, s, True)) for s in Signal)
TRUMPS: Final = tuple(DeclareTrump(s) for s in range(4))
REDEAL: Final = RequestRedeal()
CLAIM: Final = Claim()
#: BIDS[contract]: index 0 is unused.
BIDS: Final = (None, *(Bid(c) for c in Contract))
PASS: Final = Pass()
#: CALLS[suit][card]: every declaration with a called card, those the rules refuse
#: (a card of the trump suit) included, so that they can be named and refused.
CALLS: Final[tuple[list[CallTrump | None], ...]] = tuple([None] * 54 for _ in range(4))
for _s in range(4):
    for _c in DECK:
        CALLS[_s][_c] = CallTrump(_s, _c)


def bid(contract: Contract) -> Bid:
    """The move that bids ``contract``."""
    move = BIDS[contract]
    assert move is not None
    return move


def call(suit: int, c: int) -> CallTrump:
    """The move that names trump ``suit`` and calls card ``c`` (Trionfo, CHIAMO)."""
    move = CALLS[suit][c]
    if move is None:
        raise ValueError(f"card {c} is not in the Maraffa pack")
    return move


def play(c: int, signal: Signal = Signal.NONE, marafona: bool = False) -> PlayCard:
    """The move that plays card ``c`` (a card id of the Maraffa deck)."""
    return PLAYS[c][signal][marafona]


def parse(text: str) -> Move:
    """The move written as text: ``parse("play KS striscio")``, ``parse("trump H")``."""
    words = text.split()
    match words:
        case ["claim"]:
            return CLAIM
        case ["redeal"]:
            return REDEAL
        case ["trump", s] if s in SUITS:
            return TRUMPS[SUITS.index(s)]
        case ["trump", s, "call", c] if s in SUITS:
            return call(SUITS.index(s), card(c))
        case ["bid", level] if level.upper() in Contract.__members__:
            return bid(Contract[level.upper()])
        case ["pass"]:
            return PASS
        case ["play", c, *extra]:
            cid = card(c)
            if cid not in DECK:
                raise ValueError(f"{c} is not in the Maraffa pack")
            marafona = "marafona" in extra
            rest = [w for w in extra if w != "marafona"]
            if len(rest) > 1:
                raise ValueError(f"more than one signal in {text!r}")
            signal = Signal[rest[0].upper()] if rest else Signal.NONE
            return play(cid, signal, marafona)
    raise ValueError(f"not a Maraffa move: {text!r}")
