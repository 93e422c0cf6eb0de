"""One table shape for every game, drawn by the page as it is: what the page shows is
decided here, from the wire JSON of ``GetView`` (and, for the view of everything, of
the state's hands), never worked out in the browser.

A table is ``{"seats": [...], "areas": [...], "facts": [[label, text], ...]}``:

- a seat: ``{"seat": s, "hand": ["3D", ...] or None, "count": n, "notes": [...]}``;
  ``hand`` is None when the cards are not to be shown (only ``count``);
- an area (a trick, the pile, a meld, the stock): ``{"label": ..., "cards": [...],
  "by": [seat or None, ...] or None, "count": n or None}``; ``count`` alone is a
  face-down heap of that many cards;
- facts: the rest of the position in words (trump, phase, bids, pot, declarations).

Cards are the two-character codes of docs/rules (``3D``, ``QS``, ``JK``).
"""

from __future__ import annotations

from typing import Any

from mazzo.games.ramino.melds import closure_groups
from mazzo.v1 import cards_pb2, ramino_pb2
from mazzo.viewer.texts import group_label
from mazzo.viewer.words import Json, card, cards, enum

# --------------------------------------------------------------------------- tables


def _seats(view: Json, detail: Json, hands: list[list[str]] | None) -> list[Json]:
    sizes = [int(n) for n in detail.get("handSizes", [])]
    players = len(sizes)
    own = int(view.get("seat", 0))
    out: list[Json] = []
    for s in range(players):
        hand: list[str] | None = None
        if hands is not None:
            hand = hands[s] if s < len(hands) else []
        elif s == own and not detail.get("handHidden"):
            hand = cards(detail.get("hand"))
        elif detail.get("dummyHand") and detail.get("dummySeat", 0) == s:
            hand = cards(detail.get("dummyHand"))
        out.append({"seat": s, "hand": hand, "count": sizes[s], "notes": []})
    to_act = int(view.get("toAct", 0))
    if not view.get("finished") and out:
        out[to_act % players]["notes"].append("to act")
    return out


#: Maraffa's suits by their Italian names (docs/rules/README.md: S H D C).
ITALIAN_SUITS = {
    "SUIT_SPADES": "spade (swords)",
    "SUIT_HEARTS": "coppe (cups)",
    "SUIT_DIAMONDS": "denari (coins)",
    "SUIT_CLUBS": "bastoni (batons)",
}


def _maraffa(view: Json, detail: Json, table: Json) -> None:
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


def _burraco(view: Json, detail: Json, table: Json) -> None:
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


def _ramino(view: Json, detail: Json, table: Json) -> None:
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


DRAW = {"maraffa": _maraffa, "burraco": _burraco, "ramino": _ramino}


def table_of(game: str, views: list[Json], state: Json | None) -> Json:
    """The table of one frame. With ``state`` (the full state's JSON): the public
    parts from ``views[0]`` and every seat's hand from the state. Without: exactly
    what the one view in ``views`` shows, its seat's own cards and no other."""
    view = views[0]
    detail = view.get(game, {})
    hands = None
    if state is not None:
        hands = [cards(h.get("cards")) for h in state.get(game, {}).get("hands", [])]
    table: Json = {"seats": _seats(view, detail, hands), "areas": [], "facts": []}
    DRAW[game](view, detail, table)
    if view.get("finished"):
        table["facts"].insert(0, ["match", "finished"])
    return table
