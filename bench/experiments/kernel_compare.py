"""Like-for-like figures of the engine kernels, for comparing two source trees of tne_ai
(for instance a commit before and after a kernel change), run alternately in one sitting:

    PYTHONPATH=/path/to/tree python bench/experiments/kernel_compare.py

Prints one JSON line: random 2-player games a second, ISMCTS iterations a second of the
frozen baseline search from the start and mid-game (1 thread; in trees older than the
baseline spec, the only search there was), and the cold compile of the engine and of the
engine plus that search and plus the default search too (a fresh interpreter with an empty
numba cache), and the default search's ISMCTS iterations a second.  The figures are
those of ``tne_ai.matches.bench``.
"""
import json
import os
import subprocess
import sys
import tempfile

COMPILE = """
import time
t = time.perf_counter()
try:                       # tne_ai.matches.bench now, tne_ai.bench at older commits
    from tne_ai.matches import bench as B
except ImportError:
    from tne_ai import bench as B
opts = dict(B.BASELINE) if hasattr(B, "BASELINE") else {}
B.measure_games(2, games=4, repeats=1)
pos = B.positions_at(2, 100, 20)
B.measure_movegen(pos, rounds=1, repeats=1)
B.measure_labels(pos, rounds=1, repeats=1)
engine = time.perf_counter() - t
st = B.positions_at(2, 0, 1)[0]
for th in (1, 2):
    B.measure_search(st, 100 * th, th, 1, **opts)
    B.measure_search(st, 20 * th, th, 1, rollout=-1, **opts)
baseline = time.perf_counter() - t
for th in (1, 2):
    B.measure_search(st, 100 * th, th, 1)
print(engine, baseline, time.perf_counter() - t)
"""


def main():
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run([sys.executable, "-c", COMPILE], env=dict(os.environ, NUMBA_CACHE_DIR=cache),
                             capture_output=True, text=True, check=True)
    engine_s, total_s, default_s = map(float, out.stdout.split()[-3:])
    try:                       # tne_ai.matches.bench now, tne_ai.bench at older commits
        from tne_ai.matches import bench as B
    except ImportError:
        from tne_ai import bench as B
    opts = dict(B.BASELINE) if hasattr(B, "BASELINE") else {}
    games = B.measure_games(2, games=2000, repeats=5)["games_per_s"]["median"]
    mid = B.positions_at(2, 100, 5)[0]
    start = B.positions_at(2, 0, 1)[0]
    figures = {"random_games_per_s": round(games), "compile_engine_s": round(engine_s, 2),
               "compile_engine_and_search_s": round(total_s, 2),
               "compile_engine_and_both_searches_s": round(default_s, 2)}
    for name, st in (("start", start), ("mid", mid)):
        figures[f"ismcts_{name}_1t_per_s"] = round(B.measure_search(st, 10000, 1, 5, **opts)["median"])
        figures[f"ismcts_default_{name}_1t_per_s"] = round(B.measure_search(st, 10000, 1, 5)["median"])
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
