"""OpenSpiel's own policy-gradient learner (open_spiel.python.jax.policy_gradient, an
actor-critic on information state tensors) on the registered game, then a match against
OpenSpiel's random agent.

Needs the extras ``openspiel`` and ``openspiel-jax`` (jax, dm-haiku, optax, rlax, chex: every
tensor-based learner open_spiel 2.0.2 ships is written for JAX or PyTorch; JAX is the lighter).

    python3 examples/openspiel_policy_gradient.py [--episodes 2200] [--games 200] [--seed 0]

The defaults (seed 0) train on 2,200 games cut at 30 moves, then play 200 whole games; that
run's last lines (README, "Learning environments", has the whole output):

    learner in seat 0: 51 won, 0 shared, 49 lost
    learner in seat 1: 65 won, 0 shared, 35 lost
    against random, 200 games: 116 won, 0 shared, 84 lost; score 0.580, 95% Wilson interval 0.511 .. 0.646
"""
import argparse
import os
import sys
import time

# JAX on one thread: on a small shared machine XLA's thread pools make every call several times
# slower, and one thread keeps a run reproducible (same seed, same result)
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import random_agent  # noqa: E402
from open_spiel.python.jax import policy_gradient  # noqa: E402

import tne_ai.interop.openspiel as O  # noqa: E402
from tne_ai.matches.ratings import wilson  # noqa: E402
from tne_ai.core import state as S  # noqa: E402


def arrays(time_step):
    """The environment's tensors as numpy arrays (it hands out Python lists, which JAX
    converts one float at a time)."""
    obs = time_step.observations
    obs["info_state"] = [np.asarray(x, dtype=np.float32) for x in obs["info_state"]]
    return time_step


def learners(seed, hidden=(32,), pi_lr=0.001, critic_lr=0.001, optimizer="adam",
             entropy=0.01, critic_steps=1, shared=True):
    """The learners of seats 0 and 1: one network for both seats if shared (its player_id is
    set to the seat it plays before every game: the tensors number players relative to the
    seat, so one policy serves both), else one network a seat."""
    def make(p):
        return policy_gradient.PolicyGradient(
            player_id=p, info_state_size=O.INFO_SIZE, num_actions=S.N_ACTIONS, loss_str="a2c",
            hidden_layers_sizes=hidden, critic_learning_rate=critic_lr, pi_learning_rate=pi_lr,
            entropy_cost=entropy, num_critic_before_pi=critic_steps, optimizer_str=optimizer,
            seed=seed + p)
    if shared:
        one = make(0)
        return [one, one]
    return [make(0), make(1)]


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


def _seated(pg, rand, seat):
    learner = pg[seat]
    learner.player_id = seat
    return [learner, rand[1]] if seat == 0 else [rand[0], learner]


def train(episodes, seed=0, max_moves=O.MOVE_CAP, log=print, pg=None):
    """Train the learners (``pg``, new ones if None) against OpenSpiel's random agent, the
    learner in seat e % 2 in episode e, every game cut at ``max_moves`` moves and scored as
    it stands; returns the learners."""
    game = O.load_game(2, max_moves=max_moves)
    # the chance nodes (the draws) from a seeded sampler: Environment has no seed argument
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    pg = learners(seed) if pg is None else pg
    np.random.seed(seed)  # OpenSpiel's random agent draws from numpy's global generator
    rand = [random_agent.RandomAgent(player_id=p, num_actions=S.N_ACTIONS) for p in range(2)]
    start = time.time()
    wins = []
    for e in range(episodes):
        seat = e % 2
        wins.append(play(env, _seated(pg, rand, seat), learning=True)[seat])
        if (e + 1) % 100 == 0:
            log(f"episode {e + 1}: learner's mean return over the last 100 "
                f"{np.mean(wins[-100:]):.2f}, {time.time() - start:.0f} s")
    return pg


def match(pg, games, seed=1, max_moves=O.MOVE_CAP):
    """The learners against the random agent in whole games, the learner in seat g % 2 in
    game g: (wins, shared, losses) of the learner in seat 0, then in seat 1."""
    game = O.load_game(2, max_moves=max_moves)
    # the chance nodes (the draws) from a seeded sampler: Environment has no seed argument
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    np.random.seed(seed)  # OpenSpiel's random agent draws from numpy's global generator
    rand = [random_agent.RandomAgent(player_id=p, num_actions=S.N_ACTIONS) for p in range(2)]
    results = [[], []]
    for g in range(games):
        seat = g % 2
        results[seat].append(play(env, _seated(pg, rand, seat), learning=False)[seat])
    out = []
    for r in results:
        r = np.array(r)
        out.append((int((r == 1).sum()), int(((r > 0) & (r < 1)).sum()), int((r == 0).sum())))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=2200)
    ap.add_argument("--train-max-moves", type=int, default=30,
                    help="training games are cut after this many moves and scored as they stand")
    ap.add_argument("--games", type=int, default=200, help="games of the match (whole games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=32, help="units of the one hidden layer")
    ap.add_argument("--optimizer", choices=["adam", "sgd"], default="adam")
    ap.add_argument("--pi-lr", type=float, default=0.003)
    ap.add_argument("--critic-lr", type=float, default=0.003)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--critic-steps", type=int, default=1, help="critic updates per policy update")
    ap.add_argument("--per-seat", action="store_true", help="one network a seat, not one shared")
    args = ap.parse_args()
    pg = learners(args.seed, hidden=(args.hidden,), pi_lr=args.pi_lr, critic_lr=args.critic_lr,
                  optimizer=args.optimizer, entropy=args.entropy, critic_steps=args.critic_steps,
                  shared=not args.per_seat)
    train(args.episodes, args.seed, max_moves=args.train_max_moves, pg=pg,
          log=lambda text: print(text, flush=True))
    seats = match(pg, args.games, seed=1000 + args.seed)
    for seat, (won, shared, lost) in enumerate(seats):
        print(f"learner in seat {seat}: {won} won, {shared} shared, {lost} lost")
    won = sum(w for w, _, _ in seats)
    shared = sum(s for _, s, _ in seats)
    score = won + 0.5 * shared
    low, high = wilson(score / args.games, args.games)
    print(f"against random, {args.games} games: {won} won, {shared} shared, "
          f"{args.games - won - shared} lost; score {score / args.games:.3f}, "
          f"95% Wilson interval {low:.3f} .. {high:.3f}")


if __name__ == "__main__":
    main()
