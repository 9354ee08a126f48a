"""The end-game tactics of tests/data/tactics_endgame/ against the selection options: for
each search spec, how many of three seeds pick a hand-worked winning move at a budget.

    python3 bench/experiments/selection_tactics.py --iterations 2000 mcts:endings=0 \
        mcts:endings=0,open_losing=0

Each search is ``Search(position, SearchConfig.from_spec(spec).replace(seed=s)).run(iterations)``
for s = 1, 2, 3 (the same seeds as bench/README.md's table of the exact endings)."""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tne_ai.core.notation import move_text  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--iterations", type=int, default=2000)
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(HERE, "tests", "data", "tactics_endgame", "*.json")))
    table = {}
    for path in files:
        with open(path) as f:
            d = json.load(f)
        p = Position.from_json(d["position"])
        name = os.path.basename(path)[:-5]
        for spec in args.specs:
            cfg = SearchConfig.from_spec(spec)
            solved = sum(move_text(Search(p, cfg.replace(seed=s)).run(iterations=args.iterations).move)
                         in d["winning"] for s in (1, 2, 3))
            table.setdefault(name, []).append(solved)
    print("| position | " + " | ".join(f"`{s}`" for s in args.specs) + " |")
    print("|---|" + "---|" * len(args.specs))
    for name, row in table.items():
        print(f"| {name} | " + " | ".join(str(x) for x in row) + " |")
    totals = [sum(row[i] for row in table.values()) for i in range(len(args.specs))]
    print("| solved, of 36 | " + " | ".join(str(t) for t in totals) + " |")


if __name__ == "__main__":
    main()
