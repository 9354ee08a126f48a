"""The Python API (tne_ai/api.py): Limit checks, analyse with MultiPV, the streaming
analysis context manager, play, and the module's examples (doctest)."""
import doctest
import threading
import time

import pytest

import tne_ai
from tne_ai import api
from tne_ai.api import Limit, LimitError, analyse, analysis, play
from tne_ai.errors import TneError
from tne_ai.core.notation import move_text
from tne_ai.position import Position
from tne_ai.search.config import SearchConfig
from tne_ai.search.session import search

from test_search import first_walk
from tne_ai.core import state as S


def test_the_module_examples_run():
    assert doctest.testmod(api).failed == 0


def test_the_api_is_exported_from_the_package():
    import tne_ai.matches.review  # noqa: F401  (the module of tne analyse: it must not shadow the API)
    import tne_ai.matches.play  # noqa: F401
    for name in ("Limit", "Search", "SearchConfig", "SearchConfigError", "LimitError"):
        assert name in tne_ai.__all__ and getattr(tne_ai, name) is not None
    assert api.analyse is analyse and callable(api.play) and callable(api.analysis)
    assert doctest.testmod(api).failed == 0   # the examples still run with those modules loaded


@pytest.mark.parametrize("kw", [{"time": 0}, {"time": -1.0}, {"time": 3601}, {"time": float("nan")},
                                {"iterations": 0}, {"iterations": 10_000_001}, {"iterations": 2.5},
                                {"iterations": True}, {"time": "1"}])
def test_a_limit_out_of_range_gets_one_line(kw):
    with pytest.raises(LimitError, match="out of range") as e:
        Limit(**kw)
    assert isinstance(e.value, TneError) and "\n" not in str(e.value)


def test_analyse_needs_a_bounded_limit_and_a_sane_multipv():
    p = Position.new(2, seed=1)
    with pytest.raises(LimitError, match="time or an iteration budget"):
        analyse(p, Limit())
    with pytest.raises(LimitError, match="multipv"):
        analyse(p, Limit(iterations=10), multipv=0)
    with pytest.raises(LimitError, match="SearchConfig"):
        analyse(p, Limit(iterations=10), config="mcts:c=1")


def test_analyse_gives_the_search_statistics_of_search():
    p = first_walk(3, lambda st: st[S.PHASE] == S.PH_ACTION and st[S.BAG_LEN] < 100)
    cfg = SearchConfig.from_spec("mcts:c=0.5,threads=2")
    infos = analyse(p, Limit(iterations=2500), multipv=4, config=cfg, seed=3)
    r = search(p.st, iterations=2500, seed=3, c=0.5, threads=2)
    assert [i["multipv"] for i in infos] == [1, 2, 3, 4]
    assert [(i["code"], i["visits"]) for i in infos] == [(a, v) for a, v, _ in r.alternatives[:4]]
    assert infos[0]["move"] == move_text(r.move)
    for i in infos:
        assert i["iterations"] == 2500 and i["nodes"] == r.nodes
        assert i["win"] == round({a: m for a, _, m in r.alternatives}[i["code"]], 4)
        assert i["pv"][0] == i["move"] and len(i["wins"]) == 3
    assert play(p, Limit(iterations=2500), config=cfg, seed=3).code == r.move


def test_a_forced_move_is_answered_without_a_win_chance():
    p = first_walk(2, lambda st: st[S.PHASE] in (S.PH_REVOLT, S.PH_WAR)
                   and st[S.HAND + 4 * st[S.TO_ACT] + (0 if st[S.PHASE] == S.PH_REVOLT else st[S.CF_COLOUR])] == 0)
    [info] = analyse(p, Limit(iterations=500))
    assert info["code"] == S.A_COMMIT and info["win"] is None and info["iterations"] == 0


def test_streaming_analysis_grows_one_tree_until_the_block_ends():
    p = Position.new(2, seed=6)
    seen = []
    with analysis(p, multipv=2, interval=0.05, seed=2) as a:
        for info in a:
            seen.append(info)
            if len([i for i in seen if i["multipv"] == 1]) >= 4:
                break
        asked = time.perf_counter()
    assert time.perf_counter() - asked < 1.0            # leaving the block stops the search soon
    firsts = [i for i in seen if i["multipv"] == 1]
    counts = [i["iterations"] for i in firsts]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    assert all(i["multipv"] in (1, 2) for i in seen)
    # one tree: the root's visits are the iterations (the best line's visits grow too)
    assert a.search.result().visits == a.search.iterations >= counts[-1]


def test_streaming_analysis_with_an_iteration_limit_equals_analyse():
    p = Position.new(2, seed=6)
    with analysis(p, limit=Limit(iterations=4000), interval=0.02, seed=5) as a:
        last = a.wait()
    assert last == [dict(i, seconds=last[0]["seconds"]) for i in analyse(p, Limit(iterations=4000), seed=5)]


def test_stop_from_another_thread_ends_an_unlimited_analysis():
    with analysis(Position.new(3, seed=1), interval=0.05) as a:
        threading.Timer(0.3, a.stop).start()
        lines = a.wait()
    assert lines and lines[0]["iterations"] > 0
