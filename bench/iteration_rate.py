"""Iterations a second of the default search on the signature's positions, one per line.

The first seven positions of ``tne bench --signature`` (random-game positions of 2, 3 and 4
players from fixed seeds), each searched by a new ``Search`` with the default options and
seed 1 for ``--iterations`` (20,000), ``--repeats`` times (3); the median rate of each
position is printed, then their harmonic mean (the rate of the seven searches together).
Run it from two checkouts (``git worktree add DIR COMMIT``, then ``python DIR/bench/
iteration_rate.py``) to compare commits: the script imports the package beside it.

    python bench/iteration_rate.py --label new
    python bench/iteration_rate.py --label net --spec mcts:evaluation=net
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.matches.bench import signature_positions  # noqa: E402
from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--label", default="")
    ap.add_argument("--spec", default="mcts", help="the search's options (default: the default)")
    args = ap.parse_args()
    if not 1 <= args.iterations <= 10_000_000 or not 1 <= args.repeats <= 100:
        ap.error("--iterations must be 1..10,000,000 and --repeats 1..100")
    config = SearchConfig.from_spec(args.spec).replace(seed=1)
    positions = signature_positions()[:7]
    for p in positions:                       # compile (or load) every kernel first
        Search(p, config).run(200)
    rates = [[] for _ in positions]
    for _ in range(args.repeats):
        for i, p in enumerate(positions):
            s = Search(p, config)
            start = time.perf_counter()
            s.run(args.iterations)
            rates[i].append(args.iterations / (time.perf_counter() - start))
    medians = [statistics.median(r) for r in rates]
    for p, m in zip(positions, medians):
        print(f"{args.label}\t{int(p[S.PLAYERS])} players\t{m:,.0f} it/s")
    print(f"{args.label}\tall\t{statistics.harmonic_mean(medians):,.0f} it/s")


if __name__ == "__main__":
    main()
