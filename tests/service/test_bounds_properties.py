"""The bounds of codec/bounds.py never refuse what the rules make.

Random matches of every game and form, each state (and the views and legal moves met
on the way) checked against every bound: none is refused, and the lists that grow with
play stay far from their bounds. Then players that make hands as long as the rules
allow (always taking the pile, never closing): the bounds still hold, and are close
to what they reach, so they are true upper bounds and not loose guesses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf.message import Message

from mazzo.codec.bounds import BOUNDS, check
from mazzo.core.errors import InvalidArgument, InvalidState
from mazzo.games.registry import CODECS, rules_for
from mazzo.players.playout import PolicyKind, chooser
from mazzo.v1 import burraco_pb2, game_pb2, maraffa_pb2, ramino_pb2

Chooser = Callable[[Any, Sequence[Any], random.Random], int]

#: The lists that grow with play over a hand, and the share of their bound random
#: play may reach. (A hand's bids are bounded by its stake, so they come close.)
GROWING = {
    "mazzo.v1.BurracoState.history": 0.6,
    "mazzo.v1.BurracoView.history": 0.6,
    "mazzo.v1.RaminoState.turns": 0.6,
    "mazzo.v1.RaminoView.turns": 0.6,
    "mazzo.v1.MaraffaTable.redeal_requests": 0.25,
}


@dataclass
class Longest:
    """Per field: the longest list seen, and its share of the bound where it was."""

    length: dict[str, int] = field(default_factory=dict)
    share: dict[str, float] = field(default_factory=dict)

    def add(self, msg: Message) -> None:
        for fd, value in msg.ListFields():
            if fd.is_repeated:
                name = fd.full_name
                share = len(value) / BOUNDS[name].limit(msg)
                self.length[name] = max(self.length.get(name, 0), len(value))
                self.share[name] = max(self.share.get(name, 0.0), share)
                if fd.message_type is not None:
                    for item in value:
                        self.add(item)
            elif fd.message_type is not None:
                self.add(value)


def play(
    game: str,
    players: int,
    options: game_pb2.GameOptions,
    seed: int,
    choose: Chooser,
    moves: int,
    every: int = 1,
) -> Longest:
    """One match (at most ``moves`` moves): every ``every``-th state, the view of its seat
    to act and its legal moves are checked against the bounds, and measured."""
    rules, codec = rules_for(game), CODECS[game]
    state, _ = rules.deal(codec.options(options), players, seed)
    rng = random.Random(seed)
    longest = Longest()
    for k in range(moves + 1):
        finished = rules.finished(state)
        if k % every == 0 or finished:
            seat = 0 if finished else rules.to_act(state)
            msg = game_pb2.GameState()
            codec.state_to_wire(state, seat, msg)
            check(msg, "state", InvalidState)
            longest.add(msg)
            view = game_pb2.GameView()
            codec.view_to_wire(rules.view(state, seat), view)
            check(view, "view", InvalidArgument)
            longest.add(view)
        if finished:
            break
        legal = rules.legal_moves(state)
        if k % every == 0:
            for move in legal:
                wire = game_pb2.Move()
                codec.move_to_wire(move, wire)
                check(wire, "move", InvalidArgument)
        state, _ = rules.apply(state, legal[choose(state, legal, rng)])
    return longest


def merged(parts: Sequence[Longest]) -> Longest:
    out = Longest()
    for part in parts:
        for name, n in part.length.items():
            out.length[name] = max(out.length.get(name, 0), n)
        for name, s in part.share.items():
            out.share[name] = max(out.share.get(name, 0.0), s)
    return out


def _maraffa(**kw: Any) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(maraffa=maraffa_pb2.MaraffaOptions(**kw))


def _burraco(**kw: Any) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(burraco=burraco_pb2.BurracoOptions(**kw))


def _ramino(**kw: Any) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(ramino=ramino_pb2.RaminoOptions(**kw))


#: Every game and form, with options that make matches long: (id, game, players,
#: options, matches, moves a match at most).
FORMS: list[tuple[str, str, int, game_pb2.GameOptions, int, int]] = [
    ("maraffa-4", "maraffa", 4, _maraffa(), 3, 3000),
    (
        "maraffa-4-redeals-signals-series",
        "maraffa",
        4,
        _maraffa(
            redeal_weak_hand=True,
            signals=maraffa_pb2.MARAFFA_SIGNAL_SET_EXTENDED,
            series=maraffa_pb2.MARAFFA_SERIES_BEST_OF_THREE,
        ),
        2,
        4000,
    ),
    ("maraffa-2", "maraffa", 2, _maraffa(), 3, 3000),
    ("maraffa-3-dummy", "maraffa", 3, _maraffa(redeal_weak_hand=True), 3, 3000),
    (
        "maraffa-3-deck39",
        "maraffa",
        3,
        _maraffa(three_player_form=maraffa_pb2.MARAFFA_THREE_PLAYER_FORM_DECK39),
        3,
        3000,
    ),
    ("maraffa-5", "maraffa", 5, _maraffa(), 3, 3000),
    (
        "maraffa-5-single-round-signals",
        "maraffa",
        5,
        _maraffa(
            trionfo_auction=maraffa_pb2.MARAFFA_TRIONFO_AUCTION_SINGLE_ROUND,
            trionfo_signals=maraffa_pb2.MARAFFA_SIGNAL_SET_CORE,
        ),
        3,
        3000,
    ),
    ("burraco-4", "burraco", 4, _burraco(max_hands=4), 2, 4000),
    ("burraco-2", "burraco", 2, _burraco(max_hands=4), 2, 4000),
    ("burraco-3", "burraco", 3, _burraco(max_hands=4), 2, 4000),
    (
        "burraco-3-three-pozzetti",
        "burraco",
        3,
        _burraco(target=300, max_hands=6, three_player_phase_switch=True),
        2,
        6000,
    ),
    ("ramino-2", "ramino", 2, _ramino(match_hands=6), 2, 6000),
    ("ramino-4", "ramino", 4, _ramino(match_hands=8), 2, 6000),
    (
        "ramino-6-long",
        "ramino",
        6,
        _ramino(hand_size=9, max_reshuffles=3, match_hands=6, max_stake=40),
        2,
        5000,
    ),
    (
        "ramino-3-tax-buio",
        "ramino",
        3,
        _ramino(dealer_tax=2, buio=True, max_stake=30, match_hands=6),
        2,
        6000,
    ),
]


def _random_matches(
    game: str, players: int, options: game_pb2.GameOptions, seeds: range, moves: int
) -> None:
    choose = chooser(game, PolicyKind.RANDOM)
    longest = merged([play(game, players, options, seed, choose, moves) for seed in seeds])
    assert longest.length, "the matches were played"
    assert all(share <= 1 for share in longest.share.values())
    for name, most in GROWING.items():
        assert longest.share.get(name, 0.0) <= most, (name, longest.length[name])


@pytest.mark.parametrize(
    ("game", "players", "options", "matches", "moves"),
    [pytest.param(*form[1:], id=form[0]) for form in FORMS],
)
def test_random_matches_are_never_refused(
    game: str, players: int, options: game_pb2.GameOptions, matches: int, moves: int
) -> None:
    """Every state of a match of each form (Maraffa's whole matches; the first 1,500
    moves of the longer games)."""
    if game != "maraffa":
        matches, moves = 1, 1500
    _random_matches(game, players, options, range(matches), moves)


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.parametrize(
    ("game", "players", "options", "matches", "moves"),
    [pytest.param(*form[1:], id=form[0]) for form in FORMS],
)
def test_long_random_matches_are_never_refused(
    game: str, players: int, options: game_pb2.GameOptions, matches: int, moves: int
) -> None:
    _random_matches(game, players, options, range(100, 100 + 2 * matches), moves)


# Players that make a hand as long as the rules let it be.


def _burraco_stall(state: Any, moves: Sequence[Any], rng: random.Random) -> int:
    """Always take the pile when allowed (else draw), and never meld: only discards."""
    names = [type(m).__name__ for m in moves]
    for wanted in ("PickUp", "Discard"):
        if wanted in names:
            return names.index(wanted)
    return 0


def _ramino_stall(state: Any, moves: Sequence[Any], rng: random.Random) -> int:
    """Stay in every hand (accept, never raise past the lowest opening), take from the
    pile whenever allowed, and never close: hands end only when the stock runs out for
    the last time."""
    kinds = [m.kind.name for m in moves]
    for wanted in ("NO_BUIO", "ACCEPT", "STAND", "OPEN", "TAKE_DISCARD", "DRAW", "DISCARD"):
        if wanted in kinds:
            return kinds.index(wanted)
    return 0


def test_the_longest_burraco_hands_stay_within_the_history_bound() -> None:
    for players in (4, 2, 3):
        longest = play("burraco", players, _burraco(hands=1), 1, _burraco_stall, 3000, every=10)
        share = longest.share["mazzo.v1.BurracoState.history"]
        assert share <= 1
        if players == 4:  # the form the bound is reached in: 9 tenths of it at least
            assert share >= 0.85, longest.length["mazzo.v1.BurracoState.history"]


def test_the_longest_ramino_hands_stay_within_the_turns_bound() -> None:
    options = _ramino(hand_size=9, max_reshuffles=2, match_hands=1)
    longest = play("ramino", 6, options, 1, _ramino_stall, 20_000, every=25)
    share = longest.share["mazzo.v1.RaminoState.turns"]
    assert 0.9 <= share <= 1, longest.length["mazzo.v1.RaminoState.turns"]
