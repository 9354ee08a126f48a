"""DESIGN (performance notes): no allocation inside hot kernels.  Every numba kernel reached
from the kernels that run once per move or per search iteration (random_game, random_move,
legal_moves, apply_action, determinize, and the final scoring a finished rollout is valued
with, and the search's run_iterations with its evaluation, settling and widening) is found
by walking the globals each kernel's code names, and its source must not make
an array: no np.empty / np.zeros / np.full / np.array / empty_like / zeros_like / .copy()."""
import inspect
import re
import types

from numba.core.registry import CPUDispatcher

from tne_ai.core.rules import apply, movegen, playout, scoring
from tne_ai.search import determinize, mcts

ROOTS = [playout.random_game, movegen.random_move, movegen.legal_moves, apply.apply_action,
         determinize.determinize, scoring.rewards, scoring.final_values, mcts.run_iterations]
ALLOCATING = re.compile(r"np\.(empty|zeros|ones|full|array|empty_like|zeros_like|ones_like)\b|\.copy\(\)")
# Kernels allowed to allocate, each with the reason.  None is needed today.
EXCEPTIONS = {}


def reached(roots):
    """Every numba dispatcher the roots call, directly or through others (module attributes
    such as ``S.hand`` included)."""
    seen = {}
    todo = list(roots)
    while todo:
        d = todo.pop()
        name = f"{d.py_func.__module__}.{d.py_func.__name__}"
        if name in seen:
            continue
        seen[name] = d
        g = d.py_func.__globals__
        names = d.py_func.__code__.co_names
        for n in names:
            obj = g.get(n)
            if isinstance(obj, CPUDispatcher):
                todo.append(obj)
            elif isinstance(obj, types.ModuleType):
                for attr in names:
                    sub = getattr(obj, attr, None)
                    if isinstance(sub, CPUDispatcher):
                        todo.append(sub)
    return seen


def test_the_walk_reaches_the_rule_kernels():
    names = set(reached(ROOTS))
    for want in ("tne_ai.core.rules.apply.place_tile", "tne_ai.core.rules.apply.resolve_war",
                 "tne_ai.core.rules.apply.end_turn", "tne_ai.core.rules.kingdoms.kingdoms_around",
                 "tne_ai.core.rules.kingdoms.touch_counts_of", "tne_ai.core.rules.movegen.action_moves",
                 "tne_ai.core.rules.kingdoms.twos_with_leader_lifted",
                 "tne_ai.search.determinize.pack_tiles", "tne_ai.search.determinize.determinize_belief",
                 "tne_ai.core.state.hand", "tne_ai.core.bits.flood"):
        assert want in names


def test_no_hot_kernel_allocates():
    offenders = []
    for name, d in sorted(reached(ROOTS).items()):
        if name in EXCEPTIONS:
            continue
        source = inspect.getsource(d.py_func)
        body = source.split('"""')[2] if source.count('"""') >= 2 else source  # skip the docstring
        if ALLOCATING.search(body):
            offenders.append(name)
    assert offenders == []


def test_every_hot_kernel_is_compiled_without_reference_counts():
    """DESIGN (numba conventions): a kernel that allocates nothing is compiled with
    ``_nrt=False``, so numba emits no reference count for the arrays it passes, views and
    unpacks (they were 11 to 14% of a search's time)."""
    counted = [name for name, d in sorted(reached(ROOTS).items()) if d.targetoptions.get("_nrt", True)]
    assert counted == []


_RETURNS_CHECK = """
import importlib, json, pkgutil
from numba.core import types as nt
from numba.core.registry import CPUDispatcher
import tne_ai
from tne_ai.matches import bench
from tne_ai.position import Position
from tne_ai.search.endgame import solve_ending
from tne_ai.search.session import search

def array_in(ty):
    if isinstance(ty, nt.Array):
        return True
    return isinstance(ty, nt.BaseTuple) and any(array_in(t) for t in ty.types)

st = bench.positions_at(2, 100, 5)[0]
search(st, iterations=200, seed=1)
search(st, iterations=200, seed=1, **bench.BASELINE)
solve_ending(Position.new(2, seed=0), worlds=1, work=1000)   # the solver's kernels
checked, offenders = 0, []
for info in pkgutil.walk_packages(tne_ai.__path__, "tne_ai."):
    module = importlib.import_module(info.name)
    for name, d in vars(module).items():
        if not isinstance(d, CPUDispatcher) or d.targetoptions.get("_nrt", True):
            continue
        for sig in d.signatures:
            checked += 1
            if array_in(d.overloads[sig].signature.return_type):
                offenders.append(info.name + "." + name)
print(json.dumps({"checked": checked, "offenders": offenders}))
"""


def test_no_kernel_without_reference_counts_returns_an_array(tmp_path):
    """A kernel compiled without reference counts must not hand an array back: its caller
    would own a reference that was never taken.  Checked on every compiled signature of
    every such kernel of the package, after a search, the frozen baseline's and an exact
    ending have run, in a fresh interpreter with an empty numba cache: a kernel loaded from
    the cache registers no signature for the kernels it calls, so only a cold compile lists
    them all."""
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", _RETURNS_CHECK], env=env, capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["checked"] > 100
    assert report["offenders"] == []
