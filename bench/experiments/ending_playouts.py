"""Exact endings against the MCTS from the same end-game positions, both seat orders.

A match from the start (``tne tournament``) spends most of its moves where the two searches
are the same (the endings apply only in the last turn or two), so its noise hides their
effect.  Here each game of ``--records`` gives one start: the first decision where
``endgame.ending_applies`` holds (the true state, bag order included, so that both seatings
see the same draws).  From it the default search (``endings=1``) and the MCTS alone
(``endings=0``), ``--iterations`` a move, play the game out twice, the endings taking first
the seats of the original game's agent to act and then the others' (for 3 or 4 players, the
endings hold one seat, the mover's, then the next).  Printed per start: the endings' score in
each seating (1 a sole first place, a share of it, 0 otherwise); then the mean over the
pairs, its 95% interval (per-pair standard error) and the Elo.

    python3 bench/experiments/ending_playouts.py --records games.jsonl --iterations 2000 --part 0/2
"""
import argparse
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tne_ai.agents.builtin import make_agent  # noqa: E402
from tne_ai.search.endgame import ending_applies  # noqa: E402
from tne_ai.matches.tournament import read_records, replay  # noqa: E402


def starts(path):
    for n, record in read_records(path):
        p = replay(record, 0)
        for m in record["moves"]:
            if ending_applies(p.st) and len(p.legal_moves()) > 1:
                yield n, p
                break
            p.push(m)


def play(start, on_seat, iterations, seed):
    p = start.copy()
    agents = [make_agent(f"mcts:iterations={iterations}" + ("" if i == on_seat else ",endings=0"),
                         seed=seed + i) for i in range(p.players)]
    while not p.is_over():
        p.push(agents[p.to_act].choose(p))
    places = p.ranking()
    firsts = places.count(1)
    return 1.0 / firsts if places[on_seat] == 1 else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", required=True)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--part", default="0/1", help="k/n: the k-th of n interleaved parts")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    k, n = (int(x) for x in args.part.split("/"))
    pairs = []
    for i, (line, start) in enumerate(starts(args.records)):
        if i % n != k:
            continue
        mover = start.to_act
        other = (mover + 1) % start.players
        a = play(start, mover, args.iterations, args.seed * 1000 + 10 * i)
        b = play(start, other, args.iterations, args.seed * 1000 + 10 * i)
        pairs.append((a, b))
        print(json.dumps({"record": line, "players": start.players, "on_as_mover": a,
                          "on_as_other": b}), flush=True)
    scores = [(a + b) / 2 for a, b in pairs]
    if len(scores) > 1:
        m = statistics.mean(scores)
        se = statistics.stdev(scores) / math.sqrt(len(scores))

        def elo(x):
            return -400 * math.log10(1 / x - 1) if 0 < x < 1 else float("nan")
        print(f"{len(pairs)} starts, {2 * len(pairs)} games: endings score {m:.3f} "
              f"[{m - 1.96 * se:.3f}, {m + 1.96 * se:.3f}], Elo {elo(m):+.0f} "
              f"[{elo(m - 1.96 * se):+.0f}, {elo(m + 1.96 * se):+.0f}]")


if __name__ == "__main__":
    main()
