"""A PettingZoo AEC environment for every Mazzo game and form, on the in-process engines.

One agent per player that decides (``player_<seat>``): in 3-player Maraffa with a
dummy, the dummy's controller acts for both of his seats. Each agent observes
``{"observation": ..., "action_mask": ...}``: the numbers of its own seat's view (the
engine's ``GetView``, never the state) and, for the agent to act, the legal actions;
see docs/rl.md. ``reset(seed=s)`` deals exactly the match ``Deal`` deals with seed
``s``; each later ``reset()`` deals seed ``s + 1``, ``s + 2``, and so on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mazzo.games.registry import GAMES, rules_for
from mazzo.rl.encoding import encoding_for, game_options
from mazzo.rl.remote import Position, RemoteGame
from mazzo.rl.rewards import match_result

Reward = Literal["match", "hand"]
Mask = NDArray[np.int8]
SEED_SPACE = 2**64


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.rpartition("_")[2])


class MazzoEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """``game`` with ``players`` and ``options`` (the game's ``Options``, or a mapping of
    option names to values as ``ListGames`` gives them). ``reward``: ``"match"`` pays +1
    to the winners and -1 to the others when the match ends (0 to all in a draw);
    ``"hand"`` pays each agent, whenever a hand is scored, the change of its side's
    match total. ``server``: ``HOST:PORT`` (or ``grpcs://HOST:PORT``, checked against
    the PEM file ``ca``) of a running ``mazzo serve`` that deals, lists the legal moves,
    applies them and gives the views, instead of the in-process engines."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mazzo_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = next(iter(GAMES)),
        players: int | None = None,
        options: Any = None,
        reward: Reward = "match",
        render_mode: str | None = None,
        server: str | None = None,
        ca: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in ("match", "hand"):
            raise ValueError(f"reward is 'match' or 'hand', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.game = game
        self.rules = rules_for(game)
        self.players = self.rules.default_players if players is None else players
        self.options = game_options(game, options)
        self.encoding = encoding_for(game, self.options)
        self.reward_mode = reward
        self.render_mode = render_mode
        probe, _ = self.rules.deal(self.options, self.players, 0)  # refuses bad options now
        seats = len(probe.hands)
        self.controller = tuple(self.rules.controller(probe, s) for s in range(seats))
        self.possible_agents = [agent_name(s) for s in sorted(set(self.controller))]
        report = self.rules.score(probe)
        side_of_seat = {seat: side.side for side in report.sides for seat in side.seats}
        self.side = {a: side_of_seat[seat_of(a)] for a in self.possible_agents}
        low, high = self.encoding.layout.bounds()
        size = self.encoding.actions
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self._next_seed: int | None = None
        self._no_mask: Mask = np.zeros(size, np.int8)
        self._mask = self._no_mask
        self.match_state: Any = None
        self.server = server
        self._remote: RemoteGame | None = None
        self._position: Position | None = None
        self._index_of: dict[int, int] = {}
        if server is not None:
            self._remote = RemoteGame(
                server, game, self.options, self.players, None if ca is None else Path(ca)
            )

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new match. ``options`` is not read: the game's options are fixed when the
        environment is made, because its spaces depend on them."""
        if seed is not None:
            self._next_seed = seed % SEED_SPACE
        elif self._next_seed is None:
            self._next_seed = random.SystemRandom().randrange(SEED_SPACE)
        self.deal_seed = self._next_seed
        self._next_seed = (self._next_seed + 1) % SEED_SPACE
        if self._remote is not None:
            self._position = self._remote.deal(self.deal_seed)
            self.match_state = self._position.state
        else:
            self.match_state, _ = self.rules.deal(self.options, self.players, self.deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._report = self.rules.score(self.match_state)
        self._hand = self.rules.hand_key(self.match_state)
        self._after_move()

    def set_state(self, state: Any) -> None:
        """Go on from ``state`` (a position, a sample of ``Determinize``), checked as any
        state that comes in; after ``reset``, whose agents it keeps."""
        self.rules.validate(state)
        if self._remote is not None:
            to_act = 0 if self.rules.finished(state) else self.rules.to_act(state)
            self._position = self._remote.at(state, to_act)
        self.match_state = state
        self._report = self.rules.score(state)
        self._hand = self.rules.hand_key(state)
        self.terminations = dict.fromkeys(self.agents, self.rules.finished(state))
        self._after_move()

    def _after_move(self) -> None:
        """The next agent to act and its legal actions."""
        state = self.match_state
        if self.rules.finished(state):
            self._mask = self._no_mask
            return
        mask = np.zeros(self.encoding.actions, np.int8)
        action_of = self.encoding.action_of
        if self._position is not None:
            self.agent_selection = agent_name(self.controller[self._position.seat])
            self._index_of = {action_of(m): i for i, m in enumerate(self._position.moves)}
            mask[list(self._index_of)] = 1
        else:
            self.agent_selection = agent_name(self.controller[self.rules.to_act(state)])
            for move in self.rules.legal_moves(state):
                mask[action_of(move)] = 1
        self._mask = mask

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        if self._position is not None and self._remote is not None:
            view = self._remote.view(self._position, seat_of(agent))
        else:
            view = self.rules.view(self.match_state, seat_of(agent))
        live = agent == self.agent_selection and not self.rules.finished(self.match_state)
        return {
            "observation": self.encoding.observe(view),
            "action_mask": self._mask.copy() if live else self._no_mask.copy(),
        }

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to act (the indices its mask has set)."""
        return [int(a) for a in np.flatnonzero(self._mask)]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < self.encoding.actions:
            raise ValueError(
                f"{agent}: {action!r} is not an action (0..{self.encoding.actions - 1})"
            )
        if not self._mask[int(action)]:
            move = self.encoding.move_of(int(action))
            raise ValueError(f"{agent}: action {int(action)} ({move}) is not legal now")
        move = self.encoding.move_of(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self._position is not None and self._remote is not None:
            self._position = self._remote.apply(self._position, self._index_of[int(action)])
            self.match_state = self._position.state
        else:
            self.match_state, _ = self.rules.apply(self.match_state, move)
        self._clear_rewards()
        self._pay()
        if self.rules.finished(self.match_state):
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._after_move()

    def _pay(self) -> None:
        """Rewards for the move just made: at the end of a hand or of the match."""
        state = self.match_state
        finished = self.rules.finished(state)
        hand = self.rules.hand_key(state) if not finished else None
        if hand == self._hand:
            return
        before, self._hand = self._report, hand
        report = self._report = self.rules.score(state)
        if self.reward_mode == "hand":
            change = GAMES[self.game].hooks.hand_change(before, report)
            for a in self.agents:
                self.rewards[a] = float(change[self.side[a]])
        elif finished:
            result = match_result(report)
            for a in self.agents:
                self.rewards[a] = result[self.side[a]]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        state = self.match_state
        totals = [side.match_total for side in self.rules.score(state).sides]
        if self.rules.finished(state):
            return f"{self.game}, seed {self.deal_seed}: over; totals {totals}"
        seat = self.rules.to_act(state)
        legal = ", ".join(str(m) for m in self.rules.legal_moves(state))
        return f"{self.game}, seed {self.deal_seed}: seat {seat} to act; totals {totals}\n{legal}"

    def close(self) -> None:
        if self._remote is not None:
            self._remote.close()


def raw_env(**kwargs: Any) -> MazzoEnv:
    return MazzoEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual order checks (``reset`` before ``step``)."""
    return wrappers.OrderEnforcingWrapper(MazzoEnv(**kwargs))
