"""A game declared once: what every other layer needs of it, in one value.

Each game's package ends in a ``declaration`` module that exports one ``Game``, built
from the game's own modules: its rules (the engine), how its values travel (``wire``)
and how long its lists may be (``bounds``), the sentences and the table the viewer
shows (``texts``, ``table``), what the referee reads of its records (``records``), its
builtin player and what search leaves out (``heuristic``), and what a learning agent
sees (``encoding``, ``chance``), and the conformance vectors and sample forms the
tooling plays (``conformance``). ``games.registry`` lists the declarations; the
service, referee, viewer, players and RL adapters look a game up there and name none.

The fields are typed by what the layers call, so a game that lacks one does not
type-check, and ``tests/test_declarations.py`` checks each against the others (every
event and move kind has a text, the bounds name the game's messages, and more).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from mazzo.codec import GameCodec
from mazzo.codec.bound import Bound
from mazzo.core.cards import codes
from mazzo.core.rules import AnyRules, ScoreReport
from mazzo.v1 import bot_pb2, game_pb2

if TYPE_CHECKING:
    from mazzo.conformance.generator import Conformance
    from mazzo.rl.chance_deals import ChanceDeals
    from mazzo.rl.layout import Encoding

#: Records' and views' JSON (the protobuf JSON mapping).
Json = dict[str, Any]
#: A player: answers an ``ActRequest`` as any bot does, from the view alone.
Policy = Callable[[bot_pb2.ActRequest], bot_pb2.ActResponse]
#: One kind of event or move (the message of its oneof field) as a sentence.
Text = Callable[[Any], str]
#: Adds a game's areas, facts and seat notes to a table (``viewer.tables``) from a
#: view's JSON and its game's detail: ``draw(view, detail, table)``.
DrawTable = Callable[[Json, Json, Json], None]
#: The faces the viewer draws a game's cards with.
Deck = Literal["italian", "french"]


def called_when_used(module: str, name: str) -> Callable[..., Any]:
    """A function that imports ``module`` on its first call and calls its ``name`` with
    the same arguments. The learning and conformance roles need what serving does not
    load (NumPy, the vectors' generator): a declaration names them, and a layer that
    asks for one imports it."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    call.__qualname__ = f"{module}.{name}"
    return call


def value_when_used(module: str, name: str) -> Callable[[], Any]:
    """A function that imports ``module`` on its first call and returns its ``name``
    (``called_when_used``, for a value)."""

    def value() -> Any:
        return getattr(importlib.import_module(module), name)

    value.__qualname__ = f"{module}.{name}"
    return value


def _no_hand(events: Sequence[Json]) -> list[int] | None:
    return None


def _no_deal(events: Sequence[Json]) -> bool:
    return False


def _describe(state: Any, rules: AnyRules) -> str:
    return repr(state)


def totals_change(before: ScoreReport, after: ScoreReport) -> list[int]:
    """Per side, what its match total gained between two scores."""
    return [a.match_total - b.match_total for a, b in zip(after.sides, before.sides, strict=True)]


def cards_in_words(header: str, hands: Iterable[Sequence[int]], **piles: Sequence[int]) -> str:
    """A state's cards for people (``GameHooks.describe``): a header line, each seat's
    cards, then each pile that holds any, by its name."""
    lines = [header, *(f"  seat {s}: {codes(hand)}" for s, hand in enumerate(hands))]
    lines += [f"  {name}: {codes(cards)}" for name, cards in piles.items() if cards]
    return "\n".join(lines)


@dataclass(frozen=True)
class GameHooks:
    """What the referee, the viewer and RL's rewards read of a game's records and scores."""

    #: Per side, the points of a hand scored by this move's events (records' JSON).
    hand_points: Callable[[Sequence[Json]], list[int] | None] = _no_hand
    #: Did this move's events deal a new hand (so replay can find hand k)?
    hand_dealt: Callable[[Sequence[Json]], bool] = _no_deal
    #: Every seat's cards and the public facts of a state, for people (replay --hand).
    describe: Callable[[Any, Any], str] = _describe
    #: Per side, what the hand just ended scored, from the scores before and after it
    #: (RL's per-hand rewards): the totals' change, unless totals can restart.
    hand_change: Callable[[ScoreReport, ScoreReport], list[int]] = totals_change


def _avoid_nothing(move: Any) -> bool:
    return False


def _every_move(legal: Sequence[Any]) -> list[int]:
    return list(range(len(legal)))


@dataclass(frozen=True)
class Strategy:
    """A game's builtin player and what the generic players need to know of its moves.
    Strategy, not rules: nothing here decides what is legal."""

    #: The game's simple, deterministic player (``builtin:heuristic``).
    heuristic: Policy
    #: A move a random player takes only when nothing else is legal (a Maraffa claim
    #: would end the game at once, so random play would only test the claim rule):
    #: the engine's move, and the same move on the wire.
    avoid_at_random: Callable[[Any], bool] = _avoid_nothing
    avoid_at_random_on_wire: Callable[[game_pb2.Move], bool] = _avoid_nothing
    #: The indexes of the legal moves worth playing out in a search (``builtin:pimc``):
    #: all, unless some are the same move for every playout.
    search_candidates: Callable[[Sequence[Any]], list[int]] = _every_move


def acting(choose: Callable[[bot_pb2.ActRequest], int]) -> Policy:
    """A player (``Strategy.heuristic``) from a game's choice: the index of the legal
    move it plays."""

    def act(request: bot_pb2.ActRequest) -> bot_pb2.ActResponse:
        return bot_pb2.ActResponse(index=choose(request))

    act.__qualname__ = f"{choose.__module__}.act"
    return act


def _no_melds(detail: Json) -> list[Json]:
    return []


def _no_notes(detail: Json) -> list[str]:
    return []


@dataclass(frozen=True)
class Picking:
    """How a person's page offers a rummy game's moves: the person picks cards from the
    hand and the page offers the legal moves that use exactly those (``viewer.picks``).
    Only where the moves' own fields say it: which move is legal stays the engine's."""

    #: Per kind of move (its oneof's JSON name): the field holding the cards it takes
    #: from the hand (one card or a list). A kind not named puts down no card.
    uses: Mapping[str, str]
    #: Per kind of move: the field naming the meld on the table it goes onto.
    onto: Mapping[str, str] = field(default_factory=dict)
    #: The view's detail -> the melds on the table as lay-off targets:
    #: ``{"id", "label", "cards"}``.
    melds: Callable[[Json], list[Json]] = _no_melds
    #: The view's detail -> what the page says beside the cards to pick.
    notes: Callable[[Json], list[str]] = _no_notes


#: A game whose moves a person clicks one button each (no card is picked first).
NO_PICKING: Final = Picking(uses={})


def _nothing(json: Json) -> Json | None:
    return None


@dataclass(frozen=True)
class PageParts:
    """What a person's page shows beyond the table and the moves in words, read from
    the seat's view and its legal moves alone (the page knows no rule)."""

    #: The seat's view (wire JSON) -> what the page shows of the form (Maraffa's
    #: Trionfo auction, its dummy, its stock), or None.
    form: Callable[[Json], Json | None] = _nothing
    #: A legal move (wire JSON) -> a label the page groups it by (a bid, a pass,
    #: trumps with a called card), or None.
    move_part: Callable[[Json], Json | None] = _nothing


@dataclass(frozen=True)
class Presentation:
    """How people see a game: its cards, its moves and events in words, its table."""

    deck: Deck
    #: Per oneof field of the game's ``Event`` and ``Move`` messages: its sentence.
    event_texts: Mapping[str, Text]
    move_texts: Mapping[str, Text]
    draw_table: DrawTable
    #: The least a frame of the viewer's costs in bytes, whatever its record holds
    #: (what ``viewer.frames`` budgets a record's frames by before building them).
    frame_floor_bytes: int
    #: How a person's page builds the moves by picking cards (the table module's
    #: ``PICKING``); ``NO_PICKING`` (the default): one button a move.
    picking: Picking = field(default_factory=lambda: NO_PICKING)
    #: The table module's ``PAGE_PARTS``; by default, nothing beyond the table.
    page_parts: PageParts = field(default_factory=PageParts)


def _same_view(view: Any) -> Any:
    return view


def _default_count_only(game: str, actions: int, default: int) -> str | None:
    return (
        None
        if actions == default
        else f"{actions} actions, but {game}'s action space has {default}"
    )


@dataclass(frozen=True)
class Learning:
    """What a learning agent needs: made on first use, since they need NumPy (the
    ``rl`` extra), which serving does not."""

    #: The encoding of the game played with its resolved options (``Rules`` options).
    encoding: Callable[[Any], Encoding]
    #: The game's deals as chance events (OpenSpiel's chance nodes).
    chance_deals: Callable[[], ChanceDeals]
    #: A seat's view as the agent deciding for that seat observes it: the view itself,
    #: unless another seat decides for it (Maraffa's dummy, played by its controller).
    agent_view: Callable[[Any], Any] = _same_view
    #: Why a saved policy's action count (``game, actions, the default options' count``)
    #: fits no options of the game, or None when it fits some: by default only the
    #: default options' count fits (Ramino's grows with its stakes).
    action_count_refusal: Callable[[str, int, int], str | None] = _default_count_only


@dataclass(frozen=True)
class Game:
    """One game, as every layer sees it."""

    rules: AnyRules
    codec: GameCodec
    #: Every repeated field of the game's messages, by full name: its bound.
    bounds: Mapping[str, Bound]
    #: The most sides a match of the game has (the bound of ``match_score``).
    match_sides: int
    hooks: GameHooks
    strategy: Strategy
    presentation: Presentation
    learning: Learning
    #: The game's conformance vectors and sample forms (scripts/gen_conformance.py,
    #: the tooling that plays every game): made on first use, since serving never
    #: needs them.
    conformance: Callable[[], Conformance]

    @property
    def id(self) -> str:
        return self.rules.id


class BoundsRole(Protocol):
    """A game's ``bounds`` module: its lists' bounds and its most sides."""

    @property
    def BOUNDS(self) -> Mapping[str, Bound]: ...

    @property
    def MATCH_SIDES(self) -> int: ...


class RecordsRole(Protocol):
    """A game's ``records`` module: what the referee and the viewer read of its records."""

    @property
    def HOOKS(self) -> GameHooks: ...


class HeuristicRole(Protocol):
    """A game's ``heuristic`` module: its builtin player, as the index of the legal move
    it chooses (``acting`` makes the player)."""

    def choose(self, request: bot_pb2.ActRequest, /) -> int: ...


class TextsRole(Protocol):
    """A game's ``texts`` module: each kind of event and move as a sentence."""

    @property
    def EVENTS(self) -> Mapping[str, Text]: ...

    @property
    def MOVES(self) -> Mapping[str, Text]: ...


class TableRole(Protocol):
    """A game's ``table`` module: its table, its cards' faces and its frames' floor (and,
    optionally, what a person's page needs beyond them: ``PICKING``, ``PAGE_PARTS``)."""

    __name__: str

    @property
    def DECK(self) -> Deck: ...

    @property
    def FRAME_FLOOR_BYTES(self) -> int: ...

    def draw(self, view: Json, detail: Json, table: Json, /) -> None: ...


def declared(
    rules: AnyRules,
    codec: GameCodec,
    bounds: BoundsRole,
    records: RecordsRole,
    heuristic: HeuristicRole,
    texts: TextsRole,
    table: TableRole,
    *,
    strategy: Strategy | None = None,
    learning: Sequence[str] = (),
) -> Game:
    """A game from its engine, its codec and its serving roles, which every game has
    alike; its learning and conformance roles, which serving does not load, are named by
    convention and bound when first used: ``encoding.encoding``, the ``chance`` module's
    ``<Game>Deals`` (the id capitalised) and ``conformance.CONFORMANCE``, in the package
    that holds ``table``.

    What differs is said here: a ``strategy`` beyond the heuristic's ``act``, and the
    names of the ``encoding`` module's functions that ``learning`` adds to the encoding
    (``Learning``'s fields, which keep their defaults otherwise)."""
    package = table.__name__.rpartition(".")[0]
    encoding = f"{package}.encoding"
    deals = f"{rules.id.capitalize()}Deals"
    return Game(
        rules=rules,
        codec=codec,
        bounds=bounds.BOUNDS,
        match_sides=bounds.MATCH_SIDES,
        hooks=records.HOOKS,
        strategy=strategy or Strategy(heuristic=acting(heuristic.choose)),
        presentation=Presentation(
            deck=table.DECK,
            event_texts=texts.EVENTS,
            move_texts=texts.MOVES,
            draw_table=table.draw,
            frame_floor_bytes=table.FRAME_FLOOR_BYTES,
            picking=getattr(table, "PICKING", NO_PICKING),
            page_parts=getattr(table, "PAGE_PARTS", PageParts()),
        ),
        learning=Learning(
            encoding=called_when_used(encoding, "encoding"),
            chance_deals=called_when_used(f"{package}.chance", deals),
            **{name: called_when_used(encoding, name) for name in learning},
        ),
        conformance=value_when_used(f"{package}.conformance", "CONFORMANCE"),
    )
