"""The first run's compile (tne_ai/search/warmup.py): bestmove compiles only the search's kernels,
half of them typed in a helper process, and compiles each of those once."""
import os
import subprocess
import sys
from pathlib import Path

from tne_ai.search import warmup

ROOT = Path(__file__).resolve().parents[1]


def test_every_group_compiles_without_a_deadlock():
    """The two processes of compile_group, played out: each takes its next part once the
    parts it needs are done (here or in the other process, as the helper's lines and this
    process's lines on the helper's stdin tell), and both must get through every group."""
    for group, parts in warmup.GROUPS.items():
        theirs = [p for p in warmup.HELPER_PARTS if p in parts]
        queues = [[p for p in parts if p not in theirs], theirs]
        done = set()
        while queues[0] or queues[1]:
            ready = [q for q in queues if q and set(warmup.NEEDS[q[0]]) <= done]
            assert ready, (group, queues)
            for q in ready:
                done.add(q.pop(0))
        assert done == set(parts)
        # and alone, in the group's order
        for i, part in enumerate(parts):
            assert set(warmup.NEEDS[part]) <= set(parts[:i]), (group, part)


def test_a_cold_bestmove_compiles_the_search_once_and_a_second_run_nothing(tmp_path):
    """A fresh numba cache: `tne bestmove` compiles the search's group first (saying so),
    the helper's kernels typed as the search calls them: each has one compiled version in
    the cache (a second would be this process compiling it again for other types); the
    solver and the other commands' kernels are not compiled.  A second bestmove, of another
    position and with 2 threads, compiles nothing and says nothing of compiling."""
    # the helper forced on (it starts only on two cores or more)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), TNE_COMPILE_HELPER="1")

    def bestmove(*args):
        r = subprocess.run([sys.executable, str(ROOT / "cli.py"), "bestmove", *args],
                           capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=900)
        assert r.returncode == 0, r.stderr
        return r.stderr

    def cached():
        return sorted(p.name for p in (tmp_path / "cache").rglob("*.nb*"))

    err = bestmove("--iterations", "200", str(ROOT / "examples" / "start.json"))
    assert err.splitlines()[-1].startswith("tne: kernels compiled in ")
    first = cached()
    # the default search's: the value network, the move policy at the root (the kinds below
    # it), the hand belief's deal
    for kernel in ("movegen.legal_moves", "apply.apply_action", "priors.pick_untried",
                   "priors.pick_commit", "policy.pick_scored", "value.evaluate_net",
                   "evaluate.evaluate", "endgame.ending_applies", "determinize.determinize",
                   "determinize.determinize_belief", "mcts.run_iterations"):
        versions = [n for n in first if n.startswith(kernel + "-") and n.endswith(".nbc")]
        assert len(versions) == 1, kernel
    names = {n.split("-")[0] for n in first}
    assert "endgame.exact_ending" not in names and "tree.copy_subtree" not in names
    err = bestmove("--iterations", "200", "--threads", "2", str(ROOT / "examples" / "midgame.json"))
    assert "compil" not in err
    assert cached() == first
