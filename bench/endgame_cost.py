"""Cost of the exact endings (tne_ai/search/endgame.py) on real end-game positions.

Greedy self-play games (2, 3 and 4 players, seeded) are played until ``ending_applies`` first
holds at a turn's action decision; each such position is solved with ``solve_ending`` for
``--worlds`` determinizations of the mover's view, and the root moves, lines scored,
inexact lines and microseconds per world (CPU time of this process, so that other jobs on the
machine count less; the wall time beside it) are printed, then their medians and maxima.

    python3 bench/endgame_cost.py --games 10 --worlds 4

With ``--iterations N`` each position is also searched by the MCTS alone (``endings=0``, N
iterations, CPU time): the microseconds of an iteration there, and so how many iterations
a median world costs (the exchange rate of ``search/ending.py``, ``WORLD_ITERATIONS``).
"""
import argparse
import os
import statistics
import time
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.agents.builtin import make_agent  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.search.endgame import ST_INEXACT, ST_LINES, ST_NODES, ending_applies, solve_ending  # noqa: E402


def end_positions(players, games, seed, agent="greedy"):
    """The first position of each game where ending_applies holds at an action decision."""
    out = []
    for g in range(games):
        p = Position.new(players, seed=seed + g)
        agents = [make_agent(agent, seed=seed * 100 + g * 10 + i) for i in range(players)]
        while not p.is_over():
            st = p.st
            if int(st[S.PHASE]) == S.PH_ACTION and ending_applies(st):
                out.append(p.copy())
                break
            p.push(agents[p.to_act].choose(p))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--iterations", type=int, default=0,
                    help="also time N iterations of the MCTS alone (endings=0) per position")
    args = ap.parse_args()
    from tne_ai.search.config import SearchConfig
    from tne_ai.search.session import Search
    mcts_only = SearchConfig(endings=False, seed=args.seed)
    warm = end_positions(2, 1, 999)
    solve_ending(warm[0], worlds=1)        # compile outside the timings
    rows = []
    for n in args.players:
        for pos in end_positions(n, args.games, args.seed):
            st = pos.st
            cpu = time.process_time()
            r = solve_ending(pos, worlds=args.worlds, seed=args.seed)
            us = (time.process_time() - cpu) / args.worlds * 1e6
            it_us = 0.0
            if args.iterations:
                s = Search(pos, mcts_only)
                cpu = time.process_time()
                s.run(iterations=args.iterations)
                it_us = (time.process_time() - cpu) / args.iterations * 1e6
            rows.append((n, len(r.moves), int(r.stats[ST_LINES]) / args.worlds, us, it_us))
            print(f"players {n} actions_left {int(st[S.ACTIONS_LEFT])} bag {int(S.bag_total(st))} "
                  f"root moves {len(r.moves)} nodes/world {int(r.stats[ST_NODES]) / args.worlds:.0f} "
                  f"lines/world {int(r.stats[ST_LINES]) / args.worlds:.0f} "
                  f"inexact {int(r.stats[ST_INEXACT]) / max(1, int(r.stats[ST_LINES])):.2f} "
                  f"exact_best {r.moves[0][2]} best {r.moves[0][1]:.2f} cpu us/world {us:.0f} "
                  f"wall {r.seconds / args.worlds * 1e6:.0f}"
                  + (f" mcts cpu us/iteration {it_us:.1f}" if args.iterations else ""), flush=True)
    for n in args.players:
        sub = [r for r in rows if r[0] == n]
        if sub:
            us = [r[3] for r in sub]
            print(f"players {n}: {len(sub)} positions, median {statistics.median(us):.0f} cpu us/world, "
                  f"max {max(us):.0f}, median lines {statistics.median(r[2] for r in sub):.0f}"
                  + (f", mcts median {statistics.median(r[4] for r in sub):.1f} cpu us/iteration, "
                     f"a median world = {statistics.median(us) / statistics.median(r[4] for r in sub):.0f} "
                     f"iterations" if args.iterations else ""))


if __name__ == "__main__":
    main()
