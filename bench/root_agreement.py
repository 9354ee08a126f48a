"""Does a search's choice settle as its budget grows?  For the mid-game positions of
``root_spread.positions`` (action decisions of the 2 s match's records), each spec searches
every position with several seeds at each budget, and the table reports per spec and budget
the share of seed pairs that play the same move (the most visited root move).  A search
whose answer converges agrees with itself more often as the budget grows; one whose visits
lock onto whichever good move led early agrees less.

    python3 bench/root_agreement.py --games 20 --seeds 3 --budgets 5000,20000,80000 \\
        mcts: mcts:norm=0 mcts:c=0.7
"""
import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from root_spread import positions  # noqa: E402

from tne_ai.matches.ratings import wilson  # noqa: E402
from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402


def choices(p, spec, budgets, seeds):
    """{budget: [move chosen with seed 1..seeds]}, or None for a forced position or one
    the exact endings score (no tree)."""
    out = {}
    for b in budgets:
        out[b] = []
        for seed in range(1, seeds + 1):
            s = Search(p, SearchConfig.from_spec(spec).replace(seed=seed))
            if s.forced:
                return None
            s.run(b)
            if s.trees[0] is None:         # an exact ending scored the root: no tree
                return None
            out[b].append(s.alternatives()[0][0])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--budgets", default="5000,20000,80000")
    args = ap.parse_args()
    budgets = [int(x) for x in args.budgets.split(",")]
    if not 1 <= args.games <= 100 or not 2 <= args.seeds <= 20 or \
            not all(1 <= b <= 10_000_000 for b in budgets):
        ap.error("--games 1..100, --seeds 2..20, budgets 1..10,000,000")
    found = list(positions(games=args.games))
    print("| spec | iterations | positions | seed pairs | same move | Wilson 95% |")
    print("|---|---|---|---|---|---|")
    for spec in args.specs:
        per = [c for _, p in found if (c := choices(p, spec, budgets, args.seeds)) is not None]
        for b in budgets:
            pairs = [x == y for c in per for x, y in itertools.combinations(c[b], 2)]
            lo, hi = wilson(sum(pairs) / len(pairs), len(pairs))
            print(f"| `{spec}` | {b:,} | {len(per)} | {len(pairs)} | "
                  f"{sum(pairs) / len(pairs):.3f} | [{lo:.3f}, {hi:.3f}] |", flush=True)


if __name__ == "__main__":
    main()
