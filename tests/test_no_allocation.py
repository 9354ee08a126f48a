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

from tne_ai.engine import apply, movegen, playout, scoring
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
    for want in ("tne_ai.engine.apply.place_tile", "tne_ai.engine.apply.resolve_war",
                 "tne_ai.engine.apply.end_turn", "tne_ai.engine.kingdoms.kingdoms_around",
                 "tne_ai.engine.kingdoms.touch_counts_of", "tne_ai.engine.movegen.action_moves",
                 "tne_ai.engine.kingdoms.twos_with_leader_lifted",
                 "tne_ai.search.determinize.pack_tiles", "tne_ai.state.hand", "tne_ai.bits.flood"):
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
