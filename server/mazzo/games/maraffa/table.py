"""Maraffa's table for the viewer (``viewer.tables``): trump, dealer and scores as
facts, the trick and the last trick as areas, each seat's tricks won as notes."""

from __future__ import annotations

from typing import Final

from mazzo.games.declaration import Deck, Json, PageParts
from mazzo.games.maraffa.page import form_of, move_part
from mazzo.viewer.words import card, cards, enum

#: The faces the viewer draws the cards with.
DECK: Final[Deck] = "italian"
#: The least a frame of the viewer's costs in bytes, whatever its record holds.
FRAME_FLOOR_BYTES: Final = 384

#: Maraffa's suits by their Italian names (docs/rules/README.md: S H D C).
ITALIAN_SUITS: Final = {
    "SUIT_SPADES": "spade (swords)",
    "SUIT_HEARTS": "coppe (cups)",
    "SUIT_DIAMONDS": "denari (coins)",
    "SUIT_CLUBS": "bastoni (batons)",
}


def draw(view: Json, detail: Json, table: Json) -> None:
    t = detail.get("table", {})
    seats, areas, facts = table["seats"], table["areas"], table["facts"]
    n = len(seats)
    trionfo = detail.get("trionfo")
    facts.append(["phase", enum(detail.get("phase", ""))])
    if detail.get("trump"):
        facts.append(["trump", ITALIAN_SUITS.get(detail["trump"], enum(detail["trump"]))])
    facts.append(["dealer", f"seat {t.get('dealer', 0)}"])
    if trionfo is None:
        facts.append(["game, hand", f"{t.get('gameNumber', 0)}, {t.get('handNumber', 0)}"])
        facts.append(["battezzante", f"seat {t.get('battezzante', 0)}"])
        facts.append(["target", str(t.get("effectiveTarget", 0))])
        facts.append(["games won", " - ".join(str(g) for g in t.get("gamesWon", []))])
    else:
        facts.append(["deal", str(t.get("handNumber", 0))])
        facts.append(["first speaker", f"seat {trionfo.get('firstSpeaker', 0)}"])
        speeches = [
            f"seat {s.get('seat', 0)} {enum(s.get('speech', ''))}"
            for s in trionfo.get("auction", [])
        ]
        if speeches:
            facts.append(["auction", ", ".join(speeches)])
        if "declarer" in trionfo:
            facts.append(["declarer", f"seat {trionfo['declarer']}"])
        if trionfo.get("contract"):
            facts.append(["contract", enum(trionfo["contract"])])
        if trionfo.get("calledCard"):
            facts.append(["called card", card(trionfo["calledCard"])])
        if "amico" in trionfo:
            facts.append(["amico", f"seat {trionfo['amico']}"])
    if "marafonaSeat" in detail:
        facts.append(["marafona", f"declared by seat {detail['marafonaSeat']}"])
    if "dummySeat" in detail and int(detail["dummySeat"]) < n:
        seats[int(detail["dummySeat"])]["notes"].append("dummy")
        _dummys_own_view(view, detail, seats)
    for trick_label, trick in (("trick", detail.get("currentTrick")),):
        if trick and trick.get("cards"):
            areas.append(_trick(trick_label, trick, n))
    tricks = detail.get("tricks", [])
    if tricks:
        last = _trick(f"last trick (won by seat {tricks[-1].get('winner', 0)})", tricks[-1], n)
        areas.append(last)
        won = [0] * n
        for trick in tricks:
            won[int(trick.get("winner", 0)) % n] += 1
        for s, count in enumerate(won):
            seats[s]["notes"].append(f"{count} tricks")
    if "stockSize" in detail:
        areas.append({"label": "stock", "cards": [], "by": None, "count": detail["stockSize"]})
    if detail.get("drawn"):
        areas.append({"label": "drawn", "cards": cards(detail["drawn"]), "by": None, "count": None})


def _trick(label: str, trick: Json, n: int) -> Json:
    leader = int(trick.get("leader", 0))
    played = cards(trick.get("cards"))
    signals = [enum(s) for s in trick.get("signals", [])]
    notes = [s if s != "unspecified" else "" for s in signals]
    return {
        "label": label,
        "cards": played,
        "by": [(leader + i) % n for i in range(len(played))],
        "count": None,
        "signals": notes + [""] * (len(played) - len(notes)),
    }


def _dummys_own_view(view: Json, detail: Json, seats: list[Json]) -> None:
    """The dummy's own decision: its view is its controller's (maraffa.md §2.2.3), so
    the hand drawn at the dummy's seat (the view's ``hand``) is the controller's, and
    the dummy's is ``dummyHand``: each goes to its own seat. With every hand (a state's
    table) there is nothing to move."""
    dummy = int(detail["dummySeat"])
    if len(seats) != 4 or int(view.get("seat", 0)) != dummy:
        return
    own, controller = seats[dummy], seats[(dummy + 2) % 4]
    if controller["hand"] is not None:
        return  # every hand shown (the view of everything)
    controller["hand"] = own["hand"]
    shown = bool(detail.get("dummyHand")) or own["count"] == 0
    own["hand"] = cards(detail.get("dummyHand")) if shown else None


#: A person's page shows Trionfo's auction, the dummy and the stock, and groups the
#: bids and declarations (``games.maraffa.page``).
PAGE_PARTS: Final = PageParts(form=form_of, move_part=move_part)
