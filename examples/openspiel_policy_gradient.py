"""OpenSpiel's own policy-gradient learner (open_spiel.python.jax.policy_gradient, an
actor-critic on information state tensors) on the registered game, then a match against
OpenSpiel's random agent.

Needs the extras ``openspiel`` and ``openspiel-jax`` (jax, dm-haiku, optax, rlax, chex: every
tensor-based learner open_spiel 2.0.2 ships is written for JAX or PyTorch; JAX is the lighter).

    python3 examples/openspiel_policy_gradient.py [--episodes 200] [--games 100] [--seed 0]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import random_agent  # noqa: E402
from open_spiel.python.jax import policy_gradient  # noqa: E402

import tne_ai.openspiel as O  # noqa: E402
from tne_ai import state as S  # noqa: E402


def arrays(time_step):
    """The environment's tensors as numpy arrays (it hands out Python lists, which JAX
    converts one float at a time)."""
    obs = time_step.observations
    obs["info_state"] = [np.asarray(x, dtype=np.float32) for x in obs["info_state"]]
    return time_step


def learners(seed, hidden=(64,), pi_lr=0.01, critic_steps=1):
    return [policy_gradient.PolicyGradient(
        player_id=p, info_state_size=O.INFO_SIZE, num_actions=S.N_ACTIONS, loss_str="a2c",
        hidden_layers_sizes=hidden, critic_learning_rate=0.01, pi_learning_rate=pi_lr,
        num_critic_before_pi=critic_steps, seed=seed + p) for p in range(2)]


def play(env, agents, learning):
    """One episode; agents[p] plays seat p.  Returns the returns."""
    ts = arrays(env.reset())
    while not ts.last():
        p = ts.observations["current_player"]
        out = agents[p].step(ts, is_evaluation=not learning)
        ts = arrays(env.step([out.action]))
    for a in agents:
        a.step(ts, is_evaluation=not learning)
    return ts.rewards


def train(episodes, seed=0, max_moves=O.MOVE_CAP, log=print, pg=None):
    """Train one learner per seat (``pg``, new ones if None) against OpenSpiel's random
    agent, seats alternating; returns the learners."""
    game = O.load_game(2, max_moves=max_moves)
    env = rl_environment.Environment(game, seed=seed)
    pg = learners(seed) if pg is None else pg
    np.random.seed(seed)  # OpenSpiel's random agent draws from numpy's global generator
    rand = [random_agent.RandomAgent(player_id=p, num_actions=S.N_ACTIONS) for p in range(2)]
    start = time.time()
    wins = []
    for e in range(episodes):
        seat = e % 2
        agents = [pg[0], rand[1]] if seat == 0 else [rand[0], pg[1]]
        wins.append(play(env, agents, learning=True)[seat])
        if (e + 1) % 50 == 0:
            log(f"episode {e + 1}: learner's mean return over the last 50 "
                f"{np.mean(wins[-50:]):.2f}, {time.time() - start:.0f} s")
    return pg


def match(pg, games, seed=1, max_moves=O.MOVE_CAP):
    """The learners against the random agent, seat g % 2 in game g: (wins, shared, losses)."""
    game = O.load_game(2, max_moves=max_moves)
    env = rl_environment.Environment(game, seed=seed)
    np.random.seed(seed)  # OpenSpiel's random agent draws from numpy's global generator
    rand = [random_agent.RandomAgent(player_id=p, num_actions=S.N_ACTIONS) for p in range(2)]
    results = []
    for g in range(games):
        seat = g % 2
        agents = [pg[0], rand[1]] if seat == 0 else [rand[0], pg[1]]
        results.append(play(env, agents, learning=False)[seat])
    results = np.array(results)
    return int((results == 1).sum()), int(((results > 0) & (results < 1)).sum()), \
        int((results == 0).sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pi-lr", type=float, default=0.01)
    ap.add_argument("--critic-steps", type=int, default=1, help="critic updates per policy update")
    args = ap.parse_args()
    pg = train(args.episodes, args.seed, pg=learners(args.seed, pi_lr=args.pi_lr,
                                                     critic_steps=args.critic_steps))
    wins, shared, losses = match(pg, args.games, seed=1000 + args.seed)
    print(f"against random, {args.games} games: {wins} won, {shared} shared, {losses} lost")


if __name__ == "__main__":
    main()
