"""Ramino's table for the viewer (``viewer.tables``): bets and statuses as facts and
notes, the stock and the pile as areas, the last hand's closure as its combinations."""

from __future__ import annotations

from typing import Any, Final

from mazzo.games.declaration import Deck, Json, Picking
from mazzo.games.ramino.melds import closure_groups
from mazzo.games.ramino.texts import group_label
from mazzo.v1 import cards_pb2, ramino_pb2
from mazzo.viewer.words import card, cards, enum

#: The faces the viewer draws the cards with.
DECK: Final[Deck] = "french"
#: The least a frame of the viewer's costs in bytes, whatever its record holds.
FRAME_FLOOR_BYTES: Final = 480


def draw(view: Json, detail: Json, table: Json) -> None:
    t = detail.get("table", {})
    seats, areas, facts = table["seats"], table["areas"], table["facts"]
    bets = detail.get("bets", {})
    facts.append(["phase", enum(detail.get("phase", ""))])
    facts.append(["dealer, hand", f"seat {t.get('dealer', 0)}, hand {t.get('handNumber', 0)}"])
    facts.append(["pot", str(bets.get("pot", 0))])
    if bets.get("stake"):
        facts.append(["stake", str(bets["stake"])])
    bids = [
        f"seat {b.get('seat', 0)} {enum(b.get('action', ''))}"
        + (f" {b['amount']}" if b.get("amount") else "")
        for b in bets.get("bids", [])
    ]
    if bids:
        facts.append(["bids", ", ".join(bids)])
    statuses = bets.get("statuses", [])
    committed = bets.get("committed", [])
    for s, seat in enumerate(seats):
        if s < len(statuses):
            seat["notes"].append(enum(statuses[s]))
        if s < len(committed) and int(committed[s]):
            seat["notes"].append(f"committed {committed[s]}")
    if detail.get("takenCard"):
        facts.append(["taken", f"{card(detail['takenCard'])} from {enum(detail.get('taken'))}"])
    if detail.get("reshuffles"):
        facts.append(["reshuffles", str(detail["reshuffles"])])
    last = t.get("lastHand")
    if last:
        facts.append(["last hand", f"{enum(last.get('outcome', ''))}, net {last.get('net', [])}"])
    areas.append({"label": "stock", "cards": [], "by": None, "count": detail.get("stockSize", 0)})
    pile = cards(detail.get("pile"))
    areas.append({"label": f"pile ({len(pile)})", "cards": pile, "by": None, "count": None})
    closure = (last or {}).get("closure")
    if closure and detail.get("phase") != "RAMINO_PHASE_PLAY":  # until the next hand's play
        dup = bool(t.get("options", {}).get("setDuplicateSuits"))
        areas.extend(_closure_areas(closure, dup))


def _closure_areas(closure: Json, dup: bool) -> list[Json]:
    """The last hand's closure as its combinations (``seat 0 closes: run 5-6-7 of
    hearts``), split by the Ramino engine's own ``melds.closure_groups`` from what the
    closure shows (the ten cards, the joker and the code it stands for, the type)."""

    def number(name: Any) -> int:
        return int(cards_pb2.Card.Value(str(name))) if name else 0

    ten = [number(c) for c in closure.get("cards", [])]
    kind = int(
        ramino_pb2.RaminoClosureType.Value(closure.get("type", "RAMINO_CLOSURE_TYPE_UNSPECIFIED"))
    )
    joker, stands_for = number(closure.get("joker")), number(closure.get("standsFor"))
    seat = closure.get("seat", 0)
    out: list[Json] = []
    for group in closure_groups(ten, joker, stands_for, kind, dup):
        concrete = list(group.cards)
        if group.joker:
            concrete[concrete.index(group.joker)] = group.stands_for
        label = group_label(group.kind, concrete, group.joker, group.stands_for)
        out.append(
            {
                "label": f"seat {seat} closes: {label}",
                "cards": [
                    card(cards_pb2.Card.Name(cards_pb2.Card.ValueType(c))) for c in group.cards
                ],
                "by": None,
                "count": None,
            }
        )
    return out


#: A person discards and closes by picking the card (``viewer.picks``); the engine
#: arranges the closing hand itself.
PICKING: Final = Picking(uses={"discard": "card", "close": "discard"})
