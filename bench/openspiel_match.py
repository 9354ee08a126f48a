"""Our ISMCTS against OpenSpiel's ISMCTSBot at equal time per move, 2 players.

    python bench/openspiel_match.py [--games 20] [--time 0.1] [--seed 0]
                                    [--ours mcts] [--theirs openspiel-ismcts] [--json]

Game i starts from Position.new(2, seed=seed + i); our agent takes seat 0 in even games and
seat 1 in odd ones.  Both agents get ``time=T`` seconds a move (OpenSpiel's bot through its
time budget: simulations scaled to the time from the measured cost of one).  A game scores 1
for a win, 1/2 for a shared first place, 0 for a loss; the match score is the mean, shown with
a 95% Wilson interval (a shared place counts as half a win) and the Elo difference it implies.
Needs the extra ``openspiel``.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tne_ai import Position, make_agent  # noqa: E402
from tne_ai.matches.ratings import elo_from_score, wilson  # noqa: E402

def elo(score):
    """Elo difference implied by a score (clamped away from 0 and 1, so it stays finite)."""
    return elo_from_score(min(max(score, 1e-3), 1 - 1e-3))


def play(ours, theirs, seed, ours_seat):
    position = Position.new(2, seed=seed)
    seats = [ours, theirs] if ours_seat == 0 else [theirs, ours]
    moves = 0
    while not position.is_over():
        position.push(seats[position.to_act].choose(position))
        moves += 1
    places = position.ranking()
    firsts = places.count(1)
    return (1.0 / firsts if places[ours_seat] == 1 else 0.0), moves


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move, both sides")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ours", default="mcts")
    parser.add_argument("--theirs", default="openspiel-ismcts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = []
    start = time.perf_counter()
    for i in range(args.games):
        ours = make_agent(f"{args.ours}:time={args.time}", seed=args.seed + 1000 + i)
        theirs = make_agent(f"{args.theirs}:time={args.time}", seed=args.seed + 2000 + i)
        score, moves = play(ours, theirs, args.seed + i, i % 2)
        results.append(score)
        if not args.json:
            print(f"game {i + 1}: ours seat {i % 2}, {moves} moves, ours scored {score:g} "
                  f"({sum(results):g}/{len(results)})", flush=True)
    n = len(results)
    mean = sum(results) / n if n else 0.0
    lo, hi = wilson(mean, n)
    summary = {"ours": f"{args.ours}:time={args.time}",
               "theirs": f"{args.theirs}:time={args.time}",
               "games": n, "wins": sum(1 for r in results if r == 1.0),
               "shared": sum(1 for r in results if 0 < r < 1),
               "losses": sum(1 for r in results if r == 0),
               "score": mean, "wilson95": [lo, hi], "elo": elo(mean),
               "elo95": [elo(lo), elo(hi)], "seconds": time.perf_counter() - start}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['ours']} vs {summary['theirs']}: +{summary['wins']} "
              f"={summary['shared']} -{summary['losses']} in {n} games, score {mean:.3f} "
              f"(95% Wilson {lo:.3f}-{hi:.3f}), Elo {summary['elo']:+.0f} "
              f"({summary['elo95'][0]:+.0f} to {summary['elo95'][1]:+.0f})")


if __name__ == "__main__":
    main()
