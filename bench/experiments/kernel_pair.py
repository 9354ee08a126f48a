"""Paired, interleaved iterations a CPU second of the search in two or more source trees of
tne_ai, in ONE process, so that the machine's swings fall on every tree alike:

    python bench/experiments/kernel_pair.py /path/to/old/tree /path/to/new/tree [--rounds 15]

Each tree's ``tne_ai`` package is copied into a temporary directory under a name of its own
(``tne_t0``, ``tne_t1``, ...; the package imports itself only relatively, so the copies do not
mix) with an empty numba cache, compiled once, and then searched in turn, the trees' order
shuffled every round: the frozen baseline and the default search, from the start and from a
mid-game position, 10,000 iterations each with seed 1 (the positions and budget of ``tne
bench``).  Prints per figure the median rate of each tree, and for each later tree against
the first the median of the per-round ratios with their range, and the ratio of the best
rounds (interference only ever slows a round down).
"""
import argparse
import importlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import time


def copy_trees(trees):
    """(work folder, package names): each tree's tne_ai copied into a new folder under a name
    of its own (tne_t0, tne_t1, ...), importable, with an empty numba cache there."""
    work = tempfile.mkdtemp()
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(work, "cache")
    names = []
    for i, tree in enumerate(trees):
        name = f"tne_t{i}"
        shutil.copytree(os.path.join(tree, "tne_ai"), os.path.join(work, name),
                        ignore=shutil.ignore_patterns("__pycache__"))
        names.append(name)
    sys.path.insert(0, work)
    return work, names


def report(rates, trees, names):
    """Print, per figure ({figure: {name: [rate per round]}}), each tree's median rate and for
    each later tree the median of the per-round ratios to the first, their range, and the
    ratio of the best rounds (interference only ever slows a round down)."""
    for figure, by_tree in rates.items():
        first = by_tree[names[0]]
        cells = [f"{trees[i]}: {statistics.median(by_tree[n]):,.0f}" for i, n in enumerate(names)]
        for i, name in enumerate(names[1:], start=1):
            ratios = sorted(b / a for a, b in zip(first, by_tree[name]))
            cells.append(f"ratio {i}/0 median {statistics.median(ratios):.3f} "
                         f"({ratios[0]:.2f} .. {ratios[-1]:.2f}), best rounds {max(by_tree[name]) / max(first):.3f}")
        print(f"{figure}: " + "; ".join(cells))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+", help="source trees (each holding tne_ai/)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--iterations", type=int, default=10000)
    args = ap.parse_args()
    work, names = copy_trees(args.trees)
    runs = {}
    for name in names:
        bench = importlib.import_module(name + ".bench")
        try:                       # search() is in session.py now, in mcts.py at older commits
            search = importlib.import_module(name + ".search.session").search
        except ImportError:
            search = importlib.import_module(name + ".search.mcts").search
        positions = {"start": bench.positions_at(2, 0, 1)[0], "mid": bench.positions_at(2, 100, 5)[0]}
        configs = {"baseline": bench.BASELINE, "default": {}}
        for st in positions.values():
            for options in configs.values():
                search(st, iterations=50, **options)
        runs[name] = (search, positions, configs)
    rates = {}
    rng = random.Random(1)
    for _ in range(args.rounds):
        order = list(names)
        rng.shuffle(order)
        for where in ("start", "mid"):
            for config in ("baseline", "default"):
                for name in order:
                    search, positions, configs = runs[name]
                    t = time.process_time()
                    r = search(positions[where], iterations=args.iterations, seed=1, **configs[config])
                    rate = r.iterations / (time.process_time() - t)
                    rates.setdefault((config, where), {}).setdefault(name, []).append(rate)
    report({f"{config} {where}": by_tree for (config, where), by_tree in rates.items()}, args.trees, names)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
