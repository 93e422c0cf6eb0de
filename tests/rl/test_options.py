"""Options reach the engines as given, and what the rules refuse is refused up front."""

from __future__ import annotations

import pytest

from mazzo.core.errors import InvalidArgument
from mazzo.games.maraffa.options import Options, ThreePlayerForm
from mazzo.games.ramino.encoding import OPEN
from mazzo.rl import MazzoEnv
from mazzo.rl.encoding import game_options


def test_options_by_name_are_the_games_options() -> None:
    named = game_options(
        "maraffa", {"target": 21, "three_player_form": "MARAFFA_THREE_PLAYER_FORM_DECK39"}
    )
    assert named == Options(target=21, three_player_form=ThreePlayerForm.DECK39)
    env = MazzoEnv(game="maraffa", players=3, options=named)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_a_value_the_rules_refuse_is_refused_naming_the_option() -> None:
    with pytest.raises(InvalidArgument, match="target"):
        MazzoEnv(game="maraffa", players=4, options={"target": 0})
    with pytest.raises(ValueError, match="no_such_option"):
        MazzoEnv(game="burraco", players=2, options={"no_such_option": 1})


def test_raminos_action_space_follows_its_stakes() -> None:
    env = MazzoEnv(game="ramino", players=3, options={"max_stake": 20})
    assert env.action_space("player_0").n == OPEN + 2 * 20


def test_an_action_outside_the_mask_is_refused_with_its_move() -> None:
    env = MazzoEnv(game="maraffa", players=4)
    env.reset(seed=1)
    illegal = next(a for a in range(env.encoding.actions) if not env._mask[a])
    with pytest.raises(ValueError, match="not legal now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not an action"):
        env.step(env.encoding.actions)
