"""What the referee needs to know of a game beyond the ``Rules`` protocol, by game id.

The match loop is generic; a few things are not in the protocol and differ by
game: where a hand ends and what it scored (for points per hand), and how to show
a position to people. Which seat's bot decides for a seat is the rules' own
(``Rules.controller``), and the builtin players are in ``mazzo.players``. A game
without an entry gets the neutral defaults: points are counted per match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mazzo.core.cards import codes
from mazzo.games.maraffa.cards import cards_of

Json = dict[str, Any]


def _no_hand(events: Sequence[Json]) -> list[int] | None:
    return None


def _no_deal(events: Sequence[Json]) -> bool:
    return False


def _describe(state: Any, rules: Any) -> str:
    return repr(state)


@dataclass(frozen=True)
class GameHooks:
    #: Per side, the points of a hand scored by this move's events (records' JSON).
    hand_points: Callable[[Sequence[Json]], list[int] | None] = _no_hand
    #: Did this move's events deal a new hand (so replay can find hand k)?
    hand_dealt: Callable[[Sequence[Json]], bool] = _no_deal
    #: Every seat's cards and the public facts of a state, for people (replay --hand).
    describe: Callable[[Any, Any], str] = _describe


# --------------------------------------------------------------------------- Maraffa


def _maraffa_hand_points(events: Sequence[Json]) -> list[int] | None:
    """Per side the points of the hand; in Trionfo per seat the game points paid."""
    for event in events:
        scored = event.get("maraffa", {}).get("handScored")
        if scored is not None:
            return [int(s.get("handScore", 0)) for s in scored.get("scores", [])]
        deal = event.get("maraffa", {}).get("dealScored")
        if deal is not None:
            return [int(p) for p in deal.get("score", {}).get("payments", [])]
    return None


def _maraffa_hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("maraffa", {}) for event in events)


def _maraffa_describe(state: Any, rules: Any) -> str:
    t = state.table
    lines = [
        f"game {t.game_number} hand {t.hand_number}: dealer {t.dealer}, "
        f"battezzante {t.battezzante}, totals {list(t.totals)}, target {t.effective_target}"
    ]
    lines += [f"  seat {s}: {codes(cards_of(h))}" for s, h in enumerate(state.hands)]
    if state.stock:
        lines.append(f"  stock: {codes(state.stock)}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- Burraco


def _burraco_hand_points(events: Sequence[Json]) -> list[int] | None:
    """What each match side was credited for the hand (3 players: a pair member half
    the pair's score)."""
    for event in events:
        scored = event.get("burraco", {}).get("handScored")
        if scored is not None:
            return [int(c) for c in scored.get("credits", [])]
    return None


def _burraco_hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("burraco", {}) for event in events)


# --------------------------------------------------------------------------- Ramino


def _ramino_hand_points(events: Sequence[Json]) -> list[int] | None:
    """Each seat's chips won or lost over the hand (void hands included: the tax)."""
    for event in events:
        ended = event.get("ramino", {}).get("handEnded")
        if ended is not None:
            return [int(n) for n in ended.get("result", {}).get("net", [])]
    return None


def _ramino_hand_dealt(events: Sequence[Json]) -> bool:
    return any("handDealt" in event.get("ramino", {}) for event in events)


HOOKS: dict[str, GameHooks] = {
    "maraffa": GameHooks(
        hand_points=_maraffa_hand_points,
        hand_dealt=_maraffa_hand_dealt,
        describe=_maraffa_describe,
    ),
    "burraco": GameHooks(
        hand_points=_burraco_hand_points,
        hand_dealt=_burraco_hand_dealt,
    ),
    "ramino": GameHooks(
        hand_points=_ramino_hand_points,
        hand_dealt=_ramino_hand_dealt,
    ),
}
DEFAULT = GameHooks()


def hooks_for(game: str) -> GameHooks:
    return HOOKS.get(game, DEFAULT)
