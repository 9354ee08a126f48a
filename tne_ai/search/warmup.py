"""Compiling the numba kernels before a command runs them (the first run after an install).

numba compiles a kernel the first time it is called and caches the machine code (``cache=True``:
``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), so only the first run of a command
pays.  The CLI compiles first, with a progress line, what the command will reach, so that no
timed search waits for a compile in its middle (an engine in a match would forfeit the move).

The kernels come in *parts*.  Each part compiles some kernels; a part may need others first
(``NEEDS``), because numba compiles a kernel's callees with it (and loads those already in the
cache).  A *group* is what a command reaches: ``search`` (the default search; ``tne bestmove``)
and ``all`` (the search, its tree reuse, the exact endings' solver and the checks of a position
in every phase; every other command, the engine's above all).

Parts that do not need one another compile at the same time in two processes, this one and a
helper (``python -c ... _helper PART...``, the same sources, the same cache), when the process
may run on two cores or more (``compile_group``): the helper compiles its parts into numba's
cache and says each one's name on its stdout; a part here that needs one of them waits for
that line, and numba then loads the helper's kernels from the cache instead of compiling them again.
The kernels the helper compiles are given their argument types here (``_types_of`` the arrays
the search passes them), the types the search's own kernel calls them with; a kernel the
helper missed (or a helper that failed) is compiled here as before, only later.  Whatever
the order, the cached machine code is the same: a cached kernel keeps its LLVM code for the
kernels that call it, which inline it as they would a fresh one.
"""
import glob
import importlib.util
import os
import subprocess
import sys
import time

import numpy as np

# how long the first run's compile takes, as the CLI's progress line says it: measured
# (bench/README.md, the first run): with the networks and the hand belief the default's
# kernels, 20 s idle, 37 s busy, on 2 cores
COMPILE_ESTIMATE = "20 s, 40 s on a busy machine"

# the kernel group a command compiles first on a cold cache; every other command compiles them
# all (a timed game must not wait for a compile in its middle)
COMMAND_GROUP = {"bestmove": "search"}

# the index file numba writes for each part's last kernel: a part whose file is missing is
# cold (``cold``); (folder in tne_ai, file name start)
SENTINEL = {
    "moves": ("core/rules", "movegen.legal_moves"),
    "search": ("search", "mcts.run_iterations"),
    "reuse": ("search", "tree.copy_subtree"),
    "solver": ("search", "endgame.exact_ending"),
    "checks": ("core/rules", "kingdoms.kingdom_clash"),
}

# what each part needs compiled before it starts
NEEDS = {
    "moves": (),
    "rules": (),
    "priors": (),
    "evaluation": (),
    "playout": ("moves", "rules"),
    "search": ("moves", "rules", "priors", "evaluation", "playout"),
    "reuse": ("search",),
    "solver": ("moves", "rules", "evaluation"),
    "checks": ("moves", "rules"),
}

GROUPS = {
    "search": ("moves", "rules", "evaluation", "priors", "playout", "search"),
    "solver": ("moves", "rules", "evaluation", "solver"),
    "all": ("moves", "rules", "evaluation", "priors", "playout", "search", "reuse", "solver",
            "checks"),
}

# with a helper: the parts it compiles (the rest here), in this order: about half the CPU
# seconds of a group before the search's own kernel, which needs them all
HELPER_PARTS = ("evaluation", "priors", "solver")


def _index_files(where, name):
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if cache_dir:
        return glob.glob(os.path.join(cache_dir, "**", name + "-*.nbi"), recursive=True)
    root = importlib.util.find_spec("tne_ai").submodule_search_locations[0]
    return glob.glob(os.path.join(root, where, "__pycache__", name + "-*.nbi"))


def cold(group="all"):
    """Whether numba's cache lacks a part of the group: the index file of the part's last
    kernel is missing where numba keeps it (``NUMBA_CACHE_DIR`` when set)."""
    return any(not _index_files(*SENTINEL[p]) for p in GROUPS[group] if p in SENTINEL)


def kernel_cache_is_cold(group="all"):
    """Whether numba has not yet cached the kernels of a group (``search``, what `tne
    bestmove` runs, ``solver``, or ``all``): ``cold``.  The CLI asks it before each command
    (through this name, so that a test can make it answer yes)."""
    return cold(group)


def _types_of(args):
    import numba
    return tuple(numba.typeof(a) for a in args)


def _compile(kernel, *args):
    """Compile kernel for the types of args (nothing is run)."""
    kernel.compile(_types_of(args))


def _start():
    from tne_ai.position import Position
    return Position.new(2, seed=0)


def _state():
    """A state array to type a kernel with (zeros: nothing is run, and no kernel is called
    to make it)."""
    from tne_ai.core import state as S
    return np.zeros(S.STATE_SIZE, dtype=np.int64)


def _moves():
    """The move generator: what every command reaches."""
    from tne_ai.core.rules.movegen import legal_moves
    from tne_ai.core import state as S
    _compile(legal_moves, _state(), np.empty(S.MAX_MOVES, dtype=np.int64))


def _rules():
    """The rules: an action applied, a tile drawn."""
    from tne_ai.core.rules.apply import apply_action, draw_tile
    from tne_ai.core.rules.rng import make_rng
    st, rng = _state(), make_rng(0)
    _compile(apply_action, st, 0, rng)
    _compile(draw_tile, st, 0, rng)


def _priors():
    """The search's kernels that call no rules kernel, but its evaluation: the priors (the
    order a node opens its moves in), the hand-set evaluation, the exact endings' check, the
    determinization (and the hand belief's deal when the default search deals by it); typed
    as ``mcts.run_iterations`` calls them (the arrays of a Scratch and a Tree, the config's
    weights)."""
    from tne_ai.core.rules.rng import make_rng
    from tne_ai.search.config import SearchConfig
    from tne_ai.search.determinize import determinize, determinize_belief
    from tne_ai.search.endgame import ending_applies
    from tne_ai.search.evaluate import EVAL_DEFAULT, evaluate, model_prior
    from tne_ai.search.priors import pick_commit, pick_untried
    from tne_ai.search.tree import Scratch, Tree
    sc, tree, rng = Scratch(), Tree(16), make_rng(0)
    st, i64 = sc.st, np.int64(0)
    _compile(ending_applies, st)
    _compile(determinize, st, i64, rng, _state())
    if SearchConfig().resolved().belief:
        _compile(determinize_belief, st, i64, rng, _state())
    _compile(evaluate, st, EVAL_DEFAULT.copy(), sc.reward)
    prior_kind = SearchConfig().prior
    if prior_kind in ("kinds", "policy"):
        prior = np.asarray(model_prior(), dtype=np.float64)
        _compile(pick_untried, st, sc.moves, i64, sc.legal_stamp, i64, sc.child_stamp, i64, prior,
                 np.int32(0), tree.sibling, tree.action, sc.kmask, sc.masks, sc.kind_counts, rng)
        _compile(pick_commit, st, sc.moves, i64, sc.child_stamp, i64)
    if prior_kind == "policy":
        # the root's scoring (its features and network) and the policy's order of the root
        from tne_ai.core import state as S
        from tne_ai.search.policy import pick_scored, policy_of_file, policy_scratch, score_root
        net = policy_of_file()
        scores, kinds = np.zeros(S.N_ACTIONS), np.zeros(S.N_ACTIONS, dtype=np.int64)
        score_root(_start().st, net, policy_scratch(net), scores, kinds)
        _compile(pick_scored, sc.moves, i64, sc.legal_stamp, i64, sc.child_stamp, i64, scores,
                 kinds, sc.kind_counts, np.int32(0), tree.sibling, tree.action, rng)


def _evaluation():
    """The default search's leaf evaluation (with its features), typed as
    ``mcts.run_iterations`` calls it: the value network (``evaluation=net``: its arrays and
    a thread's scratch) or the fitted linear one (``evaluation=model``)."""
    from tne_ai.search.config import SearchConfig
    from tne_ai.search.evaluate import evaluate_model, model_weights
    from tne_ai.search.tree import Scratch
    sc = Scratch()
    kind = SearchConfig().evaluation
    if kind == "net":
        from tne_ai.search.value import evaluate_net, shipped_net, value_scratch
        net = shipped_net()
        _compile(evaluate_net, sc.st, net, value_scratch(net), sc.kmask, sc.feats, sc.reward)
    elif kind == "model":
        _compile(evaluate_model, sc.st, model_weights(), sc.kmask, sc.feats, sc.reward)


def _playout():
    """The rest of what a search's iteration calls: the settling of a leaf's pending
    decisions (the default search plays no random rollout: no playout)."""
    from tne_ai.core.rules.rng import make_rng
    from tne_ai.search.evaluate import settle
    from tne_ai.core import state as S
    _compile(settle, _state(), make_rng(0), np.empty(S.MAX_MOVES, dtype=np.int64))


def _search():
    """The default search (its one kernel, ``run_iterations``, on top of the parts above)."""
    from tne_ai.search.session import Search
    Search(_start()).run(iterations=64)


def _reuse():
    """The tree reuse of a search's next root (``copy_subtree``)."""
    from tne_ai.search.session import Search
    s = Search(_start())
    s.run(iterations=64)
    if s.advance(s.result().move):          # the first action: the mover acts again
        s.run(iterations=16)


def _solver():
    """The exact endings' solver: one world of the start, given up at once (too big)."""
    from tne_ai.search.endgame import solve_ending
    solve_ending(_start(), worlds=1, work=1000)


def _checks():
    """The checks of a position file, in every phase a game passes through (the kernels the
    engine's position command calls): two seeded random games that between them pass every
    kind of pending decision, the first position of each kind read back from its
    tne-position/1 object, whole and as the mover's view (the other hand and the bag
    hidden); a kernel compiles once for every position of its types, so one position of
    each kind compiles what all of them would."""
    import random
    from tne_ai.core.formats import position_from_dict, position_to_dict
    from tne_ai.position import Position
    seen = set()
    for seed in (1, 4):
        pos, pick = Position.new(2, seed=seed), random.Random(seed)
        while not pos.is_over():
            d = pos.to_json()
            kind = None if d["pending"] is None else (d["pending"]["kind"], tuple(sorted(d["pending"])))
            if kind not in seen:
                seen.add(kind)
                position_from_dict(d)
                position_from_dict(position_to_dict(pos.st, [p == pos.to_act for p in range(2)], False))
            pos.push(pick.choice(pos.legal_codes()))


PARTS = {"moves": _moves, "rules": _rules, "priors": _priors, "evaluation": _evaluation,
         "playout": _playout, "search": _search, "reuse": _reuse, "solver": _solver,
         "checks": _checks}


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Helper:
    """The helper process: parts given on its command line; it prints each part's name once
    compiled, and reads the names of this process's parts on its stdin before a part that
    needs them."""

    def __init__(self, parts):
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        code = (f"import sys; sys.path.insert(0, {here!r}); "
                "from tne_ai.search.warmup import _helper; _helper()")
        self.done = set()
        self.proc = subprocess.Popen([sys.executable, "-c", code, *parts], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def wait_for(self, part):
        """Until the helper has compiled part (or has ended: then numba compiles what is
        missing here)."""
        while part not in self.done:
            line = self.proc.stdout.readline()
            if not line:
                self.done.add(part)
                break
            self.done.add(line.strip())

    def tell(self, part):
        try:
            self.proc.stdin.write(part + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.stdout.close()
        self.proc.wait()

    def kill(self):
        self.proc.kill()
        self.close()


def _helper():
    """The helper's main: compile the parts named on the command line in order, each once
    the parts it needs that are not its own were reported compiled on stdin."""
    parts = sys.argv[1:]
    told = set()
    for part in parts:
        for need in NEEDS[part]:
            while need not in parts and need not in told:
                line = sys.stdin.readline()
                if not line:            # the parent has gone
                    return
                told.add(line.strip())
        PARTS[part]()
        print(part, flush=True)


def compile_group(group="all", helper=None):
    """Compile (into numba's cache) the kernels of the group's parts: on two cores or more,
    those of ``HELPER_PARTS`` in a helper process while this one compiles the others (on a busy
    machine too: two processes get more of its time than one, bench/README.md, the first run);
    on one core all here.  ``helper``: True or False forces either way, and so does the
    environment variable TNE_COMPILE_HELPER (1 or 0)."""
    parts = GROUPS[group]
    forced = os.environ.get("TNE_COMPILE_HELPER")
    if helper is None and forced in ("0", "1"):
        helper = forced == "1"
    if helper is None:
        helper = _cores() >= 2
    theirs = [p for p in HELPER_PARTS if p in parts] if helper else []
    ours = [p for p in parts if p not in theirs]
    other = _Helper(theirs) if theirs else None
    try:
        for part in ours:
            for need in NEEDS[part]:
                if need in theirs:
                    other.wait_for(need)
            PARTS[part]()
            if other is not None:
                other.tell(part)
    except BaseException:
        if other is not None:
            other.kill()
        raise
    if other is not None:
        other.close()


def compile_kernels(group="all"):
    """Compile (and cache) the group's kernels (``compile_group``); returns the seconds it
    took.  The CLI runs it before a command on a cold cache, with a progress line (``all``:
    the default search, its tree reuse, the exact endings and the checks of a position, so
    that no later move of a timed game waits for a compile: an engine in a match would
    forfeit it)."""
    start = time.monotonic()
    compile_group(group)
    return time.monotonic() - start
