"""Paired, interleaved move-generation and labelling rates of two or more source trees of
tne_ai in ONE process, as bench/kernel_pair.py does for the search:

    python bench/movegen_pair.py /path/to/old/tree /path/to/new/tree

Each tree's package is copied under a name of its own with an empty numba cache; then, for
nine rounds in a shuffled order, each tree lists every legal move of the 300 positions of
`tne bench` at ply 0, 100 and 180 (ten times) and labels the kingdoms of the ply-100 ones
(twenty times).  Prints each tree's median rate and, for the later trees, the median of the
per-round ratios to the first.
"""
import importlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

trees = sys.argv[1:]
work = tempfile.mkdtemp(); os.environ["NUMBA_CACHE_DIR"] = os.path.join(work, "cache")
names = []
for i, t in enumerate(trees):
    shutil.copytree(os.path.join(t, "tne_ai"), os.path.join(work, f"tne_t{i}"), ignore=shutil.ignore_patterns("__pycache__"))
    names.append(f"tne_t{i}")
sys.path.insert(0, work)
runs = {}
for n in names:
    b = importlib.import_module(n + ".bench")
    S = importlib.import_module(n + ".state")
    pos = {w: b.positions_at(2, p, 300) for w, p in (("start", 0), ("mid", 100), ("late", 180))}
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    for p in pos.values():
        b.generate_all(p, moves, 1); b.label_all(p, 1)
    runs[n] = (b, pos, moves)
rates = {}
rng = random.Random(1)
for _ in range(9):
    order = list(names); rng.shuffle(order)
    for fig in ("start", "mid", "late", "label"):
        for n in order:
            b, pos, moves = runs[n]
            t = time.perf_counter()
            if fig == "label":
                b.label_all(pos["mid"], 20); cnt = 300 * 20
            else:
                b.generate_all(pos[fig], moves, 10); cnt = 3000
            rates.setdefault(fig, {}).setdefault(n, []).append(cnt / (time.perf_counter() - t))
for fig, d in rates.items():
    base = d[names[0]]
    print(fig, "; ".join(f"{trees[i]}: {statistics.median(d[n]):,.0f}" + ("" if i == 0 else f" (ratio {statistics.median(sorted(b_/a for a, b_ in zip(base, d[n]))):.3f})") for i, n in enumerate(names)))
shutil.rmtree(work, ignore_errors=True)
