"""Does the search tell apart the moves of one kind?  For the self-play records that keep
the root visits (``meta.visits``, bench/data/selfplay/gen5_2p.jsonl.gz by default), at every
action-phase decision and for each leader kind of search/priors.py with two or more moves
opened whose temple counts and visits both differ, the correlation between the visits of a
leader placement and the temples (red tiles) on the squares next to it (a leader's strength
in a revolt, SPEC section 4).  Prints, per kind, the decisions counted, the mean correlation
and its standard error.  The kind prior opens the moves of one kind at random; a strong
correlation is what a policy over the moves of a kind would learn.

    python3 bench/experiments/within_kind.py --games 60
"""
import argparse
import collections
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bench/
sys.path.insert(0, os.path.dirname(HERE))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.core.board import SQUARES  # noqa: E402
from tne_ai.core.rules.apply import red_next_to  # noqa: E402
from tne_ai.core.notation import parse_move  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.search import priors as P  # noqa: E402
from tne_ai.search.tree import Scratch  # noqa: E402
from tne_ai.matches.tournament import read_records  # noqa: E402

RECORDS = os.path.join(HERE, "data", "selfplay", "gen5_2p.jsonl.gz")
LEADER_KINDS = (P.K_LEADER_REVOLT, P.K_LEADER_JOIN, P.K_LEADER_NEW)


def correlations(path, games):
    sc = Scratch()
    out = collections.defaultdict(list)
    for g, (_, record) in enumerate(read_records(path)):
        if g >= games:
            break
        pos = Position.from_json(record["start"])
        for move, visits in zip(record["moves"], record["meta"]["visits"]):
            if visits and pos.st[S.PHASE] == S.PH_ACTION:
                P.prepare(pos.st, sc.kmask, sc.masks)
                groups = collections.defaultdict(list)
                for text, v in visits:
                    a = parse_move(text)
                    kind = P.move_kind(pos.st, sc.masks, a)
                    if kind in LEADER_KINDS:
                        square = (a - S.A_LEADER) % SQUARES
                        groups[kind].append((int(red_next_to(pos.st.view(np.uint64), square)), v))
                for kind, pairs in groups.items():
                    t = np.array([x for x, _ in pairs], float)
                    v = np.array([y for _, y in pairs], float)
                    if len(pairs) >= 2 and t.std() > 0 and v.std() > 0:
                        out[kind].append(float(np.corrcoef(t, v)[0, 1]))
            pos.push(move)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", default=RECORDS)
    ap.add_argument("--games", type=int, default=60)
    args = ap.parse_args()
    if not 1 <= args.games <= 100_000:
        ap.error("--games: 1 to 100000")
    print("| kind | decisions | mean correlation | standard error |")
    print("|---|---|---|---|")
    for kind, cs in sorted(correlations(args.records, args.games).items()):
        print(f"| {P.KIND_NAMES[kind]} | {len(cs)} | {np.mean(cs):.3f} | {np.std(cs) / np.sqrt(len(cs)):.3f} |")


if __name__ == "__main__":
    main()
