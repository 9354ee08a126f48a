"""How much the position tells about another player's hand: a colour-odds model fitted on
self-play records against the uniform deal of ``determinize``.

For every action position of every record and every other player q, the viewer (the player
to act) sees the unseen pool u (tiles of each colour he cannot see) and q's true hand h is
known from the record.  The model deals q's tiles with odds u_c * exp(beta . x_c) for colour
c (each tile on its own: the hand is a small share of the pool), x_c q's features of colour
c; beta = 0 is the uniform deal.  It is fitted by maximum likelihood on four games in five and
scored on the fifth (log-loss in nats a tile).  Features (``--features``, by number):

  0  q has his leader of colour c on the board
  1  q's score in c above his lowest colour, at most 6, over 6
  2  tiles of c q placed in his last turn
  3  tiles of c q placed, decayed by 0.7 a turn of his
  4, 5, 6  colour c is red, blue, green (intercepts; black is 0)

Features 2 and 3 need the game's history, which a search given a position does not have.
Used by bench/README.md, "Hand belief".

    python bench/experiments/hand_belief.py bench/data/selfplay/value_pair_2p.jsonl.gz --features 1,4,5,6
"""
import argparse

import numpy as np

from tne_ai.core import state as S
from tne_ai.core.board import NO_SQUARE
from tne_ai.core.notation import parse_move
from tne_ai.matches.tournament import read_records
from tne_ai.position import Position
from tne_ai.search.determinize import unseen_pool

COLOUR = {"red": 0, "blue": 1, "green": 2, "black": 3}
N_FEATURES = 7


def colour_features(st, q, last, decay):
    sc = [int(st[S.score(q, c)]) for c in range(4)]
    low = min(sc)
    x = np.zeros((4, N_FEATURES))
    for c in range(4):
        x[c, 0] = 1.0 if st[S.leader_sq(q, c)] != NO_SQUARE else 0.0
        x[c, 1] = min(sc[c] - low, 6) / 6.0
        x[c, 2] = last[c]
        x[c, 3] = decay[c]
        if c < 3:
            x[c, 4 + c] = 1.0
    return x


def dataset(paths):
    """(hands, pools, features, game index) of every action position and other player."""
    hands, pools, xs, games = [], [], [], []
    pool = np.zeros(4, dtype=np.int64)
    g = 0
    for path in paths:
        for _, record in read_records(path):
            pos = Position.from_json(record["start"])
            n = pos.players
            last, decay, now = np.zeros((n, 4)), np.zeros((n, 4)), np.zeros((n, 4))
            prev = None
            for m in record["moves"]:
                st = pos.st
                who = int(st[S.TO_ACT])
                if st[S.PHASE] == S.PH_ACTION:
                    if prev is not None and prev != who:      # prev's turn is over
                        last[prev] = now[prev]
                        decay[prev] = 0.7 * decay[prev] + now[prev]
                        now[prev] = 0
                    prev = who
                    unseen_pool(st, who, pool)
                    for q in range(n):
                        if q != who:
                            hands.append([int(st[S.hand(q, c)]) for c in range(4)])
                            pools.append(pool.copy())
                            xs.append(colour_features(st, q, last[q], decay[q]))
                            games.append(g)
                    if m.startswith("tile "):
                        now[who, COLOUR[m.split()[1]]] += 1
                pos.push(parse_move(m))
            g += 1
    return (np.array(hands, dtype=float), np.array(pools, dtype=float), np.array(xs),
            np.array(games))


def log_loss(beta, h, u, x):
    """Nats a tile of hands h under the odds u_c * exp(beta . x_c), and the log-probabilities."""
    w = np.where(u > 0, np.log(np.maximum(u, 1e-12)) + x @ beta, -1e9)
    lp = w - np.logaddexp.reduce(w, axis=1, keepdims=True)
    return -(h * lp).sum() / h.sum(), lp


def fit(h, u, x, steps=3000, rate=0.5):
    beta = np.zeros(x.shape[2])
    for _ in range(steps):
        _, lp = log_loss(beta, h, u, x)
        grad = -((h - h.sum(axis=1, keepdims=True) * np.exp(lp))[:, :, None] * x).sum(axis=(0, 1)) / h.sum()
        beta -= rate * grad
        if np.abs(grad).max() < 1e-6:
            break
    return beta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", help="tne-game/1 records (.jsonl or .jsonl.gz)")
    ap.add_argument("--features", default="0,1,2,3,4,5,6", help="feature numbers, comma-separated")
    args = ap.parse_args()
    cols = [int(c) for c in args.features.split(",")]
    h, u, x, g = dataset(args.records)
    x = x[:, :, cols]
    test = g % 5 == 0
    beta = fit(h[~test], u[~test], x[~test])
    print(f"{g.max() + 1} games, {len(h)} hands; features {cols}: beta {np.round(beta, 3).tolist()}")
    for name, m in (("train", ~test), ("held out", test)):
        print(f"{name}: uniform {log_loss(np.zeros_like(beta), h[m], u[m], x[m])[0]:.4f}, "
              f"fitted {log_loss(beta, h[m], u[m], x[m])[0]:.4f} nats a tile")


if __name__ == "__main__":
    main()
