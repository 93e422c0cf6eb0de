"""Briscola's table for the viewer (``viewer.tables``): the trump card, the dealer and
the hands won as facts; the trick being played, the last trick and the stock (the
trump card under it) as areas; each side's points and tricks as seat notes; with
``partners_show_hands``, the partner's cards once the view shows them."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Deck, Json
from mazzo.viewer.words import card, cards, enum

#: The faces the viewer draws the cards with.
DECK: Final[Deck] = "italian"
#: The least a frame of the viewer's costs in bytes, whatever its record holds.
FRAME_FLOOR_BYTES: Final = 400

#: The suits by their Italian names (docs/rules/README.md: S H D C).
ITALIAN_SUITS: Final = {
    "S": "spade (swords)",
    "H": "coppe (cups)",
    "D": "denari (coins)",
    "C": "bastoni (batons)",
}


def draw(view: Json, detail: Json, table: Json) -> None:
    t = detail.get("table", {})
    seats, areas, facts = table["seats"], table["areas"], table["facts"]
    n = len(seats)
    facts.append(["phase", enum(detail.get("phase", ""))])
    trump = card(str(detail.get("trumpCard", "")))
    if trump and trump != "UNSPECIFIED":
        facts.append(["trumps", f"{ITALIAN_SUITS.get(trump[-1], trump[-1])}, turned up {trump}"])
    facts.append(["dealer, hand", f"seat {t.get('dealer', 0)}, hand {t.get('handNumber', 0)}"])
    facts.append(["hands won", " - ".join(str(w) for w in t.get("handsWon", []))])
    if "trumpCardTaker" in detail:
        facts.append(["trump card drawn by", f"seat {detail['trumpCardTaker']}"])
    partner = cards(detail.get("partnerHand"))
    if partner and n == 4:
        mate = seats[(int(view.get("seat", 0)) + 2) % n]
        if mate["hand"] is None:
            mate["hand"] = partner
            mate["notes"].append("shown to the partner")
    trick = detail.get("currentTrick")
    if trick and trick.get("cards"):
        areas.append(_trick("trick", trick, n))
    tricks = detail.get("tricks", [])
    if tricks:
        won_by = int(tricks[-1].get("winner", 0))
        areas.append(_trick(f"last trick (won by seat {won_by})", tricks[-1], n))
    stock = int(detail.get("stockSize", 0))
    if stock:
        areas.append({"label": "stock", "cards": [], "by": None, "count": stock - 1})
        areas.append({"label": "trump card", "cards": [trump], "by": None, "count": None})
    points = [int(p) for p in detail.get("points", [])]
    taken = [int(k) for k in detail.get("tricksWon", [])]
    sides = len(points)
    for s, seat in enumerate(seats):
        side = s % sides if sides else 0
        if side < len(taken):
            seat["notes"].append(f"side {side}: {points[side]} points, {taken[side]} tricks")


def _trick(label: str, trick: Json, n: int) -> Json:
    leader = int(trick.get("leader", 0))
    played = cards(trick.get("cards"))
    return {
        "label": label,
        "cards": played,
        "by": [(leader + i) % n for i in range(len(played))],
        "count": None,
    }
