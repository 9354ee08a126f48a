"""Like bench/experiments/kernel_compare.py, in CPU seconds (less swayed by other load than
wall-clock time): the cold compile of the engine, then of the baseline and the default search
on top (a child process with an empty numba cache, timing itself with time.process_time), and
the search's iterations per CPU second (1 thread, median of 3).  Run it alternately in two source trees:

    PYTHONPATH=/path/to/tree python bench/experiments/kernel_compare_cpu.py

The child also reports, for the two search stages, the CPU seconds of each compile unit
(a numba dispatcher compiled for one signature, its nested compiles excluded, from
``numba.core.event``): ``units_baseline`` and ``units_default``, the search's own kernels
(``search.mcts.*``, ``search.tree.*``) and the total over every unit of the stage.  The child
runs in the empty cache directory, so the tree imported is the PYTHONPATH one.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
SNIP = """
import collections
from numba.core import event as ev
stack, units, stage = [], collections.defaultdict(float), ["engine"]
class Units(ev.Listener):
    def on_start(self, event):
        stack.append([time.process_time(), 0.0])
    def on_end(self, event):
        t0, nested = stack.pop()
        dt = time.process_time() - t0
        f = event.data["dispatcher"].py_func
        units[(stage[0], f.__module__.replace("tne_ai.", "") + "." + f.__qualname__)] += dt - nested
        if stack:
            stack[-1][1] += dt
ev.register("numba:compile", Units())
try:                       # tne_ai.matches.bench now, tne_ai.bench at older commits
    from tne_ai.matches import bench as B
except ImportError:
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
stage[0] = "baseline"
search(st, iterations=100, **B.BASELINE)
base = time.process_time() - t
stage[0] = "default"
search(st, iterations=100)
default = time.process_time() - t
import json
own = {}
for (where, name), sec in units.items():
    if where != "engine":
        row = own.setdefault("units_" + where, {"all": 0.0})
        row["all"] = round(row["all"] + sec, 2)
        if name.startswith(("search.mcts.", "search.tree.")):
            row[name.split(".", 1)[1]] = round(sec, 2)
print(json.dumps(own))
print(engine, base, default)
"""
with tempfile.TemporaryDirectory() as cache:
    out = subprocess.run([sys.executable, "-c", "import time\n" + SNIP], cwd=cache,
                         env=dict(os.environ, NUMBA_CACHE_DIR=cache), capture_output=True, text=True,
                         check=True)
e, b, d = map(float, out.stdout.split()[-3:])
units = json.loads(out.stdout.strip().splitlines()[-2])
try:                       # tne_ai.matches.bench now, tne_ai.bench at older commits
    from tne_ai.matches import bench as B
except ImportError:
    from tne_ai import bench as B
try:                       # search() is in session.py now, in mcts.py at older commits
    from tne_ai.search.session import search
except ImportError:
    from tne_ai.search.mcts import search
res = {"compile_cpu_engine_s": round(e, 2), "compile_cpu_baseline_search_s": round(b - e, 2),
       "compile_cpu_default_search_s": round(d - b, 2), **units}
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
