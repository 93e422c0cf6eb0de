"""The length of every repeated field a client sends, checked before any work.

A request is parsed by protobuf in C, but everything after that (decoding to the
domain, validating, playing) costs in proportion to the lists it holds, and one
request of gRPC's 4 MiB can hold millions of entries. So every repeated field of
every state, view and move has a bound of its own, derived from the rules (the
game's table, its package's ``bounds`` module, declared with the game), and
``check`` refuses a message with any list longer than its bound, naming it, before
anything else looks at the message. It walks only the fields that are set
(``ListFields``) and only into messages that can hold a list, so a legitimate state
costs little to check and a padded one is refused at its first long list.

``docs/bounds.md`` lists every bound (``scripts/gen_bounds_doc.py`` writes it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from mazzo.codec.bound import Bound
from mazzo.core.errors import RulesError
from mazzo.games.registry import GAMES

#: ApplyMoves: moves a call applies, more than the longest hand of a game at its
#: default reshuffles (a Ramino hand with one: at most 1,880 turns, two moves each).
MAX_APPLY_MOVES: Final = 4096

_MATCH_SIDES: Final = {game.id: game.match_sides for game in GAMES.values()}
_ANY_MATCH_SIDES: Final = max(_MATCH_SIDES.values())


def _match_sides(holder: Any) -> int:
    """The most sides of the game whose detail the state or view holds (of its ``game``
    when it holds none): a detail of another game is then refused by its decoder as
    what it is, a state of the wrong game, not as a long list."""
    return _MATCH_SIDES.get(holder.WhichOneof("detail") or holder.game, _ANY_MATCH_SIDES)


_MATCH_SCORE: Final = Bound(
    _ANY_MATCH_SIDES,
    "sides",
    "one total per match side, of which the game has at most this many",
    _match_sides,
    "the game's most match sides: " + ", ".join(f"{g} {n}" for g, n in _MATCH_SIDES.items()),
)

_COMMON: Final[dict[str, Bound]] = {
    "mazzo.v1.GameState.match_score": _MATCH_SCORE,
    "mazzo.v1.GameView.match_score": _MATCH_SCORE,
    "mazzo.v1.ApplyMovesRequest.moves": Bound(
        MAX_APPLY_MOVES,
        "moves",
        "more than the longest hand of any game has with one reshuffle, the default (a "
        "Ramino hand: at most 1,880 turns of two moves)",
    ),
}

#: Every bound, by the field's full name (``mazzo.v1.BurracoState.history``).
BOUNDS: Final[dict[str, Bound]] = {
    **_COMMON,
    **{name: bound for game in GAMES.values() for name, bound in game.bounds.items()},
}


def check(msg: Message, path: str, error: type[RulesError], deep: bool = True) -> None:
    """Refuse ``msg``, sent as ``path`` (``state``, ``moves[3]``), if any list in it is
    longer than its bound: ``error`` names the list (``state.burraco.history``,
    ``state.burraco.melds[2].cards``) and says the bound and its rule.

    ``deep=False`` checks only the lists outside lists (not ``melds[2].cards``): a few
    microseconds whatever the message, for a state that may well be known already.
    """
    try:
        _walk_of(msg.DESCRIPTOR, deep)(msg)  # type: ignore[arg-type]
    except _TooLong as e:
        where = ".".join((path, *reversed(e.path)))
        raise error(
            where,
            f"{e.length:,} {e.bound.unit}, more than the rules allow: at most "
            f"{e.limit:,} ({e.bound.why})",
        ) from None


class _TooLong(Exception):
    """A list over its bound; ``path`` grows, innermost first, as it goes up."""

    def __init__(self, name: str, length: int, limit: int, bound: Bound) -> None:
        self.path = [name]
        self.length = length
        self.limit = limit
        self.bound = bound


#: A message type's check: raises _TooLong. Only lists and what leads to them are
#: read, and no text is made unless a list is too long: this runs on every state a
#: client sends, so each type gets a function of its own (see ``_compiled``).
Walk = Callable[[Any], None]

_WALKS: Final[dict[tuple[str, bool], Walk | None]] = {}


def _walk_of(message: Descriptor, deep: bool) -> Walk:
    walk = _compiled(message, deep)
    assert walk is not None, f"{message.full_name} holds no list"
    return walk


def _compiled(message: Descriptor, deep: bool) -> Walk | None:
    """The check of a message type, or None when it can hold no list; ``deep``: also
    of the entries of its lists."""
    key = message.full_name, deep
    if key not in _WALKS:
        _WALKS[key] = None
        if next(repeated_fields(message), None) is not None:
            _WALKS[key] = _build(message, deep)
    return _WALKS[key]


def _build(message: Descriptor, deep: bool) -> Walk:
    lists: list[tuple[str, Bound, Walk | None]] = []
    fields: list[tuple[str, Walk]] = []
    oneofs: dict[str, dict[str, Walk]] = {}
    for field in message.fields:
        sub = None if field.message_type is None else _compiled(field.message_type, deep)
        oneof = field.containing_oneof
        if field.is_repeated:
            lists.append((field.name, BOUNDS[field.full_name], sub if deep else None))
        elif sub is not None and oneof is None:
            fields.append((field.name, sub))
        elif sub is not None and oneof is not None:
            oneofs.setdefault(oneof.name, {})[field.name] = sub
    if not lists and not fields and len(oneofs) == 1:
        ((name, branches),) = oneofs.items()
        return _one_of(name, branches)  # an event, a move: one branch to look into
    return _general(tuple(lists), tuple(fields), tuple(oneofs.items()))


def _one_of(oneof: str, branches: dict[str, Walk]) -> Walk:
    def walk(msg: Any) -> None:
        which = msg.WhichOneof(oneof)
        sub = branches.get(which)
        if sub is not None:
            try:
                sub(getattr(msg, which))
            except _TooLong as e:
                e.path.append(which)
                raise

    return walk


def _general(
    lists: tuple[tuple[str, Bound, Walk | None], ...],
    fields: tuple[tuple[str, Walk], ...],
    oneofs: tuple[tuple[str, dict[str, Walk]], ...],
) -> Walk:
    one_ofs = tuple(_one_of(oneof, branches) for oneof, branches in oneofs)

    def walk(msg: Any) -> None:
        for name, bound, item in lists:
            items = getattr(msg, name)
            length = len(items)
            if not length:
                continue
            if length > bound.most or (bound.scaled is not None and length > bound.limit(msg)):
                raise _TooLong(name, length, bound.limit(msg), bound)
            if item is not None:
                i = 0
                try:
                    for i, value in enumerate(items):  # noqa: B007 (i names the entry)
                        item(value)
                except _TooLong as e:
                    e.path.append(f"{name}[{i}]")
                    raise
        for name, sub in fields:
            if msg.HasField(name):
                try:
                    sub(getattr(msg, name))
                except _TooLong as e:
                    e.path.append(name)
                    raise
        for one_of in one_ofs:
            one_of(msg)

    return walk


def repeated_fields(root: Descriptor) -> Iterator[tuple[FieldDescriptor, str]]:
    """Every repeated field reachable from ``root``, once each, in field order, with a
    path to it (``GameState.burraco.history.pile_taken.cards``)."""
    seen = {root.full_name}

    def walk(message: Descriptor, path: str) -> Iterator[tuple[FieldDescriptor, str]]:
        for field in message.fields:
            where = f"{path}.{field.name}"
            if field.is_repeated:
                yield field, where
            sub = field.message_type
            if sub is not None and sub.full_name not in seen:
                seen.add(sub.full_name)
                yield from walk(sub, where)

    yield from walk(root, root.name)
