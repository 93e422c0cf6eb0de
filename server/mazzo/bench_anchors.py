"""``mazzo bench --anchors``: our engines against the engines a user would otherwise
pick, in one run: random 4-player hands per CPU second of Maraffa, Burraco and Ramino
beside random games of OpenSpiel's C++ Hearts and Gin Rummy (driven from Python through
``pyspiel``) and RLCard's Gin Rummy (Python). A game of each of those is one hand.

Absolute rates differ threefold between machines; only the ratios of one run mean
anything. The anchors come from the ``anchors`` extra (``pip install 'mazzo[anchors]'``:
open_spiel 2.0.2, rlcard 1.2.0), which ``make run`` never installs.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from typing import Any

Report = dict[str, Any]

#: The ratios the compiled engines aim at (docs/engine.md; for the reader of the
#: report: nothing here fails).
TARGETS = {
    "maraffa_4p_per_openspiel_hearts": 3.0,
    "burraco_4p_per_openspiel_gin_rummy": 2.0,
    "ramino_4p_per_openspiel_gin_rummy": 2.0,
}


def _games(play_one: Callable[[random.Random], int], seconds: float) -> Report:
    """Whole games of random play for ``seconds`` of CPU time: games and moves per CPU
    second."""
    rng = random.Random(1)
    games = moves = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        moves += play_one(rng)
        games += 1
    elapsed = max(elapsed, 1e-9)
    return {
        "games": games,
        "games_per_cpu_second": round(games / elapsed, 1),
        "moves_per_game": round(moves / max(games, 1), 1),
    }


def openspiel_games(name: str, seconds: float) -> Report:
    """Random games of an OpenSpiel game (chance outcomes drawn by their probabilities'
    order, uniformly: a deal is a sequence of card draws)."""
    pyspiel = importlib.import_module("pyspiel")  # the anchors extra: no types to check
    game = pyspiel.load_game(name)

    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    return _games(play_one, seconds)


def rlcard_games(name: str, seconds: float) -> Report:
    """Random games of an RLCard game through its environment's ``step``."""
    rlcard = importlib.import_module("rlcard")  # the anchors extra: no types to check
    env = rlcard.make(name, config={"seed": 1})

    def play_one(rng: random.Random) -> int:
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    return _games(play_one, seconds)


def _anchor(module: str, measure: Callable[[], Report]) -> Report:
    try:
        importlib.import_module(module)
    except ImportError:
        return {"skipped": f"{module} is not installed: pip install 'mazzo[anchors]'"}
    return measure()


def anchors(seconds: float) -> Report:
    """The report: our rates, the anchors' and their ratios."""
    from mazzo.bench import burraco_random_hands, maraffa_random_hands, ramino_random_hands

    ours = {
        "maraffa_4p": maraffa_random_hands(4, seconds)["hands_per_cpu_second"],
        "burraco_4p": burraco_random_hands(4, seconds)["hands_per_cpu_second"],
        "ramino_4p": ramino_random_hands(4, seconds)["hands_per_cpu_second"],
    }
    theirs = {
        "openspiel_hearts": _anchor("pyspiel", lambda: openspiel_games("hearts", seconds)),
        "openspiel_gin_rummy": _anchor("pyspiel", lambda: openspiel_games("gin_rummy", seconds)),
        "rlcard_gin_rummy": _anchor("rlcard", lambda: rlcard_games("gin-rummy", seconds)),
    }
    pairs = {
        "maraffa_4p_per_openspiel_hearts": ("maraffa_4p", "openspiel_hearts"),
        "burraco_4p_per_openspiel_gin_rummy": ("burraco_4p", "openspiel_gin_rummy"),
        "ramino_4p_per_openspiel_gin_rummy": ("ramino_4p", "openspiel_gin_rummy"),
        "burraco_4p_per_rlcard_gin_rummy": ("burraco_4p", "rlcard_gin_rummy"),
        "ramino_4p_per_rlcard_gin_rummy": ("ramino_4p", "rlcard_gin_rummy"),
    }
    ratios: Report = {}
    for name, (mine, anchor) in pairs.items():
        rate = theirs[anchor].get("games_per_cpu_second")
        ratios[name] = round(ours[mine] / rate, 3) if rate else None
    return {
        "hands_per_cpu_second": ours,
        "anchors": theirs,
        "ratios": ratios,
        "targets": TARGETS,
    }
