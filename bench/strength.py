"""Strength against the search budget, from the records of bench/run_matches.sh's `budget` run
(each budget against a fixed mcts:iterations=2000, every deal in both seat orders).
Writes bench/strength_vs_budget.png and prints the table.

    python bench/strength.py [bench/results/budget.jsonl]
"""
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from tne_ai.matches.ratings import elo_from_score, match_elo, wilson  # noqa: E402
from tne_ai.matches.tournament import outcome_of, read_records  # noqa: E402

def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results", "budget.jsonl")
    records = [record for _, record in read_records(path)]
    units = defaultdict(lambda: defaultdict(list))
    seconds = defaultdict(list)
    specs = {}
    for rec in records:
        meta = rec["meta"]
        names = [a["name"] for a in meta["agents"]]
        other = next(n for n in names if n != "fixed")
        specs[other] = next(a["spec"] for a in meta["agents"] if a["name"] == other)
        units[other][meta["deal"]].append(outcome_of(rec))
        seat = names.index(other)
        seconds[other].append(meta["seconds_per_move"][seat]["mean"])
    rows = []
    for name, deals in units.items():
        iterations = int(specs[name].split("iterations=")[1].split(",")[0])
        m = match_elo(list(deals.values()), "fixed", name)
        lo, hi = wilson(m.score, m.pairs)
        rows.append((iterations, name, m, lo, hi, sum(seconds[name]) / len(seconds[name])))
    rows.sort()
    print(f"{'budget':>10} {'s/move':>7} {'games':>6} {'score':>6} {'95% (Wilson)':>15} {'elo':>6} {'95%':>14}")
    for it, name, m, lo, hi, sec in rows:
        r = m.rating
        print(f"{it:>10} {sec:7.3f} {m.pairs:>6} {m.score:6.3f} {f'[{lo:.2f}, {hi:.2f}]':>15} "
              f"{r.elo:+6.0f} {f'[{r.low:+.0f}, {r.high:+.0f}]':>14}")
    plot(rows)


def plot(rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [r[0] for r in rows]
    # Elo from the Wilson interval of the score (finite even for a clean sweep)
    mid = [elo_from_score(min(max(r[2].score, 1e-3), 1 - 1e-3)) for r in rows]
    low = [elo_from_score(max(r[3], 1e-3)) for r in rows]
    high = [elo_from_score(min(r[4], 1 - 1e-3)) for r in rows]
    ax.errorbar(xs, mid, yerr=[[m - lo for m, lo in zip(mid, low)], [hi - m for m, hi in zip(mid, high)]],
                marker="o", capsize=4)
    ax.axhline(0, color="#888", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x:,}" for x in xs])
    ax.set_xlabel("ISMCTS iterations per move (each step doubles)")
    ax.set_ylabel("Elo against mcts:iterations=2000")
    ax.set_title("Strength against the search budget (95% Wilson intervals)")
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "strength_vs_budget.png"), dpi=100)


if __name__ == "__main__":
    main()
