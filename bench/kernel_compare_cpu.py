"""Like bench/kernel_compare.py, in CPU seconds (less swayed by other load than wall-clock time):
the cold compile of the engine, then of the baseline and the default search on top (a child
process with an empty numba cache, timing itself with time.process_time), and the search's
iterations per CPU second (1 thread, median of 3).  Run it alternately in two source trees:

    PYTHONPATH=/path/to/tree python bench/kernel_compare_cpu.py
"""
import json
import os
import subprocess
import sys
import tempfile
import time
SNIP = """
from tne_ai import bench as B
from tne_ai.position import Position
try:                       # search() is in session.py now, in mcts.py at older commits
    from tne_ai.search.session import search
except ImportError:
    from tne_ai.search.mcts import search
import time
t = time.process_time()
B.measure_games(2, games=4, repeats=1)
pos = B.positions_at(2, 100, 20)
B.measure_movegen(pos, rounds=1, repeats=1)
engine = time.process_time() - t
st = B.positions_at(2, 0, 1)[0]
search(st, iterations=100, **B.BASELINE)
base = time.process_time() - t
search(st, iterations=100)
print(engine, base, time.process_time() - t)
"""
with tempfile.TemporaryDirectory() as cache:
    out = subprocess.run([sys.executable, "-c", SNIP], env=dict(os.environ, NUMBA_CACHE_DIR=cache),
                         capture_output=True, text=True, check=True)
e, b, d = map(float, out.stdout.split()[-3:])
from tne_ai import bench as B
try:                       # search() is in session.py now, in mcts.py at older commits
    from tne_ai.search.session import search
except ImportError:
    from tne_ai.search.mcts import search
res = {"compile_cpu_engine_s": round(e, 2), "compile_cpu_baseline_search_s": round(b - e, 2),
       "compile_cpu_default_search_s": round(d - b, 2)}
for name, st in (("start", B.positions_at(2, 0, 1)[0]), ("mid", B.positions_at(2, 100, 5)[0])):
    for label, opts in (("baseline", B.BASELINE), ("default", {})):
        search(st, iterations=50, **opts)
        rates = []
        for _ in range(3):
            t = time.process_time()
            r = search(st, iterations=10000, seed=1, **opts)
            rates.append(r.iterations / (time.process_time() - t))
        res[f"{label}_{name}_it_per_cpu_s"] = round(sorted(rates)[1])
print(json.dumps(res))
