#!/usr/bin/env python3
"""Train a small policy for 2-player Maraffa with the PettingZoo environment, and save it
as a policy file the referee plays (`builtin:policy?path=FILE`; docs/rl.md).

    .venv/bin/python examples/rl/train_maraffa.py --out build/rl/maraffa2.npz
    .venv/bin/mazzo tournament examples/rl/tournament.toml --records build/rl/t.jsonl

Two stages, NumPy only, one seat learning against random players (the seats swapped
every match), each as small as they come:

1. Imitation (``--imitate`` matches): ``builtin:heuristic`` plays the learner's seat,
   and the network learns to predict its moves from the observation (cross-entropy).
   The heuristic is asked exactly as the referee asks a bot (an ``ActRequest`` of the
   seat's view and legal moves); the network sees only the environment's observation.
2. Policy gradient (``--matches``): REINFORCE with a running-mean baseline, the
   network playing. A decision's return is the points its side won, less the other
   side's, from that decision to its next (its trick), then discounted over the
   hand's later tricks, plus the match's result (+-1) in the match's last hand.

The network is one hidden layer of ReLUs over the environment's observation (981
numbers), one logit per action (891); the policy is the softmax of the legal
actions' logits, and the referee's player plays the highest.

Like builtin:random, the learner never claims while anything else is legal (a wrong
claim loses the match at once): the claim's logit is left out of training, and the
saved network gives it a bias far below the others, so the referee's player does the
same.

Everything is seeded: the same arguments give the same file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

from mazzo.games.maraffa.encoding import CLAIM_ACTION as CLAIM
from mazzo.games.maraffa.encoding import LAYOUT
from mazzo.games.registry import CODECS, GAMES
from mazzo.rl import MazzoEnv
from mazzo.rl.policy import save_policy
from mazzo.rl.rewards import match_result
from mazzo.v1 import bot_pb2

CODEC = CODECS["maraffa"]
#: builtin:heuristic, as the game declares it.
HEURISTIC = GAMES["maraffa"].strategy.heuristic

#: The observation's thirds won this hand, the viewer's then the next seat's, / 32.
POINTS = LAYOUT["hand_points"]
THIRDS = 32
#: How much a decision is credited with what happens after its trick.
GAMMA = 0.7


class Network:
    """Dense layers with ReLUs between, trained with Adam on batches of decisions."""

    def __init__(self, sizes: list[int], rng: np.random.Generator) -> None:
        self.layers = []
        for n_in, n_out in itertools.pairwise(sizes):
            w = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype(np.float32)
            self.layers.append([w, np.zeros(n_out, np.float32)])
        self.layers[-1][0] *= 0.01  # start near uniform over the legal actions
        self.moments = [[np.zeros_like(p) for p in layer for _ in (0, 1)] for layer in self.layers]
        self.steps = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        inputs = []
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            inputs.append(x)
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x, inputs

    def update(self, x: np.ndarray, grad_logits: np.ndarray, lr: float) -> None:
        """One Adam step along ``grad_logits`` (the gradient of the objective, to ascend)."""
        _, inputs = self.forward(x)
        g = grad_logits
        grads = []
        for i in range(len(self.layers) - 1, -1, -1):
            w, _ = self.layers[i]
            grads.append((inputs[i].T @ g, g.sum(axis=0)))
            if i:
                g = (g @ w.T) * (inputs[i] > 0)
        grads.reverse()
        self.steps += 1
        b1, b2 = 0.9, 0.999
        for (w_b, (gw, gb)), m in zip(
            zip(self.layers, grads, strict=True), self.moments, strict=True
        ):
            for k, (param, grad) in enumerate(((w_b[0], gw), (w_b[1], gb))):
                m[2 * k] = b1 * m[2 * k] + (1 - b1) * grad
                m[2 * k + 1] = b2 * m[2 * k + 1] + (1 - b2) * grad * grad
                mh = m[2 * k] / (1 - b1**self.steps)
                vh = m[2 * k + 1] / (1 - b2**self.steps)
                param += (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def learner_mask(mask: np.ndarray) -> np.ndarray:
    """The legal actions the learner chooses among: never a claim while anything else is."""
    m = mask.astype(bool)
    if m[CLAIM] and m.sum() > 1:
        m = m.copy()
        m[CLAIM] = False
    return m


def play_match(env, net, learner, seed, rng, greedy=False):
    """One match: the learner's decisions (observation, mask, action), each one's
    return, and whether the learner's side won."""
    env.reset(seed=seed)
    other = "player_1" if learner == "player_0" else "player_0"
    decisions: list[tuple[np.ndarray, np.ndarray, int]] = []
    so_far: list[float] = []  # per decision: the hand's points won so far, less the other's
    returns: list[float] = []
    last_hand = env.rules.hand_key(env.match_state)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = learner_mask(obs["action_mask"])
        legal = np.flatnonzero(mask)
        if agent == learner:
            x = obs["observation"]
            logits, _ = net.forward(x[None, :])
            if greedy:
                action = int(legal[np.argmax(logits[0, legal])])
            else:
                p = masked_softmax(logits, mask[None, :])[0]
                action = int(rng.choice(len(p), p=p))
            decisions.append((x, mask, action))
            so_far.append(float(x[POINTS] - x[POINTS + 1]) * THIRDS / 3)
        else:
            action = int(rng.choice(legal))
        env.step(action)
        change = env.rewards[learner] - env.rewards[other]
        done = env.rules.finished(env.match_state)
        hand = None if done else env.rules.hand_key(env.match_state)
        if hand != last_hand:
            last_hand = hand
            # A hand was scored: each of its decisions returns what the hand's score
            # came to from that decision on, plus the match's result in its last hand.
            bonus = 0.0
            if done:
                bonus = match_result(env.rules.score(env.match_state))[env.side[learner]]
            # Points won (less the other's) from each decision to the next, the last
            # decision of the hand to the hand's score; then discounted returns.
            gained = [*so_far[len(returns) :], change]
            hand_returns, g = [], bonus
            for k in range(len(gained) - 2, -1, -1):
                g = (gained[k + 1] - gained[k]) / 11.0 + GAMMA * g
                hand_returns.append(g)
            returns += hand_returns[::-1]
            so_far = so_far[: len(returns)]
    returns += [0.0] * (len(decisions) - len(returns))
    won = env.side[learner] in env.rules.score(env.match_state).winners
    return decisions, returns, won


def teacher_action(env) -> int:
    """builtin:heuristic's move for the seat to act, asked as the referee asks a bot."""
    rules, state = env.rules, env.match_state
    request = bot_pb2.ActRequest(seat=rules.to_act(state))
    CODEC.view_to_wire(rules.view(state, request.seat), request.view)
    legal = rules.legal_moves(state)
    for move in legal:
        CODEC.move_to_wire(move, request.legal_moves.add())
    return env.encoding.action_of(legal[HEURISTIC(request).index])


def imitation_data(env, matches: int, seed: int, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The heuristic's decisions in the learner's seat, against random players."""
    xs, masks, actions = [], [], []
    for i in range(matches):
        env.reset(seed=seed + i)
        learner = f"player_{i % 2}"
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = learner_mask(obs["action_mask"])
            if agent == learner:
                action = teacher_action(env)
                if mask[action]:  # the heuristic claims only when sure: not learned
                    xs.append(obs["observation"])
                    masks.append(mask)
                    actions.append(action)
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
    return np.stack(xs), np.stack(masks), np.asarray(actions)


def gradient_step(net, x, m, actions, weights, lr) -> None:
    """Along ``weights`` times the gradient of each chosen action's log-probability."""
    logits, _ = net.forward(x)
    p = masked_softmax(logits, m)
    grad = -p
    grad[np.arange(len(actions)), actions] += 1.0
    grad *= np.asarray(weights, np.float32)[:, None] / len(actions)
    net.update(x, grad.astype(np.float32), lr)


def evaluate(env, net, rng, matches: int = 100) -> int:
    """Matches won of ``matches`` against random players, the network playing greedily."""
    return sum(
        play_match(env, net, f"player_{k % 2}", 2**40 + k, rng, greedy=True)[2]
        for k in range(matches)
    )


def train(
    matches: int,
    hidden: int,
    seed: int,
    lr: float,
    target: int,
    batch: int,
    log=print,
    evaluate_every: int = 500,
    imitate: int = 0,
    epochs: int = 4,
    rl_lr: float = 3e-4,
):
    env = MazzoEnv(game="maraffa", players=2, options={"target": target}, reward="hand")
    rng = np.random.default_rng(seed)
    size = env.encoding.layout.size
    sizes = [size, hidden, env.encoding.actions] if hidden else [size, env.encoding.actions]
    net = Network(sizes, rng)
    started = time.process_time()
    if imitate:
        x, m, a = imitation_data(env, imitate, seed * 1_000_003 + 10**7, rng)
        for epoch in range(epochs):
            order = rng.permutation(len(a))
            for k in range(0, len(a), 256):
                part = order[k : k + 256]
                gradient_step(net, x[part], m[part], a[part], np.ones(len(part)), lr)
            logits, _ = net.forward(x[:5000])  # a sample: the whole set takes a GB
            agree = float((np.where(m[:5000], logits, -np.inf).argmax(axis=1) == a[:5000]).mean())
            log(
                f"imitation epoch {epoch + 1}: {len(a)} decisions of {imitate} matches, "
                f"the heuristic's move {agree:.0%} of the time, "
                f"{time.process_time() - started:.0f} CPU s"
            )
        if evaluate_every:
            log(f"after imitation: greedy won {evaluate(env, net, rng)} of 100 against random")
    baseline, wins = 0.0, []
    xs, masks, actions, advantages = [], [], [], []
    for i in range(matches):
        learner = f"player_{i % 2}"
        decisions, returns, won = play_match(env, net, learner, seed * 1_000_003 + i, rng)
        wins.append(won)
        for (x1, m1, a1), g in zip(decisions, returns, strict=True):
            xs.append(x1)
            masks.append(m1)
            actions.append(a1)
            advantages.append(g - baseline)
            baseline += 0.001 * (g - baseline)
        if (i + 1) % batch == 0:
            gradient_step(net, np.stack(xs), np.stack(masks), actions, advantages, rl_lr)
            xs, masks, actions, advantages = [], [], [], []
        if evaluate_every and (i + 1) % evaluate_every == 0:
            recent = wins[-evaluate_every:]
            log(
                f"match {i + 1}: won {sum(recent)} of the last {len(recent)} against random "
                f"(greedy: {evaluate(env, net, rng)} of 100), "
                f"{time.process_time() - started:.0f} CPU s"
            )
    layers = [(w.copy(), b.copy()) for w, b in net.layers]
    layers[-1][1][CLAIM] = -1e4  # never a claim while anything else is legal
    return layers, time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("build/rl/maraffa2.npz"))
    ap.add_argument("--imitate", type=int, default=2000, help="matches of imitation")
    ap.add_argument("--epochs", type=int, default=8, help="passes over the imitation data")
    ap.add_argument("--matches", type=int, default=2000, help="matches of policy gradient")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units (0: linear)")
    ap.add_argument("--target", type=int, default=11, help="the match's target points")
    ap.add_argument("--batch", type=int, default=10, help="matches per update")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's step size, imitation")
    ap.add_argument("--rl-lr", type=float, default=3e-4, help="Adam's step size, REINFORCE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--evaluate-every",
        type=int,
        default=500,
        help="matches between reports of 100 greedy matches against random (0: none)",
    )
    args = ap.parse_args(argv)
    layers, cpu = train(
        args.matches,
        args.hidden,
        args.seed,
        args.lr,
        args.target,
        args.batch,
        log=lambda line: print(line, file=sys.stderr, flush=True),
        evaluate_every=args.evaluate_every,
        imitate=args.imitate,
        epochs=args.epochs,
        rl_lr=args.rl_lr,
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    note = (
        f"examples/rl/train_maraffa.py: {args.imitate} matches imitating builtin:heuristic, "
        f"{args.matches} of REINFORCE against random players, to {args.target} points, "
        f"hidden {args.hidden}, seed {args.seed}"
    )
    save_policy(args.out, "maraffa", layers, players=[2], note=note)
    report = {"out": str(args.out), "imitate": args.imitate, "matches": args.matches}
    print(json.dumps({**report, "cpu_seconds": round(cpu, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
