"""How evenly a search spreads its root visits: for mid-game positions of the 2 s match's
records (bench/results/one_tree_2s.jsonl.gz, games 1-6 at plies 20, 60 and 100, action
phase only, roots the exact endings score left out), the legal moves, the children opened
the share of the visits of the most visited move and of the five most visited, and how deep
the iterations go: the share of them that reach a decision of another player (the
opponents' turn) and the share that come back to the mover after that (his next turn).

    python3 bench/root_spread.py --iterations 20000 mcts: mcts:c=0.1

Each search is ``Search(position, SearchConfig.from_spec(spec).replace(seed=1)).run(iterations)``."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402
from tne_ai.matches.tournament import read_records, replay  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = os.path.join(HERE, "results", "one_tree_2s.jsonl.gz")


def positions(games=6, plies=(20, 60, 100)):
    records = [r for _, r in read_records(RECORDS)][:games]
    for g, record in enumerate(records):
        for ply in plies:
            if ply < len(record["moves"]):
                p = replay(record, ply)
                if p.st[S.PHASE] == S.PH_ACTION:
                    yield f"game {g + 1} ply {ply}", p


def reach(tree, viewer):
    """(share of the root's visits that reach a node of another player, share that reach the
    viewer again after one): the visits of each first node of a new chooser on a path,
    summed by how many changes of chooser lie above it."""
    first = [0, 0, 0]
    stack = [(0, 0, viewer)]
    while stack:
        node, changes, last = stack.pop()
        for ch in tree.children(node):
            who = int(tree.player[ch])
            k = changes + (who != last)
            if k != changes and k <= 2:
                first[k] += int(tree.visits[ch])
            stack.append((ch, k, who))
    total = max(1, int(tree.visits[0]))
    return first[1] / total, first[2] / total


def spread(p, cfg, iterations):
    """(legal moves, children opened, top share, top-5 share, share reaching the opponents,
    share reaching the mover's next turn), or None for a forced root or one the exact
    endings scored (no tree)."""
    s = Search(p, cfg)
    if s.forced:
        return None
    s.run(iterations)
    if s.trees[0] is None:
        return None
    visits = sorted((v for _, v, _ in s.trees[0].root_children()), reverse=True)
    total = sum(visits)
    return (len(s.legal), len(visits), visits[0] / total, sum(visits[:5]) / total) + \
        reach(s.trees[0], s.viewer)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--iterations", type=int, default=20000)
    args = ap.parse_args()
    if not 1 <= args.iterations <= 10_000_000:
        ap.error("--iterations: 1 to 10000000")
    print("| spec | positions | legal moves (mean) | opened (mean) | top move's share | top five's share "
          "| reach the opponents | reach his next turn |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.specs:
        cfg = SearchConfig.from_spec(spec).replace(seed=1)
        rows = [r for _, p in positions() for r in [spread(p, cfg, args.iterations)] if r]
        n = len(rows)
        mean = [sum(r[i] for r in rows) / n for i in range(6)]
        print(f"| `{spec}` | {n} | {mean[0]:.0f} | {mean[1]:.0f} | {mean[2]:.3f} | {mean[3]:.3f} "
              f"| {mean[4]:.3f} | {mean[5]:.3f} |")


if __name__ == "__main__":
    main()
