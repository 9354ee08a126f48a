"""How far a search's choice is from the best root move of a much longer search that opens
every move.

For mid-game positions of the 2 s match's records (``root_spread.positions``), a reference
search (``--ref-spec``, default ``mcts:widen=0``: every root move opened, so each is valued)
runs ``--ref`` iterations; its root means are the yardstick.  Each spec then searches the
position at each budget with a few seeds, and the table reports per spec and budget:

- regret: the reference's best mean less the reference's mean of the move chosen;
- found: how often the move chosen is the reference's best;
- opened: how often the reference's best move was among the root's children at all.

(Until 6e0d708 it also ranked the reference's best move in the one-ply order of the
``order=eval`` option, dropped since: bench/README.md, "Tried and dropped".)

    python3 bench/experiments/root_regret.py --ref 1000000 --budgets 5000,20000,40000 mcts:
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# bench/, for root_spread
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from root_spread import positions  # noqa: E402

from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402


def reference(p, spec, iterations):
    s = Search(p, SearchConfig.from_spec(spec).replace(seed=1))
    if s.forced:
        return None
    s.run(iterations)
    if s.trees[0] is None:
        return None
    return {a: m for a, v, m in s.alternatives() if v > 0}, s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--ref", type=int, default=1_000_000)
    ap.add_argument("--ref-spec", default="mcts:widen=0")
    ap.add_argument("--budgets", default="5000,20000,40000")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--games", type=int, default=6)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = {}
    for name, p in positions(games=args.games):
        ref = reference(p, args.ref_spec, args.ref)
        if ref is None:
            continue
        means, rs = ref
        best = max(means, key=means.get)
        top = means[best]
        print(f"{name}: {len(rs.legal)} moves, reference best {best} at {top:.3f}", flush=True)
        for spec in args.specs:
            for b in budgets:
                for seed in range(1, args.seeds + 1):
                    s = Search(p, SearchConfig.from_spec(spec).replace(seed=seed))
                    s.run(b)
                    move = s.best_move()
                    opened = {a for a, v, _ in s.alternatives()}
                    r = rows.setdefault((spec, b), [])
                    r.append((top - means.get(move, 0.0), move == best, best in opened))
    print("| spec | iterations | searches | regret (mean) | found best | best opened |")
    print("|---|---|---|---|---|---|")
    for (spec, b), r in rows.items():
        n = len(r)
        print(f"| `{spec}` | {b:,} | {n} | {np.mean([x[0] for x in r]):.4f} | "
              f"{sum(x[1] for x in r) / n:.2f} | {sum(x[2] for x in r) / n:.2f} |")


if __name__ == "__main__":
    main()
