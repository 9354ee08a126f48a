"""Paired, interleaved move-generation and labelling rates of two or more source trees of
tne_ai in ONE process, as bench/experiments/kernel_pair.py does for the search:

    python bench/experiments/movegen_pair.py /path/to/old/tree /path/to/new/tree [--rounds 9]

Each tree's package is copied under a name of its own with an empty numba cache; then, for
each round (nine by default) in a shuffled order, each tree lists every legal move of the 300 positions of
`tne bench` at ply 0, 100 and 180 (ten times) and labels the kingdoms of the ply-100 ones
(twenty times).  Prints what bench/experiments/kernel_pair.py prints (``report``).
"""

import argparse
import importlib
import random
import shutil
import time

import numpy as np

from kernel_pair import copy_trees, report

PLIES = {"start": 0, "mid": 100, "late": 180}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+", help="source trees (each holding tne_ai/)")
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    work, names = copy_trees(args.trees)
    runs = {}
    for name in names:
        bench = importlib.import_module(name + ".bench")
        state = importlib.import_module(name + ".state")
        positions = {where: bench.positions_at(2, ply, 300) for where, ply in PLIES.items()}
        moves = np.empty(state.MAX_MOVES, dtype=np.int64)
        for p in positions.values():       # compile
            bench.generate_all(p, moves, 1)
            bench.label_all(p, 1)
        runs[name] = (bench, positions, moves)
    rates = {}
    rng = random.Random(1)
    for _ in range(args.rounds):
        order = list(names)
        rng.shuffle(order)
        for figure in ("movegen start", "movegen mid", "movegen late", "labelling mid"):
            for name in order:
                bench, positions, moves = runs[name]
                t = time.perf_counter()
                if figure == "labelling mid":
                    bench.label_all(positions["mid"], 20)
                    count = 300 * 20
                else:
                    bench.generate_all(positions[figure.split()[1]], moves, 10)
                    count = 300 * 10
                rates.setdefault(figure, {}).setdefault(name, []).append(count / (time.perf_counter() - t))
    report(rates, args.trees, names)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
