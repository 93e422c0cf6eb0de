"""Mazzo's games as OpenSpiel Python games, so OpenSpiel's own algorithms run on them.

    import pyspiel
    import mazzo.rl.openspiel_game  # registers mazzo_<game> for every game
    game = pyspiel.load_game("mazzo_maraffa", {"players": 4, "options": '{"target": 21}'})

One episode is a whole match. Every deal (and every Ramino reshuffle) is a run of
chance nodes, one card at a time (``chance_deals``), and the first dealer one more;
the players' moves are the actions
of the PettingZoo environment (the same ``Encoding``), and so are the observation and
information state tensors (a seat's view as numbers). The information state string
is perfect recall: the seat's view at the end of every past hand, then its view now.
``resample_from_infostate`` draws the hidden cards with ``Determinize``'s sampler.
Returns: +1 to the winners of the match, -1 to the others, 0 to all in a draw.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pyspiel
from google.protobuf import text_format

from mazzo.core.cards import code
from mazzo.games.registry import CODECS, rules_for
from mazzo.games.registry import GAMES as REGISTERED
from mazzo.rl.chance_deals import ChanceDeals, Deal
from mazzo.rl.encoding import encoding_for, game_options
from mazzo.rl.layout import Encoding, Observation
from mazzo.rl.rewards import match_result
from mazzo.v1 import game_pb2

SEED_BITS = 53


class Shared:
    """Held by reference: OpenSpiel clones a Python state with ``copy.deepcopy``, and
    what every state of a game shares, or never changes, needs no copy."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Setup:
    """What the states of one game share: its rules, options, seats and players."""

    def __init__(self, game: str, players: int, options: Any) -> None:
        self.game = game
        self.rules = rules_for(game)
        self.codec = CODECS[game]
        self.players = players
        self.options = options
        self.encoding: Encoding = encoding_for(game, options)
        self.deals: ChanceDeals = REGISTERED[game].learning.chance_deals()
        probe, events = self.rules.deal(options, players, 0)  # refuses bad options now
        self.seats = len(probe.hands)
        controllers: list[int] = [self.rules.controller(probe, s) for s in range(self.seats)]
        #: OpenSpiel's players are the seats that decide, in seat order.
        self.seat_of_player = tuple(sorted(set(controllers)))
        self.player_of_seat = tuple(self.seat_of_player.index(c) for c in controllers)
        report = self.rules.score(probe)
        side: dict[int, int] = {seat: s.side for s in report.sides for seat in s.seats}
        self.side_of_player = tuple(side[seat] for seat in self.seat_of_player)
        decisions = self.rules.moves_bound(probe, True)
        first = self.deals.deal_of(probe, events)
        assert first is not None, "a match begins with a deal"
        places = len(first.owners)
        #: The first dealer, every decision, and a deal after each (a redeal, a new hand,
        #: a reshuffle).
        self.max_length = 1 + decisions + (decisions + 1) * places

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self


def _game_type(game: str) -> Any:
    rules = rules_for(game)
    counts = rules.player_counts
    return pyspiel.GameType(
        short_name=f"mazzo_{game}",
        long_name=f"Mazzo {rules.display_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": rules.default_players, "options": "{}"},
    )


class MazzoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """``players`` and ``options`` (a JSON object of option names and values, as a
    tournament file's ``[options]``)."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", rules_for(game).default_players))
        options = game_options(game, json.loads(str(params.get("options", "{}"))))
        self.setup = Setup(game, players, options)
        setup = self.setup
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.encoding.actions,
            max_chance_outcomes=max(setup.deals.outcomes, setup.seats),
            num_players=len(setup.seat_of_player),
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=setup.max_length,
        )
        spiel_params = {"players": players, "options": str(params.get("options", "{}"))}
        super().__init__(_game_type(game), info, spiel_params)

    def new_initial_state(self) -> MazzoState:
        return MazzoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MazzoObserver:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            obs_type.public_info
        ):
            raise ValueError("only a player's own observation (public and private) is offered")
        return MazzoObserver(self.setup, obs_type.perfect_recall)


class MazzoState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: the engine's state once the first dealer is known, and the
    deal being made by chance, if any."""

    def __init__(self, game: MazzoGame) -> None:
        super().__init__(game)
        self._setup: Setup = game.setup
        setup = self._setup
        self._engine: Shared | None = None
        #: The deal chance is making (its places and the cards placed so far).
        self._deal: Shared | None = None
        self._placed: tuple[int, ...] = ()
        #: The state before the move that ended the last hand (observed while dealing).
        self._before: Shared | None = None
        #: Per player, its view at the end of each past hand (perfect recall).
        self._past: tuple[tuple[str, ...], ...] = ((),) * len(setup.seat_of_player)
        if setup.options.first_dealer is not None:
            self._start(setup.options.first_dealer)

    # -- OpenSpiel's API

    def current_player(self) -> int:
        if self._engine is None or self._deal is not None:
            return int(pyspiel.PlayerId.CHANCE)
        setup = self._setup
        state = self._engine.value
        if setup.rules.finished(state):
            return int(pyspiel.PlayerId.TERMINAL)
        seat: int = setup.rules.to_act(state)
        return setup.player_of_seat[seat]

    def _legal_actions(self, player: int) -> list[int]:
        setup = self._setup
        assert self._engine is not None and player == self.current_player()
        return sorted(map(setup.encoding.action_of, setup.rules.legal_moves(self._engine.value)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        setup = self._setup
        if self._engine is None:
            return [(d, 1.0 / setup.seats) for d in range(setup.seats)]
        left = self._left()
        total = sum(left.values())
        return sorted((setup.deals.outcome_of(c), n / total) for c, n in left.items())

    def _apply_action(self, action: int) -> None:
        setup = self._setup
        if self._engine is None:
            self._start(action)
        elif self._deal is not None:
            card = setup.deals.card_of(action)
            if not self._left()[card]:
                raise ValueError(f"{card} is not left to deal")
            self._placed += (card,)
            dealing: Deal = self._deal.value
            if len(self._placed) == len(dealing.owners):
                placed = setup.deals.place(self._engine.value, dealing, self._placed)
                self._engine, self._deal, self._placed = Shared(placed), None, ()
        else:
            before = self._engine.value
            after, events = setup.rules.apply(before, setup.encoding.move_of(action))
            self._engine = Shared(after)
            deal = None if setup.rules.finished(after) else setup.deals.deal_of(after, events)
            if deal is not None:
                if deal.new_hand:
                    self._past = tuple(
                        (*past, self._view_text(before, p)) for p, past in enumerate(self._past)
                    )
                self._before = Shared(before)
                self._deal = Shared(deal)

    def _action_to_string(self, player: int, action: int) -> str:
        setup = self._setup
        if player != pyspiel.PlayerId.CHANCE:
            return str(setup.encoding.move_of(action))
        if self._engine is None:
            return f"dealer {action}"
        return f"deal {code(setup.deals.card_of(action))}"

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        setup = self._setup
        if not self.is_terminal():
            return [0.0] * len(setup.seat_of_player)
        assert self._engine is not None
        result = match_result(setup.rules.score(self._engine.value))
        return [result[side] for side in setup.side_of_player]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MazzoState:
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt anew by
        the engine's ``Determinize``, seeded from the sampler."""
        if self._engine is None or self._deal is not None or self.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        setup = self._setup
        seed = int(probability_sampler() * 2**SEED_BITS)
        view = setup.rules.view(self._engine.value, setup.seat_of_player[player_id])
        (sample,) = setup.rules.determinize(view, 1, seed)
        other: MazzoState = self.clone()
        other._engine = Shared(sample)
        return other

    def __str__(self) -> str:
        if self._engine is None:
            return "choosing the first dealer"
        state = self._engine.value
        text = f"{self._setup.game}: {state}"
        return text if self._deal is None else f"{text} (dealing {len(self._placed)})"

    # -- what a player sees

    def observation_numbers(self, player: int) -> Observation:
        """The player's view as numbers; while a hand is dealt, the view it had before."""
        setup = self._setup
        shown = self._engine if self._deal is None else self._before
        if shown is None:
            return setup.encoding.layout.zeros()
        seat = setup.seat_of_player[player]
        return setup.encoding.observe(setup.rules.view(shown.value, seat))

    def observation_text(self, player: int) -> str:
        if self._engine is None or self._deal is not None:
            return f"dealing, {len(self._placed)} cards placed"
        return self._view_text(self._engine.value, player)

    def information_text(self, player: int) -> str:
        return "\n".join((*self._past[player], self.observation_text(player)))

    # -- helpers

    def _start(self, dealer: int) -> None:
        setup = self._setup
        options = replace(setup.options, first_dealer=dealer)
        state, events = setup.rules.deal(options, setup.players, 0)
        self._engine = Shared(state)
        self._deal = Shared(setup.deals.deal_of(state, events))
        assert self._deal.value is not None, "a match begins with a deal"

    def _left(self) -> Counter[int]:
        assert self._deal is not None
        left = Counter(self._deal.value.cards)
        left.subtract(self._placed)
        return +left

    def _view_text(self, state: Any, player: int) -> str:
        """The seat's view as ``GetView`` answers it, in protobuf's text format: the
        same text for the same view whatever Python objects hold it (a ``repr`` showed
        an engine's ``Signal.VOLO`` as ``3`` once compiled)."""
        setup = self._setup
        wire = game_pb2.GameView()
        setup.codec.view_to_wire(setup.rules.view(state, setup.seat_of_player[player]), wire)
        return text_format.MessageToString(wire, as_one_line=True)


class MazzoObserver:
    """OpenSpiel's observer: the tensor is the seat's view as numbers, named by block."""

    def __init__(self, setup: Setup, perfect_recall: bool) -> None:
        layout = setup.encoding.layout
        self.perfect_recall = perfect_recall
        self.tensor = layout.zeros()
        self.dict = {b.name: self.tensor[b.offset : b.offset + b.size] for b in layout.blocks}

    def set_from(self, state: MazzoState, player: int) -> None:
        self.tensor[:] = state.observation_numbers(player)

    def string_from(self, state: MazzoState, player: int) -> str:
        if self.perfect_recall:
            return state.information_text(player)
        return state.observation_text(player)


def _game_class(game: str) -> type[MazzoGame]:
    """``mazzo_<game>``: every form of the game, by ``players`` and the options."""

    def __init__(self: MazzoGame, params: dict[str, Any] | None = None) -> None:
        MazzoGame.__init__(self, game, params)

    name = rules_for(game).display_name.replace(" ", "") + "Game"
    doc = f"``mazzo_{game}``: every form, by ``players`` and the options."
    return type(name, (MazzoGame,), {"__init__": __init__, "__doc__": doc})


#: OpenSpiel keeps what is registered until the process ends: a class, as its own
#: games register (a function registered instead crashed the interpreter at exit).
GAMES: dict[str, type[MazzoGame]] = {game: _game_class(game) for game in REGISTERED}


def register() -> None:
    """Registers every game of ``GAMES`` with OpenSpiel (once)."""
    registered = set(pyspiel.registered_names())
    for game, cls in GAMES.items():
        if f"mazzo_{game}" not in registered:
            pyspiel.register_game(_game_type(game), cls)


register()
