"""The shipped move policy, generation 0 (tne_ai/search/weights/policy.npz): the policy
network fitted to the root visits of the first 400 games of
bench/data/selfplay/net_gen0_2p.jsonl.gz (every 4th searched decision, a fifth of the games
held out, seed 0, 16 hidden units, 600 Adam steps), as `tne train --policy` fits it
(tne_ai.matches.fit_policy.train_policy); needs the train extra.  bench/README.md, "The move
policy".

    python bench/data/policy_gen0.py -o policy.npz
"""
import argparse
import gzip
import json
import os

from tne_ai.matches.fit_policy import policy_report_lines, train_policy
from tne_ai.search.policy import save_policy

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "selfplay", "net_gen0_2p.jsonl.gz")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", required=True, help="the policy file to write")
    ap.add_argument("--games", type=int, default=400, help="the file's first games to fit")
    args = ap.parse_args()
    with gzip.open(DATA, "rt") as f:
        records = [json.loads(line) for _, line in zip(range(args.games), f)]
    arrays, report = train_policy(records, holdout=0.2, seed=0, every=4, hidden=16, steps=600)
    print("\n".join(policy_report_lines(report)))
    save_policy(args.out, arrays, {
        "data": f"bench/data/selfplay/net_gen0_2p.jsonl.gz, its first {args.games} games, "
                f"every 4th searched decision", "holdout": 0.2, "seed": 0, "hidden": 16,
        "steps": 600})
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
