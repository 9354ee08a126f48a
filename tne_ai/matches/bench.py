"""The benchmark suite that ``tne bench`` runs (inside the package, so an installed ``tne`` has
it).  Every figure is the median of several runs with its spread (min .. max).

Figures (single-threaded unless marked): random full games/s and actions/s (uniform over the
full legal move set, 2 players); learning-environment steps a CPU second (VecEnv, one Env,
the OpenSpiel game; ``measure_env_steps``); legal-move generations/s at start, mid-game (ply 100) and
late-game (ply 180) positions; kingdom labellings (flood fills)/s; ISMCTS iterations/s from the
start and from a mid-game position with 1 and 2 threads, with the default rollout (evaluate at
once) and with full random rollouts; memory per tree node; seconds to the
first ``tne bestmove`` answer in a fresh process with a warm numba cache; and (full run only)
seconds to compile every kernel in a fresh process with an empty numba cache.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

from tne_ai import limits as L
from tne_ai.core import state as S
from tne_ai.core.board import NO_SQUARE
from tne_ai.core.rules.kingdoms import MAX_KINGDOMS, label
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import random_game, random_games, shuffled_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.errors import TneError
from tne_ai.position import start_state
from tne_ai.search.mcts import NODE_BYTES
from tne_ai.search.session import search

FULL_BAG = "r" * 47 + "b" * 36 + "g" * 30 + "k" * 30
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start_template(players):
    """A start position with the full bag and no hands, for ``shuffled_start``."""
    return start_state(players, FULL_BAG, deal=False)


@njit(cache=True)
def sample_positions(template, rng, games, ply, moves):
    """The position after `ply` random moves in each of `games` random games (those still
    running then)."""
    out = np.empty((games, S.STATE_SIZE), dtype=np.int64)
    n = 0
    for _ in range(games):
        st = shuffled_start(template, rng)
        random_game(st, rng, moves, ply)
        if st[S.PHASE] != S.PH_OVER:
            out[n] = st
            n += 1
    return out[:n]


@njit(cache=True)
def generate_all(positions, moves, rounds):
    total = 0
    for _ in range(rounds):
        for i in range(positions.shape[0]):
            total += legal_moves(positions[i], moves)
    return total


@njit(cache=True)
def label_all(positions, rounds):
    kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
    total = 0
    for _ in range(rounds):
        for i in range(positions.shape[0]):
            total += label(positions[i].view(np.uint64), NO_SQUARE, kmask)
    return total


def spread(samples):
    """{"median", "min", "max"} of a list of rates or times."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def _repeat(fn, repeats):
    return spread([fn() for _ in range(repeats)])


def _rate(work, count):
    t = time.perf_counter()
    work()
    return count / (time.perf_counter() - t)


def positions_at(players, ply, count=300, seed=2):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    return sample_positions(start_template(players), make_rng(seed + ply), count, ply, moves)


def measure_games(players=2, games=2000, repeats=5, seed=1):
    template = start_template(players)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    rng = make_rng(seed)
    random_games(template, rng, 2, 100000, moves)
    gps, aps = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        actions = random_games(template, rng, games, 100000, moves)
        dt = time.perf_counter() - t
        gps.append(games / dt)
        aps.append(actions / dt)
    return {"games_per_s": spread(gps), "actions_per_s": spread(aps)}


def measure_movegen(positions, rounds=20, repeats=5):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    generate_all(positions, moves, 1)
    return _repeat(lambda: _rate(lambda: generate_all(positions, moves, rounds),
                                 positions.shape[0] * rounds), repeats)


def measure_labels(positions, rounds=50, repeats=5):
    label_all(positions, 1)
    return _repeat(lambda: _rate(lambda: label_all(positions, rounds), positions.shape[0] * rounds), repeats)


def measure_env_steps(players=2, envs=128, steps=200_000, repeats=3, seed=1):
    """Learning-environment steps a CPU second, random legal actions, with the action mask
    and the acting seat's observation written at every step (tne_ai.interop.env): ``vec`` is one
    ``VecEnv(envs)`` stepped in batches (actions drawn with numpy from its move lists),
    ``single`` one ``Env`` stepped a Python call a move, ``openspiel`` the OpenSpiel game
    (``observation_tensor`` and ``legal_actions_mask`` of the player to act every move, the
    chance nodes of draws resolved on the way; absent without the ``openspiel`` extra).
    Timed by ``time.process_time`` (every figure is single-threaded), so other load on the
    machine does not count."""
    from tne_ai.interop.env import Env, VecEnv

    def rate(run, count):
        t = time.process_time()
        run(count)
        return count / (time.process_time() - t)

    vec = VecEnv(envs, players, seed=seed)
    rs = np.random.default_rng(seed)

    def run_vec(count):
        for _ in range(max(1, count // envs)):
            vec.step(vec.random_actions(rs))
    run_vec(envs * 20)
    out = {"vec": _repeat(lambda: rate(run_vec, steps), repeats)}
    env = Env(players, seed=seed)

    def run_single(count):
        moves, n_moves = env.moves, env.n_moves
        for _ in range(count):
            env.step(int(moves[0, int(rs.integers(n_moves[0]))]))
    run_single(100)
    out["single"] = _repeat(lambda: rate(run_single, max(1000, steps // 20)), repeats)
    try:
        from tne_ai.interop.openspiel import load_game
    except ImportError:
        return out
    game = load_game(players)
    state = [game.new_initial_state()]

    def run_openspiel(count):
        made = 0
        while made < count:
            s = state[0]
            if s.is_terminal():
                s = state[0] = game.new_initial_state()
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rs.choice(outcomes, p=probs)))
                continue
            p = s.current_player()
            s.observation_tensor(p)
            s.legal_actions_mask(p)
            legal = s.legal_actions()
            s.apply_action(legal[int(rs.integers(len(legal)))])
            made += 1
    run_openspiel(50)
    out["openspiel"] = _repeat(lambda: rate(run_openspiel, max(200, steps // 200)), repeats)
    return out


BASELINE = {"evaluation": "basic", "prior": "none", "widen": 0}


def measure_search(st, iterations, threads, repeats=3, rollout=0, **options):
    search(st, iterations=50, threads=threads, rollout_depth=rollout, **options)

    def once():
        result = search(st, iterations=iterations, threads=threads, seed=1, rollout_depth=rollout,
                        **options)
        return result.iterations / result.seconds
    return _repeat(once, repeats)


def measure_evaluation(st, kind, calls=200_000, repeats=3):
    """Microseconds per leaf evaluation (the fitted model with its features, or the
    hand-set one), on one position."""
    from tne_ai.search.evaluate import EVAL_DEFAULT, evaluate_calls, model_weights
    w = model_weights() if kind == "model" else EVAL_DEFAULT
    evaluate_calls(st, w, kind == "model", 10)

    def once():
        t = time.perf_counter()
        evaluate_calls(st, w, kind == "model", calls)
        return (time.perf_counter() - t) / calls * 1e6
    return _repeat(once, repeats)


def measure_bestmove(repeats=3, iterations=1000):
    """Seconds from starting ``tne bestmove`` in a fresh interpreter to its answer (warm
    numba cache), on the shipped example."""
    example = os.path.join(ROOT, "examples", "start.json")
    cmd = [sys.executable, "-m", "tne_ai", "bestmove", example, "--iterations", str(iterations)]
    def answer():
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:   # say why, not just that it failed
            tail = " | ".join(done.stderr.strip().splitlines()[-3:])
            raise RuntimeError(f"tne bestmove exited {done.returncode}: {tail}")

    answer()  # fill the cache

    def once():
        t = time.perf_counter()
        answer()
        return time.perf_counter() - t
    return _repeat(once, repeats)


_COMPILE_SNIPPET = """
import time
t = time.perf_counter()
from tne_ai.matches.bench import measure_env_steps, run_all
run_all(tiny=True, env=False)
search = time.perf_counter() - t
t = time.perf_counter()
measure_env_steps(2, steps=2000, repeats=1)
print(search, time.perf_counter() - t)
"""


def measure_compile():
    """Seconds to import and compile every kernel the suite uses with an empty numba cache,
    in a fresh interpreter (NUMBA_CACHE_DIR pointed at an empty folder), as two figures:
    the engine and the search (``run_all(tiny=True)`` without the learning environments:
    what ``tne bestmove``, ``tne engine`` and the agents compile), then what the learning
    environments (``tne_ai.interop.env``, and OpenSpiel's import when installed) add on top of it."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", _COMPILE_SNIPPET], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
    search, extra = (float(x) for x in out.stdout.strip().splitlines()[-1].split())
    return search, extra


def machine():
    import numba
    commit = None
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        pass
    from tne_ai import __version__
    return {"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__,
            "tne_ai": __version__, "commit": commit, "machine": platform.machine(),
            "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
            "system": platform.system()}


def run_all(quick=False, tiny=False, progress=None, env=True):
    """Run the suite; return {"machine": ..., "figures": {name: {median, min, max, unit}}}.
    ``env=False`` leaves out the learning environments' steps (``measure_compile`` times
    them apart)."""
    say = progress or (lambda text: None)
    repeats = 1 if tiny else (3 if quick else 5)
    scale = 0.02 if tiny else (0.25 if quick else 1.0)
    figures = {}

    def put(name, value, unit):
        figures[name] = dict(value, unit=unit)

    say("random games")
    g = measure_games(2, games=max(2, int(2000 * scale)), repeats=repeats)
    put("random_games_per_s", g["games_per_s"], "games/s")
    put("actions_per_s", g["actions_per_s"], "actions/s")
    if env:
        say("learning-environment steps (VecEnv, single Env, OpenSpiel)")
        for name, value in measure_env_steps(2, steps=max(2000, int(400_000 * scale)),
                                             repeats=repeats).items():
            put(f"env_{name}_steps_per_cpu_s", value, "steps/s")
    count = 20 if tiny else (150 if quick else 400)
    for name, ply in (("start", 0), ("mid", 100), ("late", 180)):
        say(f"move generation ({name})")
        pos = positions_at(2, ply, count)
        put(f"movegen_{name}_per_s", measure_movegen(pos, rounds=max(1, int(20 * scale)), repeats=repeats), "generations/s")
    say("kingdom labelling")
    put("flood_fills_per_s", measure_labels(positions_at(2, 100, count), rounds=max(1, int(50 * scale)), repeats=repeats),
        "labellings/s")
    mid = positions_at(2, 100, 5)[0]
    start = positions_at(2, 0, 1)[0]
    iters = 100 if tiny else (3000 if quick else 10000)
    for name, st in (("start", start), ("mid", mid)):
        for threads in (1, 2):
            say(f"ISMCTS iterations ({name}, {threads} thread{'s' if threads > 1 else ''})")
            put(f"ismcts_{name}_{threads}t_per_s", measure_search(st, iters * threads, threads, repeats), "iterations/s")
            say(f"ISMCTS iterations of the frozen baseline ({name}, {threads} thread{'s' if threads > 1 else ''})")
            put(f"ismcts_baseline_{name}_{threads}t_per_s",
                measure_search(st, iters * threads, threads, repeats, **BASELINE), "iterations/s")
            say(f"ISMCTS iterations with full random rollouts ({name}, {threads} thread{'s' if threads > 1 else ''})")
            put(f"ismcts_full_rollout_{name}_{threads}t_per_s",
                measure_search(st, max(20, iters // 10) * threads, threads, repeats, rollout=-1), "iterations/s")
    say("evaluation cost per call")
    for name, st in (("start", start), ("mid", mid)):
        put(f"eval_model_{name}_us", measure_evaluation(st, "model"), "us/call")
        put(f"eval_basic_{name}_us", measure_evaluation(st, "basic"), "us/call")
    figures["memory_per_node"] = {"median": NODE_BYTES, "min": NODE_BYTES, "max": NODE_BYTES, "unit": "bytes"}
    if not tiny:
        say("first bestmove answer (warm cache)")
        put("bestmove_first_answer_s", measure_bestmove(repeats=repeats), "s")
    if not quick and not tiny:
        say("cold compile (empty numba cache)")
        t, extra = measure_compile()
        figures["compile_cold_s"] = {"median": t, "min": t, "max": t, "unit": "s"}
        figures["compile_cold_env_extra_s"] = {"median": extra, "min": extra, "max": extra, "unit": "s"}
    return {"machine": machine(), "quick": bool(quick), "figures": figures}


class BenchError(TneError):
    """A saved run that `tne bench --compare` cannot read."""


def check_saved(data, what):
    """``data`` (a JSON value read from a file) if it is a run saved by `tne bench --save`:
    ``figures`` an object of {"median": number} objects; BenchError starting with ``what``
    otherwise."""
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(figures, dict):
        raise BenchError(f"{what}: not a saved tne bench run (no 'figures' object)")
    for name, f in figures.items():
        median = f.get("median") if isinstance(f, dict) else None
        if isinstance(median, bool) or not isinstance(median, (int, float)):
            raise BenchError(f"{what}: figures.{L.clip(name, 40)}: expected an object with a "
                             f"number 'median'")
    return data


def format_table(result, compare=None):
    """A text table of the figures; with a saved run, the ratio new/old per figure."""
    m = result["machine"]
    lines = [f"tne_ai {m['tne_ai']} ({m['commit'] or 'no commit'})  python {m['python']}  numba {m['numba']}  "
             f"numpy {m['numpy']}  {m['processor']}  {m['cpus']} cpus",
             "median of runs (min .. max)" + ("; ratio = this run / compared run" if compare else "")]
    figures = result["figures"]
    wide = max([30] + [len(name) for name in figures])      # long names push the columns right
    unit = max([4] + [len(f["unit"]) for f in figures.values()])
    head = f"{'figure':<{wide}} {'median':>14} {'min .. max':>27}  {'unit':<{unit}}"
    if compare:
        head += "   ratio"
    lines.append(head.rstrip())
    for name, f in figures.items():
        digits = 3 if f["median"] < 100 else 0
        row = (f"{name:<{wide}} {f['median']:>14,.{digits}f} {f['min']:>12,.{digits}f} .. "
               f"{f['max']:<12,.{digits}f}  {f['unit']:<{unit}}")
        if compare:
            old = compare["figures"].get(name)
            row += f" {f['median'] / old['median']:6.2f}x" if old and old["median"] else "       -"
        lines.append(row.rstrip())
    return "\n".join(lines)


def load_saved(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("figures"), dict):
        raise ValueError("not a saved tne bench run (no 'figures' object)")
    return data


# ---- tne bench --signature ---------------------------------------------------------------
# A fixed set of searches whose outcome pins the default search's behaviour: a change meant
# to be non-functional must leave the signature as it was (as Stockfish's ``bench`` node
# count does).  Positions come from random games with fixed seeds (the engine's own
# ``sample_positions``), so the set needs nothing outside the package.
SIGNATURE_ITERATIONS = 4000
# (players, plies of random play, seed): starts, mid-games and late games of 2-4 players
SIGNATURE_POSITIONS = ((2, 0, 1), (2, 60, 2), (2, 140, 3), (3, 30, 4), (3, 110, 5),
                       (4, 0, 6), (4, 80, 7))


def _signature_conflict():
    """The first conflict decision with tiles to commit in a random 2-player game from a
    fixed seed (the commit rule of the default search is then part of the signature)."""
    template = start_template(2)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    rng = make_rng(11)
    for _ in range(200):
        st = shuffled_start(template, rng)
        while st[S.PHASE] != S.PH_OVER:
            if st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR) and legal_moves(st, moves) > 1:
                return st
            random_game(st, rng, moves, 1)
    raise RuntimeError("no conflict decision in 200 random games")


def signature_positions():
    """The states searched by ``signature``: random-game positions, then a conflict."""
    out = []
    for players, ply, seed in SIGNATURE_POSITIONS:
        found = sample_positions(start_template(players), make_rng(1000 + seed), 8, ply,
                                 np.empty(S.MAX_MOVES, dtype=np.int64))
        out.append(found[0].copy())
    out.append(_signature_conflict())
    return out


def signature(iterations=SIGNATURE_ITERATIONS):
    """(signature, details): the default search (``search`` with only a budget and a seed)
    from every position of ``signature_positions``, then, where the chosen move leaves the
    same player to act, the following search reusing the tree; one search again with 2
    threads.  The signature is the total of nodes times 2^32 plus a 32-bit hash (CRC-32) of
    every chosen move with its root visit counts, so a change of any search outcome shows."""
    import zlib
    from tne_ai.core.rules.apply import apply_action
    total_nodes = 0
    h = 0
    details = []

    def record(result):
        nonlocal total_nodes, h
        total_nodes += int(result.nodes)
        text = f"{result.move}:" + ",".join(f"{a}/{v}" for a, v, _ in result.alternatives)
        h = zlib.crc32(text.encode(), h)
        details.append({"move": int(result.move), "nodes": int(result.nodes),
                        "iterations": int(result.iterations)})

    for i, st in enumerate(signature_positions()):
        first = search(st, iterations=iterations, seed=i + 1)
        record(first)
        after = st.copy()
        apply_action(after, first.move, make_rng(i))
        if after[S.PHASE] != S.PH_OVER and after[S.TO_ACT] == st[S.TO_ACT]:
            record(search(after, iterations=iterations, seed=i + 101, reuse=first))
    record(search(signature_positions()[1], iterations=iterations, seed=7, threads=2))
    return total_nodes * (1 << 32) + h, details
