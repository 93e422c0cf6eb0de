"""What a person's page needs to offer the rummy games' moves by picking cards
(``viewer.play``'s ``draw``): for each legal move, which cards of the hand it puts
down and onto which meld; for the table, the melds a lay-off can go onto.

All of it is read from the moves' and the view's own fields (``BurracoOpenMeld.cards``,
``BurracoLayOff.meld_id``, ``RaminoClose.discard``...), never worked out: the page
filters the service's legal moves by the cards the person selected and offers those
that use exactly them. Which move is legal stays the engine's alone.
"""

from __future__ import annotations

from typing import Final

from mazzo.viewer.words import Json, cards, enum

#: Per game, per kind of move (the move's oneof, as its JSON names it): the field that
#: holds the cards it takes from the hand (one card or a list). A kind not named puts
#: down no card (a draw, a pick-up, a bet). Only these games' pages pick cards.
USES: Final[dict[str, dict[str, str]]] = {
    "burraco": {"meld": "cards", "layOff": "cards", "discard": "card"},
    "ramino": {"discard": "card", "close": "discard"},
}
#: Per game, per kind of move: the field naming the meld on the table it goes onto.
ONTO: Final[dict[str, dict[str, str]]] = {"burraco": {"layOff": "meldId"}}


def picking(game: str) -> bool:
    """The page builds this game's moves by picking cards from the hand."""
    return game in USES


def move_parts(move: Json, game: str) -> Json:
    """A legal move (its JSON) as the page filters it: ``kind`` (its oneof's name),
    ``uses`` (the cards it takes from the hand, as the tables write them: ``4S``, in
    the move's order, a card twice if it uses both copies) and ``onto`` (the id of the
    meld it lays off onto, or None)."""
    detail = move.get(game, {})
    if len(detail) != 1:
        return {"kind": "", "uses": [], "onto": None}
    ((kind, fields),) = detail.items()
    fields = fields if isinstance(fields, dict) else {}
    field = USES.get(game, {}).get(kind)
    held = fields.get(field) if field else None
    uses = cards(held if isinstance(held, list) else [held] if held else [])
    target = ONTO.get(game, {}).get(kind)
    onto = int(fields.get(target, 0)) if target else None
    return {"kind": kind, "uses": uses, "onto": onto}


def notes_of(game: str, view: Json) -> list[str]:
    """What the page says beside the cards to pick, from the view: Burraco's pozzetti
    (a side that empties its hand takes one: the engine does, no move of its own),
    and a hand not to be looked at yet."""
    if game != "burraco":
        return []
    detail = view.get(game, {})
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


def melds_of(game: str, view: Json) -> list[Json]:
    """The melds on the table, as lay-off targets: ``{"id", "label", "cards"}``
    (Burraco's ``BurracoMeldView``: its id, the seats of its side, its kind); none for
    a game without melds on the table."""
    if game != "burraco":
        return []
    out: list[Json] = []
    for meld in view.get(game, {}).get("melds", []):
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
