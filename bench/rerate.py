"""Re-rate a tournament's records against another reference agent (the first named), e.g.
when the original reference never won a game and every rating relative to it is infinite.

    python bench/rerate.py RECORDS.jsonl NAME [NAME ...]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tne_ai.matches.tournament import read_records, standings  # noqa: E402


def main():
    usage = "usage: python bench/rerate.py RECORDS.jsonl NAME [NAME ...]"
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(usage)
        return
    if len(sys.argv) < 3:
        print(usage, file=sys.stderr)
        sys.exit(2)
    path, names = sys.argv[1], sys.argv[2:]
    records = [record for _, record in read_records(path)]
    specs = {a["name"]: a["spec"] for rec in records for a in rec["meta"]["agents"]}
    rows, method = standings({n: specs[n] for n in names}, records)
    print(f"elo: {method}, relative to {names[0]}")
    print(f"{'agent':<10} {'games':>5} {'wins':>5} {'score':>6} {'rank':>5} {'elo':>7} {'95%':>16}")
    for s in rows:
        r = s.elo
        print(f"{s.name:<10} {s.games:>5} {s.wins:>5} {s.mean_score:6.2f} {s.mean_rank:5.2f} {r.elo:+7.0f} "
              f"{f'[{r.low:+.0f}, {r.high:+.0f}]':>16}")


if __name__ == "__main__":
    main()
