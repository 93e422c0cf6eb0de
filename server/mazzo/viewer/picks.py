"""What a person's page needs to offer a rummy game's moves by picking cards
(``viewer.play``'s ``draw``): for each legal move, which cards of the hand it puts
down and onto which meld; for the table, the melds a lay-off can go onto.

All of it is read from the moves' and the view's own fields, as the game's
declaration names them (``Presentation.picking``), never worked out: the page filters
the service's legal moves by the cards the person selected and offers those that use
exactly them. Which move is legal stays the engine's alone.
"""

from __future__ import annotations

from mazzo.games.declaration import Picking
from mazzo.games.registry import GAMES
from mazzo.viewer.words import Json, cards


def _picking(game: str) -> Picking | None:
    """The game's picking, or None: an unknown game, or one played a button a move."""
    declared = GAMES.get(game)
    how = None if declared is None else declared.presentation.picking
    return how if how is not None and how.uses else None


def picking(game: str) -> bool:
    """The page builds this game's moves by picking cards from the hand."""
    return _picking(game) is not None


def move_parts(move: Json, game: str) -> Json:
    """A legal move (its JSON) as the page filters it: ``kind`` (its oneof's name),
    ``uses`` (the cards it takes from the hand, as the tables write them: ``4S``, in
    the move's order, a card twice if it uses both copies) and ``onto`` (the id of the
    meld it lays off onto, or None)."""
    how = _picking(game)
    detail = move.get(game, {})
    if how is None or len(detail) != 1:
        return {"kind": "", "uses": [], "onto": None}
    ((kind, fields),) = detail.items()
    fields = fields if isinstance(fields, dict) else {}
    field = how.uses.get(kind)
    held = fields.get(field) if field else None
    uses = cards(held if isinstance(held, list) else [held] if held else [])
    target = how.onto.get(kind)
    onto = int(fields.get(target, 0)) if target else None
    return {"kind": kind, "uses": uses, "onto": onto}


def notes_of(game: str, view: Json) -> list[str]:
    """What the page says beside the cards to pick, from the view (Burraco's
    pozzetti, say)."""
    how = _picking(game)
    return [] if how is None else how.notes(view.get(game, {}))


def melds_of(game: str, view: Json) -> list[Json]:
    """The melds on the table, as lay-off targets: ``{"id", "label", "cards"}``; none
    for a game without melds on the table."""
    how = _picking(game)
    return [] if how is None else how.melds(view.get(game, {}))
