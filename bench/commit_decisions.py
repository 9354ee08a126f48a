"""The commit decision set: revolt and war commits (SPEC section 4) where committing more than
needed changes nothing in the conflict's outcome, and how often an agent over-commits there.

A commit decision is kept only when the player to act can commit more than the needed number
and the needed number follows from what he sees (SPEC section 7):

- ``defender-wins``: the defender, after the attacker's commit, wins with k of his tiles
  (ties go to the defender): needed = the smallest such k, max(0, attacker total - his board
  strength), which may be 0.
- ``attacker-sure``: the attacker wins whatever the defender holds.  The defender's most is
  his board strength + min(his hand size, the tiles of that colour the attacker cannot see:
  the unseen pool of SPEC 7, his own hand excluded).  needed = the smallest commit above that.
- ``cannot-win``: a commit that cannot win whatever is committed: a defender short even with
  all his tiles, or an attacker who cannot beat the defender's board strength with all of
  his.  needed = 0.

The strengths on the board come from the engine's ``conflict_strengths`` (the rule kernel, as
GreedyAgent._commit uses it), never from a search; the attacker's count of the defender's
tiles reads only the unseen pool (``unseen_pool``), not the defender's hidden hand.

The decisions come from seeded greedy-vs-greedy games with a seeded share of random moves (to
reach more conflicts) and are saved as ``bench/data/commit_decisions.json``: each one the
position as the deciding player sees it (other hands null, no bag), the needed commit, the
most he can commit and the category.

    python bench/commit_decisions.py --generate            # rebuild the fixture (seeded)
    python bench/commit_decisions.py --agent mcts:iterations=20000 [--agent greedy ...]
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from tne_ai.core import state as S  # noqa: E402
from tne_ai.agents.builtin import GreedyAgent, RandomAgent, make_agent  # noqa: E402
from tne_ai.core.rules.apply import conflict_strengths  # noqa: E402
from tne_ai.core.rules.rng import below, make_rng  # noqa: E402
from tne_ai.position import Position  # noqa: E402
from tne_ai.matches.ratings import wilson  # noqa: E402
from tne_ai.search.determinize import unseen_pool  # noqa: E402

DATA = os.path.join(HERE, "data", "commit_decisions.json")
FORMAT = "tne-commit-decisions/1"
CATEGORIES = ("defender-wins", "attacker-sure", "cannot-win")
# at most this many decisions per (category, needed is 0), the first in game order: most
# defender decisions need 0, and the set should hold enough of the rarer kinds
CAPS = {("defender-wins", True): 25, ("defender-wins", False): 30, ("attacker-sure", True): 15,
        ("attacker-sure", False): 15, ("cannot-win", True): 30}
RED = 0


def commit_colour(st):
    """The colour committed in the conflict in progress: red in a revolt, the war colour in a war
    (SPEC 4)."""
    return RED if st[S.PHASE] == S.PH_REVOLT else int(st[S.CF_COLOUR])


def classify(st):
    """(category, needed, most) of the commit decision in st, or None when the decision is not
    one of the three kinds (an attacker whose win depends on the defender's hidden tiles)."""
    me = int(st[S.TO_ACT])
    colour = commit_colour(st)
    most = min(int(st[S.HAND + 4 * me + colour]), S.MAX_COMMIT)
    att, dfn = (int(x) for x in conflict_strengths(st))
    if st[S.CF_COMMIT] >= 0:  # the defender answers a known total
        need = max(0, att + int(st[S.CF_COMMIT]) - dfn)  # ties go to the defender
        return ("defender-wins", need, most) if need <= most else ("cannot-win", 0, most)
    defender = int(st[S.CF_DEFENDER])
    pool = np.empty(4, dtype=np.int64)
    unseen_pool(st, me, pool)
    held = int(st[S.HAND + 4 * defender:S.HAND + 4 * defender + 4].sum())  # hand sizes are public
    defender_most = dfn + min(held, int(pool[colour]), S.MAX_COMMIT)
    need = max(0, defender_most + 1 - att)
    if need <= most:
        return "attacker-sure", need, most
    if att + most <= dfn:
        return "cannot-win", 0, most
    return None


def generate(games=150, seed=0, random_share=0.25, players=2, max_actions=3000, caps=CAPS):
    """Commit decisions from up to `games` seeded games (greedy players, a random move with
    probability random_share); only those where more than `needed` can be committed, at most
    caps[(category, needed == 0)] of each kind."""
    decisions = []
    taken = {key: 0 for key in caps}
    for g in range(games):
        if all(taken[key] >= caps[key] for key in caps):
            break
        game_seed = seed * 1000 + g
        p = Position.new(players=players, seed=game_seed)
        greedy = [GreedyAgent(seed=game_seed * 10 + i) for i in range(players)]
        random_agent = RandomAgent(seed=game_seed * 10 + 9)
        rng = make_rng(game_seed + 12345)
        ply = 0
        while not p.is_over() and ply < max_actions:
            st = p.st
            if st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR):
                kind = classify(st)
                key = None if kind is None else (kind[0], kind[1] == 0)
                if kind is not None and kind[1] < kind[2] and taken[key] < caps[key]:
                    taken[key] += 1
                    me = int(st[S.TO_ACT])
                    view = Position(st.copy(), known_hands=[i == me for i in range(players)],
                                    bag_known=False)
                    decisions.append({"game_seed": game_seed, "ply": ply, "player": me,
                                      "category": kind[0], "needed": kind[1], "most": kind[2],
                                      "position": view.to_json()})
            if below(rng, 1000) < int(random_share * 1000):
                code = random_agent.choose(p)
            else:
                code = greedy[int(st[S.TO_ACT])].choose(p)
            p.push(int(code))
            ply += 1
    return decisions


def load(path=DATA):
    with open(path) as f:
        data = json.load(f)
    assert data["format"] == FORMAT, data["format"]
    return data["decisions"]


def save(decisions, path=DATA, meta=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"format": FORMAT, "meta": meta or {}, "decisions": decisions}, f,
                  separators=(",", ":"))
        f.write("\n")


def run(spec, decisions, seed=1):
    """Per decision the commit the agent chooses (the count, SPEC 8 `commit n`)."""
    agent = make_agent(spec, seed=seed)
    chosen = []
    for i, dec in enumerate(decisions):
        p = Position.from_json(dec["position"], seed=i)
        code = int(agent.choose(p))
        assert S.A_COMMIT <= code <= S.A_COMMIT + S.MAX_COMMIT, code
        chosen.append(code - S.A_COMMIT)
    return chosen


def report(spec, decisions, chosen, seconds):
    """Over-commit rate (commit > needed) with its 95% Wilson interval, overall and per
    category; under-commits (commit < needed: a conflict given away) alongside."""
    lines = [f"{spec}: {len(decisions)} decisions, {seconds / len(decisions):.3f} s each"]
    groups = [("all", range(len(decisions)))] + \
        [(c, [i for i, d in enumerate(decisions) if d["category"] == c]) for c in CATEGORIES]
    for name, idx in groups:
        idx = list(idx)
        if not idx:
            continue
        over = sum(chosen[i] > decisions[i]["needed"] for i in idx)
        under = sum(chosen[i] < decisions[i]["needed"] for i in idx)
        lo, hi = wilson(over / len(idx), len(idx))
        lines.append(f"  {name:14s} n={len(idx):3d}  over-commit {over:3d} = {over / len(idx):5.1%} "
                     f"[{lo:5.1%}, {hi:5.1%}]  under {under:3d}  exact "
                     f"{len(idx) - over - under:3d}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generate", action="store_true", help="rebuild the fixture from seeded games")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--agent", action="append", default=[], help="agent spec (repeatable)")
    args = ap.parse_args(argv)
    if args.generate:
        decisions = generate(games=args.games, seed=args.seed)
        save(decisions, args.data, meta={"games": args.games, "seed": args.seed,
                                         "players": 2, "random_share": 0.25})
        counts = {c: sum(d["category"] == c for d in decisions) for c in CATEGORIES}
        print(f"{len(decisions)} decisions -> {args.data}: {counts}")
    decisions = load(args.data)
    for spec in args.agent:
        start = time.perf_counter()
        chosen = run(spec, decisions, seed=args.seed + 1)
        print(report(spec, decisions, chosen, time.perf_counter() - start))


if __name__ == "__main__":
    main()
