"""What the games' learning and tooling roles share (``encoding``, ``chance``,
``conformance``: ``games.declaration``): the parts of their modules that are the same
for every game, each given what differs. Serving never loads it: only those roles,
which need NumPy or the vectors' generator, import it (the generator's modules only
when a function here that needs them runs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from mazzo.rl.layout import Block, Layout, Observation

if TYPE_CHECKING:
    from mazzo.conformance.generator import Generator, IllegalSequence
    from mazzo.v1 import game_pb2

#: A ``Deal`` vector: its label, players, seed, options (JSON, as
#: ``conformance.vectors.Json``) and description.
DealVector = tuple[str, int, int, dict[str, Any] | None, str]

#: The view an encoding observes.
V = TypeVar("V")


class IndexedEncoding(Generic[V]):
    """An encoding (``rl.layout.Encoding``) whose actions index a list of moves and
    which observes one type of view with ``observe``. A game's class adds
    ``action_of``: each finds a move's action its own way (by its card, by a table, with
    the moves outside the action space named)."""

    def __init__(
        self,
        game: str,
        layout: Layout,
        moves: Sequence[Any],
        view: type[V],
        observe: Callable[[V], Observation],
    ) -> None:
        self.game = game
        self.layout = layout
        self.moves = tuple(moves)
        #: The size of the action space: actions are ``0 .. actions - 1``.
        self.actions = len(self.moves)
        self._view = view
        self._observe = observe

    def move_of(self, action: int) -> Any:
        if not 0 <= action < self.actions:
            name = self.game.capitalize()
            raise ValueError(f"{name} actions are 0..{self.actions - 1}, not {action}")
        return self.moves[action]

    def observe(self, view: Any) -> Observation:
        assert isinstance(view, self._view)
        return self._observe(view)


def seat_block(name: str, slots: int, meaning: str, one_hot: bool = False) -> Block:
    """A block of one number per relative seat (the viewer's own first)."""
    by = "one-hot by relative seat" if one_hot else "by relative seat"
    return Block(name, slots, f"{meaning} ({by})")


def one_hot_seat(obs: Observation, offset: int, seats: int, me: int, seat: int) -> None:
    """Marks ``seat`` in a seat block at ``offset``, by its place after ``me``; a
    negative seat (none) marks nothing."""
    if seat >= 0:
        obs[offset + (seat - me) % seats] = 1.0


def mark_cards(
    obs: Observation, offset: int, index: Mapping[int, int], cards: Iterable[int]
) -> None:
    """Marks each card in a block of one number per card of the pack (``index``: a
    card's place in it)."""
    for c in cards:
        obs[offset + index[c]] = 1.0


def hand_and_pile_blocks(codes: int, copies: str, pack: int) -> tuple[Block, ...]:
    """The blocks ``observe_hand_and_pile`` writes, for ``codes`` card codes of which a
    ``pack`` of cards holds ``copies`` each (in words)."""
    return (
        Block("hand", codes, f"copies of each code in the viewer's hand / {copies}"),
        Block("pile", codes, f"copies of each code in the discard pile / {copies}"),
        Block("pile_top", codes, "the pile's top card, one-hot"),
        Block("pile_size", 1, f"cards in the pile / {pack}"),
    )


def observe_hand_and_pile(
    obs: Observation,
    layout: Layout,
    hand: Sequence[int],
    pile: Sequence[int],
    shares: Sequence[float],
    pack: int,
) -> None:
    """A rummy's hand and discard pile (card codes from 1): each as the copies of each
    code it holds, each copy counting its code's share (``shares``: one over the copies
    in the pack), in blocks ``hand`` and ``pile``; the pile's top card one-hot
    (``pile_top``) and its size over the ``pack`` (``pile_size``): the blocks of
    ``hand_and_pile_blocks``."""
    for block, cards in (("hand", hand), ("pile", pile)):
        base = layout[block] - 1
        for c in cards:
            obs[base + c] += shares[c]
    if pile:
        obs[layout["pile_top"] + pile[-1] - 1] = 1.0
    obs[layout["pile_size"]] = len(pile) / pack


class PackDeals:
    """The outcomes of ``rl.chance_deals.ChanceDeals`` for a pack of distinct cards
    (card ids), as ``CodeDeals`` is for codes with copies: a card's outcome is its place
    in the pack. The game's class adds ``deal_of`` and ``place``."""

    def __init__(self, game: str, pack: Sequence[int]) -> None:
        self.outcomes = len(pack)
        self._game = game
        self._pack = tuple(pack)
        self._index = {c: i for i, c in enumerate(pack)}

    def outcome_of(self, card: int) -> int:
        try:
            return self._index[card]
        except KeyError:
            raise ValueError(f"card {card} is not in the {self._game} pack") from None

    def card_of(self, outcome: int) -> int:
        if not 0 <= outcome < self.outcomes:
            raise ValueError(f"{self._game} outcomes are 0..{self.outcomes - 1}, not {outcome}")
        return self._pack[outcome]


def deal_vectors(gen: Generator, game: str, deals: Iterable[DealVector]) -> None:
    """The game's ``Deal`` vectors, one a row, in ``<game>/deal/<label>``."""
    from mazzo.conformance.vectors import deal_request

    for label, players, seed, options, description in deals:
        request = deal_request(game, players, seed, options)
        gen.add(f"{game}-deal", f"{game}/deal/{label}", description, "Deal", request)


def a_card_not_held(
    game: str,
) -> Callable[[game_pb2.GameState, list[game_pb2.Move], int], IllegalSequence]:
    """``Conformance.illegal_sequence`` for a trick-taking game whose move is its
    ``play_card``: the sequence so far and a card the seat to act does not hold."""
    from mazzo.conformance.vectors import card, move_json

    def sequence(state: game_pb2.GameState, moves: list[game_pb2.Move], at: int) -> IllegalSequence:
        hands = getattr(state, game).hands
        stranger = next(c for h, hand in enumerate(hands) if h != state.to_act for c in hand.cards)
        bad = move_json(game, {"playCard": {"card": card(stranger)}})
        why = "a card the seat to act does not hold"
        return [*moves, bad], why, f"moves[{at}].{game}.play_card.card"

    return sequence
