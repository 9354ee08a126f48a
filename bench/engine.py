"""Engine benchmark: random full games/s, actions/s, legal-move generations/s on mid-game
positions, and numba compile time with a cold cache.  Single-threaded.

    python bench/engine.py [--quick] [--json]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tne_ai.bench import (format_figure, machine, measure_compile, measure_movegen,  # noqa: E402
                          measure_random_games)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games, no cold compile")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args()
    games = 300 if args.quick else 2000
    result = {"machine": machine(), "players": {}}
    for players in (2, 3, 4):
        r = measure_random_games(players, games=games, repeats=3 if args.quick else 5)
        r.update(measure_movegen(players, rounds=5 if args.quick else 20))
        result["players"][players] = r
    if not args.quick:
        result.update(measure_compile())
    if args.json:
        print(json.dumps(result, indent=1))
        return
    m = result["machine"]
    print(f"python {m['python']}  numba {m['numba']}  numpy {m['numpy']}  {m['processor']}  {m['cpus']} cpus")
    print("median of runs (min .. max), one thread")
    print(f"{'players':>7}  {'random games/s':>28}  {'actions/s':>34}  {'movegen/s (mid-game)':>34}")
    for players, r in result["players"].items():
        print(f"{players:>7}  {format_figure(*r['games_per_s']):>28}  {format_figure(*r['actions_per_s']):>34}"
              f"  {format_figure(*r['movegen_per_s']):>34}")
    if "compile_cold_s" in result:
        print(f"numba compile, cold cache: {result['compile_cold_s']:.1f} s;"
              f" start-up with a warm cache: {result['startup_warm_s']:.2f} s")


if __name__ == "__main__":
    main()
