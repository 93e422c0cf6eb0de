"""``make rl-ismcts``: OpenSpiel's IS-MCTS bot, unchanged, plays 4-player Maraffa through
the ``mazzo_maraffa`` registration against random players; prints JSON.

IS-MCTS (OpenSpiel's ``ISMCTSBot``) holds one team, random players the other, the teams
swapped every match. Its evaluator is OpenSpiel's ``RandomRolloutEvaluator``, by
default with rollouts that never claim while anything else is legal (a rollout that
claims at random ends the match at once and says little of the move tried;
``--rollout-claims random`` keeps OpenSpiel's as it is). The random players are
``builtin:random``'s: uniform among the legal moves but never a claim while anything
else is legal (OpenSpiel's ``UniformRandomBot`` claims, and a false claim loses the
match at once: ``--opponent uniform`` plays that one). Reported: IS-MCTS's wins and
their share with a 95% Wilson interval (a drawn match counts half).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from mazzo.games.maraffa.encoding import CLAIM_ACTION
from mazzo.rl import openspiel_game  # noqa: F401  (registers mazzo_maraffa)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class NoClaimRollouts(mcts.RandomRolloutEvaluator):
    """OpenSpiel's random rollouts, but never a claim while anything else is legal: a
    random claim ends the match at once, so rollouts with claims say little of a move."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                if working.is_chance_node():
                    actions, probs = zip(*working.chance_outcomes(), strict=True)
                    working.apply_action(int(self._random_state.choice(actions, p=probs)))
                else:
                    legal = working.legal_actions()
                    legal = [a for a in legal if a != CLAIM_ACTION] or legal
                    working.apply_action(int(self._random_state.choice(legal)))
            total += working.returns()
        return total / self.n_rollouts


def play(
    game: pyspiel.Game, team: int, args: argparse.Namespace, rng: np.random.RandomState
) -> float:
    """One match; IS-MCTS's share of the win (1, 0, or 0.5 for a draw)."""
    rollouts = NoClaimRollouts if args.rollout_claims == "never" else mcts.RandomRolloutEvaluator
    evaluator = rollouts(args.rollouts, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, args.uct_c, args.simulations, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() % 2 == team:
            state.apply_action(int(bot.step(state)))
        else:
            legal = state.legal_actions()
            if args.opponent == "random":
                legal = [a for a in legal if a != CLAIM_ACTION] or legal
            state.apply_action(int(rng.choice(legal)))
    mine = state.returns()[team]
    return 1.0 if mine > 0 else 0.0 if mine < 0 else 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=1.0)
    parser.add_argument("--target", type=int, default=11)
    parser.add_argument("--rollout-claims", choices=("never", "random"), default="never")
    parser.add_argument("--opponent", choices=("random", "uniform"), default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = json.dumps({"target": args.target})
    game = pyspiel.load_game("mazzo_maraffa", {"players": 4, "options": options})
    rng = np.random.RandomState(args.seed)
    start = time.process_time()
    score = sum(play(game, n % 2, args, rng) for n in range(args.games))
    low, high = wilson(score, args.games)
    report = {
        "game": "mazzo_maraffa, 4 players, target " + str(args.target),
        "ismcts": {
            "simulations": args.simulations,
            "rollouts": args.rollouts,
            "rollout_claims": args.rollout_claims,
            "uct_c": args.uct_c,
        },
        "opponent": args.opponent,
        "matches": args.games,
        "ismcts_score": score,
        "share": score / args.games,
        "wilson95": [round(low, 4), round(high, 4)],
        "cpu_seconds": round(time.process_time() - start, 1),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
