"""Search (search/session.py): one persistent tree per thread that run() keeps growing,
stop() from another thread, advance() for tree reuse, MultiPV lines, forced moves, and
search() as a thin wrapper over it."""
import ast
import pathlib
import threading
import time

import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import make_rng
from tne_ai.position import Position
from tne_ai.search.config import SearchConfig
from tne_ai.search.session import search
from tne_ai.search.session import Search, SearchError, SearchInfo, SearchResult

from test_search import first_walk

ROOT = pathlib.Path(__file__).resolve().parent.parent


def legal(st):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    return set(moves[:legal_moves(st, moves)].tolist())


def test_two_runs_grow_one_tree_to_the_visits_of_both():
    s = Search(Position.new(2, seed=3), SearchConfig(seed=1))
    first = s.run(iterations=10_000)
    tree = s.trees[0]
    n1 = int(tree.count[0])
    parent1, action1, visits1 = tree.parent[:n1].copy(), tree.action[:n1].copy(), tree.visits[:n1].copy()
    second = s.run(iterations=10_000)
    tree = s.trees[0]
    assert (first.iterations, first.visits) == (10_000, 10_000)
    assert (second.iterations, second.visits) == (20_000, 20_000)
    assert sum(m[1] for m in second.alternatives) == 20_000   # every iteration passes a root move
    assert int(tree.count[0]) > n1                            # the same tree, grown
    assert np.array_equal(tree.parent[:n1], parent1) and np.array_equal(tree.action[:n1], action1)
    assert (tree.visits[:n1] >= visits1).all()


def test_stop_from_another_thread_ends_an_unbounded_run_soon():
    for threads in (1, 64):
        s = Search(Position.new(3, seed=2), SearchConfig(threads=threads, seed=4))
        out = {}
        worker = threading.Thread(target=lambda: out.setdefault("info", s.run()))
        worker.start()
        time.sleep(0.3)
        asked = time.perf_counter()
        s.stop()
        worker.join(timeout=10)
        assert not worker.is_alive()
        assert time.perf_counter() - asked < 1.0          # the acceptance bound, generous
        assert out["info"].iterations > 0 and out["info"].visits == out["info"].iterations
        again = s.run(iterations=64)                      # the stop does not stick
        assert again.iterations == out["info"].iterations + 64


def test_advance_keeps_the_subtree_of_the_second_action_and_refuses_a_new_turn():
    pos = Position.new(2, seed=5)
    s = Search(pos, SearchConfig(seed=1))
    info = s.run(iterations=3000)
    kept = {a: v for a, v, _ in info.alternatives}[info.move]
    assert s.advance(info.move) is True                   # player 0's second action follows
    after = s.result()
    assert after.iterations == 0 and after.visits == 0   # nothing run yet: trees made at run
    grown = s.run(iterations=1000)
    assert grown.iterations == 1000
    assert grown.visits == kept + 1000                    # the move's subtree, continued
    assert int(s.root[S.TO_ACT]) == 0 and int(s.root[S.ACTIONS_LEFT]) == 1
    # the turn's last action ends in a draw: the tree cannot follow
    assert s.advance(grown.move) is False
    assert s.result().visits == grown.visits              # left as it was


def test_advance_matches_search_with_reuse():
    pos = Position.new(2, seed=5)
    first = search(pos.st, iterations=2000, seed=3)
    after = pos.st.copy()
    apply_action(after, first.move, make_rng(0))
    again = search(after, iterations=2000, seed=4, reuse=first)
    s = Search(pos, SearchConfig(seed=3))
    s.run(iterations=2000)
    info = Search(after, SearchConfig(seed=4), reuse=s).run(iterations=2000)
    assert info.alternatives == again.alternatives and info.move == again.move
    assert again.reused > 0 and info.visits == again.reused + 2000
    assert s.advance(after) is True                       # the same subtree, found by advance
    assert s.run(iterations=2000).visits == again.reused + 2000


def test_search_returns_the_result_of_one_run_of_a_search():
    """search() is one run of a new Search: the same SearchInfo (SearchResult is its old
    name), with that Search as its session, the statistics equal to those of the same run."""
    pos = Position.new(3, seed=6)
    got = search(pos.st, iterations=900, seed=8)
    run = Search(pos, SearchConfig(seed=8)).run(iterations=900)
    assert SearchResult is SearchInfo and type(got) is SearchInfo
    assert (got.move, got.moves, got.alternatives, got.win_chances) == \
        (run.move, run.moves, run.alternatives, run.win_chances)
    assert (got.iterations, got.visits, got.nodes, got.reused) == \
        (900, 900, run.nodes, 0)
    assert got.session is not None and got.trees is got.session.trees
    assert got.root is got.session.root and got.viewer == 0
    assert run.session is None and run.trees == [] and run.root is None


def test_multipv_lines_are_legal_and_stay_with_the_player_to_move():
    pos = first_walk(3, lambda st: st[S.PHASE] == S.PH_ACTION and st[S.ACTIONS_LEFT] == 2 and st[S.BAG_LEN] < 110)
    s = Search(pos, SearchConfig(seed=2))
    info = s.run(iterations=6000)
    top = s.result(multipv=3).moves
    assert len({m.move for m in top}) == 3 and top[0].move == info.move
    assert [m.visits for m in top[1:]] == sorted((m.visits for m in top[1:]), reverse=True)
    me = pos.to_act
    longest = 0
    for m in top:
        st = pos.st.copy()
        for a in m.pv:
            assert int(st[S.TO_ACT]) == me and a in legal(st)
            apply_action(st, a, make_rng(0))
        longest = max(longest, len(m.pv))
    assert longest >= 2                                   # two actions a turn: a line, not a move


def test_per_player_win_chances_of_a_move_hold_the_movers_mean():
    """A root child accumulates its chooser's reward over the iterations through it, the
    per-player sums every player's over the same iterations: the mover's entries agree."""
    pos = Position.new(3, seed=8)
    info = Search(pos, SearchConfig(seed=5)).run(iterations=3000)
    assert len(info.moves) == 1
    s = Search(pos, SearchConfig(seed=5))
    s.run(iterations=3000)
    for m in s.result(multipv=5).moves:
        assert len(m.wins) == 3 and all(0.0 <= w <= 1.0 for w in m.wins)
        assert m.wins[pos.to_act] == pytest.approx(m.win, abs=1e-9)
    assert len(info.win_chances) == 3


def test_a_forced_move_is_not_searched():
    pos = first_walk(2, lambda st: st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR)
                     and st[S.HAND + 4 * st[S.TO_ACT] + (0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR])] == 0)
    s = Search(pos)
    info = s.run(iterations=1000)
    assert s.forced and info.forced and info.iterations == 0
    assert info.move == S.A_COMMIT and [m.move for m in info.moves] == [S.A_COMMIT]


def test_search_is_one_run_of_a_search():
    pos = first_walk(2, lambda st: st[S.PHASE] == S.PH_ACTION and st[S.BAG_LEN] < 100)
    for threads in (1, 2):
        r = search(pos.st, iterations=1500, seed=9, threads=threads)
        info = Search(pos, SearchConfig(seed=9, threads=threads)).run(iterations=1500)
        assert (info.move, info.alternatives, info.nodes) == (r.move, r.alternatives, r.nodes)
        assert info.win_chances == r.win_chances


def test_bad_budgets_and_finished_games_get_one_line():
    s = Search(Position.new(2, seed=1))
    for kw in ({"iterations": 0}, {"iterations": 1.5}, {"seconds": -1}, {"seconds": float("nan")}):
        with pytest.raises(SearchError):
            s.run(**kw)
    with pytest.raises(SearchError, match="multipv"):
        s.result(multipv=0)
    with pytest.raises(SearchError, match="not a legal move"):
        s.advance(-5)
    with pytest.raises(SearchError, match="Position or a state"):
        Search("start")


def test_no_function_in_search_or_engine_is_over_80_lines():
    long = []
    for path in sorted((ROOT / "tne_ai" / "search").glob("*.py")) + sorted((ROOT / "tne_ai" / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > 80:
                    long.append(f"{path.name}:{node.name} ({size} lines)")
    assert long == []


def test_a_time_budget_is_counted_from_when_the_move_was_asked_for():
    import time
    from tne_ai.search.session import seconds_left
    assert seconds_left(None, time.perf_counter()) is None
    asked = time.perf_counter() - 0.25          # the move was asked for a quarter second ago
    assert seconds_left(1.0, asked) <= 0.75
    assert seconds_left(1.0, time.perf_counter() - 5.0) == 0.001   # spent: a millisecond left
