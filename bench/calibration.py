"""Do the win chances the search reports mean what they say?

Plays self-play games of one search spec (every seat the same agent, each deal in every seat
rotation), reviews every game with the review of `tne analyse` (each move searched from the
mover's own view), and compares the win chance reported for each position (the best move's,
``best_win``) with how that player's game ended (1 alone first, 1/k for k sharing first, else
0).  Forced moves carry no win chance and are left out.

Prints, per player count, the reliability table (ten bins of reported win chance: positions,
mean reported, mean result), the expected calibration error (ECE: the bins' |reported -
result| weighted by their share of the positions) and the Brier score (mean squared error of
the reported chance against the result), each over all reviewed positions of the games.

    python bench/calibration.py --players 2 --games 15 --play-iterations 2000 \\
        --review-iterations 2000 --out bench/results/calibration

``--review-spec SPEC`` reviews with that search's options (an ``mcts:`` spec, its budget
replaced by ``--review-iterations``) instead of the default search's.

``--records FILE`` reviews recorded games instead (``--games`` of the file after the first
``--skip``, one player count), e.g. the self-play generations of ``bench/data/selfplay``.

``--fit DIR [DIR ...]`` asks whether a temperature would calibrate the reviews in the DIRs
(review_Np.jsonl or .jsonl.gz, pooled): per player count, the power ``a`` that minimises the
log-loss of ``sharpen(p, n, a)`` against the results (the mover's odds against the average
other player, ``p / ((1 - p) / (n - 1))``, raised to ``a``; for 2 players
``sigmoid(a * logit(p))``; a grid of 0.50 to 3.00 by 0.01), with ECE and Brier before and
after; for 2 players also the map with a shift, ``sigmoid(a * logit(p) + b)`` (a logistic
regression of the result on the reported logit, ``fit_logit``).  It also gives the pooled
ECE's 95% interval over games (a bootstrap: the games resampled with replacement, since a
game's positions share one result).  ``--holdout DIR [DIR ...]`` applies the maps fitted
on the ``--fit`` DIRs to other reviews and gives their ECE before and after: a map worth
applying must carry to games it was not fitted on.  Nothing is played or written.

Both steps resume: the games go to OUT/selfplay_Np.jsonl (`tne tournament --resume`), the
reviews to OUT/review_Np.jsonl, one reviewed game a line, and a game reviewed before is not
reviewed again.  ``--jobs`` plays and reviews in parallel processes.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from tne_ai.matches.review import final_shares, review  # noqa: E402
from tne_ai.core.io import input_lines, read_json  # noqa: E402
from tne_ai.matches.ratings import wilson  # noqa: E402
from tne_ai.matches.tournament import read_records, run_tournament  # noqa: E402

BINS = 10


def play(players, games, spec, seed, jobs, path):
    agents = {f"s{i}": spec for i in range(players)}
    table = tuple(agents)
    run_tournament(agents, tables=[table], games=games, seed=seed, jobs=jobs, out=path,
                   resume=os.path.exists(path),
                   progress=lambda done, total: print(f"\rplayed {done}/{total}", end="",
                                                      file=sys.stderr, flush=True))
    print(file=sys.stderr)


def review_lines(path):
    """The review lines of a file (plain or .gz, through the project's JSON reader), in
    order; none when there is no file yet."""
    if os.path.exists(path):
        for number, line, _, _ in input_lines(path, path):
            if line.strip():
                yield read_json(line, f"{path} line {number}")


def reviewed(path):
    """{game id: review line} of a review file (the games reviewed so far)."""
    return {row["game_id"]: row for row in review_lines(path)}


def review_all(games_path, review_path, iterations, seed, jobs, config=None):
    done = reviewed(review_path)
    records = [rec for _, rec in read_records(games_path)]
    for i, rec in enumerate(records):
        gid = rec["meta"]["game_id"]
        if gid in done:
            continue
        rows = review(rec, iterations=iterations, jobs=jobs, seed=seed, config=config)
        shares = final_shares(rec)
        points = [(r["best_win"], shares[r["player"]], r["player"]) for r in rows
                  if r.get("best_win") is not None]
        entry = {"game_id": gid, "iterations": iterations, "points": points}
        with open(review_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
        done[gid] = entry
        print(f"\rreviewed {i + 1}/{len(records)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return [p for entry in done.values() for p in entry["points"]]


def calibration(points):
    """(rows, ece, brier): rows of (low, high, n, mean reported, mean result, Wilson low,
    Wilson high) per non-empty bin."""
    n = len(points)
    bins = [[] for _ in range(BINS)]
    for p, y, _ in points:
        bins[min(BINS - 1, int(p * BINS))].append((p, y))
    rows, ece = [], 0.0
    for k, b in enumerate(bins):
        if not b:
            continue
        mp = sum(p for p, _ in b) / len(b)
        my = sum(y for _, y in b) / len(b)
        lo, hi = wilson(my, len(b))
        rows.append((k / BINS, (k + 1) / BINS, len(b), mp, my, lo, hi))
        ece += len(b) / n * abs(mp - my)
    brier = sum((p - y) ** 2 for p, y, _ in points) / n
    return rows, ece, brier


def report(players, points, games):
    rows, ece, brier = calibration(points)
    print(f"\n{players} players: {games} games, {len(points)} reviewed positions")
    print(f"{'reported':>12} {'positions':>10} {'mean reported':>14} {'mean result':>12} "
          f"{'95% (Wilson)':>15}")
    for lo, hi, n, mp, my, wl, wh in rows:
        print(f"{f'{lo:.1f}-{hi:.1f}':>12} {n:>10} {mp:>14.3f} {my:>12.3f} "
              f"{f'[{wl:.2f}, {wh:.2f}]':>15}")
    print(f"ECE {ece:.4f}   Brier {brier:.4f}")
    return {"players": players, "games": games, "positions": len(points), "ece": ece,
            "brier": brier, "bins": rows}


def sharpen(p, players, power):
    """p's odds against the average other of ``players`` raised to ``power``, as a chance
    (0 and 1 stay)."""
    if power == 1.0 or p <= 0.0 or p >= 1.0:
        return p
    odds = (p * (players - 1) / (1.0 - p)) ** power
    return odds / (odds + players - 1)


def review_games(path):
    """The (reported chance, result, player) points of a review file, one list a reviewed game,
    every line counted (files of several runs may be concatenated to pool them)."""
    return [[tuple(x) for x in row["points"]] for row in review_lines(path)]


def log_loss(points, players, power):
    import math
    total = 0.0
    for p, y, _ in points:
        c = min(max(sharpen(p, players, power), 1e-9), 1 - 1e-9)
        total -= y * math.log(c) + (1 - y) * math.log(1 - c)
    return total / len(points)


def pooled_games(directories, players):
    """The points of every reviewed game (one list a game) of the review_Np files of the
    directories (those that have one), or None."""
    games, found = [], False
    for directory in directories:
        paths = [os.path.join(directory, f"review_{players}p.jsonl{ext}") for ext in ("", ".gz")]
        path = next((p for p in paths if os.path.exists(p)), None)
        if path is not None:
            found = True
            games += review_games(path)
    return games if found else None


def pooled_points(directories, players):
    """Every point of the review_Np files of the directories (those that have one), or None."""
    games = pooled_games(directories, players)
    return None if games is None else [p for game in games for p in game]


def ece_interval(games, draws=1000, seed=1):
    """The 2.5 and 97.5 percentiles of the ECE over ``draws`` resamples of the games with
    replacement (a game's positions share its result, so the game is the unit resampled)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    p = np.array([x[0] for game in games for x in game], dtype=float)
    y = np.array([x[1] for game in games for x in game], dtype=float)
    game = np.repeat(np.arange(len(games)), [len(g) for g in games])
    bins = np.minimum(BINS - 1, (p * BINS).astype(int))
    eces = []
    for _ in range(draws):
        w = np.bincount(rng.integers(0, len(games), len(games)), minlength=len(games))[game]
        reported = np.bincount(bins, w * p, BINS)
        result = np.bincount(bins, w * y, BINS)
        eces.append(np.abs(reported - result).sum() / w.sum())
    lo, hi = np.percentile(eces, [2.5, 97.5])
    return float(lo), float(hi)


def shifted(p, a, b):
    """sigmoid(a * logit(p) + b) (0 and 1 stay)."""
    import math
    if p <= 0.0 or p >= 1.0:
        return p
    z = a * math.log(p / (1.0 - p)) + b
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def fit_logit(points):
    """(a, b) of the map sigmoid(a * logit(p) + b) of least log-loss against the results: a
    logistic regression on the reported logit (Newton's method; results may be fractions,
    a shared first place).  Points reported as exactly 0 or 1 are left out (the map keeps
    them)."""
    import numpy as np
    inner = [(p, y) for p, y, _ in points if 0.0 < p < 1.0]
    p = np.array([x for x, _ in inner])
    y = np.array([r for _, r in inner])
    x = np.log(p / (1.0 - p))
    a, b = 1.0, 0.0
    for _ in range(50):
        q = 1.0 / (1.0 + np.exp(-(a * x + b)))
        w = q * (1.0 - q)
        g = np.array([np.sum((q - y) * x), np.sum(q - y)])
        h = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
        step = np.linalg.solve(h, g)
        a, b = a - step[0], b - step[1]
        if abs(step[0]) + abs(step[1]) < 1e-10:
            break
    return float(a), float(b)


def fit(directories, holdout=()):
    """Print the calibration maps of the pooled reviews of directories (and, with holdout,
    how they carry to those directories' reviews)."""
    found = False
    for players in (2, 3, 4):
        games = pooled_games(directories, players)
        if games is None:
            continue
        found = True
        points = [p for game in games for p in game]
        power = min((i / 100 for i in range(50, 301)), key=lambda a: log_loss(points, players, a))
        _, e0, b0 = calibration(points)
        lo, hi = ece_interval(games)
        print(f"{players} players: {len(games)} games, ECE {e0:.4f}, 95% over games "
              f"(bootstrap) [{lo:.4f}, {hi:.4f}]")
        _, e1, b1 = calibration([(sharpen(p, players, power), y, k) for p, y, k in points])
        print(f"{players} players: {len(points)} positions, power {power:.2f}: "
              f"ECE {e0:.4f} -> {e1:.4f}, Brier {b0:.4f} -> {b1:.4f}")
        maps = [("power", lambda p, a=power: sharpen(p, players, a))]
        if players == 2:
            a, b = fit_logit(points)
            _, e2, b2 = calibration([(shifted(p, a, b), y, k) for p, y, k in points])
            print(f"{players} players: shifted map a {a:.3f} b {b:+.3f}: "
                  f"ECE {e0:.4f} -> {e2:.4f}, Brier {b0:.4f} -> {b2:.4f}")
            maps.append(("shifted", lambda p, a=a, b=b: shifted(p, a, b)))
        held = pooled_points(holdout, players)
        if held:
            _, h0, _ = calibration(held)
            after = ", ".join(f"{name} {calibration([(m(p), y, k) for p, y, k in held])[1]:.4f}"
                              for name, m in maps)
            print(f"{players} players, held out: {len(held)} positions, ECE {h0:.4f} -> {after}")
    if not found:
        sys.exit(f"calibration.py: no review_Np.jsonl in {', '.join(directories)}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument("--games", type=int, default=15,
                    help="deals per player count (each played in every seat rotation)")
    ap.add_argument("--spec", default=None, help="the agent (default mcts:iterations=PLAY)")
    ap.add_argument("--review-spec", default=None,
                    help="the review's search options, an mcts: spec (default: the default search)")
    ap.add_argument("--play-iterations", type=int, default=2000)
    ap.add_argument("--review-iterations", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "calibration"))
    ap.add_argument("--records", default=None,
                    help="review these recorded games (one player count) instead of playing; "
                         "--games records of the file after the first --skip")
    ap.add_argument("--skip", type=int, default=0,
                    help="with --records: leave out the first SKIP games of the file")
    ap.add_argument("--fit", metavar="DIR", nargs="+", default=None,
                    help="fit calibration maps per player count to the reviews in the DIRs, "
                         "pooled (nothing is played)")
    ap.add_argument("--holdout", metavar="DIR", nargs="+", default=(),
                    help="with --fit: the ECE of these DIRs' reviews under the fitted maps")
    args = ap.parse_args(argv)
    if args.fit is not None:
        return fit(args.fit, args.holdout)
    if args.holdout:
        ap.error("--holdout goes with --fit")
    if not 0 <= args.skip <= 100_000:
        ap.error("--skip 0..100000")
    if not 1 <= args.games <= 1000 or not 1 <= args.jobs <= 64:
        ap.error("--games 1..1000, --jobs 1..64")
    os.makedirs(args.out, exist_ok=True)
    spec = args.spec or f"mcts:iterations={args.play_iterations}"
    summary = []
    for players in args.players:
        games_path = os.path.join(args.out, f"selfplay_{players}p.jsonl")
        if args.records:
            if len(args.players) != 1:
                ap.error("--records: give the one --players count of its games")
            if not os.path.exists(games_path):
                chosen = []
                for i, (_, rec) in enumerate(read_records(args.records)):
                    if i < args.skip:
                        continue
                    if len(chosen) == args.games:
                        break
                    if rec["start"]["players"] != players:
                        ap.error(f"--records: a game of {rec['start']['players']} players")
                    chosen.append(rec)
                with open(games_path, "w", encoding="utf-8") as f:
                    f.writelines(json.dumps(rec) + "\n" for rec in chosen)
        else:
            play(players, args.games, spec, args.seed, args.jobs, games_path)
        points = review_all(games_path, os.path.join(args.out, f"review_{players}p.jsonl"),
                            args.review_iterations, args.seed, args.jobs, args.review_spec)
        count = sum(1 for _ in read_records(games_path))
        summary.append(report(players, points, count))
    with open(os.path.join(args.out, "calibration.json"), "w", encoding="utf-8") as f:
        json.dump({"spec": spec, "review_spec": args.review_spec,
                   "review_iterations": args.review_iterations,
                   "results": summary}, f, indent=1)


if __name__ == "__main__":
    main()
