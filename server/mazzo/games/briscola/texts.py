"""Briscola's moves and events as sentences for people watching (``viewer.texts``):
cards named in Italian as the page draws them (the asso of denari, the cavallo of
spade)."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Text
from mazzo.v1 import briscola_pb2
from mazzo.viewer.phrases import dashes, italian


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _hand_scored(e: briscola_pb2.BriscolaHandScored) -> str:
    points = dashes(s.points for s in e.scores)
    result = f"side {e.winner} wins it" if e.HasField("winner") else "a draw"
    return f"the hand is scored {points}: {result}; hands won {dashes(e.hands_won)}"


EVENTS: Final[dict[str, Text]] = {
    "hand_dealt": lambda e: (
        f"hand {e.hand_number} is dealt by seat {e.dealer}; {italian(e.trump_card)} is"
        f" turned up for trumps; seat {e.leader} leads"
    ),
    "card_played": lambda e: f"seat {e.seat} plays {italian(e.card)}",
    "trick_won": lambda e: f"seat {e.seat} wins trick {e.trick}, worth {_points(e.points)}",
    "card_drawn": lambda e: f"seat {e.seat} draws from the stock",
    "trump_card_taken": lambda e: f"seat {e.seat} takes the face-up {italian(e.card)}",
    "hand_scored": _hand_scored,
    "match_won": lambda e: f"side {e.side} wins the match, hands won {dashes(e.hands_won)}",
}

MOVES: Final[dict[str, Text]] = {
    "play_card": lambda m: f"plays {italian(m.card)}",
}
