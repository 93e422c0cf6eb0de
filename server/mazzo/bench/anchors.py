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
import statistics
import time
from collections.abc import Callable

from mazzo.bench.common import Report
from mazzo.bench.engines import burraco_random_hands, maraffa_random_hands, ramino_random_hands

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


def _installed(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


#: Each ratio: ours, the anchor's.
PAIRS = {
    "maraffa_4p_per_openspiel_hearts": ("maraffa_4p", "openspiel_hearts"),
    "burraco_4p_per_openspiel_gin_rummy": ("burraco_4p", "openspiel_gin_rummy"),
    "ramino_4p_per_openspiel_gin_rummy": ("ramino_4p", "openspiel_gin_rummy"),
    "burraco_4p_per_rlcard_gin_rummy": ("burraco_4p", "rlcard_gin_rummy"),
    "ramino_4p_per_rlcard_gin_rummy": ("ramino_4p", "rlcard_gin_rummy"),
}


def anchors(seconds: float, rounds: int = 3) -> Report:
    """The report: our rates, the anchors' and their ratios.

    Every engine is measured in ``rounds`` short rounds, ours and the anchors taking
    turns: a shared VM's speed drifts by a third within a minute, and engines measured
    one after the other for the whole time turned that drift into the ratios. Each
    ratio is the median of the rounds' ratios (``round_ratios`` has them all); each
    rate the median of its rounds.
    """
    ours: dict[str, Callable[[float], float]] = {
        "maraffa_4p": lambda s: float(maraffa_random_hands(4, s)["hands_per_cpu_second"]),
        "burraco_4p": lambda s: float(burraco_random_hands(4, s)["hands_per_cpu_second"]),
        "ramino_4p": lambda s: float(ramino_random_hands(4, s)["hands_per_cpu_second"]),
    }
    theirs: dict[str, tuple[str, Callable[[float], Report]]] = {
        "openspiel_hearts": ("pyspiel", lambda s: openspiel_games("hearts", s)),
        "openspiel_gin_rummy": ("pyspiel", lambda s: openspiel_games("gin_rummy", s)),
        "rlcard_gin_rummy": ("rlcard", lambda s: rlcard_games("gin-rummy", s)),
    }
    share = seconds / rounds
    our_rounds: dict[str, list[float]] = {name: [] for name in ours}
    their_rounds: dict[str, list[Report]] = {}
    skipped: Report = {}
    for module in {module for module, _ in theirs.values()}:
        if not _installed(module):
            skipped[module] = {
                "skipped": f"{module} is not installed: pip install 'mazzo[anchors]'"
            }
    for _ in range(rounds):
        for name, measure in ours.items():
            our_rounds[name].append(measure(share))
        for name, (module, play) in theirs.items():
            if module not in skipped:
                their_rounds.setdefault(name, []).append(play(share))
    round_ratios: dict[str, list[float]] = {}
    for name, (mine, anchor) in PAIRS.items():
        if anchor in their_rounds:
            round_ratios[name] = [
                round(o / t["games_per_cpu_second"], 3)
                for o, t in zip(our_rounds[mine], their_rounds[anchor], strict=True)
            ]
    report_theirs: Report = {}
    for name, (module, _) in theirs.items():
        if module in skipped:
            report_theirs[name] = skipped[module]
            continue
        done = their_rounds[name]
        report_theirs[name] = {
            "games": sum(r["games"] for r in done),
            "games_per_cpu_second": statistics.median(r["games_per_cpu_second"] for r in done),
            "moves_per_game": round(statistics.fmean(r["moves_per_game"] for r in done), 1),
        }
    return {
        "hands_per_cpu_second": {n: statistics.median(v) for n, v in our_rounds.items()},
        "anchors": report_theirs,
        "ratios": {
            name: statistics.median(round_ratios[name]) if name in round_ratios else None
            for name in PAIRS
        },
        "round_ratios": round_ratios,
        "rounds": rounds,
        "targets": TARGETS,
    }
