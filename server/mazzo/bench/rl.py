"""``mazzo bench --only rl``: what ``mazzo.rl`` costs over the plain engines, in one run.

For each form, random play two ways, one after the other in this process: the engine
alone (``legal_moves``, then ``apply`` of a random one) and the PettingZoo environment
(``agent_iter``, ``last``, which builds the observation and mask, and ``step``); then
2-player Maraffa's environment over gRPC to a ``mazzo serve`` started here (each step
an ``ApplyMove`` and a ``GetView``), by the CPU of both processes. The ratios
(environment steps per engine move) are the figures to compare across machines.

Anchors, if installed, in the same run: OpenSpiel's C++ Hearts driven from Python
(``legal_actions``, a tensor, ``apply_action``; chance outcomes drawn at random;
Hearts gives only the information state tensor, so that one), our own
``mazzo_maraffa`` registration the same way (its observation tensor), and RLCard's
gin rummy (``env.step`` with its state, random legal actions). An anchor that is not
installed is reported as skipped, with the reason.

Random Maraffa play never claims while anything else is legal (as everywhere in the
bench); random Burraco and Ramino play pick among all legal actions.
"""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

from mazzo.bench.common import Report, process_cpu, server_process
from mazzo.games.registry import rules_for

# mazzo.rl (NumPy), PettingZoo, OpenSpiel and RLCard are imported where they are used:
# they are the optional ``rl`` and ``anchors`` extras, and ``mazzo bench`` runs without
# them (this family then reports itself skipped).

#: (name, game, players, options)
FORMS: tuple[tuple[str, str, int, dict[str, Any]], ...] = (
    ("maraffa_4p", "maraffa", 4, {}),
    ("maraffa_2p", "maraffa", 2, {}),
    ("trionfo_5p", "maraffa", 5, {}),
    ("burraco_4p", "burraco", 4, {}),
    ("ramino_4p", "ramino", 4, {}),
)


class _Clock:
    def __init__(self, seconds: float) -> None:
        self.start = time.perf_counter()
        self.cpu = time.process_time()
        self.deadline = self.start + seconds

    def running(self) -> bool:
        return time.perf_counter() < self.deadline

    def rate(self, count: int) -> Report:
        wall = time.perf_counter() - self.start
        cpu = time.process_time() - self.cpu
        return {
            "steps": count,
            "seconds": round(wall, 3),
            "per_second": round(count / wall),
            "per_cpu_second": round(count / max(cpu, 1e-9)),
        }


def _is_claim(game: str, move: Any) -> bool:
    return game == "maraffa" and str(move) == "claim"


def engine_moves(game: str, players: int, options: dict[str, Any], seconds: float) -> Report:
    """Random play on the plain engine: moves per second."""
    from mazzo.rl.encoding import game_options

    rules = rules_for(game)
    opts = game_options(game, options)
    rng = random.Random(1)
    seed = 1
    state, _ = rules.deal(opts, players, seed)
    moves = 0
    clock = _Clock(seconds)
    while clock.running():
        for _ in range(100):
            if rules.finished(state):
                seed += 1
                state, _ = rules.deal(opts, players, seed)
            legal = rules.legal_moves(state)
            choices = [m for m in legal if not _is_claim(game, m)] or list(legal)
            state, _ = rules.apply(state, choices[rng.randrange(len(choices))])
            moves += 1
    return clock.rate(moves)


def env_steps(
    game: str, players: int, options: dict[str, Any], seconds: float, server: str | None = None
) -> Report:
    """Random play through the PettingZoo environment: steps (actions) per second."""
    import numpy as np

    from mazzo.rl import env as make_env

    e = make_env(game=game, players=players, options=options, server=server)
    claim = -1
    if game == "maraffa":
        from mazzo.games.maraffa.encoding import MARAFFA

        claim = next(a for a in range(MARAFFA.actions) if str(MARAFFA.move_of(a)) == "claim")
    rng = random.Random(1)
    steps, seed = 0, 1
    clock = _Clock(seconds)
    try:
        while clock.running():
            e.reset(seed=seed)
            seed += 1
            for _ in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                if claim >= 0 and len(legal) > 1:
                    legal = legal[legal != claim]
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
                if not clock.running():
                    break
    finally:
        e.close()
    return clock.rate(steps)


def openspiel_steps(name: str, params: dict[str, Any], seconds: float) -> Report:
    """Random play of an OpenSpiel game from Python, the observation tensor read at
    every decision as an agent would: steps (decisions) per second."""
    import pyspiel

    if name.startswith("mazzo_"):
        import mazzo.rl.openspiel_game  # noqa: F401  (registers the games)
    game = pyspiel.load_game(name, params)
    kind = game.get_type()
    # Hearts gives only the information state tensor; our games give both.
    tensor = "observation" if kind.provides_observation_tensor else "information_state"
    read = f"{tensor}_tensor"
    rng = random.Random(1)
    steps = 0
    clock = _Clock(seconds)
    state = game.new_initial_state()
    while clock.running():
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        getattr(state, read)(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return {**clock.rate(steps), "tensor": tensor}


def rlcard_steps(name: str, seconds: float) -> Report:
    """Random play of an RLCard game through its ``env.step``: steps per second."""
    rlcard = importlib.import_module("rlcard")  # not a dependency: no types to check
    env = rlcard.make(name, config={"seed": 1})
    rng = random.Random(1)
    steps = 0
    clock = _Clock(seconds)
    state, _ = env.reset()
    while clock.running():
        if env.is_over():
            state, _ = env.reset()
            continue
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.randrange(len(legal))])
        steps += 1
    return clock.rate(steps)


def _anchor(measure: Any, module: str) -> Report:
    try:
        __import__(module)
    except ImportError:
        return {"skipped": f"{module} is not installed"}
    report: Report = measure()
    return report


def _grpc_env(seconds: float) -> Report:
    """2-player Maraffa's environment over gRPC to a server started here: steps per
    second of the two processes' CPU together (the server's from /proc), and per wall
    second."""
    with server_process() as (port, pid):
        before = process_cpu(pid)
        rate = env_steps("maraffa", 2, {}, seconds, server=f"127.0.0.1:{port}")
        after = process_cpu(pid)
    cpu = rate["steps"] / max(rate["per_cpu_second"], 1)
    if before is not None and after is not None:
        cpu += after - before
        rate["per_cpu_second_with_server"] = round(rate["steps"] / max(cpu, 1e-9))
    return rate


def rl(seconds: float) -> Report:
    try:
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as e:
        return {"skipped": f"{e.name} is not installed: pip install 'mazzo[rl]'"}
    report: Report = {}
    for name, game, players, options in FORMS:
        engine = engine_moves(game, players, options, seconds)
        env = env_steps(game, players, options, seconds)
        report[name] = {
            "engine_moves_per_cpu_second": engine["per_cpu_second"],
            "env_steps_per_cpu_second": env["per_cpu_second"],
            "env_steps_per_engine_move": round(
                env["per_cpu_second"] / max(engine["per_cpu_second"], 1), 4
            ),
        }
    grpc_env = _grpc_env(seconds)
    both = grpc_env.get("per_cpu_second_with_server")
    report["maraffa_2p_over_grpc"] = {
        "env_steps_per_cpu_second": both,
        "env_steps_per_second": grpc_env["per_second"],
        "against_in_process_env": None
        if both is None
        else round(both / max(report["maraffa_2p"]["env_steps_per_cpu_second"], 1), 4),
        "note": "CPU: the environment's process and the server's together",
    }
    anchors: Report = {
        "openspiel_hearts": _anchor(lambda: openspiel_steps("hearts", {}, seconds), "pyspiel"),
        "openspiel_mazzo_maraffa_4p": _anchor(
            lambda: openspiel_steps("mazzo_maraffa", {"players": 4}, seconds), "pyspiel"
        ),
        "rlcard_gin_rummy": _anchor(lambda: rlcard_steps("gin-rummy", seconds), "rlcard"),
    }
    maraffa = report["maraffa_4p"]["env_steps_per_cpu_second"]
    for value in anchors.values():
        if "per_cpu_second" in value:
            value["mazzo_maraffa_4p_env_steps_per_anchor_step"] = round(
                maraffa / max(value["per_cpu_second"], 1), 4
            )
    report["anchors"] = anchors
    return report
