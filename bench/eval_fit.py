"""The evaluation fitted per player count against one fit for all counts, on held-out games.

Replays self-play records (``tne train``'s data, ``bench/data/selfplay``) into the positions
where a player must choose an action, with every player's features (``search.features``) and
how the game ended, split by game as ``tne train`` splits them (``train.split``: the same
seeded share held out).  It fits, on the training games:

- ``pooled``: one weight vector for every player count (the fit before per-count weights);
- ``per-count``: a vector per count, each the pooled vector plus a deviation fitted on that
  count's positions alone under an L2 penalty ``l2_dev`` (``train.fit_per_count``; ``inf`` is
  the pooled vector, 0 an independent fit), for each ``--l2-dev`` given;

and scores each, and the weights of ``--old`` (the shipped file before, read with the game
stage it was fitted with: the 2-player bag, 131 tiles, for every count), on the held-out
positions of each count: log-loss (mean over positions of -log of the chance given to the
result), Brier score (mean over positions of the sum over players of (chance - result)^2)
and accuracy (the favourite won).

    python bench/eval_fit.py --l2-dev 0.001 0.01 0.1 --out bench/results/eval_fit.json

The positions are cached (``--cache``, an .npz) so a second run only fits.

``--combine BASE PER_COUNT N... --combine-out FILE`` writes a weights file with the vectors
of the counts N taken from the per-count file PER_COUNT and the others from BASE (either
kind of file; the prior is BASE's), and fits nothing.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import numpy as np  # noqa: E402

from tne_ai.core import state as S  # noqa: E402
from tne_ai.core.bits import count3  # noqa: E402
from tne_ai.search.evaluate import load_weights  # noqa: E402
from tne_ai.search.features import N_BASE, N_FEATURES, features  # noqa: E402
from tne_ai.matches import train as T  # noqa: E402

DATA = os.path.join(HERE, "data", "selfplay")
FILES = ["gen1_2p", "gen2_2p", "gen2_3p", "gen2_4p", "gen3_2p", "gen3_3p", "gen3_4p",
         "gen4_2p", "gen4_3p", "gen4_4p"]


def replay(paths, every=1):
    """x (rows, 4, N_FEATURES), y (rows, 4), players, game, and the old stage of each row."""
    from tne_ai.core.notation import parse_move
    from tne_ai.position import Position
    from tne_ai.core.rules.scoring import rewards
    from tne_ai.matches.tournament import read_records
    records = [r for path in paths for _, r in read_records(path)]
    kmask = np.empty((16, 3), dtype=np.uint64)
    feats = np.zeros((4, N_FEATURES))
    result = np.zeros(4)
    xs, ys, ns, gs, old = [], [], [], [], []
    for g, record in enumerate(records):
        if len(record["moves"]) > T.MAX_PLIES:
            continue
        pos = Position.from_json(record["start"])
        first = len(xs)
        for ply, m in enumerate(record["moves"]):
            st = pos.st
            if st[S.PHASE] == S.PH_ACTION and ply % every == 0:
                feats[:] = 0.0
                n = features(st, kmask, feats)
                xs.append(feats.copy())
                ns.append(n)
                gs.append(g)
                bb = st.view(np.uint64)
                treasures = count3(bb[S.BB_TREASURE], bb[S.BB_TREASURE + 1], bb[S.BB_TREASURE + 2])
                a = 1.0 - S.bag_total(st) / 131.0
                b = (10.0 - treasures) / 8.0
                old.append(min(1.0, max(0.0, max(a, b))))
            pos.push(parse_move(m) if isinstance(m, str) else int(m))
        result[:] = 0.0
        rewards(pos.st, result)
        ys.extend(result.copy() for _ in range(len(xs) - first))
        if (g + 1) % 100 == 0:
            print(f"replayed {g + 1}/{len(records)} games, {len(xs)} positions", file=sys.stderr)
    return {"x": np.array(xs), "y": np.array(ys), "players": np.array(ns), "game": np.array(gs),
            "old_stage": np.array(old)}


def with_old_stage(data):
    """The rows' features with the stage the old weights were fitted with."""
    x = data["x"].copy()
    x[:, :, N_BASE:] = x[:, :, :N_BASE] * data["old_stage"][:, None, None]
    return x


def scores(p, y, mask):
    p = np.where(mask, np.clip(p, 1e-12, 1.0), 0.0)
    loss = float(-np.sum(np.where(mask, y * np.log(np.where(mask, p, 1.0)), 0.0), axis=1).mean())
    brier = float(np.sum(np.where(mask, (p - y) ** 2, 0.0), axis=1).mean())
    fav = np.argmax(np.where(mask, p, -1.0), axis=1)
    acc = float(np.mean(y[np.arange(len(y)), fav] > 0))
    return {"log_loss": loss, "brier": brier, "accuracy": acc, "positions": int(len(y))}


def chances(x, players, w):
    """Win chances of rows x under w: one vector, or per count (3 * N_FEATURES)."""
    mask = T.player_mask(players)
    if len(w) == N_FEATURES:
        return T._softmax(x @ w, mask)
    v = np.zeros(mask.shape)
    for n in (2, 3, 4):
        rows = players == n
        v[rows] = x[rows] @ w[(n - 2) * N_FEATURES:(n - 1) * N_FEATURES]
    return T._softmax(v, mask)


def subset(data, rows):
    return {k: v[rows] for k, v in data.items()}


def combine(base, per_count, counts, out):
    from tne_ai.search.evaluate import PER_COUNT_WEIGHTS, save_weights
    w, prior = load_weights(base)
    w = np.tile(w, 3) if len(w) == N_FEATURES else w.copy()
    other = load_weights(per_count)[0]
    if len(other) != PER_COUNT_WEIGHTS:
        raise SystemExit(f"{per_count}: not a per-count weights file")
    for n in counts:
        w[(n - 2) * N_FEATURES:(n - 1) * N_FEATURES] = other[(n - 2) * N_FEATURES:(n - 1) * N_FEATURES]
    from tne_ai.matches.provenance import file_sha256, provenance
    save_weights(out, w, prior, {"combined": json.dumps({"base": file_sha256(base),
                                                         "per_count": file_sha256(per_count),
                                                         "counts_from_per_count": counts}),
                                 # the code that wrote it and the SHA-256 of both inputs
                                 "provenance": json.dumps(provenance(weights=[base, per_count]))})
    print(f"wrote {out}: counts {counts} from {per_count}, the others from {base}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", nargs="+", default=[os.path.join(DATA, f + ".jsonl.gz") for f in FILES])
    ap.add_argument("--old", default=os.path.join(HERE, "..", "tne_ai", "search", "weights", "eval.npz"))
    ap.add_argument("--l2", type=float, default=1e-2, help="the pooled fit's L2 (tne train's)")
    ap.add_argument("--l2-dev", type=float, nargs="+", default=[1e-5, 1e-3, 1e-2, 1e-1])
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default="/tmp/eval_fit_positions.npz")
    ap.add_argument("--out", default=None)
    ap.add_argument("--combine", nargs="+", default=None, metavar="BASE PER_COUNT N")
    ap.add_argument("--combine-out", default=None)
    args = ap.parse_args(argv)
    if args.combine:
        if len(args.combine) < 3 or not args.combine_out or \
                not set(args.combine[2:]) <= {"2", "3", "4"}:
            ap.error("--combine BASE PER_COUNT N... (N in 2, 3, 4) with --combine-out FILE")
        combine(args.combine[0], args.combine[1], [int(n) for n in args.combine[2:]],
                args.combine_out)
        return
    t0 = time.time()
    if args.cache and os.path.exists(args.cache):
        with np.load(args.cache) as f:
            data = {k: f[k] for k in f.files}
    else:
        data = replay(args.data)
        if args.cache:
            np.savez(args.cache, **data)
    print(f"{len(data['y'])} positions ({time.time() - t0:.0f} s)", file=sys.stderr)
    # the split of tne train (it also splits the prior's rows, absent here)
    data["kinds"] = np.zeros((len(data["y"]), 1))
    data["chosen"] = np.zeros(len(data["y"]), dtype=np.int64)
    data["kind_game"] = data["game"]
    train, test = T.split(data, args.holdout, args.seed)
    # the held-out rows with the old stage (split keeps only the keys it knows: redo it by game)
    held_games = set(np.unique(test["game"]).tolist())
    held = np.array([g in held_games for g in data["game"]])
    test_old_x = with_old_stage(subset({"x": data["x"], "old_stage": data["old_stage"]}, held))
    fits = {}
    mask = T.player_mask(train["players"])
    pooled = T.fit_logit(train["x"], train["y"], mask, l2=args.l2)
    fits["pooled"] = pooled
    for l2_dev in args.l2_dev:
        fits[f"per-count l2_dev={l2_dev:g}"] = T.fit_per_count(train, pooled, l2_dev)
    results = {}
    old_w = load_weights(args.old)[0] if args.old else None
    for n in (2, 3, 4):
        rows = test["players"] == n
        y, m = test["y"][rows], T.player_mask(test["players"][rows])
        res = {}
        if old_w is not None:
            res["old (shipped, old stage)"] = scores(chances(test_old_x[rows], test["players"][rows], old_w), y, m)
            res["old (shipped, new stage)"] = scores(chances(test["x"][rows], test["players"][rows], old_w), y, m)
        for name, w in fits.items():
            res[name] = scores(chances(test["x"][rows], test["players"][rows], w), y, m)
        results[n] = res
        print(f"\n{n} players: {int(rows.sum())} held-out positions "
              f"({len(np.unique(test['game'][rows]))} games; training "
              f"{int((train['players'] == n).sum())} positions)")
        print(f"  {'weights':<32} {'log-loss':>9} {'Brier':>8} {'accuracy':>9}")
        for name, r in res.items():
            print(f"  {name:<32} {r['log_loss']:9.4f} {r['brier']:8.4f} {r['accuracy']:9.3f}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "results": results,
                       "weights": {k: v.tolist() for k, v in fits.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
