"""Burraco's moves and events as sentences for people watching (``viewer.texts``):
cards named in English (the queen of hearts, a run 4-5-6 of hearts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mazzo.games.declaration import Text
from mazzo.v1 import burraco_pb2
from mazzo.viewer.phrases import COUNTS, and_list, dashes, french, french_group, seats


def _meld(kind: int, cards: Sequence[int]) -> str:
    """``a run 4-5-6 of hearts``, ``a set of three kings (spades, hearts, clubs)``."""
    group = french_group(cards)
    if kind == burraco_pb2.BURRACO_MELD_KIND_SEQUENCE:
        return f"a run {group}"
    if kind == burraco_pb2.BURRACO_MELD_KIND_COMBINATION:
        return f"a set of {group}" if group.split()[0] in COUNTS else f"a set: {group}"
    return f"a meld: {group}"


def _burraco_dealt(e: burraco_pb2.BurracoHandDealt) -> str:
    pozzetti = and_list(str(n) for n in e.pozzetti)
    up = f"; the up-card is {french(e.up_card)}" if e.up_card else ""
    return f"hand {e.hand_number} is dealt by seat {e.dealer}{up}; pozzetti of {pozzetti} cards"


def _burraco_ended(e: burraco_pb2.BurracoHandEnded) -> str:
    left = dashes(len(h.cards) for h in e.hands)
    why = f"seat {e.closer} closed" if e.HasField("closer") else "the stock ran out"
    return f"the hand ends: {why}; cards left in hand {left}"


def _burraco_scored(e: burraco_pb2.BurracoHandScored) -> str:
    sides = "; ".join(f"{seats(s.seats)} {s.score}" for s in e.scores)
    return f"the hand is scored: {sides}; totals {dashes(e.totals)}"


def _burraco_match(e: burraco_pb2.BurracoMatchEnded) -> str:
    if not e.winners:
        return f"the match ends in a draw, totals {dashes(e.totals)}"
    sides = and_list(str(w) for w in e.winners)
    return f"the match is over: side {sides} wins, totals {dashes(e.totals)}"


EVENTS: Final[dict[str, Text]] = {
    "hand_dealt": _burraco_dealt,
    "drew": lambda e: f"seat {e.seat} draws from the stock",
    "pile_taken": lambda e: (
        f"seat {e.seat} picks up the discard pile ({len(e.cards)} "
        + ("card)" if len(e.cards) == 1 else "cards)")
    ),
    "meld_opened": lambda e: f"seat {e.seat} opens {_meld(e.kind, e.cards)} (meld {e.meld_id})",
    "laid_off": lambda e: f"seat {e.seat} lays off {french_group(e.cards)} on meld {e.meld_id}",
    "discarded": lambda e: f"seat {e.seat} discards {french(e.card)}",
    "pozzetto_taken": lambda e: (
        f"seat {e.seat} takes pozzetto {e.pozzetto + 1} ({e.size} cards), "
        + ("in diretta" if e.in_diretta else "con lo scarto")
    ),
    "pozzetto_unlocked": lambda e: f"seat {e.seat} may now look at the pozzetto",
    "pair_formed": lambda e: f"seat {e.solo} plays alone; {seats(e.pair)} play as a pair",
    "last_turn": lambda e: f"two cards left in the stock: seat {e.seat} plays the last turn",
    "closed": lambda e: f"seat {e.seat} closes",
    "hand_ended": _burraco_ended,
    "hand_scored": _burraco_scored,
    "phase_changed": lambda e: (
        "from now on: three pozzetti of 11 and no pairs"
        if e.three_pozzetti
        else "from now on: two pozzetti"
    ),
    "match_ended": _burraco_match,
}

MOVES: Final[dict[str, Text]] = {
    "draw": lambda m: "draws from the stock",
    "pick_up": lambda m: "picks up the discard pile",
    "meld": lambda m: f"opens {_meld(m.kind, m.cards)}",
    "lay_off": lambda m: f"lays off {french_group(m.cards)} on meld {m.meld_id}",
    "discard": lambda m: f"discards {french(m.card)}",
}
