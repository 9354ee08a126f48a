"""One Search behind every face (DESIGN, search): `tne engine`, `tne bestmove`, the Python
``analyse`` and the in-process mcts agent run the same search for the same budget and seed,
a ``go`` grows one tree for its whole budget, and the agent and the engine move the same
Search on from one decision to the next (session.next_search)."""
import json
import subprocess
import sys

import pytest

from engine_helpers import ROOT, EngineProcess
from tne_ai.agents.builtin import make_agent
from tne_ai.api import Limit, analyse
from tne_ai.core.formats import position_to_dict
from tne_ai.core.notation import move_text
from tne_ai.position import Position
from tne_ai.search.session import Search, move_seed

# above the 20,000 iterations of the old engine's slices: a sliced search would differ
BUDGET = 24_000


def _view(p):
    """The position as the player to act sees it (the others' hands hidden)."""
    return position_to_dict(p.st, [i == p.to_act for i in range(p.players)], False)


def _engine_go(view, go, options=()):
    e = EngineProcess()
    try:
        for name, value in options:
            e.send({"type": "setoption", "name": name, "value": value})
        e.send({"type": "position", "position": view})
        e.send(dict({"type": "go"}, **go))
        return e.until("bestmove")
    finally:
        e.close()


def _stats(alternatives):
    """[(move text, visits, win)] of root statistics (action codes or texts)."""
    return [(a if isinstance(a, str) else move_text(a), v, round(m, 4)) for a, v, m in alternatives]


@pytest.mark.parametrize("players, threads", [(2, 1), (3, 2)])
def test_every_face_gives_the_same_search_for_the_same_budget(tmp_path, players, threads):
    p = Position.new(players, seed=11)
    view = _view(p)
    seed = move_seed(0, 1)       # the first move of an agent (and a go) seeded 0
    # the in-process agent, the Python API and the Search itself
    agent = make_agent(f"mcts:iterations={BUDGET},threads={threads}", seed=0)
    move = agent.choose(p)
    want = _stats(agent.info.alternatives)
    assert move_text(move) == want[0][0] and sum(v for _, v, _ in want) == BUDGET
    api = analyse(p, Limit(iterations=BUDGET), multipv=len(want), seed=seed,
                  config=agent.config.replace(seed=seed))
    assert [(i["move"], i["visits"], i["win"]) for i in api] == want
    # tne engine: one go of the budget
    lines = _engine_go(view, {"iterations": BUDGET}, [("threads", threads)])
    best = lines[-1]
    assert best["move"] == want[0][0] and best["iterations"] == BUDGET
    assert [(a["move"], a["visits"], a["win"]) for a in best["alternatives"]] == want[:10]
    assert best["pv"] == api[0]["pv"]
    # tne bestmove on the same view
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "bestmove", str(path),
                          "--iterations", str(BUDGET), "--threads", str(threads), "--seed",
                          str(seed), "--json"], capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["move"] == want[0][0] and cli["iterations"] == BUDGET
    assert [(a["move"], a["visits"], a["win"]) for a in cli["alternatives"]] == want[:10]
    assert cli["pv"] == best["pv"] and cli["pv_win"] == best["pv_win"]


def test_a_timed_go_grows_one_tree():
    """go time=2: the info lines come from one tree, its root visits growing; the bestmove's
    statistics are that tree's (its iterations are the last info line's)."""
    p = Position.new(2, seed=3)
    lines = _engine_go(_view(p), {"time": 2}, [("info_interval", 0.25)])
    infos = [m for m in lines if m["type"] == "info"]
    best = lines[-1]
    counts = [i["iterations"] for i in infos]
    assert len(infos) >= 3 and counts == sorted(set(counts))          # strictly growing
    assert best["iterations"] == counts[-1] and best["nodes"] == infos[-1]["nodes"]
    # one tree: a node per iteration at most, and every visit counted at the root
    assert all(i["nodes"] <= i["iterations"] + 1 for i in infos)
    assert sum(a["visits"] for a in best["alternatives"]) <= best["iterations"]
    assert best["alternatives"][0]["visits"] > 0 and best["alternatives"][0]["move"] == best["move"]


def test_the_engine_and_the_agent_move_the_same_search_on_through_a_game():
    """The same seeds and budget: an engine agent and the in-process agent choosing every
    move of a game make the same choices, turn after turn (reuse on both sides)."""
    budget = 1500
    inside = make_agent(f"mcts:iterations={budget}", seed=4)
    outside = make_agent(f"engine[iterations={budget}]:{sys.executable} {ROOT / 'cli.py'} engine",
                         seed=4)
    p = Position.new(2, seed=8)
    try:
        for _ in range(10):
            a = inside.choose(p)
            b = outside.choose(p)
            assert a == b, (move_text(a), move_text(b))
            p.push(a)
    finally:
        outside.close()


def test_a_search_run_with_reports_is_the_search_run_without():
    """Search.run's reports pause the threads between rounds and change nothing."""
    p = Position.new(2, seed=5)
    plain = Search(p).run(iterations=6000)
    seen = []
    reported = Search(p).run(iterations=6000, report=seen.append, every=0.001)
    assert _stats(plain.alternatives) == _stats(reported.alternatives)
    assert seen and all(a.iterations < b.iterations for a, b in zip(seen, seen[1:]))
