"""How cost grows: nanoseconds per action against tiles on the board (10 to 120) and against
the player count (2, 3, 4).  Writes bench/growth.json and bench/cost_per_action.png.

    pip install -e ".[bench]" && python bench/growth.py
"""
import json
import os
import statistics
import sys
import time

import numpy as np
from numba import njit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.matches.bench import measure_games, start_template  # noqa: E402
from tne_ai.core.bits import count3  # noqa: E402
from tne_ai.core.rules.apply import apply_action  # noqa: E402
from tne_ai.core.rules.movegen import legal_moves, random_move  # noqa: E402
from tne_ai.core.rules.playout import shuffled_start  # noqa: E402
from tne_ai.core.rules.rng import below, make_rng  # noqa: E402

BUCKETS = list(range(10, 130, 10))


@njit(cache=True)
def tiles_on_board(st):
    bb = st.view(np.uint64)
    n = count3(bb[S.BB_FLIP], bb[S.BB_FLIP + 1], bb[S.BB_FLIP + 2])
    for c in range(4):
        n += count3(bb[S.BB_TILE + 3 * c], bb[S.BB_TILE + 3 * c + 1], bb[S.BB_TILE + 3 * c + 2])
    return n


@njit(cache=True)
def collect(template, rng, games, buckets, per_bucket, moves):
    """Positions (between actions) whose tile count first reaches each bucket value."""
    out = np.empty((len(buckets), per_bucket, S.STATE_SIZE), dtype=np.int64)
    have = np.zeros(len(buckets), dtype=np.int64)
    for _ in range(games):
        st = shuffled_start(template, rng)
        nxt = 0
        while st[S.PHASE] != S.PH_OVER and nxt < len(buckets):
            if st[S.PHASE] == S.PH_ACTION and tiles_on_board(st) >= buckets[nxt]:
                if have[nxt] < per_bucket:
                    out[nxt, have[nxt]] = st
                    have[nxt] += 1
                nxt += 1
            apply_action(st, random_move(st, rng, moves), rng)
    return out, have


@njit(cache=True)
def act_all(positions, count, rng, moves, rounds):
    """Full legal-move generation plus one uniformly drawn move applied, on copies."""
    for _ in range(rounds):
        for i in range(count):
            st = positions[i].copy()
            n = legal_moves(st, moves)
            apply_action(st, moves[below(rng, n)], rng)


@njit(cache=True)
def copy_all(positions, count, rounds):
    total = 0
    for _ in range(rounds):
        for i in range(count):
            total += positions[i].copy()[0]
    return total


def ns_per_action(positions, count, rng, moves, rounds=20, repeats=7):
    act_all(positions, count, rng, moves, 1)
    copy_all(positions, count, 1)
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        act_all(positions, count, rng, moves, rounds)
        spent = time.perf_counter() - t
        t = time.perf_counter()
        copy_all(positions, count, rounds)
        spent -= time.perf_counter() - t  # the copy is the benchmark's, not the action's
        samples.append(spent / (count * rounds) * 1e9)
    return statistics.median(samples), min(samples), max(samples)


def main():
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    rng = make_rng(7)
    result = {"tiles": {}, "players": {}}
    for players in (2, 3, 4):
        positions, have = collect(start_template(players), make_rng(players), 3000,
                                  np.array(BUCKETS, dtype=np.int64), 300, moves)
        for b, n in zip(BUCKETS, have):
            if n < 30:
                continue
            med, lo, hi = ns_per_action(positions[BUCKETS.index(b)], int(n), rng, moves)
            result["tiles"].setdefault(str(players), {})[str(b)] = {"ns": med, "min": lo, "max": hi, "positions": int(n)}
            print(f"players {players} tiles {b:>3}: {med:7.0f} ns/action ({lo:.0f} .. {hi:.0f}, {n} positions)")
        # whole random games, uniform over the legal moves, per player count
        games = measure_games(players, games=1000, repeats=5)
        ns = 1e9 / games["actions_per_s"]["median"]
        result["players"][str(players)] = {
            "ns_per_action": ns, "min": 1e9 / games["actions_per_s"]["max"],
            "max": 1e9 / games["actions_per_s"]["min"], "games_per_s": games["games_per_s"]["median"]}
        print(f"players {players}: {ns:.0f} ns/action over whole random games "
              f"({games['games_per_s']['median']:,.0f} games/s)")
    with open(os.path.join(HERE, "growth.json"), "w") as f:
        json.dump(result, f, indent=1)
    plot(result)


def plot(result):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for players, rows in result["tiles"].items():
        xs = [int(k) for k in rows]
        a.errorbar(xs, [r["ns"] for r in rows.values()],
                   yerr=[[r["ns"] - r["min"] for r in rows.values()], [r["max"] - r["ns"] for r in rows.values()]],
                   marker="o", capsize=3, label=f"{players} players")
    a.set_xlabel("tiles on the board")
    a.set_ylabel("ns per action (full move list + apply)")
    a.set_title("Cost per action against board size")
    a.set_ylim(bottom=0)
    a.legend()
    ps = sorted(result["players"])
    b.bar([f"{p} players" for p in ps], [result["players"][p]["ns_per_action"] for p in ps], color="#4a7",
          yerr=[[result["players"][p]["ns_per_action"] - result["players"][p]["min"] for p in ps],
                [result["players"][p]["max"] - result["players"][p]["ns_per_action"] for p in ps]], capsize=4)
    b.set_ylabel("ns per action (whole random games)")
    b.set_title("Cost per action against player count")
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "cost_per_action.png"), dpi=100)


if __name__ == "__main__":
    main()
