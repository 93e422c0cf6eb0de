"""``builtin:policy?path=FILE``: the referee's requests read exactly as the environment
observes, so a policy trained on the environment plays the same inputs in a match;
the spec refuses bad files and parameters before the first deal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mazzo.games.registry import CODECS
from mazzo.referee.bots import BotSpec
from mazzo.referee.match import Entrant
from mazzo.referee.tournament import Config, run_tournament
from mazzo.rl.policy import Featurizer, load_policy, policy_player, save_policy
from mazzo.v1 import bot_pb2
from tests.rl.forms import Form, each_form, play, random_chooser

#: Steps compared per form (every phase of a Maraffa hand, and well into a Burraco or
#: Ramino hand: a few seconds in all).
STEPS = 120


def request_of(env: object, seat: int) -> bot_pb2.ActRequest:
    """The request the referee's in-process engine sends (referee/engine.py)."""
    rules, state = env.rules, env.match_state  # type: ignore[attr-defined]
    codec = CODECS[env.game]  # type: ignore[attr-defined]
    request = bot_pb2.ActRequest(seat=seat)
    codec.view_to_wire(rules.view(state, seat), request.view)
    for move in rules.legal_moves(state):
        codec.move_to_wire(move, request.legal_moves.add())
    return request


@each_form()
def test_a_request_reads_as_the_environment_observes(form: Form) -> None:
    env = form.env()
    featurize = Featurizer()
    steps = 0
    for seed in range(11, 16):
        env.reset(seed=seed)
        for agent in play(env, random_chooser(form.game, np.random.default_rng(seed))):
            seat = env.rules.to_act(env.match_state)
            observation, legal = featurize(request_of(env, seat))
            seen = env.observe(agent)
            np.testing.assert_array_equal(observation, seen["observation"])
            assert sorted(legal) == np.flatnonzero(seen["action_mask"]).tolist()
            assert featurize.actions == env.encoding.actions
            steps += 1
            if steps == STEPS:
                return
    pytest.fail(f"only {steps} steps in 5 matches")


def test_the_spec_loads_the_file_before_the_first_deal(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    rng = np.random.default_rng(1)
    save_policy(path, "maraffa", [(rng.normal(size=(981, 891)), np.zeros(891))])
    spec = BotSpec.parse(f"builtin:policy?path={path}")
    assert (spec.kind, spec.target, spec.params["path"]) == ("builtin", "policy", str(path))
    BotSpec.parse(f"builtin:policy?path={path}&temperature=0.5")
    with pytest.raises(ValueError, match="cannot read the policy file"):
        BotSpec.parse(f"builtin:policy?path={tmp_path / 'missing.npz'}")
    with pytest.raises(ValueError, match="needs path=FILE"):
        BotSpec.parse("builtin:policy")
    with pytest.raises(ValueError, match="unknown parameter 'samples'"):
        BotSpec.parse(f"builtin:policy?path={path}&samples=3")
    with pytest.raises(ValueError, match="temperature is a number >= 0"):
        BotSpec.parse(f"builtin:policy?path={path}&temperature=-1")
    with pytest.raises(ValueError, match="takes no parameters"):
        BotSpec.parse(f"builtin:random?path={path}")


def test_a_policy_of_another_game_crashes_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    save_policy(path, "burraco", [(np.zeros((1917, 3295)), np.zeros(3295))])
    env = Form("maraffa2", "maraffa", 2).env()
    env.reset(seed=1)
    act = policy_player(1, {"path": str(path)})
    with pytest.raises(ValueError, match="a burraco policy cannot play maraffa"):
        act(request_of(env, env.rules.to_act(env.match_state)))


def test_the_player_plays_the_networks_best_legal_move(tmp_path: Path) -> None:
    """Greedy: the legal action of highest logit; the answer is its place in the request."""
    path = tmp_path / "p.npz"
    rng = np.random.default_rng(2)
    save_policy(path, "maraffa", [(rng.normal(size=(981, 891)), rng.normal(size=891))])
    network = load_policy(path)
    env = Form("maraffa4", "maraffa", 4).env()
    env.reset(seed=5)
    act = policy_player(7, {"path": str(path)})
    featurize = Featurizer()
    for checked, _ in enumerate(play(env, random_chooser("maraffa", np.random.default_rng(5)))):
        request = request_of(env, env.rules.to_act(env.match_state))
        observation, legal = featurize(request)
        logits = network.logits(observation)
        index = act(request).index
        assert logits[legal[index]] == max(logits[a] for a in legal)
        if checked == 40:
            break


async def test_a_policy_plays_a_tournament(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    rng = np.random.default_rng(3)
    hidden = (rng.normal(size=(981, 8)), np.zeros(8))
    save_policy(path, "maraffa", [hidden, (rng.normal(size=(8, 891)), np.zeros(891))])
    config = Config(
        name="policy",
        game="maraffa",
        players=2,
        entrants=(
            Entrant("policy", (f"builtin:policy?path={path}",)),
            Entrant("random", ("builtin:random",)),
        ),
        deals=1,
        options={"maraffa": {"target": 11}},
    )
    outcome = await run_tournament(config, tmp_path / "r.jsonl", progress=False)
    assert len(outcome.records) == 2  # the deal twice, the hands swapped
    assert all(record["faults"] == [] for record in outcome.records)
