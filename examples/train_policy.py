"""Train a policy on the batched environment (tne_ai.interop.env.VecEnv) with numpy only, then play
it against uniformly random moves.

The policy is a softmax over the legal actions (the mask) of a linear score
``theta . phi(observation, action)``.  The action features phi come from the observation
tensor alone (docs/OBSERVATION.md): the kind of the action (tile, leader, withdraw,
catastrophe, swap, pass, commit, war, monument, decline, treasure), for a tile whether the
square touches the seat's own leader of that colour or any of its leaders or a rival's
leader of that colour, for a leader how many temples (red tiles) touch the square,
whether the seat holds tiles of its colour and whether the leader comes from the supply, for a commit the share of the hand committed.
It learns by REINFORCE: every game the learner finishes moves theta along the summed
log-probability gradients of its moves, scaled by its final reward less a running mean.
The learner plays seat i % 2 of slot i of a VecEnv; the other seat plays random moves.

    python3 examples/train_policy.py [--iterations 20] [--envs 128] [--seed 0] [--games 100]
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.core.board import NEIGHBOURS, SQUARES  # noqa: E402
from tne_ai.interop.env import VecEnv  # noqa: E402
from tne_ai.interop.env import encode as E  # noqa: E402

KIND_STARTS = np.array([S.A_TILE, S.A_LEADER, S.A_WITHDRAW, S.A_CATASTROPHE, S.A_SWAP, S.A_PASS,
                        S.A_COMMIT, S.A_WAR, S.A_MONUMENT, S.A_DECLINE, S.A_TREASURE])
KIND = np.searchsorted(KIND_STARTS, np.arange(S.N_ACTIONS), side="right") - 1
N_KINDS = len(KIND_STARTS)
F_TILE_OWN, F_TILE_ANY, F_TILE_RIVAL, F_LEADER_TEMPLES, F_LEADER_HAND, F_LEADER_SUPPLY, \
    F_COMMIT = range(N_KINDS, N_KINDS + 7)
N_FEATURES = N_KINDS + 7
# a neighbour table padded with a square that is never set (index SQUARES)
NEIGHBOUR = np.where(NEIGHBOURS < 0, SQUARES, NEIGHBOURS)


def touching(planes):
    """(n, k, 176) 0/1 planes -> (n, k, 176) count of orthogonal neighbours set."""
    padded = np.concatenate([planes, np.zeros(planes.shape[:-1] + (1,), planes.dtype)], axis=-1)
    return padded[..., NEIGHBOUR].sum(axis=-1)


def features(obs):
    """(n, N_ACTIONS, N_FEATURES) action features from (n, OBS_SIZE) observations."""
    n = obs.shape[0]
    planes = obs[:, :E.BOARD_SIZE].reshape(n, E.N_PLANES, SQUARES)
    vec = obs[:, E.BOARD_SIZE:]
    phi = np.zeros((n, S.N_ACTIONS, N_FEATURES), dtype=np.float32)
    phi[:, np.arange(S.N_ACTIONS), KIND] = 1.0
    own = touching(planes[:, E.P_LEADER:E.P_LEADER + 4]) > 0                  # (n, 4, 176)
    rivals = planes[:, E.P_LEADER + 4:E.P_LEADER + 16].reshape(n, 3, 4, SQUARES).max(axis=1)
    rival = touching(rivals) > 0
    tiles = phi[:, S.A_TILE:S.A_LEADER].reshape(n, 4, SQUARES, N_FEATURES)
    tiles[..., F_TILE_OWN] = own
    tiles[..., F_TILE_ANY] = own.any(axis=1)[:, None, :]
    tiles[..., F_TILE_RIVAL] = rival
    leaders = phi[:, S.A_LEADER:S.A_WITHDRAW].reshape(n, 4, SQUARES, N_FEATURES)
    leaders[..., F_LEADER_TEMPLES] = touching(planes[:, E.P_TILE:E.P_TILE + 1])[:, 0][:, None, :] / 4
    leaders[..., F_LEADER_HAND] = (vec[:, E.V_HAND:E.V_HAND + 4] > 0)[:, :, None]
    in_supply = planes[:, E.P_LEADER:E.P_LEADER + 4].sum(axis=2) == 0          # (n, 4)
    leaders[..., F_LEADER_SUPPLY] = in_supply[:, :, None]
    phi[:, S.A_COMMIT:S.A_WAR, F_COMMIT] = np.arange(7) / 6.0
    return phi


def policy(theta, obs, mask, rng):
    """Sample an action per row; return (actions, grad log pi of each) ."""
    phi = features(obs)
    logits = phi @ theta
    logits = np.where(mask > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    u = rng.random((obs.shape[0], 1))
    actions = (p.cumsum(axis=1) < u).sum(axis=1)
    actions = np.minimum(actions, S.N_ACTIONS - 1)
    # a rounding step past the last legal action: take the last legal one instead
    bad = mask[np.arange(len(actions)), actions] == 0
    if bad.any():
        actions[bad] = S.N_ACTIONS - 1 - np.argmax(mask[bad][:, ::-1], axis=1)
    grad = phi[np.arange(len(actions)), actions] - np.einsum("na,naf->nf", p, phi)
    return actions, grad


def own_points(obs):
    """The seat's points (four colours and treasures) in each observation row."""
    scores = obs[:, E.BOARD_SIZE + E.V_SCORE:E.BOARD_SIZE + E.V_SCORE + 5]
    return (scores * E.SCALE[E.V_SCORE:E.V_SCORE + 5]).sum(axis=1)


def train(iterations, envs, seed, lr=0.2, points=0.02, log=print):
    """REINFORCE: each of the learner's moves is credited with the game's result (1 win, a
    share of 1 for a shared first place, 0 loss) plus ``points`` times the points the
    learner scored from that move on (seen in its own later observations), less the mean credit of the previous iteration; theta follows the
    mean of those gradients over the iteration's games with Adam (step ``lr``)."""
    rng = np.random.default_rng(seed)
    theta = np.zeros(N_FEATURES)
    vec = VecEnv(envs, 2, seed=seed)
    learner = np.arange(envs) % 2
    grads = [[] for _ in range(envs)]    # per slot: the learner's grad log pi, move by move
    seen = [[] for _ in range(envs)]     # and its points when it made the move
    baseline = 0.5
    m = np.zeros(N_FEATURES)             # Adam's moment estimates
    v = np.zeros(N_FEATURES)
    start = time.time()
    for it in range(iterations):
        finished = []
        credits = []
        step = np.zeros(N_FEATURES)
        while len(finished) < envs:
            mine = vec.to_act == learner
            actions = vec.random_actions(rng)
            if mine.any():
                rows = np.flatnonzero(mine)
                a, g = policy(theta, vec.obs[rows], vec.mask[rows], rng)
                actions[rows] = a
                pts = own_points(vec.obs[rows])
                for k, i in enumerate(rows):
                    grads[i].append(g[k])
                    seen[i].append(pts[k])
            vec.step(actions)
            for i in np.flatnonzero(vec.terminated | vec.truncated):
                result = vec.rewards[i, learner[i]]
                if grads[i]:
                    pts = np.array(seen[i])
                    credit = result + points * (pts[-1] - pts)
                    step += ((credit - baseline)[:, None] * np.array(grads[i])).sum(axis=0)
                    credits.extend(credit.tolist())
                grads[i] = []
                seen[i] = []
                finished.append(result)
        g = step / len(finished)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        theta += lr * (m / (1 - 0.9 ** (it + 1))) / (np.sqrt(v / (1 - 0.999 ** (it + 1))) + 1e-8)
        baseline = float(np.mean(credits))
        log(f"iteration {it + 1}: {len(finished)} games, learner's mean result "
            f"{np.mean(finished):.3f}, {time.time() - start:.0f} s")
    return theta


def match(theta, games, seed):
    """games games against random moves, the learner in seat g % 2 of game g; returns the
    learner's wins, ties (shared first place) and losses."""
    rng = np.random.default_rng(seed + 1)
    vec = VecEnv(games, 2, seed=seed)
    learner = np.arange(games) % 2
    result = np.full(games, -1.0)
    while (result < 0).any():
        mine = vec.to_act == learner
        actions = vec.random_actions(rng)
        a, _ = policy(theta, vec.obs[mine], vec.mask[mine], rng)
        actions[mine] = a
        vec.step(actions)
        ended = (vec.terminated | vec.truncated) & (result < 0)
        result[ended] = vec.rewards[ended, learner[ended]]
    return int((result == 1).sum()), int(((result > 0) & (result < 1)).sum()), \
        int((result == 0).sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--lr", type=float, default=0.2)
    ap.add_argument("--points", type=float, default=0.02)
    args = ap.parse_args()
    theta = train(args.iterations, args.envs, args.seed, lr=args.lr, points=args.points)
    names = ["tile", "leader", "withdraw", "catastrophe", "swap", "pass", "commit", "war",
             "monument", "decline", "treasure", "tile by own leader", "tile by any own leader",
             "tile by rival leader", "leader: temples", "leader: colour in hand",
             "leader from the supply", "commit share"]
    print("weights: " + ", ".join(f"{k} {w:+.2f}" for k, w in zip(names, theta)))
    wins, ties, losses = match(theta, args.games, seed=10_000 + args.seed)
    print(f"against random, {args.games} games: {wins} won, {ties} shared, {losses} lost")


if __name__ == "__main__":
    main()
