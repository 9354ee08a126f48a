"""The benchmark suite: engine speed figures, each the median of several runs with its spread.

Used by ``bench/engine.py`` (and later by ``tne bench``).  Single-threaded throughout.
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

from . import state as S
from .engine.movegen import legal_moves
from .engine.playout import random_games, random_game, shuffled_start
from .engine.rng import make_rng
from .position import start_state

FULL_BAG = "r" * 47 + "b" * 36 + "g" * 30 + "k" * 30


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


def _median(samples):
    return statistics.median(samples), (min(samples), max(samples))


def measure_random_games(players=2, games=2000, repeats=5, seed=1):
    template = start_template(players)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    rng = make_rng(seed)
    random_games(template, rng, 2, 100000, moves)  # compile / warm
    gps, aps = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        actions = random_games(template, rng, games, 100000, moves)
        dt = time.perf_counter() - t
        gps.append(games / dt)
        aps.append(actions / dt)
    return {"games_per_s": _median(gps), "actions_per_s": _median(aps)}


def measure_movegen(players=2, ply=100, positions=500, rounds=20, repeats=5, seed=2):
    template = start_template(players)
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    pos = sample_positions(template, make_rng(seed), positions, ply, moves)
    generate_all(pos, moves, 1)
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        generate_all(pos, moves, rounds)
        rates.append(pos.shape[0] * rounds / (time.perf_counter() - t))
    return {"movegen_per_s": _median(rates), "positions": int(pos.shape[0])}


_COMPILE_SNIPPET = """
import time
t = time.perf_counter()
from tne_ai.bench import measure_random_games, measure_movegen
from tne_ai.position import Position
p = Position.new(2, seed=0)
p.legal_moves()
measure_random_games(games=1, repeats=1)
measure_movegen(positions=2, rounds=1, repeats=1)
print(time.perf_counter() - t)
"""


def measure_compile():
    """Seconds to import and compile every kernel with an empty numba cache (cold), then the
    same start-up again with that cache filled (warm), each in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _COMPILE_SNIPPET], env=env, cwd=root,
                                 capture_output=True, text=True, check=True)
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    return {"compile_cold_s": runs[0], "startup_warm_s": runs[1]}


def machine():
    import numba
    return {"python": platform.python_version(), "numba": numba.__version__,
            "numpy": np.__version__, "machine": platform.machine(),
            "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count()}


def format_figure(value, spread):
    return f"{value:,.0f}  ({spread[0]:,.0f} .. {spread[1]:,.0f})"
