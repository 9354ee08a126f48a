"""Lines of LLVM IR each numba compile unit hands to the final-module optimiser (its own code
and every callee linked into it), summed per stage of
bench/experiments/kernel_compare_cpu.py's sequence (engine kernels, then the baseline search,
then the default search), in a child with an empty numba cache.  Deterministic, unlike compile
seconds.  Run it in any source tree:

    cd /tmp && PYTHONPATH=/path/to/tree python3 /path/to/bench/experiments/compile_ir_lines.py
"""
import os
import subprocess
import sys
import tempfile

SNIP = r'''
import collections, json
from numba.core import codegen
stage = ["engine"]
lines = collections.defaultdict(int)
optimise = codegen.CPUCodeLibrary._optimize_final_module
def counted(self):
    lines[(stage[0], self.name)] += str(self._final_module).count("\n")
    return optimise(self)
codegen.CPUCodeLibrary._optimize_final_module = counted
try:                       # tne_ai.matches.bench now, tne_ai.bench at older commits
    from tne_ai.matches import bench as B
except ImportError:
    from tne_ai import bench as B
try:                       # search() is in session.py now, in mcts.py at older commits
    from tne_ai.search.session import search
except ImportError:
    from tne_ai.search.mcts import search
B.measure_games(2, games=4, repeats=1)
B.measure_movegen(B.positions_at(2, 100, 20), rounds=1, repeats=1)
st = B.positions_at(2, 0, 1)[0]
stage[0] = "baseline"
search(st, iterations=100, **B.BASELINE)
stage[0] = "default"
search(st, iterations=100)
out = {}
for (where, name), n in lines.items():
    row = out.setdefault(where, {"total": 0})
    row["total"] += n
    for kernel in ("run_iterations", "descend", "reset_tree"):
        if kernel in name:
            row[kernel] = row.get(kernel, 0) + n
print(json.dumps(out))
'''
with tempfile.TemporaryDirectory() as cache:
    run = subprocess.run([sys.executable, "-c", SNIP], cwd=cache, capture_output=True, text=True,
                         env=dict(os.environ, NUMBA_CACHE_DIR=cache))
if run.returncode:
    sys.exit(run.stderr)
print(run.stdout.strip().splitlines()[-1])
