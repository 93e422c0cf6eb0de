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

from mazzo.games.registry import GAMES
from mazzo.viewer.words import Json, cards

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
    GAMES[game].presentation.draw_table(view, detail, table)
    if view.get("finished"):
        table["facts"].insert(0, ["match", "finished"])
    return table
