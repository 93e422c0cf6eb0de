"""Burraco's table for the viewer (``viewer.tables``): the stock, the discard pile,
the pozzetti and every meld as areas; the public scores as facts."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Deck, Json, Picking
from mazzo.viewer.words import card, cards, enum

#: The faces the viewer draws the cards with.
DECK: Final[Deck] = "french"
#: The least a frame of the viewer's costs in bytes, whatever its record holds.
FRAME_FLOOR_BYTES: Final = 640


def draw(view: Json, detail: Json, table: Json) -> None:
    t = detail.get("table", {})
    areas, facts = table["areas"], table["facts"]
    facts.append(["stage", enum(detail.get("stage", ""))])
    facts.append(["dealer, hand", f"seat {t.get('dealer', 0)}, hand {t.get('handNumber', 0)}"])
    for score in detail.get("publicScores", []):
        seats = "+".join(str(s) for s in score.get("seats", []))
        melded, bonuses = score.get("melded", 0), score.get("bonuses", 0)
        facts.append([f"seats {seats}", f"melded {melded}, bonuses {bonuses}"])
    if detail.get("lastTurn"):
        facts.append(["last turn", "yes"])
    if detail.get("forbiddenDiscard"):
        facts.append(["may not discard", card(detail["forbiddenDiscard"])])
    areas.append({"label": "stock", "cards": [], "by": None, "count": detail.get("stockSize", 0)})
    pile = cards(detail.get("discardPile"))
    areas.append({"label": f"discard pile ({len(pile)})", "cards": pile, "by": None, "count": None})
    for k, pozzetto in enumerate(detail.get("pozzetti", [])):
        taken = pozzetto.get("takenBy")
        label = f"pozzetto {k + 1}" + ("" if taken is None else f" (taken by seat {taken})")
        areas.append({"label": label, "cards": [], "by": None, "count": pozzetto.get("size", 0)})
    for meld in detail.get("melds", []):
        side = "+".join(str(s) for s in meld.get("side", [meld.get("seat", 0)]))
        kind = enum(meld.get("kind", ""))
        extra = f", {enum(meld['burraco'])} burraco" if meld.get("burraco") else ""
        areas.append(
            {
                "label": f"meld of seats {side}: {kind}{extra}",
                "cards": cards(meld.get("cards")),
                "by": None,
                "count": None,
            }
        )


def _lay_off_targets(detail: Json) -> list[Json]:
    """The melds on the table (``BurracoMeldView``: its id, its side's seats, its kind)."""
    out: list[Json] = []
    for meld in detail.get("melds", []):
        side = "+".join(str(s) for s in meld.get("side", [meld.get("seat", 0)]))
        burraco = f", {enum(meld['burraco'])} burraco" if meld.get("burraco") else ""
        out.append(
            {
                "id": int(meld.get("id", 0)),
                "label": f"seats {side}: {enum(meld.get('kind', ''))}{burraco}",
                "cards": cards(meld.get("cards")),
            }
        )
    return out


def _pozzetti(detail: Json) -> list[str]:
    """The pozzetti (a side that empties its hand takes one: the engine does, no move
    of its own), and a hand not to be looked at yet."""
    out = []
    for k, pozzetto in enumerate(detail.get("pozzetti", [])):
        taken = pozzetto.get("takenBy")
        size = int(pozzetto.get("size", 0))
        state = f"{size} cards, waiting" if taken is None else f"taken by seat {taken}"
        if taken is not None and pozzetto.get("locked"):
            state += ", not to be looked at yet"
        out.append(f"pozzetto {k + 1}: {state}")
    if detail.get("handHidden"):
        out.append("your hand is a pozzetto you may not look at yet")
    return out


#: A person melds, lays off and discards by picking cards (``viewer.picks``).
PICKING: Final = Picking(
    uses={"meld": "cards", "layOff": "cards", "discard": "card"},
    onto={"layOff": "meldId"},
    melds=_lay_off_targets,
    notes=_pozzetti,
)
