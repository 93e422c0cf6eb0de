"""The games and forms the RL tests cover, and a random player that sees only its mask."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from mazzo.games.maraffa.encoding import CLAIM_ACTION
from mazzo.rl import MazzoEnv

DECK39 = {"three_player_form": "MARAFFA_THREE_PLAYER_FORM_DECK39"}
#: MAZZO_RL_MATCHES=N (make rl-check N=…): N random matches per form with the game's
#: default options; without it, a few short matches (CI).
FULL_RUN = int(os.environ.get("MAZZO_RL_MATCHES", "0"))


@dataclass(frozen=True)
class Form:
    id: str
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    #: Added for the short matches CI plays (one Burraco hand, two Ramino hands, a
    #: Briscola match to two hands won).
    short: dict[str, Any] = field(default_factory=dict)

    def env(self, short: bool = True, **kwargs: Any) -> MazzoEnv:
        options = {**self.options, **(self.short if short else {})}
        return MazzoEnv(game=self.game, players=self.players, options=options, **kwargs)


FORMS = (
    Form("maraffa4", "maraffa", 4),
    Form("maraffa3-dummy", "maraffa", 3),
    Form("maraffa3-deck39", "maraffa", 3, DECK39),
    Form("maraffa2", "maraffa", 2),
    Form("trionfo5", "maraffa", 5, short={"match_deals": 3}),
    Form("burraco2", "burraco", 2, short={"hands": 1}),
    Form("burraco3", "burraco", 3, short={"hands": 1}),
    Form("burraco4", "burraco", 4, short={"hands": 1}),
    Form("ramino2", "ramino", 2, short={"match_hands": 2}),
    Form("ramino3", "ramino", 3, short={"match_hands": 2}),
    Form("ramino4", "ramino", 4, short={"match_hands": 2}),
    Form("ramino5", "ramino", 5, short={"match_hands": 1}),
    Form("ramino6", "ramino", 6, short={"match_hands": 1}),
    Form("briscola2", "briscola", 2, short={"hands_to_win": 2}),
    Form("briscola3", "briscola", 3, short={"hands_to_win": 2}),
    Form("briscola4", "briscola", 4, {"partners_show_hands": True}, short={"hands_to_win": 2}),
)


def each_form() -> Any:
    return pytest.mark.parametrize("form", FORMS, ids=[f.id for f in FORMS])


Chooser = Callable[[np.ndarray], int]


def random_chooser(game: str, rng: np.random.Generator) -> Chooser:
    """Uniform among the legal actions, as ``builtin:random``: never a Maraffa claim
    while anything else is legal (a random claim ends the match at once)."""
    avoid = CLAIM_ACTION if game == "maraffa" else -1

    def choose(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) > 1:
            legal = legal[legal != avoid]
        return int(rng.choice(legal))

    return choose


def play_observed(env: MazzoEnv, choose: Chooser) -> Iterator[tuple[str, dict[str, Any]]]:
    """Plays the match ``env`` was reset to, yielding each agent before it acts with
    the observation ``env.last()`` gave it (the one its action is chosen from)."""
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, obs
        env.step(choose(obs["action_mask"]))


def play(env: MazzoEnv, choose: Chooser) -> Iterator[str]:
    """Plays the match ``env`` was reset to, yielding each agent before it acts."""
    for agent, _ in play_observed(env, choose):
        yield agent
