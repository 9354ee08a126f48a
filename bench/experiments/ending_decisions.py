"""Exact endings against the MCTS, decision by decision, on the end-game positions of real games.

Every decision of the games in ``--records`` (tne-game/1 lines, e.g. a tournament's ``--out``)
where ``endgame.ending_applies`` holds and there is a choice is taken as its mover sees it
(the other hands unknown).  The default search chooses there with the exact endings
(``endings=1``) and without them (``endings=0``, the MCTS), ``--iterations`` each, same seed;
both choices are then scored by a reference: ``solve_ending`` over ``--worlds`` fresh
determinizations of the same view (another seed), the expected result of each move.  Printed:
per position the two moves, their reference values and times; then the means, split by
whether the reference value of the best move is exact (every line after it ended the game:
there the reference is the true expected result over the sampled worlds; elsewhere it leans
on the evaluation, as the endings themselves do).  ``--reference mcts`` scores them instead by
a long MCTS alone (``endings=0``): each move's mean over its visits in that search (moves it
visited fewer than 20 times are left out), on the positions where the two choices differ;
a reference that leans the other way.

    python3 bench/experiments/ending_decisions.py --records games.jsonl --iterations 2000 \
        --worlds 16
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.core.notation import move_text  # noqa: E402
from tne_ai.core.formats import position_to_dict  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.search.config import SearchConfig  # noqa: E402
from tne_ai.search.endgame import ending_applies, solve_ending  # noqa: E402
from tne_ai.search.session import Search  # noqa: E402
from tne_ai.matches.tournament import read_records, replay  # noqa: E402


def hidden_view(p):
    """The position as its player to act sees it: the other hands unknown (their sizes
    given), the bag left to the unseen pool (SPEC 9; formats.position_to_dict)."""
    return Position.from_json(position_to_dict(p.st, [i == p.to_act for i in range(p.players)],
                                               False))


def ending_positions(path, most):
    out = []
    for _, record in read_records(path):
        p = replay(record, 0)
        for m in record["moves"]:
            if len(out) >= most:
                return out
            if ending_applies(p.st) and len(p.legal_moves()) > 1:
                out.append(hidden_view(p))
            p.push(m)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", required=True)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", choices=("endings", "mcts"), default="endings",
                    help="score the two choices by solve_ending over --worlds worlds, or by "
                         "the MCTS alone (endings=0) at --reference-iterations, each move's "
                         "mean over its visits (positions where the two choices differ)")
    ap.add_argument("--reference-iterations", type=int, default=20000)
    args = ap.parse_args()
    rows = []
    for k, view in enumerate(ending_positions(args.records, args.positions)):
        t = time.perf_counter()
        on = Search(view, SearchConfig(seed=args.seed + k)).run(iterations=args.iterations)
        t_on = time.perf_counter() - t
        t = time.perf_counter()
        off = Search(view, SearchConfig(seed=args.seed + k, endings=False)).run(iterations=args.iterations)
        t_off = time.perf_counter() - t
        if args.reference == "mcts":
            if on.move == off.move:
                continue
            big = Search(view, SearchConfig(seed=10_000 + k, endings=False)).run(
                iterations=args.reference_iterations)
            means = {a: (v, m) for a, v, m in big.alternatives}
            if means.get(on.move, (0, 0))[0] < 20 or means.get(off.move, (0, 0))[0] < 20:
                continue                     # a move the reference hardly tried: no value
            best, best_value, best_exact = big.move, means[big.move][1], False
            v_on, v_off = means[on.move][1], means[off.move][1]
        else:
            ref = solve_ending(view, worlds=args.worlds, seed=10_000 + k)
            best, best_value, best_exact = ref.moves[0]
            v_on, v_off = ref.reward_of(on.move), ref.reward_of(off.move)
        rows.append((best_exact, v_on, v_off, best_value, t_on, t_off, on.exact))
        print(json.dumps({"players": view.players, "actions_left": int(view.st[S.ACTIONS_LEFT]), "phase": int(view.st[S.PHASE]),
                          "on": move_text(on.move), "on_exact_search": on.exact, "off": move_text(off.move),
                          "ref_best": move_text(best), "ref_best_value": round(best_value, 4),
                          "ref_exact": best_exact, "value_on": round(v_on, 4),
                          "value_off": round(v_off, 4), "seconds_on": round(t_on, 4),
                          "seconds_off": round(t_off, 4)}), flush=True)
    for label, sub in (("all", rows), ("exact", [r for r in rows if r[0]]),
                       ("not exact", [r for r in rows if not r[0]])):
        if not sub:
            continue
        d = [r[1] - r[2] for r in sub]
        se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
        print(f"{label}: {len(sub)} positions, mean value endings on {statistics.mean(r[1] for r in sub):.4f}, "
              f"off {statistics.mean(r[2] for r in sub):.4f}, difference {statistics.mean(d):+.4f} "
              f"(standard error {se:.4f}), on better in {sum(x > 1e-9 for x in d)}, off better in "
              f"{sum(x < -1e-9 for x in d)}; median seconds on {statistics.median(r[4] for r in sub):.4f}, "
              f"off {statistics.median(r[5] for r in sub):.4f}, max on {max(r[4] for r in sub):.3f}, "
              f"off {max(r[5] for r in sub):.3f}; scored by the endings {sum(r[6] for r in sub)}")


if __name__ == "__main__":
    main()
